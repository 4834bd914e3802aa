//! The channels directory at /channels and /browse/channel (spec 3 §2): 'Find channels and
//! subscribe', chips All channels / Premium / Free preset by `?premium` or `?free` and written back
//! to the address, then a card per active channel with the reader's subscribe action.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../components/Banner';
import { ChipGroup } from '../../components/Chips';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import { ChannelCard } from './common/ChannelCard';
import { ChannelsScreenDocument } from './__generated__/Channels.generated';
import './reader.css';

export type ChannelFilter = 'all' | 'premium' | 'free';

const CHIPS = [
  { value: 'all', label: 'All channels' },
  { value: 'premium', label: 'Premium' },
  { value: 'free', label: 'Free' },
] as const;

const EMPTY: Record<ChannelFilter, string> = {
  all: 'There are no channels yet',
  premium: 'There are no premium channels yet',
  free: 'There are no free channels yet',
};

/** `?premium` or `?free` (any value but 'false'); premium wins when both are present. */
export function readChannelFilter(params: URLSearchParams): ChannelFilter {
  const on = (key: string) => params.has(key) && params.get(key) !== 'false';
  if (on('premium')) return 'premium';
  if (on('free')) return 'free';
  return 'all';
}

/** The address's query for a filter: '?premium', '?free', or none. */
export function channelFilterSearch(filter: ChannelFilter): string {
  return filter === 'all' ? '' : `?${filter}`;
}

export default function Channels() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = readChannelFilter(params);
  const { data, loading, error } = useQuery(ChannelsScreenDocument, { fetchPolicy: 'cache-and-network' });
  const channels = (data?.allChannels ?? []).filter(
    (c) => filter === 'all' || (filter === 'premium' ? c.type === 'premium' : c.type !== 'premium'),
  );

  const choose = (next: ChannelFilter) => {
    // '?premium' rather than '?premium=' (URLSearchParams would add the '='). Replace: the chips
    // refine one view rather than being pages of their own.
    navigate({ search: channelFilterSearch(next) }, { replace: true });
  };

  return (
    <Page title="Find channels and subscribe">
      <div className="insights-reader-toolbar">
        <ChipGroup label="Channel type" options={CHIPS} value={filter} onChange={choose} />
      </div>
      {error && !data ? (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      ) : loading && !data ? (
        <LoadingBlock label="Loading channels" />
      ) : channels.length === 0 ? (
        <EmptyState icon="search" title={EMPTY[filter]} />
      ) : (
        <ul aria-label="Channels" className="insights-channel-grid">
          {channels.map((c) => (
            <li key={c._id}>
              <ChannelCard channel={c} headingLevel={2} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

export const CHANNELS_SCREEN_QUERY = gql`
  query ChannelsScreen {
    allChannels {
      _id
      ...ChannelCard_channel
    }
  }
`;
