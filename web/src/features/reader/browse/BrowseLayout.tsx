//! The frame the browse and article pages share: content with a sidebar beside it on wide screens
//! and under it on narrow ones, sidebar sections, short link lists with their empty text, and the
//! not-found and load-error states.
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { LinkButton } from '../../../components/LinkButton';
import { errorCode, formatError } from '../../../lib/errors';
import { formatCardDate } from '../common/readerDates';
import { articlePath } from '../common/channelText';
import './browse.css';

export interface BrowseLayoutProps {
  children: ReactNode;
  sidebar: ReactNode;
  /** The sidebar's accessible name. */
  sidebarLabel: string;
  className?: string;
}

export function BrowseLayout({ children, sidebar, sidebarLabel, className }: BrowseLayoutProps) {
  return (
    <div className={['insights-browse-layout', className].filter(Boolean).join(' ')}>
      <div className="insights-browse-content">{children}</div>
      <aside className="insights-browse-sidebar" aria-label={sidebarLabel}>
        {sidebar}
      </aside>
    </div>
  );
}

export function SidebarSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="insights-browse-sidebar-section" aria-labelledby={id}>
      <h2 id={id} className="insights-browse-sidebar-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export interface LinkItem {
  key: string;
  /** A path inside the app. */
  to: string;
  text: string;
  /** A second, muted line (a date, a count). */
  detail?: ReactNode;
}

export interface LinkListProps {
  /** The list's accessible name. */
  label: string;
  items: readonly LinkItem[];
  /** Shown instead of an empty list. */
  emptyText: string;
  /** Items shown before 'Show all'. */
  limit?: number;
}

export function LinkList({ label, items, emptyText, limit }: LinkListProps) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return <p className="insights-browse-empty-text">{emptyText}</p>;
  const shown = all || !limit ? items : items.slice(0, limit);
  return (
    <>
      <ul aria-label={label} className="insights-browse-links">
        {shown.map((item) => (
          <li key={item.key}>
            <Link to={item.to}>{item.text}</Link>
            {item.detail && <span className="insights-browse-link-detail">{item.detail}</span>}
          </li>
        ))}
      </ul>
      {limit && items.length > limit && (
        <Button variant="minimal" size="small" text={all ? 'Show fewer' : `Show all (${items.length})`} onClick={() => setAll(!all)} />
      )}
    </>
  );
}

/** Articles as a compact list of titles and dates (sidebars: trending, recent in the channel). */
export function ArticleLinkList({
  label,
  articles,
  emptyText,
  limit,
}: {
  label: string;
  articles: readonly { _id: string; title: string; publishDate: string }[];
  emptyText: string;
  limit?: number;
}) {
  const items = articles.map((a) => ({
    key: a._id,
    to: articlePath(a._id),
    text: a.title,
    detail: <time dateTime={a.publishDate}>{formatCardDate(a.publishDate)}</time>,
  }));
  return <LinkList label={label} items={items} emptyText={emptyText} limit={limit} />;
}

export interface NotFoundStateProps {
  title: string;
  description?: string;
  backTo: string;
  backText: string;
}

/** The server says the record does not exist (NOT_FOUND, or a code such as ARTICLE_NOT_FOUND). */
export function isNotFoundError(error: unknown): boolean {
  if (!CombinedGraphQLErrors.is(error)) return false;
  return error.errors.some((e) => (errorCode(e) ?? '').includes('NOT_FOUND') || e.message.includes('NOT_FOUND'));
}

/** An id that is not valid or names nothing (spec 3 §5: invalid ids show the not-found screens). */
export function NotFoundState({ title, description, backTo, backText }: NotFoundStateProps) {
  return (
    <div className="insights-browse-state">
      <EmptyState
        icon="search"
        title={title}
        description={description ? <p>{description}</p> : undefined}
        action={<LinkButton to={backTo} text={backText} intent="primary" />}
      />
    </div>
  );
}

/** Any other failure to load a page, with a retry. */
export function LoadErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="insights-browse-state" role="alert">
      <EmptyState
        icon="error"
        title={title}
        description={<p>{formatError(error)}</p>}
        action={<Button text="Try again" onClick={onRetry} />}
      />
    </div>
  );
}
