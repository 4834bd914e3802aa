import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/dates';
import { dayText, localDay } from '../../lib/days';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  ChangeSubscriptionDocument,
  CreateAccountSubscriptionDocument,
  CreateFreeSubscriptionDocument,
  CreateTrialSubscriptionDocument,
  DeleteEditedSubscriberDocument,
  SubscriberFormChannelDocument,
  SubscriberFormRecordDocument,
  type ChannelSubscriptionInput,
} from './__generated__/SubscriberForm.generated';
import { SubscriptionHistoryDocument } from './__generated__/SubscriptionHistory.generated';
import { SubscribableUsersDocument, type SubscribableUsersQueryVariables } from './__generated__/UserSearchField.generated';
import { formRecord, IDS, statsMocks, subscriberChannel } from './testData';

const ADD = `/publisher/premium-channels/subscribers/${IDS.oil}/add`;
const SUBJECT = 'auth0|ada/1';
const EDIT = `/publisher/premium-channels/subscribers/${IDS.oil}/edit/${encodeURIComponent(SUBJECT)}`;
const editor = testUser('Editor');
const NOTES = "Reason for activating this subscription on user's behalf";
const OVERRIDE = 'Reason to override the trial policy';

const USERS = [
  { __typename: 'User', _id: IDS.ada, name: 'Ada Reader', email: 'ada@example.com', company: 'Acme' },
  { __typename: 'User', _id: IDS.bob, name: 'Bob Buyer', email: 'bob@example.com', company: null },
];

function usersMock(calls: SubscribableUsersQueryVariables[] = []): MockLink.MockedResponse {
  return {
    request: { query: SubscribableUsersDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const v = variables as SubscribableUsersQueryVariables;
      calls.push(v);
      const q = v.searchQuery?.toLowerCase() ?? '';
      return {
        data: {
          getPaginatedUsers: { __typename: 'UserPage', users: USERS.filter((u) => u.name.toLowerCase().includes(q)) },
        },
      };
    },
  };
}

const channelMock = (channel = subscriberChannel()): MockLink.MockedResponse => ({
  request: { query: SubscriberFormChannelDocument, variables: { channelId: channel._id } },
  result: { data: { channel } },
});

const recordMock = (record = formRecord(), channel = subscriberChannel()): MockLink.MockedResponse => ({
  request: { query: SubscriberFormRecordDocument, variables: { channelId: channel._id, insightsUserId: SUBJECT } },
  result: { data: { channel, channelSubscriber: record } },
});

const HISTORY = [
  {
    __typename: 'SubscriptionAuditEntry',
    changedAt: '2026-03-05T10:00:00Z',
    actor: { __typename: 'UserSummary', _id: IDS.erin, name: 'Erin Editor', email: 'erin@example.com' },
    route: 'Staff',
    action: 'grant',
    fromType: null,
    fromState: null,
    toType: 'account',
    toState: 'active',
    cancelAt: '2030-12-31T23:59:59Z',
    notes: 'Sales deal',
  },
  {
    __typename: 'SubscriptionAuditEntry',
    changedAt: '2026-03-01T08:30:00Z',
    actor: null,
    route: 'Worker',
    action: 'expire',
    fromType: 'trial',
    fromState: 'active',
    toType: 'trial',
    toState: 'expired',
    cancelAt: null,
    notes: null,
  },
];

const historyMock: MockLink.MockedResponse = {
  request: { query: SubscriptionHistoryDocument, variables: { channelId: IDS.oil, userId: IDS.ada } },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { subscriptionAuditLog: HISTORY } },
};

const field = (label: string) => screen.getByLabelText(label, { selector: 'input, textarea' });
const group = (name: string) => screen.getByRole('radiogroup', { name });
const radio = (groupName: string, name: string) => within(group(groupName)).getByRole('radio', { name });
const ok = (name: string) => ({ data: { [name]: { __typename: 'ChannelSubscription', subscriptionState: 'active' } } });

/** The payload the form sends, with the fields it leaves out as null. */
const input = (overrides: Partial<ChannelSubscriptionInput>): ChannelSubscriptionInput => ({
  channelId: IDS.oil,
  userId: IDS.ada,
  subscriptionType: 'account',
  rebate: false,
  accountNumber: null,
  billingMethod: null,
  pricePerMonth: null,
  cancelAt: null,
  trialDuration: null,
  policyOverrideReason: null,
  notes: null,
  addedByAdmin: true,
  isFullArticleContent: null,
  ...overrides,
});

async function pickUser(user: ReturnType<typeof userEvent.setup>, text: string, option: string) {
  await user.type(screen.getByRole('combobox', { name: 'User' }), text);
  await user.click(await screen.findByRole('option', { name: option }));
}

beforeAll(async () => {
  await import('./SubscriberForm');
  await import('./SubscriberStats');
});

// Long journeys (a debounced search, a save and the screen it returns to) on a busy machine.
describe('SubscriberForm: add', { timeout: 15_000 }, () => {
  it('adds a clearing account subscriber found by the user search, then returns to the subscriber stats', async () => {
    const user = userEvent.setup();
    const searches: SubscribableUsersQueryVariables[] = [];
    const item = input({
      accountNumber: 'ACC-9',
      pricePerMonth: '45.50',
      cancelAt: '2030-12-31T00:00:00.000Z',
      notes: 'Signed contract',
    });
    const create = vi.fn(() => ok('createAccountChannelSubscription'));
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(),
        usersMock(searches),
        { request: { query: CreateAccountSubscriptionDocument, variables: { item } }, result: create },
        ...statsMocks(),
      ],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add subscriber' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Channels' })).toHaveAttribute('href', '/publisher/premium-channels');
    expect(crumbs.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/subscriber-stats/${IDS.oil}`,
    );

    await user.type(screen.getByRole('combobox', { name: 'User' }), 'ada');
    // The search runs once the typing stops, among the users who can join this channel.
    await waitFor(() => expect(searches.at(-1)).toEqual({ channelId: IDS.oil, searchQuery: 'ada', limit: 20 }), { timeout: 3000 });
    expect(searches.map((s) => s.searchQuery)).toEqual([null, 'ada']);
    // The match: the name, and the email as its description.
    await user.click(await screen.findByRole('option', { name: 'Ada Reader ada@example.com' }));
    expect(field('User')).toHaveValue('Ada Reader (ada@example.com)');

    await user.click(radio('Payment category', 'Paid'));
    expect(radio('Subscription type', 'Card')).toBeDisabled();
    expect(
      within(group('Subscription type'))
        .getAllByRole('radio')
        .filter((r) => (r as HTMLInputElement).checked),
    ).toEqual([]);
    await user.click(radio('Subscription type', 'Clearing account'));
    await user.type(field('Account number'), 'ACC-9');
    const price = field('Bespoke monthly price (USD)');
    // The channel's price applies when none is given.
    expect(price).toHaveAttribute('placeholder', '49.00');
    await user.type(price, '45.5');
    await user.tab();
    expect(price).toHaveValue('45.50');
    await user.type(field('Expiry date'), '31/12/2030');
    await user.type(field(NOTES), 'Signed contract');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been added.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
  });

  it('shows the required messages when adding without a user, category or notes', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: editor, mocks: [channelMock(), usersMock()] });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    expect(field(NOTES)).not.toHaveAccessibleDescription(/required/);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveAccessibleDescription('This field should be chosen');
    expect(group('Payment category')).toHaveAccessibleDescription('This field should be chosen');
    expect(field(NOTES)).toHaveAccessibleDescription(/^This field is required/);
    expect(screen.getByRole('heading', { level: 1, name: 'Add subscriber' })).toBeInTheDocument();
  });

  it('resets the sub-type with the category: Free trial sets trial with the channel trial days, the others ask for one', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: editor, mocks: [channelMock(), usersMock()] });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    expect(screen.queryByRole('radiogroup', { name: 'Subscription type' })).not.toBeInTheDocument();

    await user.click(radio('Payment category', 'Free trial'));
    expect(radio('Subscription type', 'Free trial')).toBeChecked();
    expect(field('Trial duration (days)')).toHaveValue('21');
    expect(screen.queryByLabelText('Expiry date')).not.toBeInTheDocument();

    await user.click(radio('Payment category', 'Free'));
    expect(
      within(group('Subscription type'))
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['rebated', 'nonCharge']);
    expect(radio('Subscription type', 'Clearing client (rebated)')).not.toBeChecked();
    expect(radio('Subscription type', 'Non-client')).not.toBeChecked();
    expect(screen.queryByLabelText('Trial duration (days)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(group('Subscription type')).toHaveAccessibleDescription('This field should be chosen');

    await user.click(radio('Subscription type', 'Non-client'));
    expect(screen.queryByLabelText('Account number')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Bespoke monthly price (USD)')).not.toBeInTheDocument();
    expect(field('Expiry date')).toBeInTheDocument();
    await user.click(radio('Subscription type', 'Clearing client (rebated)'));
    expect(field('Account number')).toHaveAccessibleDescription('This field is required');
    // A rebated client is not charged: no price.
    expect(screen.queryByLabelText('Bespoke monthly price (USD)')).not.toBeInTheDocument();

    await user.click(radio('Payment category', 'Paid'));
    await user.click(radio('Subscription type', 'Billed externally'));
    expect(field('Billing method')).toHaveAccessibleDescription('This field is required');
  });

  it('keeps the trial duration within the configured bounds and sends it with a new trial', async () => {
    const user = userEvent.setup();
    const item = input({ subscriptionType: 'trial', trialDuration: 30, notes: 'Pilot' });
    const create = vi.fn(() => ok('createTrialChannelSubscription'));
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(),
        usersMock(),
        { request: { query: CreateTrialSubscriptionDocument, variables: { item } }, result: create },
        ...statsMocks(),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    await pickUser(user, 'ada', 'Ada Reader ada@example.com');
    await user.click(radio('Payment category', 'Free trial'));
    const days = field('Trial duration (days)');
    await user.clear(days);
    await user.type(days, '101');
    await user.tab();
    expect(days).toHaveAccessibleDescription('Enter a whole number of days from 1 to 100');
    await user.clear(days);
    await user.type(days, '3x0');
    expect(days).toHaveValue('30');
    await user.type(field(NOTES), 'Pilot');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been added.')).toBeInTheDocument();
  });

  it('sends the reason to override the trial policy with a trial, and shows the refusal of its length under the duration', async () => {
    const user = userEvent.setup();
    const calls: ChannelSubscriptionInput[] = [];
    const answers = [
      {
        errors: [
          {
            message: 'Invalid input',
            extensions: { code: 'BAD_USER_INPUT', fields: { trialDuration: 'The trial policy allows at most 60 days.' } },
          },
        ],
      },
      ok('createTrialChannelSubscription'),
    ];
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(),
        usersMock(),
        {
          request: { query: CreateTrialSubscriptionDocument, variables: () => true },
          maxUsageCount: 2,
          result: (variables: Record<string, unknown>) => {
            calls.push((variables as { item: ChannelSubscriptionInput }).item);
            return answers[calls.length - 1];
          },
        },
        ...statsMocks(),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    await pickUser(user, 'ada', 'Ada Reader ada@example.com');
    // Only a trial has a reason to override the trial policy.
    expect(screen.queryByLabelText(OVERRIDE)).not.toBeInTheDocument();
    await user.click(radio('Payment category', 'Free'));
    expect(screen.queryByLabelText(OVERRIDE)).not.toBeInTheDocument();
    await user.click(radio('Payment category', 'Free trial'));
    expect(field(OVERRIDE)).toHaveAccessibleDescription(
      'Only for a trial longer than the policy allows or within its cool-off; kept in the audit trail.',
    );
    expect(field(OVERRIDE)).toHaveAttribute('maxlength', '250');

    // Without a reason, the server refuses a trial longer than the policy, under the duration.
    const days = field('Trial duration (days)');
    await user.clear(days);
    await user.type(days, '90');
    await user.type(field(NOTES), 'Pilot');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual(input({ subscriptionType: 'trial', trialDuration: 90, notes: 'Pilot' }));
    await waitFor(() => expect(days).toHaveAccessibleDescription('The trial policy allows at most 60 days.'));
    expect(days).toHaveFocus();
    expect(screen.getByRole('heading', { level: 1, name: 'Add subscriber' })).toBeInTheDocument();

    // With one, the trial is given and the reason sent with it.
    await user.type(field(OVERRIDE), '  Board approved a longer pilot ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual(
      input({ subscriptionType: 'trial', trialDuration: 90, notes: 'Pilot', policyOverrideReason: 'Board approved a longer pilot' }),
    );
    expect(await screen.findByText('The subscriber Ada Reader has been added.')).toBeInTheDocument();
  });

  it('shows the cool-off refusal in the alert, and sends no reason for a type that is not a trial', async () => {
    const user = userEvent.setup();
    const refusal =
      'Ada Reader had a trial of Oil Weekly until 01 Mar 2026: no new one before 01 Mar 2027. Give a reason to override the trial policy.';
    const create = vi.fn(() => ({ errors: [{ message: refusal, extensions: { code: 'CONFLICT' } }] }));
    const account = vi.fn(() => ok('createAccountChannelSubscription'));
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(),
        usersMock(),
        {
          request: {
            query: CreateTrialSubscriptionDocument,
            variables: { item: input({ subscriptionType: 'trial', trialDuration: 21, notes: 'Pilot' }) },
          },
          result: create,
        },
        {
          request: { query: CreateAccountSubscriptionDocument, variables: { item: input({ accountNumber: 'ACC-9', notes: 'Pilot' }) } },
          result: account,
        },
        ...statsMocks(),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    await pickUser(user, 'ada', 'Ada Reader ada@example.com');
    await user.click(radio('Payment category', 'Free trial'));
    await user.type(field(NOTES), 'Pilot');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await within(screen.getByRole('form')).findByRole('alert')).toHaveTextContent(`CONFLICT::${refusal}`);

    // A reason typed for the trial is not sent once another type is chosen.
    await user.type(field(OVERRIDE), 'Renewal talks');
    await user.click(radio('Payment category', 'Paid'));
    await user.click(radio('Subscription type', 'Clearing account'));
    await user.type(field('Account number'), 'ACC-9');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(account).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been added.')).toBeInTheDocument();
  });

  it("refuses an expiry date that is not a date, or in the past ('Invalid Expiry Date')", async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: editor, mocks: [channelMock(), usersMock()] });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    await user.click(radio('Payment category', 'Free'));
    await user.click(radio('Subscription type', 'Non-client'));
    const expiry = field('Expiry date');
    expect(expiry).toHaveAttribute('placeholder', 'dd/MM/yyyy');
    await user.type(expiry, '31/02/2030');
    await user.tab();
    expect(expiry).toHaveAccessibleDescription('Invalid Expiry Date');
    await user.clear(expiry);
    await user.type(expiry, '01/01/2020');
    expect(expiry).toHaveAccessibleDescription(`Invalid Expiry Date. Date should not be before ${dayText(localDay(new Date()))}`);
    await user.clear(expiry);
    expect(expiry).not.toHaveAccessibleDescription();
  });

  it("shows the server's field errors on the fields", async () => {
    const user = userEvent.setup();
    const item = input({ accountNumber: 'ACC-0', notes: 'Deal' });
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(),
        usersMock(),
        {
          request: { query: CreateAccountSubscriptionDocument, variables: { item } },
          result: {
            errors: [
              { message: 'Invalid input', extensions: { code: 'BAD_USER_INPUT', fields: { accountNumber: 'Unknown clearing account' } } },
            ],
          },
        },
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    await pickUser(user, 'ada', 'Ada Reader ada@example.com');
    await user.click(radio('Payment category', 'Paid'));
    await user.click(radio('Subscription type', 'Clearing account'));
    await user.type(field('Account number'), 'ACC-0');
    await user.type(field(NOTES), 'Deal');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(field('Account number')).toHaveAccessibleDescription('Unknown clearing account'));
    expect(within(screen.getByRole('form')).getByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');
  });

  it('offers a free channel the user and the notes only, saved as a free subscription', async () => {
    const user = userEvent.setup();
    const channel = subscriberChannel({ type: 'freeClosed', price: null });
    const item = input({ subscriptionType: 'free', notes: 'Partner' });
    const create = vi.fn(() => ok('createFreeChannelSubscription'));
    renderApp({
      path: ADD,
      user: editor,
      mocks: [
        channelMock(channel),
        usersMock(),
        { request: { query: CreateFreeSubscriptionDocument, variables: { item } }, result: create },
        ...statsMocks(channel),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add subscriber' });
    expect(screen.queryByRole('radiogroup', { name: 'Payment category' })).not.toBeInTheDocument();
    await pickUser(user, 'ada', 'Ada Reader ada@example.com');
    await user.type(field(NOTES), 'Partner');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been added.')).toBeInTheDocument();
  });

  it('sends users back to the channels list for an archived channel or one they do not administer', async () => {
    const first = renderApp({ path: ADD, user: editor, mocks: [channelMock(subscriberChannel({ state: 'archived' }))] });
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/publisher/premium-channels'));
    first.unmount();
    const second = renderApp({ path: ADD, user: editor, mocks: [channelMock(subscriberChannel({ adminUsers: [] }))] });
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/publisher/premium-channels'));
  });
});

// Long journeys (a debounced search, a save and the screen it returns to) on a busy machine.
describe('SubscriberForm: edit', { timeout: 15_000 }, () => {
  it('loads the subscriber by the URL-encoded subject and shows the history under the form', async () => {
    renderApp({ path: EDIT, user: editor, mocks: [recordMock(), historyMock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit subscriber' })).toBeInTheDocument();
    expect(field('User')).toHaveValue('Ada Reader (ada@example.com)');
    expect(field('User')).toBeDisabled();
    expect(radio('Payment category', 'Paid')).toBeChecked();
    expect(radio('Subscription type', 'Clearing account')).toBeChecked();
    expect(field('Account number')).toHaveValue('ACC-1');
    expect(field('Bespoke monthly price (USD)')).toHaveValue('40.00');
    expect(field('Expiry date')).toHaveValue('31/12/2030');
    expect(field(NOTES)).toHaveValue('Sales deal');

    const history = await screen.findByRole('table', { name: 'Subscription history' });
    const rows = within(history)
      .getAllByRole<HTMLTableRowElement>('row')
      .slice(1)
      .map((r) => [...r.cells].map((c) => c.textContent));
    expect(rows).toEqual([
      [formatDateTime('2026-03-05T10:00:00Z'), 'Erin Editor', 'Staff', '— → Clearing account (Active)', 'Sales deal'],
      [formatDateTime('2026-03-01T08:30:00Z'), '', 'Scheduled job', 'Trial (Active) → Trial (Expired)', ''],
    ]);
  });

  it('keeps account number, price and expiry within the family, clears them across it, and saves the change', async () => {
    const user = userEvent.setup();
    const item = input({ rebate: true, accountNumber: 'ACC-2', notes: 'Sales deal', isFullArticleContent: true });
    const change = vi.fn(() => ok('changeSubscription'));
    renderApp({
      path: EDIT,
      user: editor,
      mocks: [
        recordMock(),
        historyMock,
        { request: { query: ChangeSubscriptionDocument, variables: { item } }, result: change },
        ...statsMocks(),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit subscriber' });

    // Same family (Paid): the values stay.
    await user.click(radio('Subscription type', 'Billed externally'));
    expect(field('Bespoke monthly price (USD)')).toHaveValue('40.00');
    expect(field('Expiry date')).toHaveValue('31/12/2030');
    await user.click(radio('Subscription type', 'Clearing account'));
    expect(field('Account number')).toHaveValue('ACC-1');

    // Another family (Free): they are cleared.
    await user.click(radio('Payment category', 'Free'));
    await user.click(radio('Subscription type', 'Clearing client (rebated)'));
    expect(field('Account number')).toHaveValue('');
    expect(field('Expiry date')).toHaveValue('');
    await user.type(field('Account number'), 'ACC-2');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(change).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been updated.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
  });

  it("shows a running trial's end, and 'Adjust trial duration' reveals the duration to send", async () => {
    const user = userEvent.setup();
    const record = formRecord(
      {},
      {
        subscriptionType: 'trial',
        accountNumber: null,
        pricePerMonth: null,
        cancelAt: '2026-07-01T23:59:59Z',
        trialDuration: 14,
        notes: null,
        status: { trial: 'Active', typeLabel: 'Trial', paymentCategory: 'FreeTrial' },
      },
    );
    const item = input({ subscriptionType: 'trial', trialDuration: 30, isFullArticleContent: true });
    const change = vi.fn(() => ok('changeSubscription'));
    renderApp({
      path: EDIT,
      user: editor,
      mocks: [
        recordMock(record),
        historyMock,
        { request: { query: ChangeSubscriptionDocument, variables: { item } }, result: change },
        ...statsMocks(),
      ],
    });
    expect(await screen.findByText('This 14 day free trial expires on 01 Jul 2026')).toBeInTheDocument();
    expect(screen.queryByLabelText('Trial duration (days)')).not.toBeInTheDocument();
    // A trial lengthened or restarted here is weighed against the trial policy too: the reason is offered.
    expect(field(OVERRIDE)).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Adjust trial duration' }));
    const days = field('Trial duration (days)');
    expect(days).toHaveFocus();
    expect(days).toHaveValue('14');
    await user.clear(days);
    await user.type(days, '30');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(change).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been updated.')).toBeInTheDocument();
  });

  it("offers 'Restart trial' for an expired trial", async () => {
    const record = formRecord(
      {},
      {
        subscriptionType: 'trial',
        cancelAt: '2026-02-01T23:59:59Z',
        trialDuration: 14,
        status: { effectiveState: 'expired', trial: 'Expired', typeLabel: 'Trial', paymentCategory: 'FreeTrial' },
      },
    );
    renderApp({ path: EDIT, user: editor, mocks: [recordMock(record), historyMock] });
    expect(await screen.findByText('The free trial expired on 01 Feb 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restart trial' })).toBeInTheDocument();
  });

  it('keeps a running card subscription read-only', async () => {
    const record = formRecord({}, { subscriptionType: 'stripe', accountNumber: null, status: { typeLabel: 'Paid - Non-clearing' } });
    renderApp({ path: EDIT, user: editor, mocks: [recordMock(record), historyMock] });
    expect(await screen.findByText(/This subscription is paid by card/)).toBeInTheDocument();
    expect(radio('Subscription type', 'Card')).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes the subscriber after the confirmation and returns to the subscriber stats', async () => {
    const user = userEvent.setup();
    const remove = vi.fn(() => ({ data: { deleteChannelSubscriber: true } }));
    renderApp({
      path: EDIT,
      user: editor,
      mocks: [
        recordMock(),
        historyMock,
        { request: { query: DeleteEditedSubscriberDocument, variables: { channelId: IDS.oil, userId: IDS.ada } }, result: remove },
        ...statsMocks(),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit subscriber' });
    await user.click(within(screen.getByRole('form')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete subscriber' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // Toasts of earlier tests may still show: wait for the call itself.
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The subscriber Ada Reader has been deleted.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
  });

  it('goes back to the channels list when the server answers FORBIDDEN', async () => {
    const { router } = renderApp({
      path: EDIT,
      user: editor,
      mocks: [
        {
          request: { query: SubscriberFormRecordDocument, variables: { channelId: IDS.oil, insightsUserId: SUBJECT } },
          result: { errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }] },
        },
      ],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/premium-channels'));
  });
});
