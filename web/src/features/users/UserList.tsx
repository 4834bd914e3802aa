//! The user list (spec 2 §2 "Users", §9): tabs All, each role and Trial, 'Search users...', and
//! Email, Name, Company, Role, Last signed in, Trial Period, Articles and Views. Paging, sorting
//! and search run on the server (`getPaginatedUsers`); by default it sorts by name, then by last
//! sign-in.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/dates';
import { MINUTES_PER_DAY } from '../../lib/trial';
import { UserListDocument, type UserListQuery, type UserListQueryVariables } from './__generated__/UserList.generated';

export const USERS_PATH = '/publisher/users';

type User = UserListQuery['getPaginatedUsers']['users'][number];
type UserListType = UserListQueryVariables['type'];
type UserSortField = NonNullable<UserListQueryVariables['sortField']>;

export const USER_TABS: readonly { value: UserListType; label: string }[] = [
  { value: 'All', label: 'All' },
  { value: 'Administrator', label: 'Administrator' },
  { value: 'Editor', label: 'Editor' },
  { value: 'Contributor', label: 'Contributor' },
  { value: 'Subscriber', label: 'Subscriber' },
  { value: 'Trial', label: 'Trial' },
];

const SORT_FIELDS: Record<string, UserSortField> = {
  email: 'Email',
  name: 'Name',
  company: 'Company',
  role: 'Role',
  lastLogin: 'LastLogin',
  trial: 'TrialMinLeft',
  articles: 'ArticleCount',
  views: 'Views',
};

/** The edit screen of a user: ids may hold characters that a path must escape. */
export function userEditPath(id: string): string {
  return `${USERS_PATH}/edit/${encodeURIComponent(id)}`;
}

/**
 * The Trial Period cell (spec 2 §2): -1 (no trial) is blank, 0 is 'Expired'; from one day on,
 * whole days ('3 days'); under a day, hours and minutes ('1 hour 30 min').
 */
export function trialPeriodText(minutesLeft: number): string {
  if (minutesLeft < 0) return '';
  if (minutesLeft === 0) return 'Expired';
  if (minutesLeft >= MINUTES_PER_DAY) {
    const days = Math.floor(minutesLeft / MINUTES_PER_DAY);
    return `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  const hours = Math.floor(minutesLeft / 60);
  const minutes = minutesLeft % 60;
  const parts = [hours > 0 ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : '', minutes > 0 ? `${minutes} min` : ''];
  return parts.filter(Boolean).join(' ');
}

/** The list state as `getPaginatedUsers` wants it. */
export function userListVariables(state: ListState): UserListQueryVariables {
  return {
    type: USER_TABS.find((t) => t.value === state.filter)?.value ?? 'All',
    searchQuery: state.search.trim() || null,
    sortField: SORT_FIELDS[state.sort?.key ?? 'name'] ?? 'Name',
    sortDirection: state.sort?.direction === 'desc' ? 'Desc' : 'Asc',
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
  };
}

export default function UserList() {
  const [state, change] = useListState({ filter: 'All', sort: { key: 'name', direction: 'asc' } });
  const { data, previousData, loading, error, refetch } = useQuery(UserListDocument, {
    variables: userListVariables(state),
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<User>[] = [
    { key: 'email', title: 'Email', sortable: true, render: (u) => u.email },
    { key: 'name', title: 'Name', sortable: true, render: (u) => <Link to={userEditPath(u._id)}>{u.name}</Link> },
    { key: 'company', title: 'Company', sortable: true, render: (u) => u.company },
    { key: 'role', title: 'Role', sortable: true, width: 120, render: (u) => u.role },
    {
      key: 'lastLogin',
      title: 'Last signed in',
      sortable: true,
      width: 160,
      render: (u) => (u.lastLogin ? formatDateTime(u.lastLogin) : ''),
    },
    { key: 'trial', title: 'Trial Period', sortable: true, width: 130, render: (u) => trialPeriodText(u.trialMinLeft) },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, width: 90, render: (u) => u.articleCount },
    { key: 'views', title: 'Views', sortable: true, numeric: true, width: 90, render: (u) => u.views },
  ];

  return (
    <Page title="Users">
      <AdminList
        label="Users"
        columns={columns}
        rows={shown?.getPaginatedUsers.users ?? []}
        total={shown?.getPaginatedUsers.total ?? 0}
        rowKey={(u) => u._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search users...' }}
        filters={USER_TABS}
      />
    </Page>
  );
}

export const USER_LIST_QUERY = gql`
  query UserList(
    $type: UserListType!
    $searchQuery: String
    $sortField: UserSortField
    $sortDirection: SortDirection
    $limit: Int!
    $offset: Int!
  ) {
    getPaginatedUsers(
      type: $type
      searchQuery: $searchQuery
      sortField: $sortField
      sortDirection: $sortDirection
      limit: $limit
      offset: $offset
    ) {
      total
      users {
        _id
        email
        name
        company
        role
        lastLogin
        trialMinLeft
        articleCount
        views
      }
    }
  }
`;
