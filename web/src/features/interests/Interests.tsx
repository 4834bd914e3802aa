//! Registered interest for Administrators (issue 14, spec 1 §7 `getAllInterests`): who registered
//! interest in which article, channel or promotional content, when, and where it was delivered.
//! Filters: the kind (chips), one item (?itemId=, from an item's screen or a row), a date range and
//! a search of the reader's name, email or company; paged on the server. 'Export CSV' downloads
//! the same selection from /export/interests.csv.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AdminList, useListState, type AdminColumn, type AdminListFilter, type ListState } from '../../components/admin';
import { Button } from '../../components/Button';
import { DownloadButton } from '../../components/DownloadButton';
import { Badge } from '../../components/Card';
import { InputField } from '../../components/InputField';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/dates';
import { DATE_MESSAGES } from '../../lib/days';
import { InterestsDocument, type InterestsQuery, type InterestsQueryVariables } from './__generated__/Interests.generated';
import './interests.css';

export const INTERESTS_PATH = '/publisher/interests';
export const EXPORT_ENDPOINT = '/export/interests.csv';

type Interest = InterestsQuery['getAllInterests']['interests'][number];
type Kind = Interest['kind'];
type DeliveryState = Interest['deliveryState'];

const ALL = 'All';

export const KIND_LABELS: Record<Kind, string> = {
  Article: 'Article',
  Channel: 'Channel',
  PromotionalContent: 'Promotional content',
};

const KIND_FILTERS: readonly AdminListFilter[] = [
  { value: ALL, label: 'All' },
  ...(Object.entries(KIND_LABELS) as [Kind, string][]).map(([value, label]) => ({ value, label })),
];

const DELIVERY: Record<DeliveryState, { text: string; intent: 'none' | 'success' | 'warning' | 'danger' }> = {
  Pending: { text: 'Pending', intent: 'none' },
  Delivered: { text: 'Delivered', intent: 'success' },
  Retrying: { text: 'Retrying', intent: 'warning' },
  Failed: { text: 'Failed', intent: 'danger' },
};

/** Interests in one item: this screen with ?itemId=. */
export function interestsOfItemPath(itemId: string): string {
  return `${INTERESTS_PATH}?${new URLSearchParams({ itemId })}`;
}

/** Where an item is seen: the article and channel pages readers use, the promotional content's edit screen. */
export function itemPath(interest: Pick<Interest, 'kind' | 'itemId'>): string {
  const id = encodeURIComponent(interest.itemId);
  switch (interest.kind) {
    case 'Article':
      return `/browse/article/${id}`;
    case 'Channel':
      return `/browse/channel/${id}`;
    case 'PromotionalContent':
      return `/publisher/promotional-content/edit/${id}`;
  }
}

export interface InterestFilters {
  kind: Kind | null;
  itemId: string | null;
  /** ISO days ('2026-03-05'), inclusive. */
  from: string | null;
  to: string | null;
  searchQuery: string | null;
}

export function interestFilters(state: ListState, itemId: string | null, range: { from: string; to: string }): InterestFilters {
  const kind = state.filter && state.filter !== ALL ? (state.filter as Kind) : null;
  return { kind, itemId, from: range.from || null, to: range.to || null, searchQuery: state.search.trim() || null };
}

/** The export's address: the list's filters as query parameters (empty ones left out). */
export function exportUrl(filters: InterestFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${EXPORT_ENDPOINT}?${query}` : EXPORT_ENDPOINT;
}

export default function Interests() {
  const [searchParams, setSearchParams] = useSearchParams();
  const itemId = searchParams.get('itemId') || null;
  const [state, change] = useListState({ filter: ALL });
  const [range, setRange] = useState({ from: '', to: '' });
  const badRange = !!range.from && !!range.to && range.from > range.to;
  const filters = interestFilters(state, itemId, range);

  const variables: InterestsQueryVariables = { params: { page: state.page, pageSize: state.pageSize, ...filters } };
  const { data, previousData, loading, error, refetch } = useQuery(InterestsDocument, {
    variables,
    fetchPolicy: 'cache-and-network',
    // A range that ends before it starts matches nothing: say so instead of asking.
    skip: badRange,
  });
  const shown = data ?? previousData;
  const rows = shown?.getAllInterests.interests ?? [];

  const changeRange = (next: Partial<typeof range>) => {
    setRange((prev) => ({ ...prev, ...next }));
    change({ page: 1 });
  };
  const showItem = (id: string | null) => {
    setSearchParams(id ? { itemId: id } : {});
    change({ page: 1 });
  };

  const columns: AdminColumn<Interest>[] = [
    { key: 'registeredAt', title: 'Registered at', width: 150, render: (i) => formatDateTime(i.registeredAt) },
    { key: 'kind', title: 'Kind', width: 150, render: (i) => KIND_LABELS[i.kind] },
    {
      key: 'item',
      title: 'Item',
      render: (i) => (
        <span className="insights-interests-item">
          <Link to={itemPath(i)}>{i.itemName}</Link>
          {!itemId && (
            <Button
              icon="search"
              size="small"
              variant="minimal"
              label={`Only interests in ${i.itemName}`}
              onClick={() => showItem(i.itemId)}
            />
          )}
        </span>
      ),
    },
    { key: 'reader', title: 'Reader', render: (i) => i.userName },
    { key: 'email', title: 'Email', render: (i) => i.userEmail },
    { key: 'company', title: 'Company', render: (i) => i.userCompany ?? '' },
    { key: 'deliveredTo', title: 'Delivered to', render: (i) => i.deliveredTo ?? '' },
    { key: 'delivery', title: 'Delivery state', width: 130, render: (i) => <DeliveryBadge interest={i} /> },
  ];

  return (
    <Page title="Interests">
      <div className="insights-interests-filters">
        <InputField label="From" type="date" name="from" value={range.from} onChange={(from) => changeRange({ from })} />
        <InputField
          label="To"
          type="date"
          name="to"
          value={range.to}
          onChange={(to) => changeRange({ to })}
          intent={badRange ? 'danger' : 'none'}
          helperText={badRange ? DATE_MESSAGES.beforeMin : undefined}
        />
        {itemId && (
          <div className="insights-interests-item-filter" role="group" aria-label="Item filter">
            <span>
              Only interests in <strong>{rows[0]?.itemId === itemId ? rows[0].itemName : 'one item'}</strong>
            </span>
            <Button text="Show all items" icon="cross" size="small" variant="minimal" onClick={() => showItem(null)} />
          </div>
        )}
      </div>
      <AdminList
        label="Interests"
        columns={columns}
        rows={badRange ? [] : rows}
        total={badRange ? 0 : (shown?.getAllInterests.total ?? 0)}
        rowKey={(i) => i._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
        search={{ placeholder: 'Search readers...' }}
        filters={KIND_FILTERS}
        actions={
          <DownloadButton
            text="Export CSV"
            icon="document"
            url={exportUrl(filters)}
            fileName="interests.csv"
            failureText="The export failed"
            disabled={badRange}
          />
        }
      />
    </Page>
  );
}

function DeliveryBadge({ interest }: { interest: Interest }) {
  const delivery = DELIVERY[interest.deliveryState];
  const failing = interest.deliveryState === 'Failed' || interest.deliveryState === 'Retrying';
  const reason = failing ? interest.deliveryError : null;
  // The last error as a tooltip (and the accessible description) of a failed or retrying delivery.
  return reason ? (
    <span title={reason} className="insights-interests-delivery">
      <Badge text={delivery.text} intent={delivery.intent} icon="info-sign" />
    </span>
  ) : (
    <Badge text={delivery.text} intent={delivery.intent} />
  );
}

export const INTERESTS_QUERY = gql`
  query Interests($params: InterestListParams) {
    getAllInterests(params: $params) {
      total
      interests {
        _id
        kind
        itemId
        itemName
        userId
        userName
        userEmail
        userCompany
        registeredAt
        deliveredTo
        deliveryState
        deliveryError
      }
    }
  }
`;
