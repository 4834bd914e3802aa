//! The channel page at /browse/channel/:channelId (spec 3 §2 'Channel page'): a cover card (name,
//! description, cover image, type, monthly price excluding tax, the reader's subscribe action),
//! alerts (expired subscription, failed payment: the server's subscription status decides), the
//! charts (3 per row from medium width), the latest articles and a sidebar. An id that is not an ObjectId, or a NOT_FOUND answer, shows
//! 'Channel not found'; an archived channel sends the reader to the channels directory.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Navigate, useParams } from 'react-router';
import { Badge } from '../../components/Card';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import { ArticleCard } from './common/ArticleCard';
import { ChannelAlerts } from './common/ChannelAlerts';
import { ChannelCardActions } from './common/ChannelCardActions';
import { ChannelNotFound, isChannelNotFound } from './common/ChannelNotFound';
import { CHANNELS_PATH, channelTypeLabel, imageUrl, isObjectId, priceText } from './common/channelText';
import { ChannelArticles } from './ChannelArticles';
import { ChannelSidebar } from './ChannelSidebar';
import { ChannelPageScreenDocument, type ChannelPageScreenQuery } from './__generated__/ChannelPage.generated';
import { useDocumentTitle } from '../../lib/pageTitle';
import './reader.css';

type Channel = ChannelPageScreenQuery['channel'];

function ChannelCover({ channel }: { channel: Channel }) {
  // The cover carries the page's h1, so the document's title too.
  useDocumentTitle(channel.name);
  const cover = imageUrl(channel.coverImage);
  const price = channel.type === 'premium' ? priceText(channel.price) : '';
  return (
    <div className="insights-channel-cover" style={cover ? { backgroundImage: `url("${cover}")` } : undefined}>
      <div className="insights-channel-cover-body">
        <div className="insights-channel-cover-text">
          <Badge text={channelTypeLabel(channel.type)} icon={channel.type === 'premium' ? 'star' : undefined} intent="primary" />
          <h1 id="page-title" className="insights-page-title">
            {channel.name}
          </h1>
          {channel.description && <p>{channel.description}</p>}
          {price && <p className="insights-channel-card-price">{price}</p>}
        </div>
        <ChannelCardActions channel={channel} />
      </div>
    </div>
  );
}

function ChannelCharts({ charts }: { charts: ChannelPageScreenQuery['getChartsArticles'] }) {
  if (charts.length === 0) return null;
  return (
    <section className="insights-reader-section" aria-labelledby="channel-charts">
      <div className="insights-reader-section-head">
        <h2 id="channel-charts">Charts</h2>
      </div>
      <ul aria-label="Charts" className="insights-charts-grid">
        {charts.map((a) => (
          <li key={a._id}>
            <ArticleCard article={a} hideChannel />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ChannelPage() {
  const { channelId } = useParams();
  const valid = isObjectId(channelId);
  const { data, loading, error } = useQuery(ChannelPageScreenDocument, {
    variables: { id: channelId ?? '' },
    skip: !valid,
    fetchPolicy: 'cache-and-network',
  });

  if (!valid || isChannelNotFound(error)) return <ChannelNotFound />;
  if (!data) {
    if (loading) return <LoadingBlock label="Loading the channel" />;
    return (
      <Page title="Channel">
        <Banner intent="danger" role="alert">
          {error ? formatError(error) : 'Channel not found'}
        </Banner>
      </Page>
    );
  }
  const channel = data.channel;
  if (channel.state === 'archived') return <Navigate to={CHANNELS_PATH} replace />;

  return (
    <section className="insights-page insights-channel-page" aria-labelledby="page-title">
      <ChannelCover channel={channel} />
      <ChannelAlerts channel={channel} />
      <div className="insights-reader-columns">
        <div>
          <ChannelCharts charts={data.getChartsArticles} />
          <ChannelArticles channelId={channel._id} />
        </div>
        <ChannelSidebar channelId={channel._id} />
      </div>
    </section>
  );
}

export const CHANNEL_PAGE_SCREEN_QUERY = gql`
  query ChannelPageScreen($id: ID!) {
    channel(id: $id) {
      _id
      state
      ...ChannelCard_channel
      ...ChannelAlerts_channel
    }
    getChartsArticles(premiumChannelId: $id) {
      _id
      ...ArticleCard_article
    }
  }
`;
