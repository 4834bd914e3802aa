import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../lib/access';
import { stubDownloads } from '../../testing/downloads';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { FirmPageDocument } from './__generated__/FirmPage.generated';
import {
  AddFirmMemberDocument,
  FirmReaderCandidatesDocument,
  RemoveFirmMemberDocument,
  SetFirmAdminDocument,
} from './__generated__/FirmReaders.generated';
import { CancelFirmSubscriptionDocument } from './__generated__/FirmSubscriptions.generated';
import { NO_INVITATIONS_TEXT } from './FirmInvitations';
import { ADA, BOB, CYD, FIRM_IDS, member, subscriptionRow } from './testData';
import { firmServer, invitation } from './testServer';

const OIL = subscriptionRow();
const GAS = subscriptionRow({
  _id: FIRM_IDS.subGas,
  channelId: FIRM_IDS.gasChannel,
  channelName: 'Gas Daily',
  seats: null,
  seatsUsed: 0,
  cancelAt: null,
  subscriptionType: 'trial',
  typeLabel: 'Trial',
  version: 1,
});

function firm(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Firm',
    _id: FIRM_IDS.acme,
    name: 'Acme Bank',
    domains: ['acme-bank.example', 'acme.co.uk'],
    accountNumber: 'ACC-1',
    billingMethod: 'invoice',
    state: 'active',
    notes: 'Renewal in March',
    version: 4,
    readerCount: 3,
    seatsUsed: 1,
    seatsHeld: null,
    subscriptionCount: 2,
    subscriptions: [GAS, OIL],
    ...overrides,
  };
}

const READING = {
  channels: [
    {
      __typename: 'FirmChannelMonth',
      channelId: FIRM_IDS.oilChannel,
      channelName: 'Oil Weekly',
      month: '2026-03-01T00:00:00Z',
      readers: 2,
      fullReads: 7,
      previews: 3,
      articlesRead: 5,
    },
  ],
  reads: [
    {
      __typename: 'FirmReaderRead',
      user: ADA,
      articleId: '67b000000000000000000001',
      title: 'Brent above $90',
      channelName: 'Oil Weekly',
      fullReads: 2,
      previews: 0,
      lastRead: new Date(2026, 2, 3, 9, 30).toISOString(),
    },
  ],
};

/** The shared firm server (readers, seats, reading, invitations) and the staff page's own answers. */
function server(options: { firm?: ReturnType<typeof firm>; seatsFull?: boolean; invitations?: ReturnType<typeof invitation>[] } = {}) {
  const shared = firmServer({
    members: [member(ADA, { isAdmin: true }), member(BOB, { joinedBy: 'invitation' }), member(CYD)],
    seatsFull: options.seatsFull,
    reading: READING,
    invitations: options.invitations,
  });
  const { state } = shared;
  const calls = { ...shared.calls, admin: vi.fn(), remove: vi.fn(), add: vi.fn(), cancel: vi.fn() };
  const page: MockLink.MockedResponse = {
    request: { query: FirmPageDocument, variables: { id: FIRM_IDS.acme } },
    maxUsageCount: Number.POSITIVE_INFINITY,
    // The oil subscription's count follows its holders, as the server's does.
    result: () => {
      const f = options.firm ?? firm();
      const subscriptions = f.subscriptions.map((s) => (s._id === FIRM_IDS.subOil ? { ...s, seatsUsed: state.holders.length } : s));
      return { data: { findFirmById: { ...f, seatsUsed: state.holders.length, subscriptions } } };
    },
  };
  const setAdmin: MockLink.MockedResponse = {
    request: { query: SetFirmAdminDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { userId: string; isAdmin: boolean }) => {
      calls.admin(v);
      state.members = state.members.map((m) => (m.user._id === v.userId ? { ...m, isAdmin: v.isAdmin } : m));
      return { data: { setFirmAdmin: { __typename: 'Firm', _id: FIRM_IDS.acme } } };
    },
  };
  const remove: MockLink.MockedResponse = {
    request: { query: RemoveFirmMemberDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { userId: string }) => {
      calls.remove(v);
      state.members = state.members.filter((m) => m.user._id !== v.userId);
      return { data: { removeFirmMember: { __typename: 'Firm', _id: FIRM_IDS.acme, readerCount: state.members.length } } };
    },
  };
  const cancel: MockLink.MockedResponse = {
    request: { query: CancelFirmSubscriptionDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: Record<string, unknown>) => {
      calls.cancel(v);
      return {
        data: {
          cancelFirmSubscription: { ...OIL, subscriptionState: 'canceled', isActive: false, isLive: false, seatsUsed: 0, version: 4 },
        },
      };
    },
  };
  const newcomer = { __typename: 'User', _id: '67a000000000000000000009', name: 'Dan Dealer', email: 'dan@acme-bank.example', firm: null };
  const other = {
    __typename: 'User',
    _id: '67a000000000000000000008',
    name: 'Dora Other',
    email: 'dora@north.example',
    firm: { __typename: 'FirmOfUser', _id: FIRM_IDS.north, name: 'North Fund' },
  };
  const readerSearch: MockLink.MockedResponse = {
    request: { query: FirmReaderCandidatesDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: { data: { getPaginatedUsers: { __typename: 'UserPage', users: [newcomer, other] } } },
  };
  const add: MockLink.MockedResponse = {
    request: { query: AddFirmMemberDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { userId: string }) => {
      calls.add(v);
      if (v.userId === other._id) {
        return {
          errors: [
            {
              message: 'Invalid input',
              extensions: { code: 'BAD_USER_INPUT', fields: { userId: 'This reader belongs to North Fund: remove them there first' } },
            },
          ],
        };
      }
      state.members = [
        ...state.members,
        member({ __typename: 'UserSummary', _id: newcomer._id, name: newcomer.name, email: newcomer.email }, { joinedBy: 'staff' }),
      ];
      return { data: { addFirmMember: { __typename: 'Firm', _id: FIRM_IDS.acme, readerCount: state.members.length } } };
    },
  };
  return {
    state,
    calls,
    mocks: [...shared.mocks, page, setAdmin, remove, cancel, readerSearch, add],
  };
}

function open(role: Role, path = `/publisher/firms/${FIRM_IDS.acme}`, options: Parameters<typeof server>[0] = {}) {
  const s = server(options);
  renderApp({ path, user: testUser(role), mocks: s.mocks });
  return s;
}

const readersTable = () => screen.getByRole('table', { name: 'Readers' });
const rowOf = (table: HTMLElement, text: string) => within(within(table).getByText(text).closest('tr') as HTMLElement);

beforeAll(async () => {
  await import('./FirmPage');
});

describe('FirmPage', () => {
  it("shows the firm's details and its readers with how they joined and their seats' channels", async () => {
    open('Editor');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bank' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Acme Bank – Insights'));
    const details = screen.getByRole('region', { name: 'Firm details' });
    expect(within(details).getByText('Domains').nextElementSibling).toHaveTextContent('acme-bank.example, acme.co.uk');
    expect(within(details).getByText('Billing method').nextElementSibling).toHaveTextContent('Invoice');
    expect(within(details).getByText('Seats used / held').nextElementSibling).toHaveTextContent('1 / unlimited');
    expect(within(details).getByText('Notes').nextElementSibling).toHaveTextContent('Renewal in March');
    expect(screen.getByRole('link', { name: 'Edit firm' })).toHaveAttribute('href', `/publisher/firms/edit/${FIRM_IDS.acme}`);

    const table = await screen.findByRole('table', { name: 'Readers' });
    await within(table).findByText('Ada Analyst');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Joined by', 'Administrator', 'Seats', 'Remove']);
    expect(rowOf(table, 'Ada Analyst').getByText('Oil Weekly')).toBeInTheDocument();
    expect(rowOf(table, 'Ada Analyst').getByText('Email domain')).toBeInTheDocument();
    expect(rowOf(table, 'Bob Broker').getByText('Invitation')).toBeInTheDocument();
    expect(rowOf(table, 'Bob Broker').getByText('None')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Ada Analyst is an administrator of the firm' })).toBeChecked();
  });

  it('makes a reader an administrator, removes one after a confirmation, and adds one found by name', async () => {
    const user = userEvent.setup();
    const { calls } = open('Administrator');
    const table = await screen.findByRole('table', { name: 'Readers' });
    await within(table).findByText('Bob Broker');

    await user.click(screen.getByRole('checkbox', { name: 'Bob Broker is an administrator of the firm' }));
    expect(await screen.findByText('Bob Broker is now an administrator of Acme Bank.')).toBeInTheDocument();
    expect(calls.admin).toHaveBeenCalledWith({ firmId: FIRM_IDS.acme, userId: FIRM_IDS.bob, isAdmin: true });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Bob Broker is an administrator of the firm' })).toBeChecked());

    await user.click(screen.getByRole('button', { name: 'Remove Cyd Credit from the firm' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove reader' });
    expect(dialog).toHaveTextContent('Remove Cyd Credit from Acme Bank? Their seats of the firm end at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(readersTable()).queryByText('Cyd Credit')).not.toBeInTheDocument());
    expect(calls.remove).toHaveBeenCalledWith({ firmId: FIRM_IDS.acme, userId: FIRM_IDS.cyd });

    // A reader of another firm is refused with the server's message; one in no firm joins.
    const picker = screen.getByRole('combobox', { name: 'Add a reader' });
    await user.type(picker, 'do');
    await user.click(await screen.findByRole('option', { name: /Dora Other/ }));
    await user.click(screen.getByRole('button', { name: 'Add reader' }));
    // Under the picker (the removal's toast may still be showing, an alert too).
    const refusal = await screen.findByText('This reader belongs to North Fund: remove them there first');
    expect(refusal.closest('[role="alert"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Change Dora Other (dora@north.example)' }));
    await user.type(screen.getByRole('combobox', { name: 'Add a reader' }), 'da');
    await user.click(await screen.findByRole('option', { name: /Dan Dealer/ }));
    await user.click(screen.getByRole('button', { name: 'Add reader' }));
    expect(await screen.findByText('Dan Dealer has been added to Acme Bank.')).toBeInTheDocument();
    await waitFor(() => expect(within(readersTable()).getByText('Dan Dealer')).toBeInTheDocument());
    expect(rowOf(readersTable(), 'Dan Dealer').getByText('Added by staff')).toBeInTheDocument();
  }, 20_000);

  it('lists the subscriptions with their seats, gives a seat to a member without one and takes one back', async () => {
    const user = userEvent.setup();
    const { calls } = open('Editor', `/publisher/firms/${FIRM_IDS.acme}?tab=subscriptions`);
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Channel', 'Type', 'Seats used / seats', 'Starts', 'Ends', 'State', 'Actions']);
    expect(rowOf(table, 'Oil Weekly').getByText('1 / 2')).toBeInTheDocument();
    expect(rowOf(table, 'Oil Weekly').getByText('31 Dec 2026')).toBeInTheDocument();
    expect(rowOf(table, 'Gas Daily').getByText('0 / unlimited')).toBeInTheDocument();
    expect(rowOf(table, 'Gas Daily').getByText('No end date')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add subscription' })).toHaveAttribute(
      'href',
      `/publisher/firms/${FIRM_IDS.acme}/subscriptions/add`,
    );
    expect(screen.getByRole('link', { name: 'Edit the subscription to Oil Weekly' })).toHaveAttribute(
      'href',
      `/publisher/firms/${FIRM_IDS.acme}/subscriptions/edit/${FIRM_IDS.oilChannel}`,
    );

    const seatsButton = screen.getByRole('button', { name: 'Seats of Oil Weekly' });
    expect(seatsButton).toHaveAttribute('aria-expanded', 'false');
    await user.click(seatsButton);
    expect(seatsButton).toHaveAttribute('aria-expanded', 'true');
    const panel = within(await screen.findByRole('region', { name: 'Seats of Oil Weekly' }));
    expect(await panel.findByText('1 of 2 seats used')).toBeInTheDocument();
    expect(panel.getByRole('table', { name: 'Seat holders of Oil Weekly' })).toHaveTextContent('Ada Analyst');

    // Ada holds one already: the picker offers the others.
    await user.type(panel.getByRole('combobox', { name: 'Give a seat of Oil Weekly' }), 'b');
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
        expect.stringContaining('Bob Broker'),
        expect.stringContaining('Cyd Credit'),
      ]),
    );
    await user.click(screen.getByRole('option', { name: /Bob Broker/ }));
    await user.click(panel.getByRole('button', { name: 'Give seat' }));
    expect(await screen.findByText('Bob Broker now has a seat of Oil Weekly.')).toBeInTheDocument();
    expect(calls.assign).toHaveBeenCalledWith({ firmSubscriptionId: FIRM_IDS.subOil, userId: FIRM_IDS.bob });
    expect(await panel.findByText('2 of 2 seats used')).toBeInTheDocument();

    await user.click(panel.getByRole('button', { name: 'Take back the seat of Ada Analyst' }));
    expect(await screen.findByText('Ada Analyst no longer has a seat of Oil Weekly.')).toBeInTheDocument();
    expect(calls.release).toHaveBeenCalledWith({ firmSubscriptionId: FIRM_IDS.subOil, userId: FIRM_IDS.ada });
    await waitFor(() => expect(panel.getByRole('table', { name: 'Seat holders of Oil Weekly' })).not.toHaveTextContent('Ada Analyst'));
  }, 20_000);

  it("shows the server's 'All 2 seats are in use' when the subscription is full", async () => {
    const user = userEvent.setup();
    open('Editor', `/publisher/firms/${FIRM_IDS.acme}?tab=subscriptions`, { seatsFull: true });
    await user.click(await screen.findByRole('button', { name: 'Seats of Oil Weekly' }));
    const panel = within(await screen.findByRole('region', { name: 'Seats of Oil Weekly' }));
    await user.type(await panel.findByRole('combobox', { name: 'Give a seat of Oil Weekly' }), 'cyd');
    await user.click(await screen.findByRole('option', { name: /Cyd Credit/ }));
    await user.click(panel.getByRole('button', { name: 'Give seat' }));
    expect(await panel.findByRole('alert')).toHaveTextContent(/^All 2 seats are in use$/);
  });

  it('ends a subscription now after a confirmation, at the version read', async () => {
    const user = userEvent.setup();
    const { calls } = open('Administrator', `/publisher/firms/${FIRM_IDS.acme}?tab=subscriptions`);
    await user.click(await screen.findByRole('button', { name: 'End now: the subscription to Oil Weekly' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End the subscription now' });
    expect(dialog).toHaveTextContent('End the subscription to Oil Weekly now? Its seats are freed at once: 1 reader(s) lose access');
    await user.click(within(dialog).getByRole('button', { name: 'End now' }));
    expect(await screen.findByText('The subscription to Oil Weekly has ended.')).toBeInTheDocument();
    expect(calls.cancel).toHaveBeenCalledWith({ firmId: FIRM_IDS.acme, channelId: FIRM_IDS.oilChannel, version: 3 });
  });

  it('shows the reading per channel and month, and per reader', async () => {
    const user = userEvent.setup();
    open('Editor');
    await user.click(await screen.findByRole('tab', { name: 'Usage' }));
    const months = await screen.findByRole('table', { name: 'Reading per channel and month' });
    expect(
      within(months)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Mar 2026', 'Oil Weekly', '2', '7', '3', '5']);
    const reads = screen.getByRole('table', { name: 'Reading per reader' });
    expect(within(reads).getByRole('link', { name: 'Brent above $90' })).toHaveAttribute(
      'href',
      '/browse/article/67b000000000000000000001',
    );
  });

  it('lists the pending invitations on the Readers tab and withdraws one', async () => {
    const user = userEvent.setup();
    const { calls } = open('Editor', `/publisher/firms/${FIRM_IDS.acme}`, {
      invitations: [invitation('dan@acme-bank.example'), invitation('eve@acme-bank.example', null)],
    });
    const table = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(screen.getByRole('heading', { level: 3, name: 'Pending invitations' })).toBeInTheDocument();
    await within(table).findByText('dan@acme-bank.example');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Invited', 'Invited by', 'Action']);
    expect(rowOf(table, 'dan@acme-bank.example').getByText('Ada Analyst')).toBeInTheDocument();
    expect(rowOf(table, 'dan@acme-bank.example').getByText('02 Mar 2026 09:15')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Withdraw the invitation to dan@acme-bank.example' }));
    expect(await screen.findByText('The invitation to dan@acme-bank.example has been withdrawn.')).toBeInTheDocument();
    expect(calls.withdraw).toHaveBeenCalledWith({ firmId: FIRM_IDS.acme, email: 'dan@acme-bank.example' });
    await waitFor(() => expect(within(table).queryByText('dan@acme-bank.example')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Withdraw the invitation to eve@acme-bank.example' }));
    expect(await within(table).findByText(NO_INVITATIONS_TEXT)).toBeInTheDocument();
  });

  it("downloads the firm's reading as CSV from the Usage tab with the bearer token, busy meanwhile", async () => {
    const user = userEvent.setup();
    const { fetchSpy, saved, answer } = stubDownloads();
    open('Editor', `/publisher/firms/${FIRM_IDS.acme}?tab=usage`);
    const button = await screen.findByRole('button', { name: 'Download CSV' });
    await user.click(button);
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe(`/export/firms/${FIRM_IDS.acme}/readership.csv`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    expect(button.className).toMatch(/loading/);

    // The file keeps the name the server gives it.
    answer(
      new Response('Month,Channel\n', {
        status: 200,
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="readership-acme-bank-2026-03-10.csv"' },
      }),
    );
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:download', download: 'readership-acme-bank-2026-03-10.csv' }]));
    await waitFor(() => expect(button.className).not.toMatch(/loading/));
  });

  it('says why in a toast when the CSV cannot be downloaded', async () => {
    const user = userEvent.setup();
    const { answer } = stubDownloads();
    open('Editor', `/publisher/firms/${FIRM_IDS.acme}?tab=usage`);
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    answer(new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'Not your firm' }), { status: 403 }));
    expect(await screen.findByText('The download failed: FORBIDDEN::Not your firm')).toBeInTheDocument();
  });

  it('lets Contributors read the firm without any action', async () => {
    const user = userEvent.setup();
    open('Contributor');
    const table = await screen.findByRole('table', { name: 'Readers' });
    await within(table).findByText('Ada Analyst');
    expect(rowOf(table, 'Ada Analyst').getByText('Yes')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Add a reader' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit firm' })).not.toBeInTheDocument();
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).queryByRole('columnheader', { name: 'Action' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: /Subscriptions/ }));
    await user.click(await screen.findByRole('button', { name: 'Seats of Oil Weekly' }));
    const panel = within(await screen.findByRole('region', { name: 'Seats of Oil Weekly' }));
    expect(await panel.findByText('Ada Analyst')).toBeInTheDocument();
    expect(panel.queryByRole('button')).not.toBeInTheDocument();
    expect(panel.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^End now/ })).not.toBeInTheDocument();
  });

  it('shows an archived firm without the actions', async () => {
    open('Editor', `/publisher/firms/${FIRM_IDS.acme}`, { firm: firm({ state: 'archived' }) });
    expect(await screen.findByText('This firm is archived: it can no longer be changed.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit firm' })).not.toBeInTheDocument();
    await within(await screen.findByRole('table', { name: 'Readers' })).findByText('Ada Analyst');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
