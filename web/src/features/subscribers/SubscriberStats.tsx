//! A channel's subscriber stats (spec 3 §2 'Subscriber stats', §4 'Request approval', §6): the
//! views Trial, All, Paid, Payment failed, Expired, Non-charge and Unsubscribed, plus Requests
//! (pending trial and access requests), with their counts; name, company, client firm, email,
//! type, state, subscribed since, end and article views by channel, paged, searched and sorted by
//! the server (`channelSubscribedUsers`). A premium channel has a second tab, Firms (issue 39):
//! the client firms' subscriptions to it with their seats (`ChannelFirms`), kept in the address
//! (`?tab=firms`). Requests are approved or rejected here; subscribers are edited,
//! cancelled now (not card subscriptions) or deleted. An archived channel is read-only; a user who
//! may not manage the channel's subscribers goes back to the channels list.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { AdminList, Breadcrumbs, ConfirmDialog, useListState, type AdminColumn, type ListState } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button, type IconName, type Intent } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { Tabs } from '../../components/Tabs';
import { showToast } from '../../components/Toaster';
import { formatUtcDay } from '../../lib/dates';
import { formatError, hasErrorCode } from '../../lib/errors';
import { useSession } from '../../lib/session';
import {
  CancelSubscriberNowDocument,
  ChannelSubscribersDocument,
  DeleteSubscriberDocument,
  ProcessFreeClosedRequestDocument,
  ProcessInvoiceRequestDocument,
  ProcessTrialRequestDocument,
  SubscriberStatsHeaderDocument,
  type ChannelSubscribersQuery,
  type ChannelSubscribersQueryVariables,
} from './__generated__/SubscriberStats.generated';
import { ChannelFirms } from './ChannelFirms';
import { channelAccess } from './subscriberChannel';
import { addBulkPath, addSubscriberPath, CHANNELS_PATH, editSubscriberPath, STATE_LABELS, viewsText } from './subscriberText';
import './subscribers.css';

type Subscriber = ChannelSubscribersQuery['channelSubscribedUsers']['users'][number];
type SubscriberView = ChannelSubscribersQueryVariables['view'];
type SortField = NonNullable<ChannelSubscribersQueryVariables['sortField']>;

/** The views in the spec's order; Requests holds what waits for approval. */
export const SUBSCRIBER_VIEWS: readonly { value: SubscriberView; label: string }[] = [
  { value: 'Trial', label: 'Trial' },
  { value: 'All', label: 'All' },
  { value: 'Paid', label: 'Paid' },
  { value: 'PaymentFailed', label: 'Payment failed' },
  { value: 'Expired', label: 'Expired' },
  { value: 'NonCharge', label: 'Non-charge' },
  { value: 'Unsubscribed', label: 'Unsubscribed' },
  { value: 'Requests', label: 'Requests' },
  // Readers a client firm gives the channel through a seat (issue 39).
  { value: 'FirmSeats', label: 'Firm seats' },
];

const SORT_FIELDS: Record<string, SortField> = {
  name: 'name',
  email: 'email',
  company: 'company',
  subscribedAt: 'subscribedAt',
  cancelAt: 'cancelAt',
};

/** A subscriber's firm, marked when it gives them the channel through a seat. */
export function firmText(u: Pick<Subscriber, 'firmName' | 'holdsFirmSeat'>): string {
  if (!u.firmName) return '';
  return u.holdsFirmSeat ? `${u.firmName} (seat)` : u.firmName;
}

/** The list state as `channelSubscribedUsers` wants it. */
export function subscriberListVariables(channelId: string, state: ListState): ChannelSubscribersQueryVariables {
  return {
    channelId,
    view: SUBSCRIBER_VIEWS.find((v) => v.value === state.filter)?.value ?? 'All',
    searchQuery: state.search.trim() || null,
    sortField: state.sort ? (SORT_FIELDS[state.sort.key] ?? null) : null,
    sortDirection: state.sort ? (state.sort.direction === 'desc' ? 'Desc' : 'Asc') : null,
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
  };
}

/** A trial or access request waiting for staff. */
type RequestKind = 'trial' | 'access' | 'invoice';

function requestKind(user: Subscriber): RequestKind | null {
  const sub = user.channelSubscription;
  if (!sub || sub.status.effectiveState !== 'pending') return null;
  if (sub.subscriptionType === 'trial') return 'trial';
  if (sub.subscriptionType === 'free') return 'access';
  // A reader who asked to pay by invoice (checkout): staff confirm they are invoiced.
  if (sub.subscriptionType === 'external') return 'invoice';
  return null;
}

const isLive = (user: Subscriber) => {
  const state = user.channelSubscription?.status.effectiveState;
  return state === 'active' || state === 'paymentFailed' || state === 'pending';
};
const isCard = (user: Subscriber) => user.channelSubscription?.subscriptionType === 'stripe';
/** Staff end any running subscription now except one paid by card (the reader's checkout owns it). */
const canCancelNow = (user: Subscriber) =>
  !isCard(user) &&
  (user.channelSubscription?.status.effectiveState === 'active' || user.channelSubscription?.status.effectiveState === 'paymentFailed');
/** A running card subscription cannot be deleted by staff either. */
const canDelete = (user: Subscriber) => !(isCard(user) && isLive(user));

type ActionKind = 'approve' | 'reject' | 'cancel' | 'delete';

/** The screen's tabs (premium channels): the subscribers, and the client firms' subscriptions. */
type StatsTab = 'subscribers' | 'firms';

interface ActionWords {
  title: string;
  confirm: string;
  icon: IconName;
  intent: Intent;
  text: (name: string, request: RequestKind | null) => string;
  done: (name: string, request: RequestKind | null) => string;
}

const REQUEST_WORDS: Record<RequestKind, string> = {
  trial: 'free trial request',
  access: 'access request',
  invoice: 'invoice request',
};
const requestWords = (request: RequestKind | null) => REQUEST_WORDS[request ?? 'access'];

const ACTIONS: Record<ActionKind, ActionWords> = {
  approve: {
    title: 'Approve request',
    confirm: 'Approve',
    icon: 'tick',
    intent: 'primary',
    text: (name, request) =>
      request === 'trial'
        ? `Approve the free trial request of ${name}? The trial starts now with the channel's trial days, and ${name} is told by email.`
        : request === 'invoice'
          ? `Approve the invoice request of ${name}? The subscription starts now, billed externally, and ${name} is told by email.`
          : `Approve the access request of ${name}? ${name} is told by email.`,
    done: (name, request) => `The ${requestWords(request)} of ${name} has been approved.`,
  },
  reject: {
    title: 'Reject request',
    confirm: 'Reject',
    icon: 'cross',
    intent: 'danger',
    text: (name, request) => `Reject the ${requestWords(request)} of ${name}? ${name} is told by email.`,
    done: (name, request) => `The ${requestWords(request)} of ${name} has been rejected.`,
  },
  cancel: {
    title: 'Cancel subscription now',
    confirm: 'Cancel now',
    icon: 'disable',
    intent: 'danger',
    text: (name) => `End the subscription of ${name} now? ${name} loses access to the channel at once.`,
    done: (name) => `The subscription of ${name} has been canceled.`,
  },
  delete: {
    title: 'Delete subscriber',
    confirm: 'Delete',
    icon: 'trash',
    intent: 'danger',
    text: (name) => `Delete ${name} from the channel's subscribers? Their subscription and its history on this channel are removed.`,
    done: (name) => `The subscriber ${name} has been deleted.`,
  },
};

export default function SubscriberStats() {
  const { id = '' } = useParams();
  const me = useSession();
  const [state, change] = useListState({ filter: 'Trial', sort: { key: 'subscribedAt', direction: 'desc' } });
  const [pending, setPending] = useState<{ kind: ActionKind; user: Subscriber } | null>(null);
  const [running, setRunning] = useState(false);
  const [params, setParams] = useSearchParams();

  const header = useQuery(SubscriberStatsHeaderDocument, { variables: { channelId: id }, fetchPolicy: 'cache-and-network' });
  const list = useQuery(ChannelSubscribersDocument, {
    variables: subscriberListVariables(id, state),
    fetchPolicy: 'cache-and-network',
  });
  const [processTrial] = useMutation(ProcessTrialRequestDocument);
  const [processFreeClosed] = useMutation(ProcessFreeClosedRequestDocument);
  const [processInvoice] = useMutation(ProcessInvoiceRequestDocument);
  const [cancelNow] = useMutation(CancelSubscriberNowDocument);
  const [deleteSubscriber] = useMutation(DeleteSubscriberDocument);

  const headerData = header.data ?? header.previousData;
  const shown = list.data ?? list.previousData;
  const channel = headerData?.channel;

  if (hasErrorCode(header.error, 'FORBIDDEN') || hasErrorCode(list.error, 'FORBIDDEN')) return <Navigate to={CHANNELS_PATH} replace />;
  if (!channel) {
    if (header.loading) return <LoadingBlock />;
    return (
      <Page
        title="Subscriber stats"
        breadcrumbs={<Breadcrumbs items={[{ text: 'Channels', to: CHANNELS_PATH }, { text: 'Subscriber stats' }]} />}
      >
        <Banner intent="danger" role="alert">
          {formatError(header.error)}
        </Banner>
      </Page>
    );
  }
  const access = channelAccess(channel, me);
  if (access === 'forbidden') return <Navigate to={CHANNELS_PATH} replace />;
  const readOnly = access === 'archived';

  const counts = new Map((headerData?.subscriberViewCounts ?? []).map((c) => [c.view, c.count]));
  const views = SUBSCRIBER_VIEWS.map((v) => ({
    value: v.value,
    label: counts.has(v.value) ? `${v.label} (${counts.get(v.value)})` : v.label,
  }));

  const run = async () => {
    if (!pending) return;
    const { kind, user } = pending;
    const request = requestKind(user);
    const ids = { channelId: channel._id, userId: user._id };
    setRunning(true);
    try {
      let name = user.name;
      if (kind === 'approve' || kind === 'reject') {
        const item = { ...ids, approved: kind === 'approve' };
        const result =
          request === 'trial'
            ? (await processTrial({ variables: { item } })).data?.processTrialRequest
            : request === 'invoice'
              ? (await processInvoice({ variables: { item } })).data?.processInvoiceRequest
              : (await processFreeClosed({ variables: { item } })).data?.processFreeClosedRequest;
        name = result?.name || name;
      } else if (kind === 'cancel') {
        await cancelNow({ variables: ids });
      } else {
        await deleteSubscriber({ variables: ids });
      }
      void showToast({ message: ACTIONS[kind].done(name, request), intent: 'success' });
    } catch (error) {
      void showToast({ message: formatError(error), intent: 'danger' });
    } finally {
      setRunning(false);
      setPending(null);
      void list.refetch();
      void header.refetch();
    }
  };

  // A row's actions are small icon buttons named (and titled) 'Approve Ada Reader', so that a row
  // stays on one line at the publisher area's narrowest width (the large breakpoint, 1200 px).
  const actionButton = (kind: ActionKind, user: Subscriber, intent: Intent = 'none') => (
    <Button
      icon={ACTIONS[kind].icon}
      label={`${ACTIONS[kind].confirm} ${user.name}`}
      size="small"
      variant="minimal"
      intent={intent}
      onClick={() => setPending({ kind, user })}
    />
  );

  const columns: AdminColumn<Subscriber>[] = [
    { key: 'name', title: 'Name', sortable: true, render: (u) => u.name },
    { key: 'company', title: 'Company', sortable: true, render: (u) => u.company ?? '' },
    // A reader of a client firm (issue 39): their firm, blank for a reader in none.
    { key: 'firm', title: 'Firm', render: (u) => firmText(u) },
    { key: 'email', title: 'Email', sortable: true, render: (u) => u.email },
    { key: 'type', title: 'Type', render: (u) => u.channelSubscription?.status.typeLabel ?? (u.holdsFirmSeat ? 'Firm seat' : '') },
    {
      key: 'state',
      title: 'State',
      render: (u) => (u.channelSubscription ? STATE_LABELS[u.channelSubscription.status.effectiveState] : ''),
    },
    {
      key: 'subscribedAt',
      title: 'Subscribed since',
      sortable: true,
      render: (u) => formatUtcDay(u.channelSubscription?.createdAt),
    },
    { key: 'cancelAt', title: 'Ends', sortable: true, render: (u) => formatUtcDay(u.channelSubscription?.cancelAt) },
    { key: 'views', title: 'Article views', numeric: true, render: (u) => viewsText(u.articleViewsByChannel) },
  ];
  if (!readOnly) {
    columns.push({
      key: 'actions',
      title: 'Actions',
      render: (u) =>
        // A seat holder without a subscription of their own: their seat is the firm's to manage.
        !u.channelSubscription ? null : requestKind(u) ? (
          <span className="insights-subscriber-actions insights-subscriber-row-actions">
            {actionButton('approve', u, 'success')}
            {actionButton('reject', u, 'danger')}
          </span>
        ) : (
          <span className="insights-subscriber-actions insights-subscriber-row-actions">
            <LinkButton
              to={editSubscriberPath(channel._id, u.insightsUserId)}
              label={`Edit ${u.name}`}
              icon="edit"
              variant="minimal"
              size="small"
            />
            {canCancelNow(u) && actionButton('cancel', u)}
            {canDelete(u) && actionButton('delete', u, 'danger')}
          </span>
        ),
    });
  }

  const words = pending && ACTIONS[pending.kind];
  const subscribers = (
    <AdminList
      label="Subscribers"
      columns={columns}
      rows={shown?.channelSubscribedUsers.users ?? []}
      total={shown?.channelSubscribedUsers.total ?? 0}
      rowKey={(u) => u._id}
      state={state}
      onStateChange={change}
      loading={list.loading}
      error={shown ? undefined : list.error}
      onRetry={() => void list.refetch()}
      search={{ placeholder: 'Search subscribers...' }}
      filters={views}
      actions={
        !readOnly && (
          <span className="insights-subscriber-actions">
            <LinkButton to={addSubscriberPath(channel._id)} text="Add subscriber" icon="add" intent="primary" />
            <LinkButton to={addBulkPath(channel._id)} text="Add subscribers in bulk" icon="people" />
          </span>
        )
      }
    />
  );

  return (
    <Page
      title={`${channel.name}: subscribers`}
      breadcrumbs={<Breadcrumbs items={[{ text: 'Channels', to: CHANNELS_PATH }, { text: channel.name }]} />}
    >
      {readOnly && (
        <Banner intent="warning" title="Archived channel">
          This channel is archived: its subscribers can no longer be changed.
        </Banner>
      )}
      {channel.type === 'premium' ? (
        <Tabs<StatsTab>
          id="subscriber-stats"
          label="Subscriber stats"
          selected={params.get('tab') === 'firms' ? 'firms' : 'subscribers'}
          onChange={(next) => setParams(next === 'firms' ? { tab: next } : {}, { replace: true })}
          tabs={[
            { id: 'subscribers', title: 'Subscribers', panel: subscribers },
            { id: 'firms', title: 'Firms', panel: <ChannelFirms channelId={channel._id} /> },
          ]}
        />
      ) : (
        subscribers
      )}
      {pending && words && (
        <ConfirmDialog
          isOpen
          title={words.title}
          confirmText={words.confirm}
          icon={words.icon}
          intent={words.intent}
          loading={running}
          onConfirm={() => void run()}
          onCancel={() => setPending(null)}
        >
          <p>{words.text(pending.user.name, requestKind(pending.user))}</p>
        </ConfirmDialog>
      )}
    </Page>
  );
}

export const SUBSCRIBER_STATS_OPERATIONS = gql`
  query SubscriberStatsHeader($channelId: ID!) {
    channel(id: $channelId) {
      ...SubscriberChannel
    }
    subscriberViewCounts(channelId: $channelId) {
      view
      count
    }
  }

  query ChannelSubscribers(
    $channelId: ID!
    $view: SubscriberView!
    $searchQuery: String
    $sortField: SubscriberSortField
    $sortDirection: SortDirection
    $limit: Int!
    $offset: Int!
  ) {
    channelSubscribedUsers(
      channelId: $channelId
      view: $view
      searchQuery: $searchQuery
      sortField: $sortField
      sortDirection: $sortDirection
      limit: $limit
      offset: $offset
    ) {
      total
      users {
        _id
        channelId
        insightsUserId
        name
        email
        company
        firmName
        holdsFirmSeat
        articleViewsByChannel
        channelSubscription {
          subscriptionType
          createdAt
          cancelAt
          status {
            effectiveState
            typeLabel
          }
        }
      }
    }
  }

  mutation ProcessTrialRequest($item: RequestDecisionInput!) {
    processTrialRequest(item: $item) {
      name
      channelSubscription {
        subscriptionState
      }
    }
  }

  mutation ProcessFreeClosedRequest($item: RequestDecisionInput!) {
    processFreeClosedRequest(item: $item) {
      name
      channelSubscription {
        subscriptionState
      }
    }
  }

  mutation ProcessInvoiceRequest($item: RequestDecisionInput!) {
    processInvoiceRequest(item: $item) {
      name
      channelSubscription {
        subscriptionState
      }
    }
  }

  mutation CancelSubscriberNow($channelId: ID!, $userId: ID!) {
    cancelNonStripeSubscriptionImmediately(channelId: $channelId, userId: $userId) {
      subscriptionState
    }
  }

  mutation DeleteSubscriber($channelId: ID!, $userId: ID!) {
    deleteChannelSubscriber(channelId: $channelId, userId: $userId)
  }
`;
