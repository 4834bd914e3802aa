//! The Subscriptions page at /subscriptions (spec 3 §2 'Subscriptions'): 'Your subscriptions', one
//! card per subscription the reader holds or has asked for (channel, type label, state, end
//! dates), the expired and payment-issue alerts, Dismiss for an expired non-charge subscription,
//! cancel (or withdraw a request) after a confirmation, 'Manage email notifications', the
//! articles of the reader's channels and an empty state with a way to the channels directory.
//! Ended subscriptions are listed apart under 'Past subscriptions'. A card subscription shows its
//! next payment date and card ('Visa ending 4242'), and 'Update card' (UpdateCardDialog), also in
//! its payment-issue alert; 'Your invoices' lists the reader's card invoices (Invoices).
//!
//! What each card shows and allows is the server's state machine's answer
//! (`ChannelSubscription.status`), never re-derived here. After an update the list is read again
//! at once and then every second for 2 seconds (spec 3 §4, §9: `usePollAfterUpdate`). A new card
//! reaches the server with Stripe's webhook, often later than that: after 'Update card' (and after
//! the return from a card check at the bank) the list keeps being read until it shows a card other
//! than the one shown before the update, for a minute at most.
//!
//! Seats (issue 39): a channel a seat of the reader's firm gives them is listed with their
//! subscriptions, 'Provided by {firm}', with its end date and no Cancel: 'Give back' returns the
//! seat to the firm after a confirmation (`releaseFirmSeat` of their own seat).
//!
//! Private feeds and personal access tokens (issue 41): the sections 'Feeds' and 'Access tokens'
//! (Feeds), under the reading statement.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Badge, Card } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { EmptyState } from '../../components/EmptyState';
import { LinkButton } from '../../components/LinkButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { showToast } from '../../components/Toaster';
import { formatError } from '../../lib/errors';
import { usePollAfterUpdate } from '../../lib/usePollAfterUpdate';
import { ArticleCardList } from './common/ArticleCardList';
import { channelPath, CHANNELS_PATH, EMAIL_NOTIFICATIONS_PATH, subscribePath } from './common/channelText';
import { formatDay } from './common/readerDates';
import { PAYMENT_FAILED_TEXT, providedByText } from './common/subscriptionText';
import { AccessTokens, FeedLinks } from './Feeds';
import { Invoices } from './Invoices';
import { ReadingStatement } from './ReadingStatement';
import { CARD_UPDATED_TEXT, takeCardUpdate, UpdateCardDialog, type CardUpdate } from './UpdateCardDialog';
import {
  AcknowledgeExpiredSubscriptionDocument,
  CancelSubscriptionDocument,
  GiveBackFirmSeatDocument,
  SubscriptionArticlesDocument,
  SubscriptionsScreenDocument,
  type SubscriptionsScreenQuery,
} from './__generated__/Subscriptions.generated';
import './reader.css';

export type ReaderSubscription = SubscriptionsScreenQuery['me']['channelSubscriptions'][number];
export type ReaderSeat = SubscriptionsScreenQuery['me']['firmSeats'][number];
type Status = ReaderSubscription['status'];

/** Articles per page (spec 3 §9: 9 by default). */
export const SUBSCRIPTION_ARTICLES_PAGE_SIZE = 9;

/**
 * Held or asked for (live, pending), or ended with something still to say (an alert): the cards
 * at the top. The rest (cancelled, rejected, an acknowledged expiry) are past subscriptions.
 */
export function isCurrent(status: Status): boolean {
  return (
    status.effectiveState === 'active' ||
    status.effectiveState === 'paymentFailed' ||
    status.effectiveState === 'pending' ||
    status.expiredAlert ||
    status.canAcknowledgeExpired
  );
}

/** The state in words, from the server's status. */
export function stateText(sub: Pick<ReaderSubscription, 'cancelAtPeriodEnd' | 'status'>): string {
  const { status } = sub;
  switch (status.effectiveState) {
    case 'pending':
      if (status.trial === 'Pending') return 'Free trial requested';
      if (status.freeClosed === 'Pending') return 'Access request pending';
      return 'Pending';
    case 'active':
      if (status.trial === 'Active') return 'Free trial';
      return sub.cancelAtPeriodEnd ? 'Cancelled' : 'Active';
    case 'paymentFailed':
      return 'Payment failed';
    case 'expired':
      return 'Expired';
    case 'canceled':
      return 'Cancelled';
    case 'rejected':
      return 'Request not approved';
  }
}

/** The dates a card lists: a trial's end, access kept to the end of the period, an expiry. */
export function subscriptionDates(sub: ReaderSubscription): { label: string; value: string }[] {
  const { status, cancelAt } = sub;
  const live = status.effectiveState === 'active' || status.effectiveState === 'paymentFailed';
  const dates: { label: string; value: string }[] = [];
  if (status.effectiveState === 'pending') dates.push({ label: 'Requested', value: sub.createdAt });
  if (live && cancelAt) {
    const label = status.trial === 'Active' ? 'Trial ends' : sub.cancelAtPeriodEnd ? 'Access until' : 'Expires';
    dates.push({ label, value: cancelAt });
  }
  if (live && status.payable && !sub.cancelAtPeriodEnd && sub.nextPayment) dates.push({ label: 'Next payment', value: sub.nextPayment });
  if (!live && status.effectiveState !== 'pending' && cancelAt) dates.push({ label: 'Ended', value: cancelAt });
  return dates.filter((d) => formatDay(d.value) !== '');
}

/** 'Visa ending 4242' for a live subscription paid by card (or account), else null. */
export function paymentMethodText(sub: Pick<ReaderSubscription, 'paymentMethod' | 'status'>): string | null {
  const live = sub.status.effectiveState === 'active' || sub.status.effectiveState === 'paymentFailed';
  return live && sub.paymentMethod?.details ? sub.paymentMethod.details : null;
}

/**
 * Has the list a card other than `update.card` for the subscription (the card shown when the
 * reader saved a new one)? A subscription no longer listed has nothing more to wait for.
 */
export function cardChanged(update: CardUpdate) {
  return (data: SubscriptionsScreenQuery) => {
    const sub = data.me.channelSubscriptions.find((s) => s.subscriptionId === update.subscriptionId);
    return !sub || paymentMethodText(sub) !== update.card;
  };
}

export default function Subscriptions() {
  const query = useQuery(SubscriptionsScreenDocument, { fetchPolicy: 'cache-and-network' });
  const { data, loading, error } = query;
  const pollAfterUpdate = usePollAfterUpdate(query);
  const [params, setParams] = useSearchParams();
  const returned = params.get('redirect_status');
  // Back from a card check at the bank (confirmSetup's return_url): say how it went, read again
  // (until the new card shows, when the dialog noted the card it replaces before leaving).
  useEffect(() => {
    if (!returned) return;
    const succeeded = returned === 'succeeded';
    void showToast(
      succeeded
        ? { message: CARD_UPDATED_TEXT, intent: 'success' }
        : { message: 'Your card could not be saved. Please try again.', intent: 'danger' },
    );
    setParams({}, { replace: true });
    const update = takeCardUpdate();
    pollAfterUpdate(succeeded && update ? cardChanged(update) : undefined);
  }, [returned, setParams, pollAfterUpdate]);
  const subscriptions = data?.me.channelSubscriptions ?? [];
  const current = subscriptions.filter((s) => isCurrent(s.status));
  const past = subscriptions.filter((s) => !isCurrent(s.status));
  const seats = data?.me.firmSeats ?? [];
  const hasCurrent = current.length > 0 || seats.length > 0;

  return (
    <Page title="Your subscriptions">
      <div className="insights-reader-toolbar">
        <LinkButton to={EMAIL_NOTIFICATIONS_PATH} text="Manage email notifications" icon="envelope" />
      </div>
      {error && !data && (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      )}
      {loading && !data && <LoadingBlock label="Loading your subscriptions" />}
      {data && (
        <>
          {hasCurrent ? (
            <ul aria-label="Your subscriptions" className="insights-channel-grid insights-subscriptions">
              {current.map((s) => (
                <li key={s.channelId}>
                  <SubscriptionCard subscription={s} onUpdated={pollAfterUpdate} />
                </li>
              ))}
              {seats.map((seat) => (
                <li key={`seat-${seat.firmSubscriptionId}`}>
                  <SeatCard seat={seat} userId={data.me._id} onUpdated={pollAfterUpdate} />
                </li>
              ))}
            </ul>
          ) : (
            <section className="insights-reader-section" aria-label="No subscriptions">
              <EmptyState
                icon="feed"
                title="You have no channel subscriptions yet"
                description={<p>Subscribe to channels to read their latest insights and get them by email.</p>}
                action={<LinkButton to={CHANNELS_PATH} text="Find channels and subscribe" intent="primary" />}
              />
            </section>
          )}
          {past.length > 0 && (
            <Section title="Past subscriptions">
              <ul aria-label="Past subscriptions" className="insights-channel-grid insights-subscriptions">
                {past.map((s) => (
                  <li key={s.channelId}>
                    <SubscriptionCard subscription={s} onUpdated={pollAfterUpdate} headingLevel={3} />
                  </li>
                ))}
              </ul>
            </Section>
          )}
          <Section title="Your invoices">
            <Invoices />
          </Section>
          <Section title="Your reading statement">
            <ReadingStatement />
          </Section>
          <Section title="Feeds">
            <FeedLinks />
          </Section>
          <Section title="Access tokens">
            <AccessTokens />
          </Section>
          {hasCurrent && (
            <Section title="Articles from your subscriptions">
              <SubscriptionArticles />
            </Section>
          )}
        </>
      )}
    </Page>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="insights-reader-section" aria-labelledby={id}>
      <div className="insights-reader-section-head">
        <h2 id={id}>{title}</h2>
      </div>
      {children}
    </section>
  );
}

/** Refetches the list right away; `onUpdated` then keeps polling for a while. */
const REFETCH_LIST = { refetchQueries: [SubscriptionsScreenDocument], awaitRefetchQueries: true };

interface SubscriptionCardProps {
  subscription: ReaderSubscription;
  /** Called after a change, so that the list keeps polling for a while (or until `settled`). */
  onUpdated: (settled?: (data: SubscriptionsScreenQuery) => boolean) => void;
  headingLevel?: 2 | 3;
}

function SubscriptionCard({ subscription: sub, onUpdated, headingLevel = 2 }: SubscriptionCardProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  const { status, channel } = sub;
  const [confirming, setConfirming] = useState(false);
  const [updatingCard, setUpdatingCard] = useState(false);
  const [cancel, cancelling] = useMutation(CancelSubscriptionDocument, REFETCH_LIST);
  const [acknowledge, acknowledging] = useMutation(AcknowledgeExpiredSubscriptionDocument, REFETCH_LIST);
  const pending = status.effectiveState === 'pending';
  const dates = subscriptionDates(sub);
  const card = paymentMethodText(sub);
  const updateCard = status.canUpdateCard;
  const cardUpdated = (update: CardUpdate) => {
    setUpdatingCard(false);
    void showToast({ message: CARD_UPDATED_TEXT, intent: 'success' });
    onUpdated(cardChanged(update));
  };
  const updateCardButton = updateCard && (
    <Button text="Update card" intent={status.paymentFailedAlert ? 'primary' : 'none'} onClick={() => setUpdatingCard(true)} />
  );

  const run = async (change: () => Promise<unknown>, done?: string) => {
    try {
      await change();
      if (done) void showToast({ message: done, intent: 'success' });
      onUpdated();
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    }
  };
  const confirmCancel = async () => {
    await run(() => cancel({ variables: { channelId: sub.channelId } }), cancelledText(sub));
    setConfirming(false);
  };

  return (
    <Card className="insights-reader-card insights-subscription-card" labelledBy={titleId}>
      <Heading id={titleId} className="insights-channel-card-title">
        <Link to={channelPath(channel._id)}>{channel.name}</Link>
      </Heading>
      <p className="insights-subscription-badges">
        <Badge text={status.typeLabel} />
        <Badge text={stateText(sub)} intent={stateIntent(status)} />
      </p>
      {(dates.length > 0 || card) && (
        <dl className="insights-subscription-dates">
          {dates.map((d) => (
            <div key={d.label}>
              <dt>{d.label}</dt>
              <dd>
                <time dateTime={d.value}>{formatDay(d.value)}</time>
              </dd>
            </div>
          ))}
          {card && (
            <div>
              <dt>Payment method</dt>
              <dd>{card}</dd>
            </div>
          )}
        </dl>
      )}
      {sub.cancelAtPeriodEnd && status.effectiveState === 'active' && status.trial !== 'Active' && (
        <p className="insights-subscription-note">
          {sub.cancelAt
            ? `Your subscription will not renew. You keep access until ${formatDay(sub.cancelAt)}.`
            : 'Your subscription will not renew. You keep access to the end of the billing period.'}
        </p>
      )}
      {status.expiredAlert && (
        <Banner intent="warning" role="alert">
          {status.trial === 'Expired' ? 'Your free trial of this channel has expired.' : 'Your subscription to this channel has expired.'}{' '}
          {!status.canAcknowledgeExpired && <Link to={subscribePath(channel._id)}>Subscribe again</Link>}
        </Banner>
      )}
      {status.paymentFailedAlert && (
        <Banner intent="danger" role="alert">
          <p>{PAYMENT_FAILED_TEXT}</p>
          {updateCardButton}
        </Banner>
      )}
      {(status.canAcknowledgeExpired || status.canCancel || (updateCard && !status.paymentFailedAlert)) && (
        <div className="insights-channel-card-actions">
          {!status.paymentFailedAlert && updateCardButton}
          {status.canAcknowledgeExpired && (
            <Button
              text="Dismiss"
              label={`Dismiss the expired subscription to ${channel.name}`}
              loading={acknowledging.loading}
              onClick={() => void run(() => acknowledge({ variables: { channelId: sub.channelId } }))}
            />
          )}
          {status.canCancel && (
            <Button
              text={pending ? 'Withdraw request' : 'Cancel subscription'}
              variant="outlined"
              intent="danger"
              onClick={() => setConfirming(true)}
            />
          )}
        </div>
      )}
      <Dialog
        isOpen={confirming}
        title={pending ? 'Withdraw your request?' : `Cancel your subscription to ${channel.name}?`}
        icon="disable"
        onClose={() => !cancelling.loading && setConfirming(false)}
        footer={
          <>
            <Button
              text={pending ? 'Keep request' : 'Keep subscription'}
              disabled={cancelling.loading}
              onClick={() => setConfirming(false)}
            />
            <Button
              text={pending ? 'Withdraw request' : 'Cancel subscription'}
              intent="danger"
              loading={cancelling.loading}
              onClick={() => void confirmCancel()}
            />
          </>
        }
      >
        <p>{cancelWarning(sub)}</p>
      </Dialog>
      {updateCard && sub.subscriptionId && (
        <UpdateCardDialog
          isOpen={updatingCard}
          channelName={channel.name}
          subscriptionId={sub.subscriptionId}
          card={card}
          onClose={() => setUpdatingCard(false)}
          onUpdated={cardUpdated}
        />
      )}
    </Card>
  );
}

/** The dates a seat's card lists: a start still to come, and the end of the firm's subscription. */
export function seatDates(seat: ReaderSeat): { label: string; value: string }[] {
  const dates: { label: string; value: string }[] = [];
  if (!seat.isActive && new Date(seat.startsAt).getTime() > Date.now()) dates.push({ label: 'Starts', value: seat.startsAt });
  if (seat.cancelAt) dates.push({ label: 'Ends', value: seat.cancelAt });
  return dates.filter((d) => formatDay(d.value) !== '');
}

/**
 * A channel a seat of the reader's firm gives them: 'Provided by {firm}', its dates, and 'Give
 * back' (after a confirmation) instead of Cancel: the firm's subscription is not the reader's.
 */
function SeatCard({ seat, userId, onUpdated }: { seat: ReaderSeat; userId: string; onUpdated: () => void }) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const [giveBack, givingBack] = useMutation(GiveBackFirmSeatDocument, REFETCH_LIST);
  const dates = seatDates(seat);
  const confirm = async () => {
    try {
      await giveBack({ variables: { firmSubscriptionId: seat.firmSubscriptionId, userId } });
      void showToast({ message: `You have given your seat of ${seat.channelName} back to ${seat.firmName}.`, intent: 'success' });
      onUpdated();
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    }
    setConfirming(false);
  };

  return (
    <Card className="insights-reader-card insights-subscription-card" labelledBy={titleId}>
      <h2 id={titleId} className="insights-channel-card-title">
        <Link to={channelPath(seat.channelId)}>{seat.channelName}</Link>
      </h2>
      <p className="insights-subscription-badges">
        <Badge text={providedByText(seat.firmName)} icon="office" />
        <Badge text={seat.isActive ? 'Active' : 'Not started'} intent={seat.isActive ? 'success' : 'none'} />
        {!seat.isFullArticleContent && <Badge text="Summaries only" />}
      </p>
      {dates.length > 0 && (
        <dl className="insights-subscription-dates">
          {dates.map((d) => (
            <div key={d.label}>
              <dt>{d.label}</dt>
              <dd>
                <time dateTime={d.value}>{formatDay(d.value)}</time>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className="insights-channel-card-actions">
        <Button
          text="Give back"
          variant="outlined"
          label={`Give back your seat of ${seat.channelName}`}
          onClick={() => setConfirming(true)}
        />
      </div>
      <Dialog
        isOpen={confirming}
        title={`Give back your seat of ${seat.channelName}?`}
        icon="disable"
        onClose={() => !givingBack.loading && setConfirming(false)}
        footer={
          <>
            <Button text="Keep seat" disabled={givingBack.loading} onClick={() => setConfirming(false)} />
            <Button text="Give back" intent="danger" loading={givingBack.loading} onClick={() => void confirm()} />
          </>
        }
      >
        <p>
          Your access to {seat.channelName}&apos;s premium articles, provided by {seat.firmName}, ends now. Your firm&apos;s administrator
          can give you a seat again.
        </p>
      </Dialog>
    </Card>
  );
}

function stateIntent(status: Status): 'success' | 'warning' | 'danger' | 'none' {
  switch (status.effectiveState) {
    case 'active':
      return 'success';
    case 'pending':
      return 'warning';
    case 'paymentFailed':
      return 'danger';
    default:
      return 'none';
  }
}

/** What the confirmation says will happen (spec 3 §4: a paid subscription keeps access to the end of the period). */
export function cancelWarning(sub: ReaderSubscription): string {
  const name = sub.channel.name;
  if (sub.status.effectiveState === 'pending') return `Your request for ${name} will be withdrawn. You can ask again later.`;
  if (sub.status.cancelKeepsAccessToPeriodEnd) {
    const charge = sub.status.payable ? ' You will not be charged again.' : '';
    return `You keep Premium access to ${name} until the end of the current billing period.${charge}`;
  }
  return `Your access to ${name} ends now. You can subscribe again later.`;
}

function cancelledText(sub: ReaderSubscription): string {
  const name = sub.channel.name;
  if (sub.status.effectiveState === 'pending') return `Your request for ${name} has been withdrawn.`;
  if (sub.status.cancelKeepsAccessToPeriodEnd)
    return `Your subscription to ${name} has been cancelled. You keep access until the end of the billing period.`;
  return `You have unsubscribed from ${name}.`;
}

/** getArticles of the reader's channels, newest first, with 'Load more' while more follow. */
function SubscriptionArticles() {
  const first = SUBSCRIPTION_ARTICLES_PAGE_SIZE;
  const { data, loading, error, fetchMore } = useQuery(SubscriptionArticlesDocument, {
    variables: { first, page: 1 },
    fetchPolicy: 'cache-and-network',
  });
  const [page, setPage] = useState(1);
  const [loadingMore, setLoadingMore] = useState(false);
  const result = data?.getArticles;

  const loadMore = async () => {
    setLoadingMore(true);
    try {
      await fetchMore({
        variables: { page: page + 1 },
        updateQuery: (previous, { fetchMoreResult }) => {
          const known = new Set(previous.getArticles?.articles?.map((a) => a?._id) ?? []);
          return {
            getArticles: {
              ...fetchMoreResult.getArticles,
              // An article published meanwhile shifts the pages: leave out the ones already shown.
              articles: [
                ...(previous.getArticles?.articles ?? []),
                ...fetchMoreResult.getArticles.articles.filter((a) => !known.has(a._id)),
              ],
            },
          } as typeof fetchMoreResult;
        },
      });
      setPage(page + 1);
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <ArticleCardList
      label="Articles from your subscriptions"
      articles={result?.articles ?? []}
      loading={loading && !result}
      error={error ? formatError(error) : undefined}
      emptyMessage="Your channels have not published any articles yet"
      hasMore={result?.hasMore ?? false}
      onLoadMore={() => void loadMore()}
      loadingMore={loadingMore}
    />
  );
}

export const SUBSCRIPTIONS_SCREEN_QUERY = gql`
  query SubscriptionsScreen {
    me {
      _id
      channelSubscriptions {
        channelId
        cancelAt
        cancelAtPeriodEnd
        nextPayment
        createdAt
        rebate
        subscriptionType
        subscriptionId
        paymentMethod {
          type
          details
        }
        channel {
          _id
          name
        }
        status {
          effectiveState
          payable
          paymentFailedAlert
          expiredAlert
          canAcknowledgeExpired
          canCancel
          cancelKeepsAccessToPeriodEnd
          canUpdateCard
          trial
          freeClosed
          typeLabel
        }
      }
      firmSeats {
        firmSubscriptionId
        firmId
        firmName
        channelId
        channelName
        startsAt
        cancelAt
        assignedAt
        isActive
        isFullArticleContent
      }
    }
  }
`;

export const SUBSCRIPTION_ARTICLES_QUERY = gql`
  query SubscriptionArticles($first: Int!, $page: Int!) {
    getArticles(params: { onlyMySubscriptions: true }, first: $first, page: $page) {
      articles {
        _id
        ...ArticleCard_article
      }
      hasMore
    }
  }
`;

export const CANCEL_SUBSCRIPTION_MUTATION = gql`
  mutation CancelSubscription($channelId: ID!) {
    cancelSubscription(channelId: $channelId) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;

export const ACKNOWLEDGE_EXPIRED_SUBSCRIPTION_MUTATION = gql`
  mutation AcknowledgeExpiredSubscription($channelId: ID!) {
    nonChargeChannelSubscriptionExpiredAcknowledged(channelId: $channelId) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;

export const GIVE_BACK_FIRM_SEAT_MUTATION = gql`
  mutation GiveBackFirmSeat($firmSubscriptionId: ID!, $userId: ID!) {
    releaseFirmSeat(firmSubscriptionId: $firmSubscriptionId, userId: $userId)
  }
`;
