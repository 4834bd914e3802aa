import type { MockLink } from '@apollo/client/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientConfig } from '../../lib/config';
import { testConfig, testUser } from '../../testing/fixtures';
import { stubDownloads } from '../../testing/downloads';
import { renderApp } from '../../testing/renderApp';
import { tableCells } from '../../testing/tables';
import { installStripe, lastElements, stripeMock } from '../../testing/stripe';
import { PAYMENT_FAILED_TEXT } from './common/subscriptionText';
import {
  cancelWarning,
  isCurrent,
  paymentMethodText,
  seatDates,
  stateText,
  subscriptionDates,
  type ReaderSeat,
  type ReaderSubscription,
} from './Subscriptions';
import { CARD_UPDATED_TEXT } from './UpdateCardDialog';

vi.mock('@stripe/react-stripe-js', () => import('../../testing/stripe'));
import { changedChannel, cards, READER_IDS, readerCard } from './testData';
import {
  AcknowledgeExpiredSubscriptionDocument,
  CancelSubscriptionDocument,
  GiveBackFirmSeatDocument,
  SubscriptionArticlesDocument,
  SubscriptionsScreenDocument,
} from './__generated__/Subscriptions.generated';
import { MyInvoicesDocument } from './__generated__/Invoices.generated';
import { MyAccessTokensDocument, MyFeedLinksDocument } from './__generated__/Feeds.generated';
import { ReadingStatementDocument } from './__generated__/ReadingStatement.generated';
import { recentMonths } from './ReadingStatement';
import { CreatePaymentSetupIntentDocument } from './__generated__/UpdateCardDialog.generated';

const USER = testUser('Subscriber');
const LATER = new Date(2026, 3, 30, 23, 59).toISOString();
const EARLIER = new Date(2026, 1, 28, 23, 59).toISOString();
const CREATED = new Date(2026, 0, 10, 9, 0).toISOString();

type Status = ReaderSubscription['status'];

function sub(channelId: string, name: string, status: Partial<Status> = {}, fields: Partial<ReaderSubscription> = {}): ReaderSubscription {
  return {
    __typename: 'ChannelSubscription',
    channelId,
    cancelAt: null,
    cancelAtPeriodEnd: false,
    nextPayment: null,
    createdAt: CREATED,
    rebate: false,
    subscriptionType: 'free',
    subscriptionId: null,
    paymentMethod: null,
    channel: { __typename: 'Channel', _id: channelId, name },
    status: {
      __typename: 'SubscriptionStatus',
      effectiveState: 'active',
      payable: false,
      paymentFailedAlert: false,
      expiredAlert: false,
      canAcknowledgeExpired: false,
      canCancel: true,
      cancelKeepsAccessToPeriodEnd: false,
      canUpdateCard: false,
      trial: null,
      freeClosed: null,
      typeLabel: 'Free',
      ...status,
    },
    ...fields,
  } as ReaderSubscription;
}

const PAID = sub(
  READER_IDS.oilChannel,
  'Oil Weekly',
  { payable: true, cancelKeepsAccessToPeriodEnd: true, typeLabel: 'Paid - Non-clearing' },
  { nextPayment: new Date(2026, 3, 1).toISOString() },
);
const TRIAL = sub(READER_IDS.gasChannel, 'Gas Daily', { trial: 'Active', typeLabel: 'Trial' }, { cancelAt: LATER });
const FAILED = sub(READER_IDS.metalsChannel, 'Metals Monthly', {
  effectiveState: 'paymentFailed',
  paymentFailedAlert: true,
  typeLabel: 'Paid - Non-clearing',
});
const PENDING = sub(READER_IDS.clubChannel, 'Analyst Club', { effectiveState: 'pending', freeClosed: 'Pending' });
const EXPIRED_NON_CHARGE = sub(
  READER_IDS.powerChannel,
  'Power Weekly',
  { effectiveState: 'expired', expiredAlert: true, canAcknowledgeExpired: true, canCancel: false, typeLabel: 'Non-charge' },
  { cancelAt: EARLIER },
);
const REJECTED = sub(READER_IDS.coalChannel, 'Coal Notes', { effectiveState: 'rejected', canCancel: false, freeClosed: 'Rejected' });

/** A small server: the list as it stands, changed by the mutations; counts the list's reads. */
function server(initial: ReaderSubscription[], seats: ReaderSeat[] = []) {
  const state = { subs: initial, seats, reads: 0 };
  const list: MockLink.MockedResponse = {
    request: { query: SubscriptionsScreenDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: () => {
      state.reads += 1;
      return { data: { me: { __typename: 'User', _id: USER._id, channelSubscriptions: state.subs, firmSeats: state.seats } } };
    },
  };
  const articles: MockLink.MockedResponse = {
    request: { query: SubscriptionArticlesDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { page: number }) => ({
      data: {
        getArticles: { __typename: 'ReaderArticlePage', articles: v.page === 1 ? cards(9) : cards(2, 10), hasMore: v.page === 1 },
      },
    }),
  };
  /** A mutation on `channelId` that replaces its row with `next` (or fails with `errors`). */
  const mutation = (
    query: typeof CancelSubscriptionDocument | typeof AcknowledgeExpiredSubscriptionDocument,
    field: string,
    channelId: string,
    next: ReaderSubscription,
    errors?: GraphQLError[],
  ): MockLink.MockedResponse => ({
    request: { query, variables: { channelId } },
    result: () => {
      if (errors) return { errors };
      state.subs = state.subs.map((s) => (s.channelId === channelId ? next : s));
      const channel = changedChannel(next.channel, readerCard({ action: 'Subscribed' }));
      return { data: { [field]: { __typename: 'ChannelSubscription', channelId, channel } } };
    },
  });
  return { state, list, articles, mutation };
}

/** The reader's invoices (none unless a test says otherwise). */
function invoicesMock(invoices: unknown[] = []): MockLink.MockedResponse {
  return {
    request: { query: MyInvoicesDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: { data: { myInvoices: invoices } },
  };
}

/** The reader's reading statement: one article read this month, in full (any month asked). */
function statementMock(): MockLink.MockedResponse {
  return {
    request: { query: ReadingStatementDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: {
        myReadingStatement: [
          {
            __typename: 'ReadingStatementLine',
            articleId: '65d000000000000000000042',
            title: 'Copper outlook',
            channelName: 'Metals Weekly',
            firstRead: new Date(2026, 2, 5, 14, 5).toISOString(),
            reads: 3,
            full: true,
            sources: ['web'],
          },
        ],
      },
    },
  };
}

/** The reader's feed links and access tokens (none: Feeds.test.tsx covers them). */
const feedsMocks: MockLink.MockedResponse[] = [
  { request: { query: MyFeedLinksDocument }, maxUsageCount: Number.POSITIVE_INFINITY, result: { data: { myFeedLinks: [] } } },
  { request: { query: MyAccessTokensDocument }, maxUsageCount: Number.POSITIVE_INFINITY, result: { data: { myAccessTokens: [] } } },
];

function open(
  mocks: MockLink.MockedResponse[],
  width?: number,
  options: { invoices?: unknown[]; config?: ClientConfig; path?: string } = {},
) {
  return renderApp({
    path: options.path ?? '/subscriptions',
    user: USER,
    mocks: [...mocks, invoicesMock(options.invoices), statementMock(), ...feedsMocks],
    width,
    config: options.config,
  });
}

const card = (name: string) => within(screen.getByRole('article', { name }));

const MONTHS = recentMonths(new Date());

function monthlyStatementMock(asked: string[]): MockLink.MockedResponse {
  return {
    request: { query: ReadingStatementDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      asked.push(variables.month as string);
      const lines =
        variables.month === MONTHS[0].value
          ? [
              {
                __typename: 'ReadingStatementLine',
                articleId: 'a1',
                title: 'Copper outlook',
                channelName: 'Metals Weekly',
                firstRead: new Date(2026, 2, 5, 14, 5).toISOString(),
                reads: 3,
                full: true,
                sources: ['agent', 'web'],
              },
              {
                __typename: 'ReadingStatementLine',
                articleId: 'a2',
                title: 'Zinc brief',
                channelName: null,
                firstRead: new Date(2026, 2, 6, 9, 0).toISOString(),
                reads: 1,
                full: false,
                sources: ['feed'],
              },
            ]
          : [];
      return { data: { myReadingStatement: lines } };
    },
  };
}

describe('Subscriptions page', () => {
  it('lists the subscriptions with their type, state and dates, past ones apart, and the articles', async () => {
    const { list, articles } = server([PAID, TRIAL, PENDING, REJECTED]);
    open([list, articles]);
    expect(await screen.findByRole('heading', { name: 'Your subscriptions', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage email notifications' })).toHaveAttribute('href', '/email-notifications');

    const current = await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(within(current).getAllByRole('article')).toHaveLength(3);
    expect(card('Oil Weekly').getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute(
      'href',
      `/browse/channel/${READER_IDS.oilChannel}`,
    );
    expect(card('Oil Weekly').getByText('Paid - Non-clearing')).toBeInTheDocument();
    expect(card('Oil Weekly').getByText('Active')).toBeInTheDocument();
    expect(card('Oil Weekly').getByText('Next payment')).toBeInTheDocument();
    expect(card('Oil Weekly').getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();

    expect(card('Gas Daily').getByText('Free trial')).toBeInTheDocument();
    expect(card('Gas Daily').getByText('Trial ends').nextElementSibling).toHaveTextContent('30 Apr 2026');

    expect(card('Analyst Club').getByText('Access request pending')).toBeInTheDocument();
    expect(card('Analyst Club').getByRole('button', { name: 'Withdraw request' })).toBeInTheDocument();

    const past = within(screen.getByRole('list', { name: 'Past subscriptions' }));
    expect(past.getByText('Request not approved')).toBeInTheDocument();
    expect(past.queryByRole('button')).not.toBeInTheDocument();

    const feed = within(await screen.findByRole('list', { name: 'Articles from your subscriptions' }));
    expect(feed.getAllByRole('article')).toHaveLength(9);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(feed.getAllByRole('article')).toHaveLength(11));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows the alerts the server asks for', async () => {
    const { list, articles } = server([FAILED, EXPIRED_NON_CHARGE, TRIAL]);
    open([list, articles], 360);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(card('Metals Monthly').getByRole('alert')).toHaveTextContent(PAYMENT_FAILED_TEXT);
    expect(card('Metals Monthly').getByText('Payment failed')).toBeInTheDocument();
    expect(card('Power Weekly').getByRole('alert')).toHaveTextContent('Your subscription to this channel has expired.');
    expect(card('Gas Daily').queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });

  it('dismisses an expired non-charge subscription', async () => {
    const { list, articles, mutation, state } = server([PAID, EXPIRED_NON_CHARGE]);
    const acknowledged = sub(
      READER_IDS.powerChannel,
      'Power Weekly',
      { effectiveState: 'expired', canCancel: false, typeLabel: 'Non-charge' },
      { cancelAt: EARLIER },
    );
    const dismiss = mutation(
      AcknowledgeExpiredSubscriptionDocument,
      'nonChargeChannelSubscriptionExpiredAcknowledged',
      READER_IDS.powerChannel,
      acknowledged,
    );
    open([list, articles, dismiss]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    await userEvent.click(card('Power Weekly').getByRole('button', { name: 'Dismiss the expired subscription to Power Weekly' }));
    // Read again at once: the subscription moves to the past ones, without its alert.
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Past subscriptions' })).getByText('Expired')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(state.reads).toBeGreaterThanOrEqual(2);
  });

  it('cancels a paid subscription after a confirmation saying access lasts to the end of the period, then polls for 2 seconds', async () => {
    const { list, articles, mutation, state } = server([PAID]);
    const cancelled = sub(
      READER_IDS.oilChannel,
      'Oil Weekly',
      { payable: true, canCancel: false, typeLabel: 'Paid - Non-clearing' },
      { cancelAtPeriodEnd: true, cancelAt: LATER },
    );
    open([list, articles, mutation(CancelSubscriptionDocument, 'cancelSubscription', READER_IDS.oilChannel, cancelled)]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    await userEvent.click(card('Oil Weekly').getByRole('button', { name: 'Cancel subscription' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/You keep Premium access to Oil Weekly until the end of the current billing period\./)).toBeInTheDocument();

    // Keeping it changes nothing.
    await userEvent.click(dialog.getByRole('button', { name: 'Keep subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state.reads).toBe(1);

    await userEvent.click(card('Oil Weekly').getByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(card('Oil Weekly').getByText('Access until').nextElementSibling).toHaveTextContent('30 Apr 2026'));
    expect(card('Oil Weekly').getByText('Cancelled')).toBeInTheDocument();
    expect(card('Oil Weekly').queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(await screen.findByText(/Your subscription to Oil Weekly has been cancelled\./)).toBeInTheDocument();

    // Read again at once, then each second for 2 seconds, then no more.
    const afterUpdate = state.reads;
    await waitFor(() => expect(state.reads).toBeGreaterThan(afterUpdate), { timeout: 1800 });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const settled = state.reads;
    expect(settled).toBeLessThanOrEqual(afterUpdate + 2);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(state.reads).toBe(settled);
  }, 15000);

  it('withdraws a pending request', async () => {
    const { list, articles, mutation } = server([PENDING]);
    const withdrawn = sub(READER_IDS.clubChannel, 'Analyst Club', { effectiveState: 'canceled', canCancel: false, freeClosed: 'Canceled' });
    open([list, articles, mutation(CancelSubscriptionDocument, 'cancelSubscription', READER_IDS.clubChannel, withdrawn)]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    await userEvent.click(card('Analyst Club').getByRole('button', { name: 'Withdraw request' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Your request for Analyst Club will be withdrawn. You can ask again later.')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Withdraw request' }));
    expect(await screen.findByText('You have no channel subscriptions yet')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Past subscriptions' })).getByText('Cancelled')).toBeInTheDocument();
  });

  it('shows the server message when a cancel is refused', async () => {
    const { list, articles, mutation } = server([PAID]);
    const refused = [new GraphQLError('Your subscription already ends on 30 Apr 2026.', { extensions: { code: 'CONFLICT' } })];
    open([list, articles, mutation(CancelSubscriptionDocument, 'cancelSubscription', READER_IDS.oilChannel, PAID, refused)]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    await userEvent.click(card('Oil Weekly').getByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('CONFLICT::Your subscription already ends on 30 Apr 2026.')).toBeInTheDocument();
  });

  it('shows the empty state with a way to the channels', async () => {
    const { list, articles } = server([]);
    open([list, articles], 360);
    expect(await screen.findByText('You have no channel subscriptions yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find channels and subscribe' })).toHaveAttribute('href', '/channels');
    expect(screen.queryByRole('region', { name: 'Articles from your subscriptions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Past subscriptions' })).not.toBeInTheDocument();
  });

  it("lists what the reader read this month, another month on choosing it, and downloads the month's CSV", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    const { fetchSpy, saved, answer } = stubDownloads('blob:statement');
    const { list, articles } = server([]);
    open([monthlyStatementMock(asked), list, articles]);
    const table = await screen.findByRole('table', { name: `What you read in ${MONTHS[0].label}` });
    await within(table).findByText('Copper outlook');
    expect(tableCells(table)).toEqual([
      ['Article', 'Channel', 'First read', 'Reads', 'Read', 'Source'],
      ['Copper outlook', 'Metals Weekly', '05 Mar 2026 14:05', '3', 'Full article', 'AI assistant, Web'],
      ['Zinc brief', '', '06 Mar 2026 09:00', '1', 'Preview only', 'Feed'],
    ]);

    await user.selectOptions(screen.getByLabelText('Month'), MONTHS[1].value);
    expect(await screen.findByText(`You read no articles in ${MONTHS[1].label}.`)).toBeInTheDocument();
    expect(asked).toContain(MONTHS[1].value);

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(fetchSpy.mock.calls[0][0]).toBe(`/export/reading-statement.csv?month=${MONTHS[1].value}`);
    answer(new Response('Article,Channel\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:statement', download: `reading-statement-${MONTHS[1].value}.csv` }]));
    vi.unstubAllGlobals();
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });
});

const SEAT = {
  __typename: 'ReaderSeat',
  firmSubscriptionId: '67e000000000000000000001',
  firmId: '67f000000000000000000001',
  firmName: 'Acme Bank',
  channelId: READER_IDS.metalsChannel,
  channelName: 'Metals Monthly',
  startsAt: new Date(2026, 0, 5).toISOString(),
  cancelAt: LATER,
  assignedAt: new Date(2026, 0, 6).toISOString(),
  isActive: true,
  isFullArticleContent: true,
} as ReaderSeat;

describe("Subscriptions page: seats of the reader's firm", () => {
  it("lists a seat as a subscription 'Provided by' the firm, with its end and no Cancel", async () => {
    const { list, articles } = server([PAID], [SEAT]);
    open([list, articles]);
    const current = await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(within(current).getAllByRole('article')).toHaveLength(2);
    expect(card('Metals Monthly').getByRole('link', { name: 'Metals Monthly' })).toHaveAttribute(
      'href',
      `/browse/channel/${READER_IDS.metalsChannel}`,
    );
    expect(card('Metals Monthly').getByText('Provided by Acme Bank')).toBeInTheDocument();
    expect(card('Metals Monthly').getByText('Active')).toBeInTheDocument();
    expect(card('Metals Monthly').getByText('Ends').nextElementSibling).toHaveTextContent('30 Apr 2026');
    expect(card('Metals Monthly').queryByRole('button', { name: /Cancel|Withdraw/ })).not.toBeInTheDocument();
    expect(card('Metals Monthly').getByRole('button', { name: 'Give back your seat of Metals Monthly' })).toBeInTheDocument();
    // The reader's own subscription keeps its Cancel.
    expect(card('Oil Weekly').getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
  });

  it('gives the seat back after a confirmation, then reads the list again', async () => {
    const { list, articles, state } = server([], [SEAT]);
    const calls: unknown[] = [];
    const giveBack: MockLink.MockedResponse = {
      request: { query: GiveBackFirmSeatDocument, variables: { firmSubscriptionId: SEAT.firmSubscriptionId, userId: USER._id } },
      result: (variables: unknown) => {
        calls.push(variables);
        state.seats = [];
        return { data: { releaseFirmSeat: true } };
      },
    };
    open([list, articles, giveBack]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    // A seat alone is a subscription: no empty state, and the articles of its channel.
    expect(screen.queryByText('You have no channel subscriptions yet')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Articles from your subscriptions' })).toBeInTheDocument();

    await userEvent.click(card('Metals Monthly').getByRole('button', { name: 'Give back your seat of Metals Monthly' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Give back your seat of Metals Monthly?' }));
    expect(dialog.getByText(/Your access to Metals Monthly's premium articles, provided by Acme Bank, ends now\./)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Keep seat' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toHaveLength(0);

    await userEvent.click(card('Metals Monthly').getByRole('button', { name: 'Give back your seat of Metals Monthly' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Give back your seat of Metals Monthly?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Give back' }));
    expect(await screen.findByText('You have given your seat of Metals Monthly back to Acme Bank.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(await screen.findByText('You have no channel subscriptions yet')).toBeInTheDocument();
  });

  it("lists the dates of a seat: a start still to come, and the firm's subscription's end", () => {
    const later = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    expect(seatDates(SEAT).map((d) => d.label)).toEqual(['Ends']);
    expect(seatDates({ ...SEAT, isActive: false, startsAt: later, cancelAt: null }).map((d) => d.label)).toEqual(['Starts']);
  });
});

describe('Subscription card wording', () => {
  it('words the state from the server status', () => {
    expect(stateText(PENDING)).toBe('Access request pending');
    expect(stateText(sub('x', 'X', { effectiveState: 'pending', trial: 'Pending' }))).toBe('Free trial requested');
    expect(stateText(TRIAL)).toBe('Free trial');
    expect(stateText(FAILED)).toBe('Payment failed');
    expect(stateText(REJECTED)).toBe('Request not approved');
    expect(stateText({ ...PAID, cancelAtPeriodEnd: true })).toBe('Cancelled');
  });

  it('lists the dates that apply', () => {
    expect(subscriptionDates(TRIAL).map((d) => d.label)).toEqual(['Trial ends']);
    expect(subscriptionDates({ ...PAID, cancelAt: LATER }).map((d) => d.label)).toEqual(['Expires', 'Next payment']);
    expect(subscriptionDates({ ...PAID, cancelAt: LATER, cancelAtPeriodEnd: true }).map((d) => d.label)).toEqual(['Access until']);
    expect(subscriptionDates(EXPIRED_NON_CHARGE).map((d) => d.label)).toEqual(['Ended']);
    expect(subscriptionDates(PENDING).map((d) => d.label)).toEqual(['Requested']);
  });

  it('groups by the server state and alerts', () => {
    expect([PAID, TRIAL, FAILED, PENDING, EXPIRED_NON_CHARGE].every((s) => isCurrent(s.status))).toBe(true);
    expect(isCurrent(REJECTED.status)).toBe(false);
    expect(isCurrent({ ...EXPIRED_NON_CHARGE.status, expiredAlert: false, canAcknowledgeExpired: false })).toBe(false);
  });

  it('says when cancelling ends access', () => {
    expect(cancelWarning(PAID)).toMatch(/until the end of the current billing period\. You will not be charged again\./);
    const rebated = sub('x', 'Rebated', { typeLabel: 'Rebated - Clearing', cancelKeepsAccessToPeriodEnd: true }, { rebate: true });
    expect(cancelWarning(rebated)).toBe('You keep Premium access to Rebated until the end of the current billing period.');
    expect(cancelWarning(TRIAL)).toBe('Your access to Gas Daily ends now. You can subscribe again later.');
  });
});

const CARD_CONFIG = testConfig({
  features: { ...testConfig().features, cardPayments: true },
  stripe: { __typename: 'StripeSettings', publishableKey: 'pk_test_insights', jsUrl: 'http://127.0.0.1:9/js/v3' },
} as Partial<ClientConfig>);
const VISA = { __typename: 'PaymentMethod', type: 'card', details: 'Visa ending 4242' };
const CARD_PAID = sub(
  READER_IDS.oilChannel,
  'Oil Weekly',
  { payable: true, cancelKeepsAccessToPeriodEnd: true, canUpdateCard: true, typeLabel: 'Paid - Non-clearing' },
  { nextPayment: new Date(2026, 4, 1).toISOString(), subscriptionType: 'stripe', subscriptionId: 'sub_oil', paymentMethod: VISA },
);
const CARD_FAILED = sub(
  READER_IDS.metalsChannel,
  'Metals Monthly',
  { effectiveState: 'paymentFailed', paymentFailedAlert: true, canUpdateCard: true, typeLabel: 'Paid - Non-clearing' },
  { subscriptionType: 'stripe', subscriptionId: 'sub_metals', paymentMethod: VISA },
);

describe('Subscriptions page: card payments and invoices', () => {
  beforeEach(() => installStripe());

  it('shows a card subscription with its next payment date and card', async () => {
    const { list, articles } = server([CARD_PAID]);
    open([list, articles], undefined, { config: CARD_CONFIG });
    await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(card('Oil Weekly').getByText('Next payment').nextElementSibling).toHaveTextContent('01 May 2026');
    expect(card('Oil Weekly').getByText('Payment method').nextElementSibling).toHaveTextContent('Visa ending 4242');
    expect(card('Oil Weekly').getByRole('button', { name: 'Update card' })).toBeEnabled();
    expect(card('Oil Weekly').queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says a subscription cancelled at period end will not renew', async () => {
    const cancelled = { ...CARD_PAID, cancelAtPeriodEnd: true, cancelAt: LATER, status: { ...CARD_PAID.status, canCancel: false } };
    const { list, articles } = server([cancelled]);
    open([list, articles]);
    await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(card('Oil Weekly').getByText('Cancelled')).toBeInTheDocument();
    expect(card('Oil Weekly').getByText('Your subscription will not renew. You keep access until 30 Apr 2026.')).toBeInTheDocument();
    expect(card('Oil Weekly').queryByText('Next payment')).not.toBeInTheDocument();
  });

  it('updates the card from the payment-issue alert, then reads the list again until the alert goes', async () => {
    const { list, articles, state } = server([CARD_FAILED]);
    const setup: MockLink.MockedResponse = {
      request: { query: CreatePaymentSetupIntentDocument, variables: { subscriptionId: 'sub_metals' } },
      result: {
        data: {
          createPaymentSetupIntent: {
            __typename: 'PaymentSetup',
            clientSecret: 'seti_1_secret_abc',
            billingAddress: {
              __typename: 'PaymentSetupAddress',
              city: 'London',
              country: 'GB',
              line1: '1 King St',
              line2: null,
              postalCode: 'EC2V 8AU',
              state: null,
            },
            metadata: { __typename: 'PaymentSetupMetadata', businessName: 'Acme Trading Ltd', taxId: 'GB123456789' },
          },
        },
      },
    };
    stripeMock.confirmSetup.mockImplementation(async () => {
      // The webhook pays the open invoice: the next read of the list has no alert.
      state.subs = [
        { ...CARD_FAILED, status: { ...CARD_FAILED.status, effectiveState: 'active', paymentFailedAlert: false, payable: true } },
      ];
      return { setupIntent: { id: 'seti_1', status: 'succeeded' } };
    });
    open([list, articles, setup], undefined, { config: CARD_CONFIG });
    await screen.findByRole('list', { name: 'Your subscriptions' });
    const alert = card('Metals Monthly').getByRole('alert');
    expect(alert).toHaveTextContent(PAYMENT_FAILED_TEXT);
    await userEvent.click(within(alert).getByRole('button', { name: 'Update card' }));

    const dialog = await screen.findByRole('dialog', { name: 'Update the card for Metals Monthly' });
    expect(await within(dialog).findByRole('group', { name: 'Card payment form' })).toBeInTheDocument();
    expect(lastElements.options).toEqual({ clientSecret: 'seti_1_secret_abc' });
    const readsBefore = state.reads;
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));

    await waitFor(() => expect(stripeMock.confirmSetup).toHaveBeenCalled());
    expect(await screen.findByText(CARD_UPDATED_TEXT)).toBeInTheDocument();
    const call = stripeMock.confirmSetup.mock.calls[0][0];
    expect(call.redirect).toBe('if_required');
    expect(call.confirmParams.return_url).toMatch(/\/subscriptions$/);
    expect(call.confirmParams.payment_method_data.billing_details.address).toMatchObject({
      line1: '1 King St',
      postal_code: 'EC2V 8AU',
      country: 'GB',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(card('Metals Monthly').queryByRole('alert')).not.toBeInTheDocument(), { timeout: 3000 });
    expect(state.reads).toBeGreaterThan(readsBefore);
  }, 10_000);

  describe('a new card that reaches the server after the 2 seconds (with the webhook)', () => {
    const MASTERCARD = { __typename: 'PaymentMethod', type: 'card', details: 'Mastercard ending 4444' };
    const WEBHOOK_DELAY_MS = 3500;
    afterEach(() => {
      vi.useRealTimers();
    });
    const oilSetup: MockLink.MockedResponse = {
      request: { query: CreatePaymentSetupIntentDocument, variables: { subscriptionId: 'sub_oil' } },
      result: {
        data: {
          createPaymentSetupIntent: {
            __typename: 'PaymentSetup',
            clientSecret: 'seti_3_secret_abc',
            billingAddress: {
              __typename: 'PaymentSetupAddress',
              city: 'London',
              country: 'GB',
              line1: '1 King St',
              line2: null,
              postalCode: 'EC2V 8AU',
              state: null,
            },
            metadata: { __typename: 'PaymentSetupMetadata', businessName: 'Acme Trading Ltd', taxId: null },
          },
        },
      },
    };
    const shownCard = () => card('Oil Weekly').getByText('Payment method').nextElementSibling;

    it('reads the list again until the new card shows, then stops', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { list, articles, state } = server([CARD_PAID]);
      stripeMock.confirmSetup.mockImplementation(async () => {
        setTimeout(() => {
          state.subs = [{ ...CARD_PAID, paymentMethod: MASTERCARD }];
        }, WEBHOOK_DELAY_MS);
        return { setupIntent: { id: 'seti_3', status: 'succeeded' } };
      });
      open([list, articles, oilSetup], undefined, { config: CARD_CONFIG });
      await screen.findByRole('list', { name: 'Your subscriptions' });
      expect(shownCard()).toHaveTextContent('Visa ending 4242');
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(card('Oil Weekly').getByRole('button', { name: 'Update card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Update the card for Oil Weekly' });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled());
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(await screen.findByText(CARD_UPDATED_TEXT)).toBeInTheDocument();

      // The 2 seconds pass with the old card: the list is still read.
      await act(() => vi.advanceTimersByTimeAsync(2500));
      expect(shownCard()).toHaveTextContent('Visa ending 4242');
      // The webhook comes: the next read shows the new card.
      await act(() => vi.advanceTimersByTimeAsync(4000));
      await waitFor(() => expect(shownCard()).toHaveTextContent('Mastercard ending 4444'));
      // And then no more reads.
      const settled = state.reads;
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(state.reads).toBe(settled);
    }, 15_000);

    it('does the same after the return from a card check at the bank', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { list, articles, state } = server([CARD_PAID]);
      // What the dialog noted before confirmSetup left for the bank.
      window.sessionStorage.setItem('insights.cardUpdate', JSON.stringify({ subscriptionId: 'sub_oil', card: 'Visa ending 4242' }));
      setTimeout(() => {
        state.subs = [{ ...CARD_PAID, paymentMethod: MASTERCARD }];
      }, WEBHOOK_DELAY_MS);
      open([list, articles], undefined, { config: CARD_CONFIG, path: '/subscriptions?redirect_status=succeeded' });
      await screen.findByRole('list', { name: 'Your subscriptions' });
      expect(await screen.findByText(CARD_UPDATED_TEXT)).toBeInTheDocument();
      expect(shownCard()).toHaveTextContent('Visa ending 4242');
      await act(() => vi.advanceTimersByTimeAsync(7000));
      await waitFor(() => expect(shownCard()).toHaveTextContent('Mastercard ending 4444'));
      expect(window.sessionStorage.getItem('insights.cardUpdate')).toBeNull();
      const settled = state.reads;
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(state.reads).toBe(settled);
    }, 15_000);

    it('stops reading after a minute when the new card never shows', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { list, articles, state } = server([CARD_PAID]);
      window.sessionStorage.setItem('insights.cardUpdate', JSON.stringify({ subscriptionId: 'sub_oil', card: 'Visa ending 4242' }));
      open([list, articles], undefined, { config: CARD_CONFIG, path: '/subscriptions?redirect_status=succeeded' });
      await screen.findByRole('list', { name: 'Your subscriptions' });
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      const halfway = state.reads;
      // Every 3 seconds after the first 2, not in a tight loop.
      expect(halfway).toBeGreaterThan(5);
      expect(halfway).toBeLessThan(20);
      await act(() => vi.advanceTimersByTimeAsync(31_000));
      const settled = state.reads;
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(state.reads).toBe(settled);
      expect(shownCard()).toHaveTextContent('Visa ending 4242');
    }, 15_000);
  });

  it("shows the provider's message when the card cannot be saved", async () => {
    const { list, articles } = server([CARD_FAILED]);
    const setup: MockLink.MockedResponse = {
      request: { query: CreatePaymentSetupIntentDocument, variables: { subscriptionId: 'sub_metals' } },
      result: {
        data: {
          createPaymentSetupIntent: {
            __typename: 'PaymentSetup',
            clientSecret: 'seti_2_secret_abc',
            billingAddress: {
              __typename: 'PaymentSetupAddress',
              city: 'Oslo',
              country: 'NO',
              line1: 'Gate 1',
              line2: null,
              postalCode: '0150',
              state: null,
            },
            metadata: { __typename: 'PaymentSetupMetadata', businessName: 'Nord AS', taxId: null },
          },
        },
      },
    };
    stripeMock.confirmSetup.mockResolvedValue({ error: { type: 'card_error', message: 'Your card was declined.' } });
    open([list, articles, setup], undefined, { config: CARD_CONFIG });
    await userEvent.click(await within(await screen.findByRole('alert')).findByRole('button', { name: 'Update card' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('group', { name: 'Card payment form' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your card was declined.');
  });

  it("lists the reader's invoices with links to the hosted invoice pages, and says when there are none", async () => {
    const invoice = {
      __typename: 'Invoice',
      _id: 'in_1',
      channelId: READER_IDS.oilChannel,
      channelName: 'Oil Weekly',
      number: 'INS-0001',
      status: 'paid',
      amountDue: '49.50',
      amountPaid: '49.50',
      currency: 'usd',
      hostedInvoiceUrl: 'https://invoice.stripe.com/i/in_1',
      periodStart: new Date(2026, 3, 1).toISOString(),
      periodEnd: new Date(2026, 4, 1).toISOString(),
      created: new Date(2026, 3, 1).toISOString(),
    };
    const { list, articles } = server([CARD_PAID]);
    const { unmount } = open([list, articles], undefined, { invoices: [invoice] });
    const invoices = await screen.findByRole('list', { name: 'Your invoices' });
    expect(within(invoices).getByText('Oil Weekly')).toBeInTheDocument();
    expect(within(invoices).getByText('Invoice INS-0001')).toBeInTheDocument();
    expect(within(invoices).getByText('$49.50')).toBeInTheDocument();
    expect(within(invoices).getByText('Paid')).toBeInTheDocument();
    const link = within(invoices).getByRole('link', { name: 'View invoice: Oil Weekly, invoice INS-0001 (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://invoice.stripe.com/i/in_1');
    expect(link).toHaveAttribute('target', '_blank');
    unmount();

    const again = server([CARD_PAID]);
    open([again.list, again.articles]);
    expect(await screen.findByText('You have no invoices yet. Card payments are listed here.')).toBeInTheDocument();
  });

  it('offers a card update where the server allows one, and names the card', async () => {
    const { list, articles } = server([{ ...CARD_PAID, status: { ...CARD_PAID.status, canUpdateCard: false } }]);
    open([list, articles], undefined, { config: CARD_CONFIG });
    await screen.findByRole('list', { name: 'Your subscriptions' });
    expect(card('Oil Weekly').queryByRole('button', { name: 'Update card' })).not.toBeInTheDocument();
    expect(paymentMethodText(CARD_PAID)).toBe('Visa ending 4242');
    expect(paymentMethodText(PAID)).toBeNull();
  });
});
