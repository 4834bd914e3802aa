//! The desk list (spec 2 §2 "Desks"): Name, Email, Members ('N contributor(s)'), Articles and
//! Views, and an add button. `desks` answers every desk at once, so searching, sorting and paging
//! run in the browser. A desk's name links to its form only for those who may edit it
//! (administrators and the desk's members: `canEdit`).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, pageRows, sortRows, useListState, type AdminColumn } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { DeskListDocument, type DeskListQuery } from './__generated__/DeskList.generated';

export const DESKS_PATH = '/publisher/desks';

type Desk = DeskListQuery['desks'][number];

/** 'N contributor(s)', as the spec words the Members column. */
export function membersText(count: number): string {
  return `${count} contributor(s)`;
}

function sortValue(desk: Desk, key: string): string | number | null | undefined {
  switch (key) {
    case 'email':
      return desk.email;
    case 'members':
      return desk.contributors.length;
    case 'articles':
      return desk.articleCount;
    case 'views':
      return desk.views;
    default:
      return desk.name;
  }
}

/** Desks whose name or email holds the search text, ignoring case. */
function matching(desks: readonly Desk[], search: string): Desk[] {
  const text = search.trim().toLowerCase();
  if (!text) return [...desks];
  return desks.filter((d) => d.name.toLowerCase().includes(text) || (d.email ?? '').toLowerCase().includes(text));
}

export default function DeskList() {
  const [state, change] = useListState({ sort: { key: 'name', direction: 'asc' } });
  const { data, loading, error, refetch } = useQuery(DeskListDocument, { fetchPolicy: 'cache-and-network' });
  const found = matching(data?.desks ?? [], state.search);

  const columns: AdminColumn<Desk>[] = [
    {
      key: 'name',
      title: 'Name',
      sortable: true,
      width: '30%',
      render: (d) => (d.canEdit ? <Link to={`${DESKS_PATH}/edit/${d._id}`}>{d.name}</Link> : d.name),
    },
    { key: 'email', title: 'Email', sortable: true, render: (d) => d.email },
    { key: 'members', title: 'Members', sortable: true, width: 160, render: (d) => membersText(d.contributors.length) },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, width: 100, render: (d) => d.articleCount },
    { key: 'views', title: 'Views', sortable: true, numeric: true, width: 100, render: (d) => d.views },
  ];

  return (
    <Page title="Desks">
      <AdminList
        label="Desks"
        columns={columns}
        rows={pageRows(sortRows(found, state.sort, sortValue), state)}
        total={found.length}
        rowKey={(d) => d._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={data ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search desks...' }}
        actions={<LinkButton to={`${DESKS_PATH}/add`} text="Add desk" icon="add" intent="primary" />}
      />
    </Page>
  );
}

export const DESK_LIST_QUERY = gql`
  query DeskList {
    desks {
      _id
      name
      email
      articleCount
      views
      canEdit
      contributors {
        _id
      }
    }
  }
`;
