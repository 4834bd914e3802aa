//! A list of article cards: a spinner while the first page loads, an empty message, and either a
//! 'Load more' button (cursor lists) or a pager (page lists).
import type { ReactNode } from 'react';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { ArticleCard, type ArticleCardArticle } from './ArticleCard';
import '../reader.css';

export interface ArticleCardListPager {
  /** From 1. */
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

export interface ArticleCardListProps {
  /** The list's accessible name. */
  label: string;
  articles: readonly ArticleCardArticle[];
  loading?: boolean;
  /** Shown when there is nothing to list. */
  emptyMessage: string;
  emptyAction?: ReactNode;
  /** 'grid': cards side by side (wrapping); 'list': one per row. */
  layout?: 'grid' | 'list';
  headingLevel?: 2 | 3 | 4;
  hideChannel?: boolean;
  /** Extra content per card (search highlights). */
  excerpt?: (article: ArticleCardArticle, index: number) => ReactNode;
  /** With `hasMore`: the 'Load more' button. */
  onLoadMore?: () => void;
  hasMore?: boolean;
  loadingMore?: boolean;
  loadMoreText?: string;
  pager?: ArticleCardListPager;
  /** An error to show instead of the empty message. */
  error?: string;
}

export function ArticleCardList({
  label,
  articles,
  loading = false,
  emptyMessage,
  emptyAction,
  layout = 'grid',
  headingLevel,
  hideChannel,
  excerpt,
  onLoadMore,
  hasMore = false,
  loadingMore = false,
  loadMoreText = 'Load more',
  pager,
  error,
}: ArticleCardListProps) {
  if (articles.length === 0) {
    if (loading) return <LoadingBlock label={`Loading ${label.toLowerCase()}`} />;
    if (error)
      return (
        <p role="alert" className="insights-reader-error">
          {error}
        </p>
      );
    return (
      <div className="insights-reader-empty">
        <EmptyState icon="document" title={emptyMessage} action={emptyAction ? <>{emptyAction}</> : undefined} />
      </div>
    );
  }
  return (
    <div className="insights-article-list-frame">
      <ul
        aria-label={label}
        className={layout === 'grid' ? 'insights-reader-grid' : 'insights-reader-stack'}
        aria-busy={loading || undefined}
      >
        {articles.map((article, index) => (
          <li key={article._id}>
            <ArticleCard article={article} headingLevel={headingLevel} hideChannel={hideChannel} excerpt={excerpt?.(article, index)} />
          </li>
        ))}
      </ul>
      {onLoadMore && hasMore && (
        <div className="insights-reader-more">
          <Button text={loadMoreText} onClick={onLoadMore} loading={loadingMore} disabled={loadingMore} />
        </div>
      )}
      {pager && pager.pageCount > 1 && (
        <nav aria-label={`${label} pages`} className="insights-reader-pager">
          <Button text="Previous" icon="chevron-left" disabled={pager.page <= 1} onClick={() => pager.onPage(pager.page - 1)} />
          <span>
            Page {pager.page} of {pager.pageCount}
          </span>
          <Button
            text="Next"
            endIcon="chevron-right"
            disabled={pager.page >= pager.pageCount}
            onClick={() => pager.onPage(pager.page + 1)}
          />
        </nav>
      )}
    </div>
  );
}
