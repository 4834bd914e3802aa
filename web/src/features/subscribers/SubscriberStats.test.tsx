import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  CancelSubscriberNowDocument,
  ChannelSubscribersDocument,
  DeleteSubscriberDocument,
  ProcessFreeClosedRequestDocument,
  ProcessInvoiceRequestDocument,
  ProcessTrialRequestDocument,
  SubscriberStatsHeaderDocument,
  type ChannelSubscribersQueryVariables,
} from './__generated__/SubscriberStats.generated';
import { ChannelFirmSubscriptionsDocument } from './__generated__/ChannelFirms.generated';
import { NO_FIRMS_TEXT } from './ChannelFirms';
import { IDS, listUser, subscriberChannel } from './testData';

const PATH = `/publisher/premium-channels/subscriber-stats/${IDS.oil}`;
const administrator = testUser('Administrator');
const editor = testUser('Editor');

const COUNTS = [
  ['All', 5],
  ['Trial', 2],
  ['Paid', 1],
  ['PaymentFailed', 0],
  ['Expired', 1],
  ['NonCharge', 1],
  ['Unsubscribed', 0],
  ['Requests', 2],
  ['FirmSeats', 1],
] as const;

const USERS = [
  listUser(),
  listUser(
    { _id: IDS.bob, insightsUserId: 'auth0|bob', name: 'Bob Buyer', email: 'bob@example.com', company: null, articleViewsByChannel: 0 },
    { subscriptionType: 'stripe', cancelAt: null, status: { effectiveState: 'active', typeLabel: 'Paid - Non-clearing' } },
  ),
  listUser(
    {
      _id: IDS.cy,
      insightsUserId: 'auth0|cy',
      name: 'Cy Client',
      email: 'cy@example.com',
      company: 'Cyan',
      firmName: 'Acme Bank',
      articleViewsByChannel: 12,
    },
    { subscriptionType: 'nonCharge', cancelAt: '2030-12-31T23:59:59Z', status: { effectiveState: 'active', typeLabel: 'Non-charge' } },
  ),
];

/** A reader a client firm gives the channel through a seat, with no subscription of their own. */
const SEAT_HOLDERS = [
  {
    ...listUser({ _id: IDS.cy, insightsUserId: 'auth0|cy', name: 'Cy Client', email: 'cy@example.com', company: 'Cyan' }),
    firmName: 'Acme Bank',
    holdsFirmSeat: true,
    channelSubscription: null,
  },
];

const REQUESTS = [
  listUser({}, { cancelAt: null, status: { effectiveState: 'pending', typeLabel: 'Trial' } }),
  listUser(
    { _id: IDS.bob, insightsUserId: 'auth0|bob', name: 'Bob Buyer', email: 'bob@example.com' },
    { subscriptionType: 'free', cancelAt: null, status: { effectiveState: 'pending', typeLabel: 'Free' } },
  ),
  listUser(
    { _id: IDS.cy, insightsUserId: 'auth0|cy', name: 'Cy Client', email: 'cy@example.com', company: 'Cyan' },
    { subscriptionType: 'external', cancelAt: null, status: { effectiveState: 'pending', typeLabel: 'Billed externally' } },
  ),
];

function headerMock(calls: { n: number }, channel = subscriberChannel()): MockLink.MockedResponse {
  return {
    request: { query: SubscriberStatsHeaderDocument, variables: { channelId: IDS.oil } },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: () => {
      calls.n += 1;
      return {
        data: {
          channel,
          subscriberViewCounts: COUNTS.map(([view, count]) => ({ __typename: 'SubscriberViewCount', view, count })),
        },
      };
    },
  };
}

/** A fake `channelSubscribedUsers`: Requests shows the requests, the other views the subscribers; records each call. */
function listMock(calls: ChannelSubscribersQueryVariables[]): MockLink.MockedResponse {
  return {
    request: { query: ChannelSubscribersDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const v = variables as ChannelSubscribersQueryVariables;
      calls.push(v);
      const q = v.searchQuery?.toLowerCase();
      const all = v.view === 'Requests' ? REQUESTS : v.view === 'FirmSeats' ? SEAT_HOLDERS : USERS;
      const rows = all.filter((u) => !q || u.name.toLowerCase().includes(q));
      return { data: { channelSubscribedUsers: { __typename: 'SubscribedUserPage', total: rows.length, users: rows } } };
    },
  };
}

/** A client firm's subscription to the channel, as the Firms tab reads it. */
function channelFirm(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'FirmSubscription',
    _id: '67e000000000000000000001',
    firmId: '67f000000000000000000001',
    firmName: 'Acme Bank',
    seats: 2,
    seatsUsed: 1,
    typeLabel: 'Paid - Clearing',
    subscriptionState: 'active',
    startsAt: new Date(2026, 0, 5).toISOString(),
    cancelAt: '2026-12-31T23:59:59Z',
    ...overrides,
  };
}

function channelFirmsMock(firms: ReturnType<typeof channelFirm>[]): MockLink.MockedResponse {
  return {
    request: { query: ChannelFirmSubscriptionsDocument, variables: { channelId: IDS.oil } },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: { data: { channelFirmSubscriptions: firms } },
  };
}

const table = () => screen.getByRole('table', { name: 'Subscribers' });
const rowTexts = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));
const views = () => within(screen.getByRole('group', { name: 'Filter' }));

beforeAll(async () => {
  await import('./SubscriberStats');
});

// Long journeys (a debounced search, a save and the screen it returns to) on a busy machine.
describe('SubscriberStats', { timeout: 15_000 }, () => {
  it('shows the views with their counts and the subscribers of the Trial view first', async () => {
    const calls: ChannelSubscribersQueryVariables[] = [];
    renderApp({ path: PATH, user: administrator, mocks: [headerMock({ n: 0 }), listMock(calls)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Channels' })).toHaveAttribute('href', '/publisher/premium-channels');
    expect(crumbs.getByText('Oil Weekly')).toHaveAttribute('aria-current', 'page');

    await screen.findByText('Ada Reader');
    expect(
      views()
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Trial (2)',
      'All (5)',
      'Paid (1)',
      'Payment failed (0)',
      'Expired (1)',
      'Non-charge (1)',
      'Unsubscribed (0)',
      'Requests (2)',
      'Firm seats (1)',
    ]);
    expect(views().getByRole('button', { name: 'Trial (2)' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Company',
      'Firm',
      'Email',
      'Type',
      'State',
      'Subscribed since',
      'Ends',
      'Article views',
      'Actions',
    ]);
    expect(rowTexts()[0]).toEqual([
      'Ada Reader',
      'Acme',
      // A reader in no client firm.
      '',
      'ada@example.com',
      'Trial',
      'Active',
      '05 Mar 2026',
      '19 Mar 2026',
      '3 view(s)',
      // Icon actions (named below): no text to wrap onto a second line.
      '',
    ]);
    expect(calls[0]).toEqual({
      channelId: IDS.oil,
      view: 'Trial',
      searchQuery: null,
      sortField: 'subscribedAt',
      sortDirection: 'Desc',
      limit: 15,
      offset: 0,
    });

    // Edit links carry the URL-encoded subject; a card subscription cannot be cancelled or deleted by staff.
    expect(screen.getByRole('link', { name: 'Edit Ada Reader' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/subscribers/${IDS.oil}/edit/auth0%7Cada`,
    );
    expect(screen.queryByRole('button', { name: 'Cancel now Bob Buyer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Bob Buyer' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel now Cy Client' })).toBeInTheDocument();
    // Each icon action is named and has the name as its tooltip.
    for (const action of [
      screen.getByRole('link', { name: 'Edit Ada Reader' }),
      screen.getByRole('button', { name: 'Cancel now Ada Reader' }),
      screen.getByRole('button', { name: 'Delete Ada Reader' }),
    ]) {
      expect(action).toHaveAttribute('title', action.getAttribute('aria-label'));
      expect(action).toHaveTextContent(/^$/);
    }
    expect(screen.getByRole('link', { name: 'Add subscriber' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/subscribers/${IDS.oil}/add`,
    );
    expect(screen.getByRole('link', { name: 'Add subscribers in bulk' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/subscribers/${IDS.oil}/add-bulk`,
    );
  });

  it('asks the server for another view, a search (after the debounce) and a sort', async () => {
    const user = userEvent.setup();
    const calls: ChannelSubscribersQueryVariables[] = [];
    renderApp({ path: PATH, user: administrator, mocks: [headerMock({ n: 0 }), listMock(calls)] });
    await screen.findByText('Ada Reader');

    await user.click(views().getByRole('button', { name: 'Paid (1)' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ view: 'Paid', offset: 0 }));

    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers...' }), 'cy');
    await waitFor(() => expect(rowTexts().map((r) => r[0])).toEqual(['Cy Client']));
    // One search, for the whole text: the debounce waits for the typing to stop.
    expect(calls.filter((c) => c.searchQuery).map((c) => c.searchQuery)).toEqual(['cy']);

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'name', sortDirection: 'Asc', searchQuery: 'cy', view: 'Paid' }));
  });

  it('approves a trial request after the confirmation, then reloads the list and the counts', async () => {
    const user = userEvent.setup();
    const header = { n: 0 };
    const calls: ChannelSubscribersQueryVariables[] = [];
    const approve = vi.fn(() => ({
      data: {
        processTrialRequest: {
          __typename: 'ProcessedRequest',
          name: 'Ada Lovelace',
          channelSubscription: { __typename: 'ChannelSubscription', subscriptionState: 'active' },
        },
      },
    }));
    renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock(header),
        listMock(calls),
        {
          request: { query: ProcessTrialRequestDocument, variables: { item: { channelId: IDS.oil, userId: IDS.ada, approved: true } } },
          result: approve,
        },
      ],
    });
    await screen.findByText('Ada Reader');
    await user.click(views().getByRole('button', { name: 'Requests (2)' }));
    const approveButton = await screen.findByRole('button', { name: 'Approve Ada Reader' });
    // Requests have no edit, cancel or delete.
    expect(screen.queryByRole('link', { name: 'Edit Ada Reader' })).not.toBeInTheDocument();
    const [headersBefore, listsBefore] = [header.n, calls.length];

    await user.click(approveButton);
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve request' });
    expect(dialog).toHaveTextContent('Approve the free trial request of Ada Reader?');
    expect(approve).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('The free trial request of Ada Lovelace has been approved.')).toBeInTheDocument();
    expect(approve).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(header.n).toBeGreaterThan(headersBefore));
    await waitFor(() => expect(calls.length).toBeGreaterThan(listsBefore));
  });

  it('rejects an access request through processFreeClosedRequest', async () => {
    const user = userEvent.setup();
    const reject = vi.fn(() => ({
      data: {
        processFreeClosedRequest: {
          __typename: 'ProcessedRequest',
          name: 'Bob Buyer',
          channelSubscription: { __typename: 'ChannelSubscription', subscriptionState: 'rejected' },
        },
      },
    }));
    renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock({ n: 0 }),
        listMock([]),
        {
          request: {
            query: ProcessFreeClosedRequestDocument,
            variables: { item: { channelId: IDS.oil, userId: IDS.bob, approved: false } },
          },
          result: reject,
        },
      ],
    });
    await screen.findByText('Ada Reader');
    await user.click(views().getByRole('button', { name: 'Requests (2)' }));
    await user.click(await screen.findByRole('button', { name: 'Reject Bob Buyer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject request' });
    expect(dialog).toHaveTextContent('Reject the access request of Bob Buyer?');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('The access request of Bob Buyer has been rejected.')).toBeInTheDocument();
    expect(reject).toHaveBeenCalledTimes(1);
  });

  it('approves an invoice request through processInvoiceRequest', async () => {
    const user = userEvent.setup();
    const approve = vi.fn(() => ({
      data: {
        processInvoiceRequest: {
          __typename: 'ProcessedRequest',
          name: 'Cy Client',
          channelSubscription: { __typename: 'ChannelSubscription', subscriptionState: 'active' },
        },
      },
    }));
    renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock({ n: 0 }),
        listMock([]),
        {
          request: { query: ProcessInvoiceRequestDocument, variables: { item: { channelId: IDS.oil, userId: IDS.cy, approved: true } } },
          result: approve,
        },
      ],
    });
    await screen.findByText('Ada Reader');
    await user.click(views().getByRole('button', { name: 'Requests (2)' }));
    await user.click(await screen.findByRole('button', { name: 'Approve Cy Client' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve request' });
    expect(dialog).toHaveTextContent('Approve the invoice request of Cy Client? The subscription starts now, billed externally');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('The invoice request of Cy Client has been approved.')).toBeInTheDocument();
    expect(approve).toHaveBeenCalledTimes(1);
  });

  it('cancels a subscription now and deletes a subscriber, each after a confirmation', async () => {
    const user = userEvent.setup();
    const cancel = vi.fn(() => ({
      data: { cancelNonStripeSubscriptionImmediately: { __typename: 'ChannelSubscription', subscriptionState: 'canceled' } },
    }));
    const remove = vi.fn(() => ({ data: { deleteChannelSubscriber: true } }));
    renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock({ n: 0 }),
        listMock([]),
        { request: { query: CancelSubscriberNowDocument, variables: { channelId: IDS.oil, userId: IDS.cy } }, result: cancel },
        { request: { query: DeleteSubscriberDocument, variables: { channelId: IDS.oil, userId: IDS.ada } }, result: remove },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel now Cy Client' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Cancel subscription now' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel now' }));
    expect(await screen.findByText('The subscription of Cy Client has been canceled.')).toBeInTheDocument();
    expect(cancel).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Delete Ada Reader' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete subscriber' });
    // Cancel leaves the subscriber alone.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete Ada Reader' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete subscriber' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The subscriber Ada Reader has been deleted.')).toBeInTheDocument();
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal of an action in a toast", async () => {
    const user = userEvent.setup();
    renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock({ n: 0 }),
        listMock([]),
        {
          request: { query: CancelSubscriberNowDocument, variables: { channelId: IDS.oil, userId: IDS.cy } },
          result: { errors: [{ message: 'This subscription has already ended.', extensions: { code: 'CONFLICT' } }] },
        },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel now Cy Client' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel subscription now' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel now' }));
    expect(await screen.findByText('CONFLICT::This subscription has already ended.')).toBeInTheDocument();
  });

  it('keeps an archived channel read-only: no add buttons, no actions', async () => {
    renderApp({ path: PATH, user: administrator, mocks: [headerMock({ n: 0 }, subscriberChannel({ state: 'archived' })), listMock([])] });
    await screen.findByText('Ada Reader');
    expect(screen.getByText('This channel is archived: its subscribers can no longer be changed.')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add subscriber' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add subscribers in bulk' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
  });

  it('lets an Editor manage a channel they administer', async () => {
    renderApp({ path: PATH, user: editor, mocks: [headerMock({ n: 0 }), listMock([])] });
    expect(await screen.findByRole('link', { name: 'Edit Ada Reader' })).toBeInTheDocument();
  });

  it('sends an Editor who does not administer the channel back to the channels list', async () => {
    const { router } = renderApp({
      path: PATH,
      user: editor,
      mocks: [headerMock({ n: 0 }, subscriberChannel({ adminUsers: [] })), listMock([])],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/premium-channels'));
  });

  it('goes back to the channels list when the server answers FORBIDDEN', async () => {
    const { router } = renderApp({
      path: PATH,
      user: administrator,
      mocks: [
        headerMock({ n: 0 }),
        {
          request: { query: ChannelSubscribersDocument, variables: () => true },
          result: { errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }] },
        },
      ],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/premium-channels'));
  });

  it("shows a subscriber's client firm in the Firm column", async () => {
    renderApp({ path: PATH, user: administrator, mocks: [headerMock({ n: 0 }), listMock([])] });
    await screen.findByText('Cy Client');
    const cy = rowTexts().find((r) => r[0] === 'Cy Client');
    expect(cy?.slice(0, 3)).toEqual(['Cy Client', 'Cyan', 'Acme Bank']);
  });

  it('lists the firm seats of the channel: the firm marked, no subscription of their own to edit', async () => {
    const user = userEvent.setup();
    renderApp({ path: PATH, user: editor, mocks: [headerMock({ n: 0 }), listMock([])] });
    await screen.findByText('Ada Reader');
    await user.click(views().getByRole('button', { name: 'Firm seats (1)' }));
    await waitFor(() =>
      expect(rowTexts().map((r) => r.slice(0, 5))).toEqual([['Cy Client', 'Cyan', 'Acme Bank (seat)', 'cy@example.com', 'Firm seat']]),
    );
    expect(screen.queryByRole('link', { name: 'Edit Cy Client' })).not.toBeInTheDocument();
  });

  it("lists the firms' subscriptions to the channel on the Firms tab, kept in the address", async () => {
    const user = userEvent.setup();
    const firms = [
      channelFirm(),
      channelFirm({
        _id: '67e000000000000000000002',
        firmId: '67f000000000000000000002',
        firmName: 'North Fund',
        seats: null,
        seatsUsed: 4,
        typeLabel: 'Trial',
        subscriptionState: 'expired',
        cancelAt: null,
      }),
    ];
    const { router } = renderApp({ path: PATH, user: editor, mocks: [headerMock({ n: 0 }), listMock([]), channelFirmsMock(firms)] });
    await screen.findByText('Ada Reader');
    await user.click(screen.getByRole('tab', { name: 'Firms' }));
    const firmTable = await screen.findByRole('table', { name: 'Firms' });
    expect(router.state.location.search).toBe('?tab=firms');
    const rows = within(firmTable)
      .getAllByRole<HTMLTableRowElement>('row')
      .map((r) => [...r.cells].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Firm', 'Seats held', 'Seats used', 'Type', 'State', 'Starts', 'Ends'],
      ['Acme Bank', '2', '1', 'Paid - Clearing', 'Active', '05 Jan 2026', '31 Dec 2026'],
      ['North Fund', 'Unlimited', '4', 'Trial', 'Expired', '05 Jan 2026', 'No end date'],
    ]);
    expect(within(firmTable).getByRole('link', { name: 'Acme Bank' })).toHaveAttribute('href', '/publisher/firms/67f000000000000000000001');

    await user.click(screen.getByRole('tab', { name: 'Subscribers' }));
    expect(await screen.findByRole('table', { name: 'Subscribers' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('says so when no firm subscribes to the channel', async () => {
    renderApp({ path: `${PATH}?tab=firms`, user: administrator, mocks: [headerMock({ n: 0 }), listMock([]), channelFirmsMock([])] });
    expect(await screen.findByText(NO_FIRMS_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Firms' })).toHaveAttribute('aria-selected', 'true');
  });

  it('has no Firms tab on a free channel (firms subscribe to premium channels)', async () => {
    renderApp({ path: PATH, user: administrator, mocks: [headerMock({ n: 0 }, subscriberChannel({ type: 'freeClosed' })), listMock([])] });
    await screen.findByText('Ada Reader');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('refuses Contributors', async () => {
    renderApp({ path: PATH, user: testUser('Contributor'), mocks: [headerMock({ n: 0 }), listMock([])] });
    expect(await screen.findByText(/Access Denied/i)).toBeInTheDocument();
  });
});
