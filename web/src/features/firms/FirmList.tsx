//! The firm list (issue 39): Active / Archived / All chips, 'Search firms...' (a name or a domain),
//! and Name, Domains, Readers, Seats ('used / held', 'unlimited' when a subscription has no limit)
//! and Subscriptions (live ones). Paging and search run on the server (`firms(params)`), which
//! orders by name. Every staff role reads the list; Administrators and Editors get 'Add firm'.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { useSession } from '../../lib/session';
import { FirmListDocument, type FirmListQuery, type FirmListQueryVariables } from './__generated__/FirmList.generated';
import { ADD_FIRM_PATH, firmPath, firmSeatsText } from './firmText';
import './firms.css';

type Firm = FirmListQuery['firms']['firms'][number];
type FirmParams = NonNullable<FirmListQueryVariables['params']>;

export const FIRM_FILTERS = [
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
  { value: 'all', label: 'All' },
] as const;

/** The list state as `firms(params)` wants it. */
export function firmListParams(state: ListState): FirmParams {
  return {
    page: state.page,
    pageSize: state.pageSize,
    search: state.search.trim() || null,
    state: state.filter === 'active' || state.filter === 'archived' ? state.filter : null,
  };
}

export default function FirmList() {
  const user = useSession();
  const [state, change] = useListState({ filter: 'active' });
  const { data, previousData, loading, error, refetch } = useQuery(FirmListDocument, {
    variables: { params: firmListParams(state) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<Firm>[] = [
    { key: 'name', title: 'Name', width: '24%', render: (f) => <Link to={firmPath(f._id)}>{f.name}</Link> },
    { key: 'domains', title: 'Domains', render: (f) => f.domains.join(', ') },
    { key: 'readers', title: 'Readers', numeric: true, width: 100, render: (f) => f.readerCount },
    { key: 'seats', title: 'Seats used / held', numeric: true, width: 160, render: (f) => firmSeatsText(f) },
    { key: 'subscriptions', title: 'Subscriptions', numeric: true, width: 130, render: (f) => f.subscriptionCount },
  ];
  if (state.filter !== 'active') {
    columns.push({ key: 'state', title: 'State', width: 100, render: (f) => (f.state === 'archived' ? 'Archived' : 'Active') });
  }

  return (
    <Page title="Firms">
      <AdminList
        label="Firms"
        columns={columns}
        rows={shown?.firms.firms ?? []}
        total={shown?.firms.total ?? 0}
        rowKey={(f) => f._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search firms...' }}
        filters={FIRM_FILTERS}
        actions={hasAccess(user.role, ACCESS.firmEdit) && <LinkButton to={ADD_FIRM_PATH} text="Add firm" icon="add" intent="primary" />}
      />
    </Page>
  );
}

export const FIRM_LIST_QUERY = gql`
  query FirmList($params: FirmListParams) {
    firms(params: $params) {
      total
      firms {
        _id
        name
        domains
        state
        readerCount
        seatsUsed
        seatsHeld
        subscriptionCount
      }
    }
  }
`;
