//! The channels list (spec 3 §2 "Staff screens"): All / My Channels / Archived chips, a type filter
//! (All types / Premium / Free), 'Search channels...', and Name, Type, Owner, Price, Articles, Active
//! users, Created (and State in the Archived view). Paging, sorting and search run on the server
//! (`channels(params)`). Contributors may see the list; only Administrators and Editors get 'New channel'.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { ChannelListDocument, type ChannelListQuery, type ChannelListQueryVariables } from './__generated__/ChannelList.generated';
import { CHANNELS_PATH, channelTypeLabel, DESKS_PATH, formatPrice } from './channelText';
import './channels.css';

type Channel = ChannelListQuery['channels']['items'][number];
type ChannelParams = NonNullable<ChannelListQueryVariables['params']>;
type ChannelTypeFilter = NonNullable<ChannelParams['type']>;

export const CHANNEL_FILTERS = [
  { value: 'All', label: 'All' },
  { value: 'MyChannels', label: 'My Channels' },
  { value: 'Archived', label: 'Archived' },
] as const;

export const CHANNEL_TYPE_FILTERS: readonly { value: ChannelTypeFilter; label: string }[] = [
  { value: 'All', label: 'All types' },
  { value: 'Premium', label: 'Premium' },
  { value: 'Free', label: 'Free' },
];

const SORT_FIELDS: Record<string, NonNullable<ChannelParams['sortField']>> = {
  name: 'Name',
  type: 'Type',
  owner: 'Owner',
  price: 'Price',
  articles: 'ArticleCount',
  activeUsers: 'ActiveUsers',
  created: 'CreatedAt',
};

/** The list state and type filter as `channels(params)` wants them. */
export function channelParams(state: ListState, type: ChannelTypeFilter): ChannelParams {
  const filter = CHANNEL_FILTERS.find((f) => f.value === state.filter)?.value ?? 'All';
  return {
    page: state.page,
    pageSize: state.pageSize,
    filter,
    type,
    searchQuery: state.search.trim() || null,
    sortField: SORT_FIELDS[state.sort?.key ?? 'name'] ?? 'Name',
    sortDirection: state.sort?.direction === 'desc' ? 'Desc' : 'Asc',
  };
}

export default function ChannelList() {
  const user = useSession();
  const [state, change] = useListState({ filter: 'All', sort: { key: 'name', direction: 'asc' } });
  const [type, setType] = useState<ChannelTypeFilter>('All');
  const { data, previousData, loading, error, refetch } = useQuery(ChannelListDocument, {
    variables: { params: channelParams(state, type) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;
  const isAdministrator = user.role === 'Administrator';

  const columns: AdminColumn<Channel>[] = [
    {
      key: 'name',
      title: 'Name',
      sortable: true,
      width: '22%',
      // An Administrator also opens archived channels (read-only); others only those they may edit.
      render: (c) => (c.canEdit || isAdministrator ? <Link to={`${CHANNELS_PATH}/edit/${c._id}`}>{c.name}</Link> : c.name),
    },
    { key: 'type', title: 'Type', sortable: true, render: (c) => channelTypeLabel(c.type) },
    {
      key: 'owner',
      title: 'Owner',
      sortable: true,
      render: (c) => (c.ownerType === 'desk' ? <Link to={`${DESKS_PATH}/edit/${c.ownerId}`}>{c.owner.name}</Link> : c.owner.name),
    },
    { key: 'price', title: 'Price', sortable: true, numeric: true, render: (c) => formatPrice(c.price) },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, render: (c) => c.articleCount },
    { key: 'activeUsers', title: 'Active users', sortable: true, numeric: true, render: (c) => c.channelActiveUsersCount },
    { key: 'created', title: 'Created', sortable: true, render: (c) => formatDate(new Date(c.createdAt)) },
  ];
  if (state.filter === 'Archived') {
    columns.push({ key: 'state', title: 'State', render: (c) => (c.state === 'archived' ? 'Archived' : 'Active') });
  }

  return (
    <Page title="Channels">
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
        filters={CHANNEL_FILTERS}
        moreFilters={[
          {
            label: 'Channel type',
            value: type,
            options: CHANNEL_TYPE_FILTERS,
            onChange: (value) => {
              setType(value as ChannelTypeFilter);
              change({ page: 1 });
            },
          },
        ]}
        actions={
          <span className="insights-channel-actions">
            {/* The subscriber screens start from here (spec 3 §2 'Subscriber stats'). */}
            {hasAccess(user.role, ACCESS.channelSubscribers) && (
              <LinkButton to={`${CHANNELS_PATH}/subscriber-stats`} text="Subscriber stats" icon="people" />
            )}
            {hasAccess(user.role, ACCESS.channelEdit) && (
              <LinkButton to={`${CHANNELS_PATH}/add`} text="New channel" icon="add" intent="primary" />
            )}
          </span>
        }
      />
    </Page>
  );
}

export const CHANNEL_LIST_QUERY = gql`
  query ChannelList($params: ChannelListParams) {
    channels(params: $params) {
      total
      items {
        _id
        name
        type
        ownerType
        ownerId
        owner {
          _id
          name
          type
        }
        price
        articleCount
        channelActiveUsersCount
        createdAt
        state
        canEdit
      }
    }
  }
`;
