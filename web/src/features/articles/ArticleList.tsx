//! The articles list (spec 2 "Articles list", §9): kind tabs (Today, All, My, Published, Pending,
//! Archived), a topic filter, 'Search articles...' and chips of the active filters, then Title,
//! Published By, Unique views, Published, Last Edit and Premium. Paging, sorting (by created,
//! newest first, by default) and search run on the server (`articles(params)`); the view lives in
//! the URL. Titles link to the editor and view counts to the stats only where the server says the
//! viewer may open them (`canEdit`, `canViewStats`).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, TreeSelectField, type AdminColumn, type ListState, type TreeSelectNode } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { useConfig } from '../../lib/config';
import { formatDateTime } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { ArticleFilterChips } from './ArticleFilterChips';
import {
  ARTICLE_TABS,
  DEFAULT_SORT,
  DEFAULT_TAB,
  FILTER_KEYS,
  SORT_FIELDS,
  useArticleListView,
  type ArticleFilters,
} from './articleListState';
import { ARTICLES_PATH, articleEditPath, articleStateLabel, articleStatsPath, premiumText } from './articleText';
import {
  ArticleListDocument,
  ArticleListTopicsDocument,
  type ArticleListQuery,
  type ArticleListQueryVariables,
  type ArticleListTopicsQuery,
} from './__generated__/ArticleList.generated';
import './articles.css';

type Article = ArticleListQuery['articles']['articles'][number];
type ArticleParams = NonNullable<ArticleListQueryVariables['params']>;
type Topic = ArticleListTopicsQuery['categories'][number];

/** The list state and filters as `articles(params)` wants them; empty filters are left out. */
export function articleListParams(state: ListState, filters: ArticleFilters): ArticleParams {
  const params: ArticleParams = {
    type: ARTICLE_TABS.find((t) => t.value === state.filter)?.value ?? DEFAULT_TAB,
    searchQuery: state.search.trim() || null,
    sortField: SORT_FIELDS[state.sort?.key ?? DEFAULT_SORT.key] ?? 'Created',
    sortDirection: (state.sort?.direction ?? DEFAULT_SORT.direction) === 'asc' ? 'Asc' : 'Desc',
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
  };
  for (const key of FILTER_KEYS) if (filters[key].length > 0) params[key] = [...filters[key]];
  return params;
}

/** The flat topic list (ordered by name) as a tree for the select; chosen topics are disabled. */
export function topicNodes(topics: readonly Topic[], chosen: readonly string[]): TreeSelectNode[] {
  const known = new Set(topics.map((t) => t._id));
  const childrenOf = (parent: string | null): TreeSelectNode[] =>
    topics
      // A topic whose parent is missing from the answer is shown as a root rather than lost.
      .filter((t) => (parent === null ? !t.parent || !known.has(t.parent) : t.parent === parent))
      .map((t) => ({ value: t._id, label: t.name, disabled: chosen.includes(t._id), children: childrenOf(t._id) }));
  return childrenOf(null);
}

/** Published and Last Edit: 'DD MMM YYYY HH:mm', or 'Today HH:mm' for today (spec 1 §9). */
function dateCell(value: string | null | undefined): string {
  return value ? formatDateTime(value) : '';
}

const columns: AdminColumn<Article>[] = [
  {
    key: 'title',
    title: 'Title',
    sortable: true,
    width: '32%',
    render: (a) => (
      <span className="insights-article-title">
        {a.canEdit ? <Link to={articleEditPath(a._id)}>{a.title}</Link> : <span>{a.title}</span>}
        {a.state !== 'Published' && (
          <span className={`insights-article-state insights-article-state-${a.state.toLowerCase()}`}>{articleStateLabel(a.state)}</span>
        )}
      </span>
    ),
  },
  { key: 'publishedBy', title: 'Published By', sortable: true, render: (a) => a.publishedBy?.name ?? '' },
  {
    key: 'views',
    title: 'Unique views',
    sortable: true,
    numeric: true,
    width: 120,
    render: (a) =>
      a.canViewStats ? (
        <Link to={articleStatsPath(a._id)} aria-label={`${a.uniqueViews} unique views of ${a.title}`}>
          {a.uniqueViews}
        </Link>
      ) : (
        a.uniqueViews
      ),
  },
  { key: 'publishDate', title: 'Published', sortable: true, width: 160, render: (a) => dateCell(a.publishDate) },
  { key: 'lastEdited', title: 'Last Edit', sortable: true, width: 160, render: (a) => dateCell(a.lastEdited) },
  { key: 'premium', title: 'Premium', sortable: true, width: 210, render: (a) => premiumText(a) },
];

export default function ArticleList() {
  const user = useSession();
  const topicWord = useConfig().features.premiumChannels ? 'Topic' : 'Category';
  const { list, filters, changeList, setFilter, clearFilters } = useArticleListView();
  const { data, previousData, loading, error, refetch } = useQuery(ArticleListDocument, {
    variables: { params: articleListParams(list, filters) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;
  const rows = shown?.articles.articles ?? [];
  const topics = useQuery(ArticleListTopicsDocument).data?.categories ?? [];
  const publishers = rows.flatMap((a) => (a.publishedBy ? [a.publishedBy] : []));

  return (
    <Page title="Articles">
      <div className="insights-article-filters">
        <div className="insights-article-topic-filter">
          <TreeSelectField
            label={topicWord}
            name="categoryId"
            value={null}
            noneLabel={filters.categoryId.length > 0 ? `Add a ${topicWord.toLowerCase()}` : `All ${topicWord.toLowerCase()}s`}
            nodes={topicNodes(topics, filters.categoryId)}
            onChange={(id) => id && setFilter('categoryId', [...filters.categoryId, id])}
            onBlur={() => {}}
          />
        </div>
        <ArticleFilterChips
          filters={filters}
          topicWord={topicWord}
          topics={topics}
          publishers={publishers}
          onRemove={(key, id) =>
            setFilter(
              key,
              filters[key].filter((f) => f !== id),
            )
          }
          onClear={clearFilters}
        />
      </div>
      <AdminList
        label="Articles"
        columns={columns}
        rows={rows}
        total={shown?.articles.total ?? 0}
        rowKey={(a) => a._id}
        state={list}
        onStateChange={changeList}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search articles...' }}
        filters={ARTICLE_TABS}
        actions={
          hasAccess(user.role, ACCESS.articleAdd) && (
            <span className="insights-article-actions">
              <LinkButton to={`${ARTICLES_PATH}/add`} text="New article" icon="add" intent="primary" />
              <LinkButton to={`${ARTICLES_PATH}/add-from-template`} text="New from template" icon="document" />
            </span>
          )
        }
      />
    </Page>
  );
}

export const ARTICLE_LIST_QUERY = gql`
  query ArticleList($params: ArticleListParams) {
    articles(params: $params) {
      total
      articles {
        _id
        title
        state
        publishedBy {
          _id
          name
        }
        uniqueViews
        publishDate
        lastEdited
        isPremium
        premiumExpiryOffset
        premiumExpiresAt
        canEdit
        canViewStats
      }
    }
  }

  query ArticleListTopics {
    categories {
      _id
      name
      parent
    }
  }
`;
