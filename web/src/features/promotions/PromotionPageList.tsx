//! The promotion pages (spec 2 'Promotion pages', issue 14): Name, Summary and whether promotional
//! content uses the page; paged and searched on the server (`allPages(params)`), by name.
//! Administrators only (the route and the server check it).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AdminList, Breadcrumbs, useListState, type AdminColumn } from '../../components/admin';
import { LinkButton } from '../../components/LinkButton';
import { Page } from '../../components/Page';
import { PromotionPageListDocument, type PromotionPageListQuery } from './__generated__/PromotionPageList.generated';
import { CONTENT_PATH, cutText, pageEditPath, PAGES_PATH } from './promotionText';
import './promotions.css';

type PromotionPage = PromotionPageListQuery['allPages']['pages'][number];

/** 'Yes (Spring offer, Webinar)' / 'No'. */
export function inUseText(page: Pick<PromotionPage, 'inUse' | 'promotionalContent'>): string {
  if (!page.inUse) return 'No';
  const names = page.promotionalContent.map((c) => c.name);
  return names.length > 0 ? `Yes (${names.join(', ')})` : 'Yes';
}

export default function PromotionPageList() {
  const [state, change] = useListState();
  const { data, previousData, loading, error, refetch } = useQuery(PromotionPageListDocument, {
    variables: { params: { page: state.page, pageSize: state.pageSize, searchQuery: state.search.trim() || null } },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;

  const columns: AdminColumn<PromotionPage>[] = [
    { key: 'name', title: 'Name', width: '25%', render: (p) => <Link to={pageEditPath(p._id)}>{p.name}</Link> },
    { key: 'summary', title: 'Summary', render: (p) => <span title={p.pageSummary}>{cutText(p.pageSummary)}</span> },
    { key: 'inUse', title: 'In use', width: '25%', render: (p) => inUseText(p) },
  ];

  return (
    <Page
      title="Promotion pages"
      breadcrumbs={<Breadcrumbs items={[{ text: 'Promotional Content', to: CONTENT_PATH }, { text: 'Promotion pages' }]} />}
    >
      <AdminList
        label="Promotion pages"
        columns={columns}
        rows={shown?.allPages.pages ?? []}
        total={shown?.allPages.total ?? 0}
        rowKey={(p) => p._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search promotion pages...' }}
        actions={<LinkButton to={`${PAGES_PATH}/add`} text="Add promotion page" icon="add" intent="primary" />}
      />
    </Page>
  );
}

export const PROMOTION_PAGE_LIST_QUERY = gql`
  query PromotionPageList($params: PromotionPageListParams) {
    allPages(params: $params) {
      total
      pages {
        _id
        name
        pageSummary
        inUse
        promotionalContent {
          _id
          name
        }
      }
    }
  }
`;
