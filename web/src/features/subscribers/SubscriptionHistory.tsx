//! A subscription's history on the edit screen (issue 11 'audit log'): every change with when,
//! who, by which route, from → to, and its notes, newest first (`subscriptionAuditLog`).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Banner } from '../../components/Banner';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { formatDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { SubscriptionHistoryDocument, type SubscriptionHistoryQuery } from './__generated__/SubscriptionHistory.generated';
import { STATE_LABELS, TYPE_LABELS, type SubscriptionState, type SubscriptionType } from './subscriberText';

type Entry = SubscriptionHistoryQuery['subscriptionAuditLog'][number];

const ROUTE_LABELS: Record<Entry['route'], string> = {
  Reader: 'Reader',
  Staff: 'Staff',
  Csv: 'CSV upload',
  Cli: 'Command line',
  Worker: 'Scheduled job',
  Stripe: 'Card provider',
};

/** 'Trial (Active)', or '—' for none (before the first subscription, after a delete). */
export function typeStateText(type: SubscriptionType | null | undefined, state: SubscriptionState | null | undefined): string {
  if (!type && !state) return '—';
  const typeText = type ? TYPE_LABELS[type] : '';
  const stateText = state ? STATE_LABELS[state] : '';
  return typeText && stateText ? `${typeText} (${stateText})` : typeText || stateText;
}

const columns: DataColumn<Entry>[] = [
  { key: 'changedAt', title: 'Date', render: (e) => formatDateTime(e.changedAt) },
  { key: 'actor', title: 'Who', render: (e) => e.actor?.name ?? '' },
  { key: 'route', title: 'Route', render: (e) => ROUTE_LABELS[e.route] },
  {
    key: 'change',
    title: 'Change',
    render: (e) => `${typeStateText(e.fromType, e.fromState)} → ${typeStateText(e.toType, e.toState)}`,
  },
  { key: 'notes', title: 'Notes', render: (e) => e.notes ?? '' },
];

export function SubscriptionHistory({ channelId, userId }: { channelId: string; userId: string }) {
  const { data, loading, error } = useQuery(SubscriptionHistoryDocument, {
    variables: { channelId, userId },
    fetchPolicy: 'network-only',
  });
  return (
    <section aria-labelledby="subscription-history" className="insights-subscriber-section">
      <h2 id="subscription-history">History</h2>
      {error ? (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      ) : loading && !data ? (
        <p role="status">Loading the history...</p>
      ) : (
        <DataTable
          label="Subscription history"
          columns={columns}
          rows={data?.subscriptionAuditLog ?? []}
          rowKey={(e, i) => `${e.changedAt}-${i}`}
          emptyText="No changes recorded"
        />
      )}
    </section>
  );
}

export const SUBSCRIPTION_HISTORY_QUERY = gql`
  query SubscriptionHistory($channelId: ID!, $userId: ID!) {
    subscriptionAuditLog(channelId: $channelId, userId: $userId) {
      changedAt
      actor {
        _id
        name
        email
      }
      route
      action
      fromType
      fromState
      toType
      toState
      cancelAt
      notes
    }
  }
`;
