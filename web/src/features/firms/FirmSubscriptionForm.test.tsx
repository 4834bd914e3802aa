import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { FirmPageDocument } from './__generated__/FirmPage.generated';
import {
  ChangeFirmSubscriptionDocument,
  CreateFirmSubscriptionDocument,
  FirmSubscriptionFormDocument,
  type FirmSubscriptionFormQueryVariables,
} from './__generated__/FirmSubscriptionForm.generated';
import {
  EMPTY_VALUES,
  endToIso,
  startText,
  toFirmSubscriptionInput,
  validateFirmSubscription,
  type FirmSubscriptionValues,
} from './firmSubscriptionRules';
import { FIRM_IDS, subscriptionRow } from './testData';

const TODAY = { year: 2026, month: 3, day: 10 };
const CTX = { adding: true, today: TODAY, trialMinDays: 1, trialMaxDays: 100, initialStart: '' };

/** A stored subscription as the form reads it. */
const OIL = {
  ...subscriptionRow(),
  priceBasis: 'flat',
  pricePerMonth: '900.00',
  accountNumber: 'ACC-9',
  billingMethod: null,
  trialDuration: null,
  isFullArticleContent: true,
  notes: 'Agreed with the desk',
};

const COAL_CHANNEL = '67c000000000000000000003';

/** The premium channels by name, and whether the signed-in Editor administers each (not Coal Notes). */
const PREMIUM_CHANNELS = [
  {
    channel: { __typename: 'Channel', _id: COAL_CHANNEL, name: 'Coal Notes', price: '30.00', defaultTrialDurationDays: null },
    mine: false,
  },
  {
    channel: { __typename: 'Channel', _id: FIRM_IDS.gasChannel, name: 'Gas Daily', price: '49.00', defaultTrialDurationDays: 21 },
    mine: true,
  },
  {
    channel: { __typename: 'Channel', _id: FIRM_IDS.oilChannel, name: 'Oil Weekly', price: '99.00', defaultTrialDurationDays: null },
    mine: true,
  },
];

/** The form's query: the firm, and the premium channels `channels(params)` lists for the filter asked ('MyChannels': the Editor's). */
const formMock = (subscriptions: unknown[] = [OIL], calls: FirmSubscriptionFormQueryVariables[] = []): MockLink.MockedResponse => ({
  request: { query: FirmSubscriptionFormDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: (v: FirmSubscriptionFormQueryVariables) => {
    calls.push(v);
    const items = PREMIUM_CHANNELS.filter((c) => v.channels?.filter !== 'MyChannels' || c.mine).map((c) => c.channel);
    return {
      data: {
        findFirmById: { __typename: 'Firm', _id: FIRM_IDS.acme, name: 'Acme Bank', state: 'active', subscriptions },
        channels: { __typename: 'ChannelPage', items },
      },
    };
  },
});

/** The firm page the form returns to (its Subscriptions tab). */
const firmPage: MockLink.MockedResponse = {
  request: { query: FirmPageDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: {
    data: {
      findFirmById: {
        __typename: 'Firm',
        _id: FIRM_IDS.acme,
        name: 'Acme Bank',
        domains: [],
        accountNumber: null,
        billingMethod: 'invoice',
        state: 'active',
        notes: null,
        version: 1,
        readerCount: 0,
        seatsUsed: 0,
        seatsHeld: 2,
        subscriptionCount: 1,
        subscriptions: [subscriptionRow()],
      },
    },
  },
};

const form = () => within(screen.getByRole('form'));

beforeAll(async () => {
  await import('./FirmSubscriptionForm');
  await import('./FirmPage');
});

describe('firm subscription rules', () => {
  const account: FirmSubscriptionValues = {
    ...EMPTY_VALUES,
    channelId: FIRM_IDS.oilChannel,
    subscriptionType: 'account',
    accountNumber: 'ACC-1',
    notes: 'Signed',
  };

  it('wants a channel, a type, the notes when adding, and the fields of the type', () => {
    expect(validateFirmSubscription(account, CTX)).toEqual({});
    expect(validateFirmSubscription(EMPTY_VALUES, CTX)).toEqual({
      channelId: 'This field should be chosen',
      subscriptionType: 'This field should be chosen',
      notes: 'This field is required',
    });
    expect(validateFirmSubscription({ ...account, accountNumber: ' ' }, CTX)).toEqual({ accountNumber: 'This field is required' });
    expect(validateFirmSubscription({ ...account, subscriptionType: 'external' }, CTX)).toEqual({
      billingMethod: 'This field is required',
    });
    expect(validateFirmSubscription({ ...account, notes: '' }, { ...CTX, adding: false })).toEqual({});
  });

  it('checks seats, dates, the trial length and the price', () => {
    const seats = 'Enter a whole number of seats from 1 to 1000000, or leave it empty for unlimited';
    expect(validateFirmSubscription({ ...account, seats: '0' }, CTX)).toEqual({ seats });
    expect(validateFirmSubscription({ ...account, seats: '1000001' }, CTX)).toEqual({ seats });
    expect(validateFirmSubscription({ ...account, startsAt: '31/02/2026' }, CTX)).toEqual({ startsAt: 'Invalid Start Date' });
    expect(validateFirmSubscription({ ...account, startsAt: '09/03/2026' }, CTX)).toEqual({ startsAt: 'Date cannot be in the past' });
    // A stored start left as it was is not checked again.
    expect(validateFirmSubscription({ ...account, startsAt: '01/01/2026' }, { ...CTX, initialStart: '01/01/2026' })).toEqual({});
    expect(validateFirmSubscription({ ...account, startsAt: '20/03/2026', cancelAt: '15/03/2026' }, CTX)).toEqual({
      cancelAt: 'Invalid Expiry Date. Date should not be before 20/03/2026',
    });
    expect(validateFirmSubscription({ ...account, pricePerMonth: '12.345' }, CTX)).toEqual({ pricePerMonth: 'Invalid price format' });
    const trial = { ...account, subscriptionType: 'trial' as const, accountNumber: '' };
    expect(validateFirmSubscription({ ...trial, trialDuration: '101', startsAt: 'not a date' }, CTX)).toEqual({
      trialDuration: 'Enter a whole number of days from 1 to 100',
    });
  });

  it('sends each field for the types it belongs to', () => {
    const item = toFirmSubscriptionInput(
      { ...account, seats: '2', startsAt: '', cancelAt: '31/12/2026', pricePerMonth: '49.5', priceBasis: 'flat' },
      { firmId: FIRM_IDS.acme, version: null, initialStart: '' },
    );
    expect(item).toEqual({
      firmId: FIRM_IDS.acme,
      channelId: FIRM_IDS.oilChannel,
      version: null,
      subscriptionType: 'account',
      seats: 2,
      startsAt: null,
      cancelAt: '2026-12-31T00:00:00.000Z',
      trialDuration: null,
      pricePerMonth: '49.50',
      priceBasis: 'flat',
      rebate: false,
      accountNumber: 'ACC-1',
      billingMethod: null,
      notes: 'Signed',
      isFullArticleContent: true,
    });
    const trial = toFirmSubscriptionInput(
      { ...account, subscriptionType: 'trial', cancelAt: '31/12/2026', trialDuration: '14', pricePerMonth: '10' },
      { firmId: FIRM_IDS.acme, version: 3, initialStart: '' },
    );
    expect(trial).toMatchObject({
      subscriptionType: 'trial',
      cancelAt: null,
      trialDuration: 14,
      pricePerMonth: null,
      priceBasis: null,
      accountNumber: null,
      version: 3,
    });
    expect(endToIso('05/03/2026')).toBe('2026-03-05T00:00:00.000Z');
    expect(startText(new Date(2026, 2, 5, 10).toISOString())).toBe('05/03/2026');
  });
});

describe('FirmSubscriptionForm', () => {
  it('shows the fields of the chosen type and adds a subscription with 2 seats', async () => {
    const user = userEvent.setup();
    const create = vi.fn((variables: { item: Record<string, unknown> }) => ({
      data: {
        createFirmSubscription: {
          ...OIL,
          _id: FIRM_IDS.subGas,
          channelId: FIRM_IDS.gasChannel,
          channelName: 'Gas Daily',
          seats: 2,
          ...variables.item,
        },
      },
    }));
    renderApp({
      path: `/publisher/firms/${FIRM_IDS.acme}/subscriptions/add`,
      user: testUser('Editor'),
      mocks: [formMock(), { request: { query: CreateFirmSubscriptionDocument, variables: () => true }, result: create }, firmPage],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add subscription' })).toBeInTheDocument();
    // The firm holds Oil Weekly already: only Gas Daily is offered.
    const channel = screen.getByRole('combobox', { name: 'Channel' });
    expect(
      within(channel)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a channel', 'Gas Daily']);

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('combobox', { name: 'Channel' })).toHaveAccessibleDescription('This field should be chosen');
    expect(screen.getByLabelText('Notes')).toHaveAccessibleDescription(/^This field is required/);
    expect(create).not.toHaveBeenCalled();

    await user.selectOptions(channel, 'Gas Daily');
    await user.click(screen.getByRole('radio', { name: 'Free trial' }));
    expect(screen.getByLabelText('Trial length (days)')).toHaveAccessibleDescription(
      "Leave empty for the channel's 21 days. The trial starts now.",
    );
    expect(screen.queryByLabelText('Start date')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Price per month (USD)')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Clearing account' }));
    expect(screen.queryByLabelText('Trial length (days)')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Price per month (USD)')).toHaveAttribute('placeholder', '49.00');
    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Account number')).toHaveAccessibleDescription('This field is required');

    await user.type(screen.getByLabelText('Seats'), '2x');
    expect(screen.getByLabelText('Seats')).toHaveValue('2');
    await user.type(screen.getByLabelText('End date'), '31/12/2099');
    await user.type(screen.getByLabelText('Price per month (USD)'), '45');
    await user.tab();
    expect(screen.getByLabelText('Price per month (USD)')).toHaveValue('45.00');
    await user.click(screen.getByRole('radio', { name: 'Flat' }));
    await user.type(screen.getByLabelText('Account number'), 'ACC-7');
    await user.type(screen.getByLabelText('Notes'), 'Signed by the desk');
    expect(screen.getByRole('checkbox', { name: 'Full article content' })).toBeChecked();
    await user.click(form().getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Acme Bank now subscribes to Gas Daily.')).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith({
      item: {
        firmId: FIRM_IDS.acme,
        channelId: FIRM_IDS.gasChannel,
        version: null,
        subscriptionType: 'account',
        seats: 2,
        startsAt: null,
        cancelAt: '2099-12-31T00:00:00.000Z',
        trialDuration: null,
        pricePerMonth: '45.00',
        priceBasis: 'flat',
        rebate: false,
        accountNumber: 'ACC-7',
        billingMethod: null,
        notes: 'Signed by the desk',
        isFullArticleContent: true,
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bank' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Subscriptions/ })).toHaveAttribute('aria-selected', 'true');
  }, 20_000);

  it('edits a subscription at the version read, keeps its start, and shows a conflict', async () => {
    const user = userEvent.setup();
    const change = vi.fn(() => ({
      errors: [{ message: 'Subscription was changed by someone else: reload it', extensions: { code: 'CONFLICT' } }],
    }));
    renderApp({
      path: `/publisher/firms/${FIRM_IDS.acme}/subscriptions/edit/${FIRM_IDS.oilChannel}`,
      user: testUser('Administrator'),
      mocks: [formMock(), { request: { query: ChangeFirmSubscriptionDocument, variables: () => true }, result: change }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit subscription' })).toBeInTheDocument();
    expect(screen.getByLabelText('Channel')).toHaveValue('Oil Weekly');
    expect(screen.getByLabelText('Channel')).toBeDisabled();
    expect(screen.getByLabelText('Seats')).toHaveValue('2');
    expect(screen.getByLabelText('Start date')).toHaveValue(startText(OIL.startsAt));
    expect(screen.getByLabelText('End date')).toHaveValue('31/12/2026');
    expect(screen.getByRole('radio', { name: 'Flat' })).toBeChecked();
    expect(screen.getByLabelText('Notes')).toHaveValue('Agreed with the desk');

    await user.clear(screen.getByLabelText('Seats'));
    await user.type(screen.getByLabelText('Seats'), '5');
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await form().findByRole('alert')).toHaveTextContent('CONFLICT::Subscription was changed by someone else: reload it');
    await waitFor(() => expect(change).toHaveBeenCalledTimes(1));
    expect(change).toHaveBeenCalledWith({
      item: expect.objectContaining({ version: 3, seats: 5, startsAt: null, cancelAt: '2026-12-31T00:00:00.000Z', priceBasis: 'flat' }),
    });
  });

  it.each([
    ['Editor', 'MyChannels', ['Choose a channel', 'Gas Daily']],
    ['Administrator', 'All', ['Choose a channel', 'Coal Notes', 'Gas Daily']],
  ] as const)('offers an %s the premium channels they manage (%s)', async (role, filter, offered) => {
    const calls: FirmSubscriptionFormQueryVariables[] = [];
    renderApp({ path: `/publisher/firms/${FIRM_IDS.acme}/subscriptions/add`, user: testUser(role), mocks: [formMock([OIL], calls)] });
    const channel = await screen.findByRole('combobox', { name: 'Channel' });
    expect(
      within(channel)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(offered);
    expect(calls[0]).toEqual({ id: FIRM_IDS.acme, channels: expect.objectContaining({ filter, type: 'Premium', pageSize: 200 }) });
  });

  it('says so when the firm has no subscription to the channel', async () => {
    renderApp({
      path: `/publisher/firms/${FIRM_IDS.acme}/subscriptions/edit/${FIRM_IDS.gasChannel}`,
      user: testUser('Editor'),
      mocks: [formMock()],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The firm has no subscription to this channel.');
  });
});
