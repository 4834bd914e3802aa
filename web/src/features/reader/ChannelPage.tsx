//! The channel page at /browse/channel/:channelId (spec 3 §2 'Channel page'): a cover card (name,
//! description, cover image, type, monthly price excluding tax, the reader's subscribe action),
//! alerts (expired subscription, failed payment), the charts (3 per row from medium width), the
//! latest articles and a sidebar. An id that is not an ObjectId, or a NOT_FOUND answer, shows
//! 'Channel not found'; an archived channel sends the reader to the channels directory.
import { gql } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useQuery } from '@apollo/client/react';
import { Link, Navigate, useParams } from 'react-router';
import { Badge } from '../../components/Card';
import { Banner } from '../../components/Banner';
import { LinkButton } from '../../components/LinkButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { errorCode, formatError } from '../../lib/errors';
import { ArticleCard } from './common/ArticleCard';
import { ChannelCardActions } from './common/ChannelCard';
import { channelCardState } from './common/channelCardState';
import { CHANNELS_PATH, channelTypeLabel, imageUrl, isObjectId, priceText, subscribePath, SUBSCRIPTIONS_PATH } from './common/channelText';
import { ChannelArticles } from './ChannelArticles';
import { ChannelSidebar } from './ChannelSidebar';
import { ChannelPageScreenDocument, type ChannelPageScreenQuery } from './__generated__/ChannelPage.generated';
import './reader.css';

type Channel = ChannelPageScreenQuery['channel'];

export const PAYMENT_FAILED_TEXT =
  'There was an issue processing your payment for this channel. Please update your payment details to avoid cancellation.';

function isNotFound(error: unknown): boolean {
  return CombinedGraphQLErrors.is(error) && error.errors.some((e) => errorCode(e) === 'NOT_FOUND');
}

function ChannelNotFound() {
  return (
    <Page title="Channel not found">
      <p>The channel may have been removed, or the link is wrong.</p>
      <LinkButton to={CHANNELS_PATH} text="Browse channels" icon="arrow-left" />
    </Page>
  );
}

/** Spec 3 §4: an expired subscription (unless a non-charge one was acknowledged), a failed payment unless cancelling at period end. */
function ChannelAlerts({ channel }: { channel: Channel }) {
  const sub = channel.userChannelSubscription;
  if (!sub) return null;
  const expired = sub.subscriptionState === 'expired' && !(sub.subscriptionType === 'nonCharge' && sub.acknowledgedNonChargeSubExpired);
  const paymentFailed = sub.subscriptionState === 'paymentFailed' && !sub.cancelAtPeriodEnd;
  if (!expired && !paymentFailed) return null;
  return (
    <div className="insights-channel-alerts">
      {expired && (
        <Banner intent="warning" role="alert">
          {sub.subscriptionType === 'trial'
            ? 'Your free trial of this channel has expired.'
            : 'Your subscription to this channel has expired.'}{' '}
          <Link to={subscribePath(channel._id)}>Subscribe again</Link>
        </Banner>
      )}
      {paymentFailed && (
        <Banner intent="danger" role="alert">
          {PAYMENT_FAILED_TEXT} <Link to={SUBSCRIPTIONS_PATH}>Update payment details</Link>
        </Banner>
      )}
    </div>
  );
}

function ChannelCover({ channel }: { channel: Channel }) {
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
        <ChannelCardActions channelId={channel._id} channelName={channel.name} state={channelCardState(channel)} />
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

  if (!valid || isNotFound(error)) return <ChannelNotFound />;
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
      userChannelSubscription {
        channelId
        subscriptionType
        subscriptionState
        cancelAtPeriodEnd
        acknowledgedNonChargeSubExpired
      }
    }
    getChartsArticles(premiumChannelId: $id) {
      _id
      ...ArticleCard_article
    }
  }
`;
