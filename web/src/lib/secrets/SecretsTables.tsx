//! The lists of feed links and access tokens (issue 41), as the reader sees their own on the
//! Subscriptions page (features/reader/Feeds) and an Administrator sees a user's
//! (features/users/UserSecrets): what a link follows or a token's name, when it was created and
//! last used, and Revoke. Never a secret: the server keeps only their hashes.
//!
//! Each table sits in a focusable box that scrolls sideways on a phone; `SecretsLoader` shows the
//! section's alert and the loading indicator until the list is read.
import { gql, type ErrorLike } from '@apollo/client';
import type { ReactNode } from 'react';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatDateTime } from '../dates';
import { formatError } from '../errors';
import { useTopicWording } from '../topicWording';
import type { AccessTokensTable_TokenFragment, FeedLinksTable_LinkFragment } from './__generated__/SecretsTables.generated';
import { feedScopeText, lastUsedText } from './feedScope';
import './secrets.css';

/** A feed link as the lists show it (`FeedLinksTable_link`). */
export type FeedLinkRow = FeedLinksTable_LinkFragment;
/** An access token as the lists show it (`AccessTokensTable_token`). */
export type AccessTokenRow = AccessTokensTable_TokenFragment;

/** The columns both lists share after their first. */
interface SecretRow {
  _id: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The props of `FeedLinksTable` and `AccessTokensTable`. */
export interface SecretsTableProps<T> {
  /** The table's accessible name, and its scrolling box's: 'Your feed links'. */
  label: string;
  rows: readonly T[];
  /** What the table says when there are none: 'No feed links yet'. */
  emptyText: string;
  /** Revoke pressed on a row: the caller asks for a confirmation first. */
  onRevoke: (row: T) => void;
}

/** The time of a link's or token's creation or last use ('Never' before the first). */
function When({ value }: { value: string | null | undefined }) {
  if (!value) return <>{lastUsedText(value)}</>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

interface SecretsTableLayout<T> extends SecretsTableProps<T> {
  /** What the row is: 'Follows' or 'Name'. */
  first: DataColumn<T>;
  /** Revoke's accessible name, telling the row apart from the others. */
  revokeLabel: (row: T) => string;
}

function SecretsTable<T extends SecretRow>({ label, rows, emptyText, onRevoke, first, revokeLabel }: SecretsTableLayout<T>) {
  const columns: DataColumn<T>[] = [
    first,
    { key: 'created', title: 'Created', render: (row) => <When value={row.createdAt} /> },
    { key: 'lastUsed', title: 'Last used', render: (row) => <When value={row.lastUsedAt} /> },
    {
      key: 'revoke',
      title: 'Actions',
      render: (row) => (
        <Button text="Revoke" size="small" variant="outlined" intent="danger" label={revokeLabel(row)} onClick={() => onRevoke(row)} />
      ),
    },
  ];
  return (
    <div className="insights-secrets-table" tabIndex={0} role="region" aria-label={label}>
      <DataTable label={label} columns={columns} rows={rows} rowKey={(row) => row._id} emptyText={emptyText} />
    </div>
  );
}

/** Feed links: what each follows, created, last used, Revoke. */
export function FeedLinksTable(props: SecretsTableProps<FeedLinkRow>) {
  const words = useTopicWording();
  return (
    <SecretsTable
      {...props}
      first={{ key: 'follows', title: 'Follows', render: (link) => feedScopeText(link.scope, words) }}
      revokeLabel={(link) => `Revoke the feed link for ${feedScopeText(link.scope, words)}, created ${formatDateTime(link.createdAt)}`}
    />
  );
}

/** Access tokens: each one's name, created, last used, Revoke. */
export function AccessTokensTable(props: SecretsTableProps<AccessTokenRow>) {
  return (
    <SecretsTable
      {...props}
      first={{ key: 'name', title: 'Name', render: (token) => token.name }}
      revokeLabel={(token) => `Revoke the access token ${token.name}`}
    />
  );
}

/** The props of `SecretsLoader`. */
export interface SecretsLoaderProps {
  /** The section's own error (a refusal, a revocation that failed), shown before the query's. */
  alert: string | null;
  /** The query reading the list. */
  query: { data?: unknown; loading: boolean; error?: ErrorLike };
  /** What the loading indicator says: 'Loading your feed links'. */
  loadingLabel: string;
  /** The list, shown once the query has answered. */
  children: ReactNode;
}

/**
 * The alert (the section's own, or the query's error while there is no list), then the loading
 * indicator until the first answer, then the list.
 */
export function SecretsLoader({ alert, query: { data, loading, error }, loadingLabel, children }: SecretsLoaderProps) {
  const message = alert ?? (error && !data ? formatError(error) : null);
  return (
    <>
      {message && (
        <Banner intent="danger" role="alert">
          {message}
        </Banner>
      )}
      {loading && !data ? <LoadingBlock label={loadingLabel} /> : data ? children : null}
    </>
  );
}

export const SECRETS_TABLES_FRAGMENTS = gql`
  fragment FeedLinksTable_link on FeedLink {
    _id
    scope {
      kind
      id
      name
    }
    createdAt
    lastUsedAt
  }

  fragment AccessTokensTable_token on AccessToken {
    _id
    name
    createdAt
    lastUsedAt
  }
`;
