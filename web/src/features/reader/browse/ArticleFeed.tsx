//! 'Latest articles' of a browse page: searchArticles with the page's filter, newest first, 9 at a
//! time (spec 3 §9), and 'More articles' for the next page by cursor.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { showToast } from '../../../components/Toaster';
import { formatError } from '../../../lib/errors';
import { ArticleCardList } from '../common/ArticleCardList';
import { BrowseArticlesDocument, type BrowseArticlesQueryVariables } from './__generated__/ArticleFeed.generated';

export const FEED_PAGE_SIZE = 9;

export type FeedFilter = NonNullable<BrowseArticlesQueryVariables['params']>;

export interface ArticleFeedProps {
  /** The section's heading. */
  title?: string;
  filter: FeedFilter;
  emptyMessage: string;
}

export function ArticleFeed({ title = 'Latest articles', filter, emptyMessage }: ArticleFeedProps) {
  const headingId = useId();
  const { data, loading, error, fetchMore } = useQuery(BrowseArticlesDocument, {
    variables: { params: filter, first: FEED_PAGE_SIZE },
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const result = data?.searchArticles;

  const loadMore = async () => {
    if (!result?.pageInfo.endCursor) return;
    setLoadingMore(true);
    try {
      await fetchMore({
        variables: { after: result.pageInfo.endCursor },
        updateQuery: (previous, { fetchMoreResult }) => ({
          searchArticles: {
            ...fetchMoreResult.searchArticles,
            documents: [...(previous.searchArticles?.documents ?? []), ...fetchMoreResult.searchArticles.documents],
          },
        }),
      });
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="insights-browse-feed" aria-labelledby={headingId}>
      <h2 id={headingId} className="insights-browse-section-title">
        {title}
      </h2>
      <ArticleCardList
        label={title}
        articles={result?.documents.map((d) => d.article) ?? []}
        loading={loading && !result}
        error={error ? formatError(error) : undefined}
        emptyMessage={emptyMessage}
        onLoadMore={() => void loadMore()}
        hasMore={result?.pageInfo.hasNextPage ?? false}
        loadingMore={loadingMore}
        loadMoreText="More articles"
      />
    </section>
  );
}

export const BROWSE_ARTICLES_QUERY = gql`
  query BrowseArticles($params: SearchArticlesParams, $first: Int!, $after: String) {
    searchArticles(params: $params, first: $first, after: $after) {
      pageInfo {
        endCursor
        hasNextPage
      }
      documents {
        article {
          _id
          ...ArticleCard_article
        }
      }
    }
  }
`;
