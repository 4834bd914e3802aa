//! Subscriber stats main (spec 3 §2 '/publisher/premium-channels/subscriber-stats'): the channels
//! with their active subscribers, each opening its subscriber stats. Paging, sorting and search run
//! on the server (`channels(params)`). An Editor starts on the channels they administer and opens
//! only those; an Administrator opens any.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, Breadcrumbs, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { Page } from '../../components/Page';
import { useSession } from '../../lib/session';
import {
  SubscriberStatsChannelsDocument,
  type SubscriberStatsChannelsQuery,
  type SubscriberStatsChannelsQueryVariables,
} from './__generated__/SubscriberStatsMain.generated';
import { channelAccess } from './subscriberChannel';
import { CHANNELS_PATH, statsPath } from './subscriberText';

type Channel = SubscriberStatsChannelsQuery['channels']['items'][number];
type ChannelParams = NonNullable<SubscriberStatsChannelsQueryVariables['params']>;

export const STATS_FILTERS = [
  { value: 'All', label: 'All' },
  { value: 'MyChannels', label: 'My Channels' },
  { value: 'Archived', label: 'Archived' },
] as const;

const TYPE_LABELS: Record<Channel['type'], string> = { premium: 'Premium', freeOpen: 'Free open', freeClosed: 'Free closed' };

const SORT_FIELDS: Record<string, NonNullable<ChannelParams['sortField']>> = {
  name: 'Name',
  type: 'Type',
  owner: 'Owner',
  subscribers: 'ActiveUsers',
};

/** The list state as `channels(params)` wants it. */
export function statsChannelParams(state: ListState): ChannelParams {
  return {
    page: state.page,
    pageSize: state.pageSize,
    filter: STATS_FILTERS.find((f) => f.value === state.filter)?.value ?? 'All',
    type: 'All',
    searchQuery: state.search.trim() || null,
    sortField: SORT_FIELDS[state.sort?.key ?? 'name'] ?? 'Name',
    sortDirection: state.sort?.direction === 'desc' ? 'Desc' : 'Asc',
  };
}

export default function SubscriberStatsMain() {
  const me = useSession();
  const [state, change] = useListState({
    filter: me.role === 'Administrator' ? 'All' : 'MyChannels',
    sort: { key: 'name', direction: 'asc' },
  });
  const { data, previousData, loading, error, refetch } = useQuery(SubscriberStatsChannelsDocument, {
    variables: { params: statsChannelParams(state) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<Channel>[] = [
    {
      key: 'name',
      title: 'Name',
      sortable: true,
      width: '30%',
      render: (c) => (channelAccess(c, me) === 'forbidden' ? c.name : <Link to={statsPath(c._id)}>{c.name}</Link>),
    },
    { key: 'type', title: 'Type', sortable: true, render: (c) => TYPE_LABELS[c.type] },
    { key: 'owner', title: 'Owner', sortable: true, render: (c) => c.owner.name },
    { key: 'subscribers', title: 'Active subscribers', sortable: true, numeric: true, render: (c) => c.channelActiveUsersCount },
  ];
  if (state.filter === 'Archived') columns.push({ key: 'state', title: 'State', render: () => 'Archived' });

  return (
    <Page
      title="Subscriber stats"
      breadcrumbs={<Breadcrumbs items={[{ text: 'Channels', to: CHANNELS_PATH }, { text: 'Subscriber stats' }]} />}
    >
      <AdminList
        label="Channels"
        columns={columns}
        rows={shown?.channels.items ?? []}
        total={shown?.channels.total ?? 0}
        rowKey={(c) => c._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search channels...' }}
        filters={STATS_FILTERS}
      />
    </Page>
  );
}

export const SUBSCRIBER_STATS_CHANNELS_QUERY = gql`
  query SubscriberStatsChannels($params: ChannelListParams) {
    channels(params: $params) {
      total
      items {
        _id
        name
        type
        state
        owner {
          _id
          name
          type
        }
        adminUsers {
          _id
          name
          email
        }
        channelActiveUsersCount
      }
    }
  }
`;
