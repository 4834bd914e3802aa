//! The tag list (spec 1 §2 "Tag list"): All / Empty tags chips, 'Search tags...', Name,
//! Description, Articles, Views; paging, sorting and search run on the server (`tags(params)`).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { TagListDocument, type TagListQuery, type TagListQueryVariables } from './__generated__/TagList.generated';

type Tag = TagListQuery['tags']['items'][number];
type TagParams = NonNullable<TagListQueryVariables['params']>;

export const TAG_FILTERS = [
  { value: 'All', label: 'All' },
  { value: 'Empty', label: 'Empty tags' },
] as const;

const SORT_FIELDS: Record<string, NonNullable<TagParams['sortField']>> = {
  name: 'Name',
  description: 'Description',
  articles: 'ArticleCount',
  views: 'Views',
};

/** The list state as `tags(params)` wants it. */
export function tagParams(state: ListState): TagParams {
  return {
    page: state.page,
    pageSize: state.pageSize,
    searchQuery: state.search.trim() || null,
    filter: state.filter === 'Empty' ? 'Empty' : 'All',
    sortField: SORT_FIELDS[state.sort?.key ?? 'name'] ?? 'Name',
    sortDirection: state.sort?.direction === 'desc' ? 'Desc' : 'Asc',
  };
}

export default function TagList({ base }: { base: string }) {
  const [state, change] = useListState({ filter: 'All', sort: { key: 'name', direction: 'asc' } });
  const { data, previousData, loading, error, refetch } = useQuery(TagListDocument, {
    variables: { params: tagParams(state) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<Tag>[] = [
    { key: 'name', title: 'Name', sortable: true, width: '25%', render: (t) => <Link to={`${base}/edit/${t._id}`}>{t.name}</Link> },
    { key: 'description', title: 'Description', sortable: true, render: (t) => t.description },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, width: 100, render: (t) => t.articleCount },
    { key: 'views', title: 'Views', sortable: true, numeric: true, width: 100, render: (t) => t.views },
  ];

  return (
    <Page title="Tags">
      <AdminList
        label="Tags"
        columns={columns}
        rows={shown?.tags.items ?? []}
        total={shown?.tags.total ?? 0}
        rowKey={(t) => t._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search tags...' }}
        filters={TAG_FILTERS}
        actions={<LinkButton to={`${base}/add`} text="Add tag" icon="add" intent="primary" />}
      />
    </Page>
  );
}

export const TAG_LIST_QUERY = gql`
  query TagList($params: TagListParams) {
    tags(params: $params) {
      total
      items {
        _id
        name
        description
        articleCount
        views
      }
    }
  }
`;
