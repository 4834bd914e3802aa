//! The promotional content list (spec 2 'Promotional content', issue 14): Name, Description (cut at
//! 130 characters), Topics (or Categories, by flag) and Articles counts, Expiry Date ('DD MMM
//! YYYY', spec 3 §9; the form takes dd/MM/yyyy), Impressions, Clicks and the click-through rate.
//! Paging, sorting and search run on the server (`promotionalContent(params)`). Administrators
//! only (the route and the server check it).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { useConfig } from '../../lib/config';
import { formatUtcDay } from '../../lib/dates';
import {
  PromotionalContentListDocument,
  type PromotionalContentListQuery,
  type PromotionalContentListQueryVariables,
} from './__generated__/PromotionalContentList.generated';
import { CONTENT_PATH, contentEditPath, cutText, formatRate, PAGES_PATH } from './promotionText';
import './promotions.css';

type Content = PromotionalContentListQuery['promotionalContent']['promotionalContent'][number];
type ContentParams = NonNullable<PromotionalContentListQueryVariables['params']>;

const SORT_FIELDS: Record<string, ContentParams['sortField']> = {
  name: 'Name',
  categories: 'CategoriesCount',
  articles: 'ArticlesCount',
  expiry: 'ExpiryDate',
  impressions: 'Impressions',
  clicks: 'Clicks',
};

/** The list state as `promotionalContent(params)` wants it. */
export function contentParams(state: ListState): ContentParams {
  return {
    page: state.page,
    pageSize: state.pageSize,
    searchQuery: state.search.trim() || null,
    sortField: SORT_FIELDS[state.sort?.key ?? 'name'] ?? 'Name',
    sortDirection: state.sort?.direction === 'desc' ? 'Desc' : 'Asc',
  };
}

export default function PromotionalContentList() {
  // 'Topic' replaces 'category' everywhere when premium channels are on (spec 1 §1).
  const topicsWord = useConfig().features.premiumChannels ? 'Topics' : 'Categories';
  const [state, change] = useListState({ sort: { key: 'name', direction: 'asc' } });
  const { data, previousData, loading, error, refetch } = useQuery(PromotionalContentListDocument, {
    variables: { params: contentParams(state) },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<Content>[] = [
    { key: 'name', title: 'Name', sortable: true, width: '18%', render: (c) => <Link to={contentEditPath(c._id)}>{c.name}</Link> },
    { key: 'description', title: 'Description', render: (c) => <span title={c.description}>{cutText(c.description)}</span> },
    { key: 'categories', title: topicsWord, sortable: true, numeric: true, width: 100, render: (c) => c.categoriesCount },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, width: 90, render: (c) => c.articlesCount },
    {
      key: 'expiry',
      title: 'Expiry Date',
      sortable: true,
      width: 130,
      render: (c) =>
        c.expiryDate ? (
          <span className={c.expired ? 'insights-promotions-expired' : undefined}>
            {formatUtcDay(c.expiryDate)}
            {c.expired && ' (expired)'}
          </span>
        ) : null,
    },
    { key: 'impressions', title: 'Impressions', sortable: true, numeric: true, width: 110, render: (c) => c.impressions },
    { key: 'clicks', title: 'Clicks', sortable: true, numeric: true, width: 80, render: (c) => c.clicks },
    { key: 'ctr', title: 'CTR', numeric: true, width: 80, render: (c) => formatRate(c.clickThroughRate) },
  ];

  return (
    <Page title="Promotional Content">
      <AdminList
        label="Promotional Content"
        columns={columns}
        rows={shown?.promotionalContent.promotionalContent ?? []}
        total={shown?.promotionalContent.total ?? 0}
        rowKey={(c) => c._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search promotional content...' }}
        actions={
          <span className="insights-promotions-actions">
            <LinkButton to={PAGES_PATH} text="Promotion pages" icon="document" />
            <LinkButton to={`${CONTENT_PATH}/add`} text="Add promotional content" icon="add" intent="primary" />
          </span>
        }
      />
    </Page>
  );
}

export const PROMOTIONAL_CONTENT_LIST_QUERY = gql`
  query PromotionalContentList($params: PromotionalContentListParams) {
    promotionalContent(params: $params) {
      total
      promotionalContent {
        _id
        name
        description
        categoriesCount
        articlesCount
        expiryDate
        expired
        impressions
        clicks
        clickThroughRate
      }
    }
  }
`;
