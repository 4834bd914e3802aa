import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GraphQLFormattedError } from 'graphql';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubDownloads } from '../../testing/downloads';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { InviteToFirmDocument, MyFirmDocument, SetFirmUsageEmailDocument } from './__generated__/MyFirm.generated';
import { NO_INVITATIONS_TEXT } from './FirmInvitations';
import { MY_FIRM_TITLE, NOT_FIRM_ADMIN_TEXT } from './MyFirm';
import { ADA, BOB, FIRM_IDS, member, subscriptionRow } from './testData';
import { firmServer, invitation } from './testServer';

const FIRM_OF_USER = { __typename: 'FirmOfUser', _id: FIRM_IDS.acme, name: 'Acme Bank', isAdmin: true, usageEmail: false };
const ADMIN = testUser('Subscriber', { _id: FIRM_IDS.ada, name: 'Ada Analyst', firm: FIRM_OF_USER });

/** The firm as its administrator reads it, with the seats of its oil subscription (2, one given). */
function server(
  options: { seatsFull?: boolean; myFirmErrors?: GraphQLFormattedError[]; invitations?: ReturnType<typeof invitation>[] } = {},
) {
  const shared = firmServer({
    members: [member(ADA, { isAdmin: true }), member(BOB)],
    seatsFull: options.seatsFull,
    invitations: options.invitations,
  });
  const { state } = shared;
  const calls = { ...shared.calls, invite: vi.fn(), usage: vi.fn() };
  const myFirm: MockLink.MockedResponse = {
    request: { query: MyFirmDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: () =>
      options.myFirmErrors
        ? { errors: options.myFirmErrors }
        : {
            data: {
              myFirm: {
                __typename: 'Firm',
                _id: FIRM_IDS.acme,
                name: 'Acme Bank',
                domains: ['acme-bank.example'],
                readerCount: 2,
                seatsUsed: state.holders.length,
                seatsHeld: 2,
                subscriptionCount: 1,
                subscriptions: [subscriptionRow({ seatsUsed: state.holders.length })],
              },
              me: { __typename: 'User', _id: ADMIN._id, firm: FIRM_OF_USER },
            },
          },
  };
  const invite: MockLink.MockedResponse = {
    request: { query: InviteToFirmDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { email: string }) => {
      calls.invite(v);
      if (v.email.endsWith('@north.example')) {
        return {
          errors: [
            { message: 'Invalid input', extensions: { code: 'BAD_USER_INPUT', fields: { email: 'This address belongs to North Fund' } } },
          ],
        };
      }
      state.invitations = [invitation(v.email), ...state.invitations];
      return { data: { inviteToFirm: true } };
    },
  };
  const usage: MockLink.MockedResponse = {
    request: { query: SetFirmUsageEmailDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (v: { on: boolean }) => {
      calls.usage(v);
      return { data: { setFirmUsageEmail: v.on } };
    },
  };
  return { state, calls, mocks: [...shared.mocks, myFirm, invite, usage] };
}

beforeAll(async () => {
  await import('./MyFirm');
});

describe('My firm', () => {
  it("shows the firm's subscriptions with their seats, its readers, and sections under the page's heading", async () => {
    const { mocks } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    expect(await screen.findByRole('heading', { level: 1, name: MY_FIRM_TITLE })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('My firm – Insights'));
    expect(await screen.findByText('Acme Bank')).toBeInTheDocument();
    for (const name of ['Subscriptions', 'Readers', 'Invite a colleague', 'Reading', 'Usage summary email']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    const subscriptions = screen.getByRole('table', { name: 'Subscriptions' });
    expect(within(subscriptions).getByText('1 / 2')).toBeInTheDocument();
    // A firm's administrator manages seats, not the subscriptions themselves.
    expect(screen.queryByRole('link', { name: /Edit the subscription/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^End now/ })).not.toBeInTheDocument();
    const readers = await screen.findByRole('table', { name: 'Readers' });
    await within(readers).findByText('Bob Broker');
    expect(within(within(readers).getByText('Ada Analyst').closest('tr') as HTMLElement).getByText('Oil Weekly')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Add a reader' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  }, 15_000);

  it('gives a colleague a seat and takes it back', async () => {
    const user = userEvent.setup();
    const { mocks, calls } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    await user.click(await screen.findByRole('button', { name: 'Seats of Oil Weekly' }));
    const panel = within(await screen.findByRole('region', { name: 'Seats of Oil Weekly' }));
    expect(await panel.findByText('1 of 2 seats used')).toBeInTheDocument();
    await user.type(panel.getByRole('combobox', { name: 'Give a seat of Oil Weekly' }), 'bob');
    await user.click(await screen.findByRole('option', { name: /Bob Broker/ }));
    await user.click(panel.getByRole('button', { name: 'Give seat' }));
    expect(await screen.findByText('Bob Broker now has a seat of Oil Weekly.')).toBeInTheDocument();
    expect(calls.assign).toHaveBeenCalledWith({ firmSubscriptionId: FIRM_IDS.subOil, userId: FIRM_IDS.bob });
    expect(await panel.findByText('2 of 2 seats used')).toBeInTheDocument();

    await user.click(panel.getByRole('button', { name: 'Take back the seat of Bob Broker' }));
    expect(await panel.findByText('1 of 2 seats used')).toBeInTheDocument();
    expect(calls.release).toHaveBeenCalledWith({ firmSubscriptionId: FIRM_IDS.subOil, userId: FIRM_IDS.bob });
  }, 15_000);

  it("shows the server's 'All N seats are in use' when no seat is left", async () => {
    const user = userEvent.setup();
    const { mocks } = server({ seatsFull: true });
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    await user.click(await screen.findByRole('button', { name: 'Seats of Oil Weekly' }));
    const panel = within(await screen.findByRole('region', { name: 'Seats of Oil Weekly' }));
    await user.type(await panel.findByRole('combobox', { name: 'Give a seat of Oil Weekly' }), 'bob');
    await user.click(await screen.findByRole('option', { name: /Bob Broker/ }));
    await user.click(panel.getByRole('button', { name: 'Give seat' }));
    expect(await panel.findByRole('alert')).toHaveTextContent(/^All 2 seats are in use$/);
  });

  it("invites a colleague: checks the address, shows the server's refusal on the field, and says 'Invitation sent to …'", async () => {
    const user = userEvent.setup();
    const { mocks, calls } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    const invite = within(await screen.findByRole('form', { name: 'Invite a colleague' }));
    const email = invite.getByLabelText("Colleague's email");

    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(email).toHaveAccessibleDescription('This field is required');
    expect(email).toHaveFocus();
    await user.type(email, 'dora@north');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(email).toHaveAccessibleDescription('Email should be valid');
    expect(calls.invite).not.toHaveBeenCalled();

    await user.type(email, '.example');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription('This address belongs to North Fund'));

    await user.clear(email);
    await user.type(email, 'dan@acme-bank.example');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to dan@acme-bank.example')).toBeInTheDocument();
    expect(calls.invite).toHaveBeenLastCalledWith({ email: 'dan@acme-bank.example' });
    expect(email).toHaveValue('');
  }, 15_000);

  it('lists the invitation just sent among the pending ones, and withdraws it', async () => {
    const user = userEvent.setup();
    const { mocks, calls } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    const table = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(table).getByText(NO_INVITATIONS_TEXT)).toBeInTheDocument();

    const invite = within(screen.getByRole('form', { name: 'Invite a colleague' }));
    await user.type(invite.getByLabelText("Colleague's email"), 'dan@acme-bank.example');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await within(table).findByText('dan@acme-bank.example')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Withdraw the invitation to dan@acme-bank.example' }));
    expect(await screen.findByText('The invitation to dan@acme-bank.example has been withdrawn.')).toBeInTheDocument();
    expect(calls.withdraw).toHaveBeenCalledWith({ firmId: FIRM_IDS.acme, email: 'dan@acme-bank.example' });
    expect(await within(table).findByText(NO_INVITATIONS_TEXT)).toBeInTheDocument();
  }, 15_000);

  it("downloads the firm's reading as CSV from the Reading section", async () => {
    const user = userEvent.setup();
    const { fetchSpy, saved, answer } = stubDownloads();
    const { mocks } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    const reading = within(await screen.findByRole('region', { name: 'Reading' }));
    await user.click(await reading.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fetchSpy.mock.calls[0]?.[0]).toBe(`/export/firms/${FIRM_IDS.acme}/readership.csv`));
    answer(new Response('Month,Channel\n', { status: 200 }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:download', download: 'readership.csv' }]));
  });

  it('turns the monthly usage summary on from its first value', async () => {
    const user = userEvent.setup();
    const { mocks, calls } = server();
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    const box = await screen.findByRole('checkbox', { name: 'Email me a monthly usage summary' });
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(await screen.findByText('You will get a usage summary by email each month.')).toBeInTheDocument();
    expect(calls.usage).toHaveBeenCalledWith({ on: true });
    expect(box).toBeChecked();
  });

  it("tells a reader who administers no firm that the page is for firms' administrators, without asking the server", async () => {
    const { mocks } = server();
    renderApp({ path: '/my-firm', user: testUser('Subscriber'), mocks });
    expect(await screen.findByRole('heading', { level: 1, name: MY_FIRM_TITLE })).toBeInTheDocument();
    expect(await screen.findByText(NOT_FIRM_ADMIN_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says the same when the server refuses (FORBIDDEN: no longer an administrator)', async () => {
    const { mocks } = server({ myFirmErrors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }] });
    renderApp({ path: '/my-firm', user: ADMIN, mocks });
    expect(await screen.findByText(NOT_FIRM_ADMIN_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
