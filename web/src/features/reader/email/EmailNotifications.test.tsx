import type { MockLink } from '@apollo/client/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { READER_IDS } from '../testData';
import {
  emailChannels,
  PAYMENT_FAILED_EMAILS_TEXT,
  seatNotStartedText,
  type EmailSeat,
  type EmailSubscription,
} from './EmailNotifications';
import { timeZoneOptions } from './timeZones';
import {
  ChangeEmailFrequencyDocument,
  EmailNotificationsScreenDocument,
  SetChannelEmailsDocument,
  SetEmailSettingsDocument,
  type EmailNotificationsScreenQuery,
} from './__generated__/EmailNotifications.generated';

const USER = testUser('Subscriber');
type Me = EmailNotificationsScreenQuery['me'];

type EffectiveState = EmailSubscription['status']['effectiveState'];

function sub(
  channelId: string,
  name: string,
  fields: Partial<EmailSubscription> = {},
  state: EffectiveState = 'active',
): EmailSubscription {
  return {
    __typename: 'ChannelSubscription',
    channelId,
    emailNotifications: true,
    emailFrequency: 'immediate',
    channel: { __typename: 'Channel', _id: channelId, name },
    status: { __typename: 'SubscriptionStatus', effectiveState: state },
    ...fields,
  } as EmailSubscription;
}

const OIL = sub(READER_IDS.oilChannel, 'Oil Weekly');
const GAS = sub(READER_IDS.gasChannel, 'Gas Daily', { emailFrequency: 'daily' });
const METALS = sub(READER_IDS.metalsChannel, 'Metals Monthly', { emailNotifications: false });
/** Asked for, not yet given: no emails to set. */
const PENDING = sub(READER_IDS.clubChannel, 'Analyst Club', {}, 'pending');
/** Still the reader's while the card is fixed: its emails can be set. */
const PAYMENT_FAILED = sub(READER_IDS.powerChannel, 'Power Weekly', { emailNotifications: false }, 'paymentFailed');
const ENDED = sub(READER_IDS.coalChannel, 'Coal Notes', {}, 'expired');

/** A channel a seat of the reader's firm gives them. */
function seat(channelId: string, channelName: string, fields: Partial<EmailSeat> = {}): EmailSeat {
  return {
    __typename: 'ReaderSeat',
    firmSubscriptionId: `67e${channelId.slice(3)}`,
    channelId,
    channelName,
    firmName: 'Acme Bank',
    isActive: true,
    emailNotifications: true,
    emailFrequency: 'immediate',
    ...fields,
  } as EmailSeat;
}

const NEWS_SEAT = seat(READER_IDS.newsChannel, 'Energy News', { emailFrequency: 'weekly' });

interface Calls {
  settings: Record<string, unknown>[];
  channel: { channelId: string; enabled: boolean }[];
  frequency: { channelId: string; frequency: string }[];
}

/**
 * A small server: the reader's settings as they stand, changed by the mutations, which it
 * records; `refuse` makes the next mutations fail with the server's message.
 */
function server(subs: EmailSubscription[], settings = { channelNotifications: true, timeZone: 'UTC' }, seats: EmailSeat[] = []) {
  const state = { subs, seats, settings, refuse: null as GraphQLError | null };
  const calls: Calls = { settings: [], channel: [], frequency: [] };
  const me = (): Me =>
    ({
      __typename: 'User',
      _id: USER._id,
      emailNotificationSettings: { __typename: 'EmailNotificationSettings', ...state.settings },
      channelSubscriptions: state.subs,
      firmSeats: state.seats,
    }) as Me;
  const always = { maxUsageCount: Number.POSITIVE_INFINITY, delay: 0 };
  const screenQuery: MockLink.MockedResponse = {
    request: { query: EmailNotificationsScreenDocument },
    ...always,
    result: () => ({ data: { me: me() } }),
  };
  const setSettings: MockLink.MockedResponse = {
    request: {
      query: SetEmailSettingsDocument,
      variables: (v: { item: Record<string, unknown> }) => (calls.settings.push(v.item), true),
    },
    ...always,
    result: (v: { item: Partial<typeof state.settings> }) => {
      if (state.refuse) return { errors: [state.refuse] };
      state.settings = { ...state.settings, ...v.item };
      return { data: { setUserEmailNotificationSettings: { __typename: 'EmailNotificationSettings', ...state.settings } } };
    },
  };
  // As the server does: the reader's subscription and seat of the channel change alike, and the
  // answer is their own subscription, null when they hold the channel only through a seat.
  const changed = (channelId: string, change: Pick<Partial<EmailSubscription>, 'emailNotifications' | 'emailFrequency'>) => {
    state.subs = state.subs.map((s) => (s.channelId === channelId ? { ...s, ...change } : s));
    state.seats = state.seats.map((s) => (s.channelId === channelId ? { ...s, ...change } : s));
    const s = state.subs.find((x) => x.channelId === channelId);
    return s
      ? { __typename: 'ChannelSubscription', channelId, emailNotifications: s.emailNotifications, emailFrequency: s.emailFrequency }
      : null;
  };
  const setChannel: MockLink.MockedResponse = {
    request: {
      query: SetChannelEmailsDocument,
      variables: (v: { channelId: string; enabled: boolean }) => (calls.channel.push(v), true),
    },
    ...always,
    result: (v: { channelId: string; enabled: boolean }) =>
      state.refuse
        ? { errors: [state.refuse] }
        : { data: { setPremiumChannelEmailNotificationSettings: changed(v.channelId, { emailNotifications: v.enabled }) } },
  };
  const setFrequency: MockLink.MockedResponse = {
    request: {
      query: ChangeEmailFrequencyDocument,
      variables: (v: { channelId: string; frequency: string }) => (calls.frequency.push(v), true),
    },
    ...always,
    result: (v: { channelId: string; frequency: EmailSubscription['emailFrequency'] }) =>
      state.refuse
        ? { errors: [state.refuse] }
        : { data: { changeEmailPreference: changed(v.channelId, { emailFrequency: v.frequency }) } },
  };
  return { state, calls, mocks: [screenQuery, setSettings, setChannel, setFrequency] };
}

function open(mocks: MockLink.MockedResponse[], width?: number) {
  return renderApp({ path: '/email-notifications', user: USER, mocks, width });
}

const REFUSED = new GraphQLError('The server is busy.', { extensions: { code: 'INTERNAL' } });
const globalSwitch = () => screen.getByRole('switch', { name: 'Email me about new articles in my channels' });
const channels = () => within(screen.getByRole('list', { name: 'Your channels' }));
const frequency = (name: string) => screen.getByRole('combobox', { name: `Email frequency for ${name}` });

afterEach(() => {
  vi.useRealTimers();
});

describe('Email notifications page', () => {
  it('shows the global switch and, per channel held now, its checkbox and frequency, with a way back', async () => {
    const { mocks } = server([OIL, PENDING, METALS, GAS], { channelNotifications: true, timeZone: 'Europe/London' });
    open(mocks);
    expect(await screen.findByRole('heading', { level: 1, name: 'Email notifications' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your subscriptions' })).toHaveAttribute('href', '/subscriptions');
    expect(await screen.findByRole('switch', { name: 'Email me about new articles in my channels' })).toBeChecked();

    // Alphabetical; the pending request has no emails to set.
    expect(
      channels()
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(['Gas Daily', 'Metals Monthly', 'Oil Weekly']);
    expect(screen.queryByRole('checkbox', { name: 'Analyst Club' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Oil Weekly' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Metals Monthly' })).not.toBeChecked();
    expect(frequency('Oil Weekly')).toHaveValue('immediate');
    expect(frequency('Gas Daily')).toHaveValue('daily');
    expect(
      within(frequency('Gas Daily'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Immediate', 'Daily digest', 'Weekly digest']);
    // A channel whose emails are off has no frequency to choose.
    expect(frequency('Metals Monthly')).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/London');
  });

  it('turns one channel off and on again at once, each time with the channel mutation', async () => {
    const { mocks, calls, state } = server([OIL, GAS]);
    open(mocks);
    const oil = await screen.findByRole('checkbox', { name: 'Oil Weekly' });
    await userEvent.click(oil);
    expect(oil).not.toBeChecked();
    await waitFor(() => expect(calls.channel).toEqual([{ channelId: READER_IDS.oilChannel, enabled: false }]));
    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
    expect(frequency('Oil Weekly')).toBeDisabled();
    expect(state.subs.find((s) => s.channelId === READER_IDS.oilChannel)?.emailNotifications).toBe(false);

    await userEvent.click(oil);
    expect(oil).toBeChecked();
    await waitFor(() => expect(calls.channel.at(-1)).toEqual({ channelId: READER_IDS.oilChannel, enabled: true }));
    expect(frequency('Oil Weekly')).toBeEnabled();
    expect(calls.settings).toEqual([]);
  });

  it('undoes a refused channel change and says why', async () => {
    const { mocks, state } = server([OIL]);
    state.refuse = REFUSED;
    open(mocks);
    const oil = await screen.findByRole('checkbox', { name: 'Oil Weekly' });
    await userEvent.click(oil);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your change was not saved. INTERNAL::The server is busy.');
    expect(oil).toBeChecked();
  });

  it('chooses how often a channel emails (changeEmailPreference)', async () => {
    const { mocks, calls } = server([OIL, GAS]);
    open(mocks);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Email frequency for Oil Weekly' }), 'Weekly digest');
    expect(frequency('Oil Weekly')).toHaveValue('weekly');
    await waitFor(() => expect(calls.frequency).toEqual([{ channelId: READER_IDS.oilChannel, frequency: 'weekly' }]));
    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveAccessibleDescription(
      'Daily and weekly digests are sent by the clock of this time zone.',
    );
  });

  it('saves the global switch once, 500 ms after the last of quick flips, and greys the channels while off', async () => {
    const { mocks, calls } = server([OIL, GAS]);
    open(mocks);
    await screen.findByRole('switch', { name: 'Email me about new articles in my channels' });

    vi.useFakeTimers();
    // Off, on, off 100 ms apart: each flip shows at once and restarts the wait.
    for (const expected of [false, true, false]) {
      fireEvent.click(globalSwitch());
      expect(globalSwitch()).toHaveProperty('checked', expected);
      act(() => vi.advanceTimersByTime(100));
    }
    expect(screen.getByRole('checkbox', { name: 'Oil Weekly' })).toBeDisabled();
    expect(frequency('Gas Daily')).toBeDisabled();
    expect(globalSwitch()).toHaveAccessibleDescription(/Channel emails are off: you get none/);
    act(() => vi.advanceTimersByTime(399));
    expect(calls.settings).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(calls.settings).toEqual([{ channelNotifications: false }]);
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();

    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
    expect(globalSwitch()).not.toBeChecked();
    expect(calls.settings).toHaveLength(1);
  });

  it('sends nothing when quick flips end where they started', async () => {
    const { mocks, calls } = server([OIL]);
    open(mocks);
    await screen.findByRole('switch', { name: 'Email me about new articles in my channels' });
    vi.useFakeTimers();
    fireEvent.click(globalSwitch());
    act(() => vi.advanceTimersByTime(200));
    fireEvent.click(globalSwitch());
    act(() => vi.advanceTimersByTime(1000));
    expect(calls.settings).toEqual([]);
    expect(globalSwitch()).toBeChecked();
  });

  it('puts the global switch back and says why when the server refuses it', async () => {
    const { mocks, calls, state } = server([OIL]);
    state.refuse = REFUSED;
    open(mocks);
    await userEvent.click(await screen.findByRole('switch', { name: 'Email me about new articles in my channels' }));
    expect(globalSwitch()).not.toBeChecked();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your change was not saved. INTERNAL::The server is busy.');
    expect(globalSwitch()).toBeChecked();
    expect(calls.settings).toEqual([{ channelNotifications: false }]);
    expect(screen.getByRole('checkbox', { name: 'Oil Weekly' })).toBeEnabled();
  });

  it('sets the digest time zone, offering the device zone', async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      timeZone: 'Asia/Tokyo',
    } as Intl.ResolvedDateTimeFormatOptions);
    const { mocks, calls } = server([GAS]);
    open(mocks);
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('UTC');
    expect(within(zone).getByRole('option', { name: 'Asia/Tokyo (this device)' })).toBeInTheDocument();

    await userEvent.selectOptions(zone, 'America/New York');
    expect(zone).toHaveValue('America/New_York');
    await waitFor(() => expect(calls.settings).toEqual([{ timeZone: 'America/New_York' }]));

    await userEvent.click(screen.getByRole('button', { name: 'Use Asia/Tokyo' }));
    await waitFor(() => expect(zone).toHaveValue('Asia/Tokyo'));
    await waitFor(() => expect(calls.settings.at(-1)).toEqual({ timeZone: 'Asia/Tokyo' }));
    expect(screen.queryByRole('button', { name: 'Use Asia/Tokyo' })).not.toBeInTheDocument();
  });

  it('shows the time zone message of a refused zone and keeps the saved one', async () => {
    const { mocks, state } = server([GAS]);
    state.refuse = new GraphQLError('Invalid input', {
      extensions: { code: 'BAD_USER_INPUT', fields: { timeZone: 'Choose a time zone from the list.' } },
    });
    open(mocks);
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    await userEvent.selectOptions(zone, 'Europe/Paris');
    await waitFor(() => expect(zone).toHaveAccessibleDescription(/Choose a time zone from the list\./));
    expect(zone).toHaveValue('UTC');
  });

  it('keeps the global switch when no subscription is held, with the empty state and a way to the channels', async () => {
    const { mocks, calls } = server([PENDING, ENDED]);
    open(mocks, 360);
    expect(await screen.findByText('You have no subscriptions yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse channels' })).toHaveAttribute('href', '/channels');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    // The reader can still turn channel emails off before subscribing to any channel.
    expect(globalSwitch()).toBeChecked();
    fireEvent.click(globalSwitch());
    expect(globalSwitch()).not.toBeChecked();
    await waitFor(() => expect(calls.settings).toEqual([{ channelNotifications: false }]));
    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
  });

  it('gives a subscription whose payment failed its checkbox, saying its emails wait for the payment', async () => {
    const { mocks, calls } = server([OIL, PAYMENT_FAILED, ENDED]);
    open(mocks);
    const checkbox = await screen.findByRole('checkbox', { name: 'Power Weekly' });
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleDescription(PAYMENT_FAILED_EMAILS_TEXT);
    expect(screen.getByRole('checkbox', { name: 'Oil Weekly' })).not.toHaveAccessibleDescription();
    expect(screen.queryByRole('checkbox', { name: 'Coal Notes' })).not.toBeInTheDocument();
    await userEvent.click(checkbox);
    await waitFor(() => expect(calls.channel).toEqual([{ channelId: READER_IDS.powerChannel, enabled: true }]));
    expect(checkbox).toBeChecked();
  });

  it("lists a channel of the reader's firm seat, 'Provided by' the firm, set with the same mutations", async () => {
    const { mocks, calls, state } = server([OIL], undefined, [
      NEWS_SEAT,
      seat(READER_IDS.metalsChannel, 'Metals Monthly', { isActive: false }),
    ]);
    open(mocks);
    const news = await screen.findByRole('checkbox', { name: 'Energy News' });
    expect(
      channels()
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(['Energy News', 'Metals Monthly', 'Oil Weekly']);
    expect(news).toBeChecked();
    expect(news).toHaveAccessibleDescription('Provided by Acme Bank');
    expect(screen.getByRole('checkbox', { name: 'Metals Monthly' })).toHaveAccessibleDescription(seatNotStartedText('Acme Bank'));
    expect(frequency('Energy News')).toHaveValue('weekly');

    await userEvent.click(news);
    await waitFor(() => expect(calls.channel).toEqual([{ channelId: READER_IDS.newsChannel, enabled: false }]));
    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
    expect(news).not.toBeChecked();
    expect(state.seats[0].emailNotifications).toBe(false);

    await userEvent.click(news);
    await waitFor(() => expect(news).toBeChecked());
    await userEvent.selectOptions(frequency('Energy News'), 'Daily digest');
    await waitFor(() => expect(calls.frequency).toEqual([{ channelId: READER_IDS.newsChannel, frequency: 'daily' }]));
    expect(frequency('Energy News')).toHaveValue('daily');
  });

  it('shows a failed load with a way to try again', async () => {
    const failing: MockLink.MockedResponse = {
      request: { query: EmailNotificationsScreenDocument },
      result: { errors: [REFUSED] },
      delay: 0,
    };
    const { mocks } = server([OIL]);
    open([failing, ...mocks]);
    expect(await screen.findByRole('alert')).toHaveTextContent('INTERNAL::The server is busy.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: 'Oil Weekly' })).toBeChecked();
  });
});

describe('Email settings helpers', () => {
  it('lists the live subscriptions (giving access now, or with a failed payment), by name', () => {
    const me = { channelSubscriptions: [OIL, PENDING, GAS, PAYMENT_FAILED, ENDED], firmSeats: [] } as unknown as Me;
    expect(emailChannels(me).map((s) => s.name)).toEqual(['Gas Daily', 'Oil Weekly', 'Power Weekly']);
  });

  it("adds the seats' channels, once for a channel also held by the reader's own subscription", () => {
    const me = { channelSubscriptions: [OIL], firmSeats: [NEWS_SEAT, seat(READER_IDS.oilChannel, 'Oil Weekly')] } as unknown as Me;
    expect(emailChannels(me).map((s) => [s.name, s.description])).toEqual([
      ['Energy News', 'Provided by Acme Bank'],
      ['Oil Weekly', undefined],
    ]);
  });

  it('offers every zone, UTC first, with the saved and device zones even when the list lacks them', () => {
    const options = timeZoneOptions('Etc/Greenwich', 'Europe/Berlin');
    expect(options[0]).toEqual({ value: 'UTC', label: 'UTC' });
    expect(options).toContainEqual({ value: 'Europe/Berlin', label: 'Europe/Berlin (this device)' });
    expect(options).toContainEqual({ value: 'America/New_York', label: 'America/New York' });
    expect(options.at(-1)).toEqual({ value: 'Etc/Greenwich', label: 'Etc/Greenwich' });
  });
});
