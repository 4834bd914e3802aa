//! The channel page's sidebar (spec 3 §2): 'Trending in this Channel' (most viewed in the last 30
//! days, `getStatsByChannel`) and the other channels, at most 25. Its own query, so a failure here
//! leaves the rest of the page working.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { articlePath, channelPath } from './common/channelText';
import { formatCardDate } from './common/readerDates';
import { ChannelSidebarDocument } from './__generated__/ChannelSidebar.generated';
import './reader.css';

/** Channels listed in the sidebar (spec 3 §9). */
export const SIDEBAR_CHANNELS = 25;
/** Trending articles listed. */
export const TRENDING_SHOWN = 5;

export function ChannelSidebar({ channelId }: { channelId: string }) {
  const { data } = useQuery(ChannelSidebarDocument, { variables: { channelId }, errorPolicy: 'all' });
  const trending = (data?.getStatsByChannel?.trendingArticles ?? []).slice(0, TRENDING_SHOWN);
  const channels = (data?.allChannels ?? []).filter((c) => c._id !== channelId).slice(0, SIDEBAR_CHANNELS);
  return (
    <aside className="insights-reader-sidebar" aria-label="Channel sidebar">
      <section aria-labelledby="channel-trending">
        <h2 id="channel-trending">Trending in this Channel</h2>
        {trending.length === 0 ? (
          <p className="insights-channel-card-note">Nothing is trending yet.</p>
        ) : (
          <ol aria-label="Trending in this Channel" className="insights-reader-link-list">
            {trending.map((a) => (
              <li key={a._id}>
                <Link to={articlePath(a._id)}>{a.title}</Link>{' '}
                <span className="insights-channel-card-note">{formatCardDate(a.publishDate)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      {channels.length > 0 && (
        <section aria-labelledby="channel-others">
          <h2 id="channel-others">Channels</h2>
          <ul aria-label="Other channels" className="insights-reader-link-list">
            {channels.map((c) => (
              <li key={c._id}>
                <Link to={channelPath(c._id)}>{c.name}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}

export const CHANNEL_SIDEBAR_QUERY = gql`
  query ChannelSidebar($channelId: ID!) {
    getStatsByChannel(query: { channelId: $channelId }) {
      channelId
      trendingArticles {
        _id
        title
        publishDate
      }
    }
    allChannels {
      _id
      name
    }
  }
`;
