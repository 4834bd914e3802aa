//! When an article first reached readers and when a later publication last changed what they see
//! (issue 40: the date and time of first dissemination, kept for regulators): on the article page
//! and the marketing article, and as the tooltip of a card's date.
import { formatDateTimeWithZone, formatFullDateTime } from '../../../lib/dates';

export interface PublicationTimesValue {
  firstPublishedAt?: string | null;
  updatedAt?: string | null;
}

/** 'First published 05 Mar 2026 14:05 GMT+1 · Updated 06 Mar 2026 09:12', or '' when never published. */
export function publicationText({ firstPublishedAt, updatedAt }: PublicationTimesValue): string {
  const parts = [];
  if (firstPublishedAt) parts.push(`First published ${formatDateTimeWithZone(firstPublishedAt)}`);
  if (updatedAt) parts.push(`Updated ${formatFullDateTime(updatedAt)}`);
  return parts.join(' · ');
}

export function PublicationTimes({ article }: { article: PublicationTimesValue }) {
  if (!article.firstPublishedAt) return null;
  return (
    <p className="insights-article-publication">
      First published <time dateTime={article.firstPublishedAt}>{formatDateTimeWithZone(article.firstPublishedAt)}</time>
      {article.updatedAt && (
        <>
          <span aria-hidden> · </span>Updated <time dateTime={article.updatedAt}>{formatFullDateTime(article.updatedAt)}</time>
        </>
      )}
    </p>
  );
}
