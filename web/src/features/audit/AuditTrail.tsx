//! The audit trail for Administrators (issue 40): who changed what, when and from where, newest
//! first, paged on the server (`auditEvents`). Filters live in the address (?actorId=&entityType=
//! &entityId=&action=&from=&to=) so other screens can link to one record's trail; each row offers
//! 'only this actor' and 'only this record', and opens to show the fields it changed (before and
//! after) with the request it came from. 'Export CSV' downloads the same selection from
//! /export/audit.csv. Reading the trail is itself recorded by the server.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { AdminList, useAdminSettings, useListState, type AdminColumn } from '../../components/admin';
import { Button } from '../../components/Button';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { Badge } from '../../components/Card';
import { SelectControl } from '../../components/Controls';
import { DownloadButton } from '../../components/DownloadButton';
import { InputField } from '../../components/InputField';
import { Page } from '../../components/Page';
import { formatFullDateTime } from '../../lib/dates';
import { DATE_MESSAGES } from '../../lib/days';
import { useDebouncedCall } from '../../lib/useDebounced';
import { AuditEventsDocument, type AuditEventsQuery, type AuditEventsQueryVariables } from './__generated__/AuditTrail.generated';
import './audit.css';

export const EXPORT_ENDPOINT = '/export/audit.csv';

type AuditEvent = AuditEventsQuery['auditEvents']['events'][number];

/** The kinds of record the trail names, as people call them. */
export const ENTITY_LABELS: Record<string, string> = {
  article: 'Article',
  template: 'Template',
  topic: 'Topic',
  tag: 'Tag',
  desk: 'Desk',
  channel: 'Channel',
  channel_subscription: 'Subscription',
  firm: 'Firm',
  firm_subscription: 'Firm subscription',
  user: 'User',
  campaign: 'Campaign',
  promotional_content: 'Promotional content',
  promotion_page: 'Promotion page',
  billing_account: 'Billing account',
  upload: 'Upload',
};

const ANY = '';
const ENTITY_OPTIONS = [{ value: ANY, label: 'Any record' }, ...Object.entries(ENTITY_LABELS).map(([value, label]) => ({ value, label }))];

/** What a change did. Plain badges: the text says it, and coloured minimal tags lack contrast on
 * the list's striped rows. */
const OPERATION: Record<string, string> = {
  insert: 'Added',
  update: 'Changed',
  delete: 'Removed',
};

/** The filters of the address: the ones the API takes, days as the local day's bounds. */
export interface AuditFilters {
  actorId: string | null;
  entityType: string | null;
  entityId: string | null;
  action: string | null;
  /** ISO days ('2026-03-05'), inclusive. */
  from: string | null;
  to: string | null;
}

const FILTER_NAMES = ['actorId', 'entityType', 'entityId', 'action', 'from', 'to'] as const;

export function auditFilters(params: URLSearchParams): AuditFilters {
  const value = (name: string) => params.get(name)?.trim() || null;
  return {
    actorId: value('actorId'),
    entityType: value('entityType'),
    entityId: value('entityId'),
    action: value('action'),
    from: value('from'),
    to: value('to'),
  };
}

/** The local day's start as an instant; for the end of a range, the next day's start. */
export function dayBound(day: string | null, end: boolean): string | null {
  if (!day) return null;
  const [year, month, date] = day.split('-').map(Number);
  const bound = new Date(year, month - 1, date + (end ? 1 : 0));
  return Number.isNaN(bound.getTime()) ? null : bound.toISOString();
}

/** What the API and the export are asked for. */
export function apiFilters(filters: AuditFilters) {
  return {
    actorId: filters.actorId,
    entityType: filters.entityType,
    entityId: filters.entityId,
    action: filters.action,
    from: dayBound(filters.from, false),
    to: dayBound(filters.to, true),
  };
}

/** The export's address: the list's filters as query parameters (empty ones left out). */
export function exportUrl(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(apiFilters(filters))) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${EXPORT_ENDPOINT}?${query}` : EXPORT_ENDPOINT;
}

/** Who acted: a user's name (or address) and role at the time, or the CLI, the workers, Stripe. */
export function actorText(event: Pick<AuditEvent, 'actorKind' | 'actorName' | 'actorEmail' | 'actorRole'>): string {
  switch (event.actorKind) {
    case 'user': {
      const who = event.actorName ?? event.actorEmail ?? 'Unknown user';
      return event.actorRole ? `${who} (${event.actorRole})` : who;
    }
    case 'cli':
      return 'Operator (insights-cli)';
    case 'worker':
      return 'Background worker';
    case 'stripe':
      return 'Stripe';
    default:
      return 'System';
  }
}

export function entityText(event: Pick<AuditEvent, 'entityType' | 'entityId'>): string {
  if (!event.entityType) return '';
  const label = ENTITY_LABELS[event.entityType] ?? event.entityType;
  return event.entityId ? `${label} ${event.entityId}` : label;
}

/** A one-line summary: the fields a change touched, or what else the event says. */
export function summaryText(event: Pick<AuditEvent, 'changes' | 'details'>): string {
  if (event.changes.length > 0) return event.changes.map((c) => c.field).join(', ');
  return event.details ?? '';
}

export default function AuditTrail() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = auditFilters(searchParams);
  const [state, change] = useListState({});
  const badRange = !!filters.from && !!filters.to && filters.from > filters.to;

  const setFilters = (next: Partial<AuditFilters>) => {
    const merged = { ...filters, ...next };
    const params = new URLSearchParams();
    for (const name of FILTER_NAMES) if (merged[name]) params.set(name, merged[name]);
    setSearchParams(params);
    change({ page: 1 });
  };

  const variables: AuditEventsQueryVariables = {
    params: { ...apiFilters(filters), skip: (state.page - 1) * state.pageSize, limit: state.pageSize },
  };
  const { data, previousData, loading, error, refetch } = useQuery(AuditEventsDocument, {
    variables,
    fetchPolicy: 'cache-and-network',
    skip: badRange,
  });
  const shown = data ?? previousData;
  const rows = shown?.auditEvents.events ?? [];

  const columns: AdminColumn<AuditEvent>[] = [
    { key: 'occurredAt', title: 'Time', width: 190, render: (e) => formatFullDateTime(e.occurredAt) },
    {
      key: 'actor',
      title: 'Who',
      render: (e) => (
        <span className="insights-audit-cell">
          {actorText(e)}
          {e.actorId && !filters.actorId && (
            <Button
              icon="filter"
              size="small"
              variant="minimal"
              label={`Only changes by ${actorText(e)}`}
              onClick={() => setFilters({ actorId: e.actorId })}
            />
          )}
        </span>
      ),
    },
    { key: 'action', title: 'Action', render: (e) => <code>{e.action}</code> },
    {
      key: 'entity',
      title: 'Record',
      render: (e) => (
        <span className="insights-audit-cell">
          {e.operation && OPERATION[e.operation] && <Badge text={OPERATION[e.operation]} />}
          {entityText(e)}
          {e.entityType && e.entityId && !filters.entityId && (
            <Button
              icon="filter"
              size="small"
              variant="minimal"
              label={`Only changes of ${entityText(e)}`}
              onClick={() => setFilters({ entityType: e.entityType, entityId: e.entityId })}
            />
          )}
        </span>
      ),
    },
    { key: 'summary', title: 'What', render: (e) => <span className="insights-audit-summary">{summaryText(e)}</span> },
    { key: 'source', title: 'From', width: 130, render: (e) => e.sourceAddress ?? '' },
  ];

  const filtered = FILTER_NAMES.some((name) => filters[name]);
  return (
    <Page title="Audit trail">
      <div className="insights-audit-filters">
        <InputField label="From" type="date" name="from" value={filters.from ?? ''} onChange={(from) => setFilters({ from })} />
        <InputField
          label="To"
          type="date"
          name="to"
          value={filters.to ?? ''}
          onChange={(to) => setFilters({ to })}
          intent={badRange ? 'danger' : 'none'}
          helperText={badRange ? DATE_MESSAGES.beforeMin : undefined}
        />
        <SelectControl
          label="Record type"
          options={ENTITY_OPTIONS}
          value={filters.entityType ?? ANY}
          onChange={(entityType) => setFilters({ entityType: entityType || null, entityId: null })}
        />
        <TextFilter label="Record id" name="entityId" value={filters.entityId ?? ''} onChange={(entityId) => setFilters({ entityId })} />
        <TextFilter
          label="Action"
          name="action"
          placeholder="editArticle"
          value={filters.action ?? ''}
          onChange={(action) => setFilters({ action })}
        />
        {filters.actorId && (
          <div className="insights-audit-actor-filter" role="group" aria-label="Actor filter">
            <span>
              Only changes by <strong>{rows[0]?.actorId === filters.actorId ? actorText(rows[0]) : 'one user'}</strong>
            </span>
            <Button text="Anyone" icon="cross" size="small" variant="minimal" onClick={() => setFilters({ actorId: null })} />
          </div>
        )}
        {filtered && <Button text="Clear filters" icon="filter-remove" variant="minimal" onClick={() => setSearchParams({})} />}
      </div>
      <AdminList
        label="Audit trail"
        columns={columns}
        rows={badRange ? [] : rows}
        total={badRange ? 0 : (shown?.auditEvents.total ?? 0)}
        rowKey={(e) => e._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        details={{ render: (e) => <EventDetails event={e} />, name: (e) => `${formatFullDateTime(e.occurredAt)} ${e.action}` }}
        actions={
          <DownloadButton
            text="Export CSV"
            icon="document"
            url={exportUrl(filters)}
            fileName="audit-trail.csv"
            failureText="The export failed"
            disabled={badRange}
          />
        }
      />
    </Page>
  );
}

/** A text filter applied once typing pauses (the search debounce); follows the address when it changes. */
function TextFilter(props: { label: string; name: string; value: string; placeholder?: string; onChange: (value: string) => void }) {
  const { label, name, value, placeholder, onChange } = props;
  const { searchDebounceMs } = useAdminSettings();
  const [text, setText] = useState(value);
  const [sent, setSent] = useState(value);
  const apply = useDebouncedCall((next: string) => {
    setSent(next);
    onChange(next);
  }, searchDebounceMs);
  // The address changed by other means (Clear filters, a row's filter button): show it.
  if (value !== sent) {
    setSent(value);
    setText(value);
  }
  const type = (next: string) => {
    setText(next);
    apply.schedule(next);
  };
  return <InputField label={label} name={name} placeholder={placeholder} value={text} onChange={type} />;
}

/** A JSON value as people read it: text without its quotes, nothing as an em dash. */
export function valueText(json: string | null | undefined): string {
  if (json == null) return '—';
  try {
    const value: unknown = JSON.parse(json);
    if (value === null) return '—';
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

const CHANGE_COLUMNS: DataColumn<AuditEvent['changes'][number]>[] = [
  { key: 'field', title: 'Field', render: (c) => c.field },
  { key: 'before', title: 'Before', render: (c) => valueText(c.before) },
  { key: 'after', title: 'After', render: (c) => valueText(c.after) },
];

function EventDetails({ event }: { event: AuditEvent }) {
  return (
    <div className="insights-audit-details">
      {event.changes.length > 0 && (
        <div className="insights-audit-changes">
          <DataTable
            label={`Changes of ${entityText(event) || event.action}`}
            columns={CHANGE_COLUMNS}
            rows={event.changes}
            rowKey={(c) => c.field}
          />
        </div>
      )}
      <dl className="insights-audit-request">
        {event.details && (
          <>
            <dt>Details</dt>
            <dd>
              <code>{event.details}</code>
            </dd>
          </>
        )}
        {event.actorEmail && (
          <>
            <dt>Email at the time</dt>
            <dd>{event.actorEmail}</dd>
          </>
        )}
        {event.requestId && (
          <>
            <dt>Request id</dt>
            <dd>
              <code>{event.requestId}</code>
            </dd>
          </>
        )}
        {event.userAgent && (
          <>
            <dt>User agent</dt>
            <dd>{event.userAgent}</dd>
          </>
        )}
      </dl>
    </div>
  );
}

export const AUDIT_EVENTS_QUERY = gql`
  query AuditEvents($params: AuditEventParams) {
    auditEvents(params: $params) {
      total
      events {
        _id
        occurredAt
        actorKind
        actorId
        actorRole
        actorEmail
        actorName
        sourceAddress
        userAgent
        requestId
        action
        entityType
        entityId
        operation
        details
        changes {
          field
          before
          after
        }
      }
    }
  }
`;
