import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { BulkAddChannelDocument, CheckEmailsDocument, CreateBulkSubscriptionsDocument } from './__generated__/BulkAdd.generated';
import { IDS, statsMocks, subscriberChannel } from './testData';

const PATH = `/publisher/premium-channels/subscribers/${IDS.oil}/add-bulk`;
const editor = testUser('Editor');
const CSV = 'email\r\nada@example.com\r\n"bob@example.com",x\r\nnobody@example.com\r\n';

const checkUser = (_id: string, name: string, email: string, sub: Record<string, unknown> = {}) => ({
  __typename: 'CsvCheckUser',
  _id,
  insightsUserId: `auth0|${name}`,
  name,
  email,
  company: null,
  subscriptionType: null,
  subscriptionState: null,
  ...sub,
});

const RESULT = {
  __typename: 'CsvCheckResult',
  identified: 4,
  users: [checkUser(IDS.ada, 'Ada Reader', 'ada@example.com')],
  existing: [checkUser(IDS.bob, 'Bob Buyer', 'bob@example.com', { subscriptionType: 'trial', subscriptionState: 'active' })],
  insightsUsers: [checkUser(IDS.cy, 'Cy Client', 'cy@example.com')],
  unmatched: ['nobody@example.com'],
};

const channelMock = (channel = subscriberChannel()): MockLink.MockedResponse => ({
  request: { query: BulkAddChannelDocument, variables: { channelId: channel._id } },
  result: { data: { channel } },
});

const checkMock = (result: typeof RESULT, csv = CSV): MockLink.MockedResponse => ({
  request: { query: CheckEmailsDocument, variables: { channelId: IDS.oil, csv } },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { checkEmails: result } },
});

/** The server's answer to `createBulkSubscriptions`: nothing done and nobody refused unless told. */
const outcome = (
  counts: Partial<Record<'added' | 'updated' | 'alreadySubscribed' | 'refused', number>> = {},
  refusals: unknown[] = [],
) => ({
  __typename: 'BulkSubscriptionResult',
  added: 0,
  updated: 0,
  alreadySubscribed: 0,
  refused: 0,
  ...counts,
  refusals,
});

const csvFile = (text = CSV, name = 'readers.csv') => new File([text], name, { type: 'text/csv' });
const tab = (name: RegExp) => screen.getByRole('tab', { name });

beforeAll(async () => {
  await import('./BulkAdd');
  await import('./SubscriberStats');
});

describe('BulkAdd', { timeout: 15_000 }, () => {
  it("refuses anything but a .csv file with 'File format not supported'", async () => {
    // The chooser's filter is bypassed, as a user choosing 'All files' would.
    const user = userEvent.setup({ applyAccept: false });
    renderApp({ path: PATH, user: editor, mocks: [channelMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add subscribers' })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Channels' })).toHaveAttribute('href', '/publisher/premium-channels');
    expect(crumbs.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/subscriber-stats/${IDS.oil}`,
    );
    expect(crumbs.getByText('Add subscribers')).toHaveAttribute('aria-current', 'page');

    const input = screen.getByLabelText('CSV file');
    expect(input).toHaveAttribute('accept', '.csv,text/csv');
    await user.upload(input, csvFile('a,b', 'readers.xlsx'));
    expect(await screen.findByText('File format not supported')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription('File format not supported');
    expect(screen.getByRole('heading', { level: 1, name: 'Add subscribers' })).toBeInTheDocument();
  });

  it('reads the file, has the server check it and reviews the result, then adds the users', async () => {
    const user = userEvent.setup();
    const create = vi.fn(() => ({
      data: { createBulkSubscriptions: outcome({ added: 1, alreadySubscribed: 1 }) },
    }));
    renderApp({
      path: PATH,
      user: editor,
      mocks: [
        channelMock(),
        checkMock(RESULT),
        {
          request: {
            query: CreateBulkSubscriptionsDocument,
            variables: {
              item: {
                channelId: IDS.oil,
                fileName: 'readers.csv',
                subscriptionType: 'trial',
                notes: 'Conference list',
                policyOverrideReason: null,
              },
              users: [IDS.ada],
              existing: [],
            },
          },
          result: create,
        },
        ...statsMocks(),
      ],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());

    expect(await screen.findByRole('heading', { level: 1, name: 'Review upload' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'A total of 4 email addresses were identified in the CSV file, of which 1 can be added as new subscribers to the channel.',
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Subscriptions (1)',
      'Existing (1)',
      'No Insights account (1)',
      'Unmatched (1)',
    ]);
    expect(within(screen.getByRole('table', { name: 'Users to be added' })).getByText('ada@example.com')).toBeInTheDocument();

    await user.click(tab(/^Existing/));
    const existing = await screen.findByRole('table', { name: 'Users already subscribed' });
    expect(within(existing).getByText('Trial (Active)')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Overwrite subscribed users' })).not.toBeChecked();
    await user.click(tab(/^No Insights account/));
    expect(
      within(await screen.findByRole('table', { name: 'Users without an Insights account' })).getByText('Cy Client'),
    ).toBeInTheDocument();
    await user.click(tab(/^Unmatched/));
    expect(
      within(await screen.findByRole('table', { name: 'Unmatched email addresses' })).getByText('nobody@example.com'),
    ).toBeInTheDocument();

    // A premium channel gives non-charge subscriptions unless told otherwise.
    const types = screen.getByRole('radiogroup', { name: 'Subscription type given' });
    expect(within(types).getByRole('radio', { name: 'Non-charge' })).toBeChecked();
    await user.click(within(types).getByRole('radio', { name: 'Trial' }));
    await user.type(screen.getByLabelText('Notes (optional)'), 'Conference list');
    await user.click(screen.getByRole('button', { name: 'Confirm and add subscribers' }));

    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('1 subscriber(s) added, 0 updated, 1 already subscribed.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
  });

  it("enables the confirmation for existing users only once 'Overwrite subscribed users' is checked", async () => {
    const user = userEvent.setup();
    const onlyExisting = { ...RESULT, identified: 1, users: [], insightsUsers: [], unmatched: [] };
    const create = vi.fn(() => ({
      data: { createBulkSubscriptions: outcome({ updated: 1 }) },
    }));
    const csv = 'bob@example.com\n';
    renderApp({
      path: PATH,
      user: editor,
      mocks: [
        channelMock(),
        checkMock(onlyExisting, csv),
        {
          request: {
            query: CreateBulkSubscriptionsDocument,
            variables: {
              item: { channelId: IDS.oil, fileName: 'readers.csv', subscriptionType: 'nonCharge', notes: null, policyOverrideReason: null },
              users: [],
              existing: [IDS.bob],
            },
          },
          result: create,
        },
        ...statsMocks(),
      ],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile(csv));
    const confirm = await screen.findByRole('button', { name: 'Confirm and add subscribers' });
    expect(confirm).toBeDisabled();
    await user.click(tab(/^Existing/));
    await user.click(await screen.findByRole('checkbox', { name: 'Overwrite subscribed users' }));
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('0 subscriber(s) added, 1 updated.')).toBeInTheDocument();
  });

  it('asks for a reason to override the trial policy for a trial only, and sends it with the subscriptions', async () => {
    const user = userEvent.setup();
    const create = vi.fn(() => ({ data: { createBulkSubscriptions: outcome({ added: 1 }) } }));
    renderApp({
      path: PATH,
      user: editor,
      mocks: [
        channelMock(),
        checkMock(RESULT),
        {
          request: {
            query: CreateBulkSubscriptionsDocument,
            variables: {
              item: {
                channelId: IDS.oil,
                fileName: 'readers.csv',
                subscriptionType: 'trial',
                notes: null,
                policyOverrideReason: 'Agreed with sales for the conference',
              },
              users: [IDS.ada],
              existing: [],
            },
          },
          result: create,
        },
        ...statsMocks(),
      ],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());
    await screen.findByRole('heading', { level: 1, name: 'Review upload' });

    // Non-charge subscriptions follow no trial policy: no reason is asked for.
    expect(screen.queryByLabelText('Reason to override the trial policy')).not.toBeInTheDocument();
    const types = screen.getByRole('radiogroup', { name: 'Subscription type given' });
    await user.click(within(types).getByRole('radio', { name: 'Trial' }));
    const reason = await screen.findByLabelText('Reason to override the trial policy');
    expect(reason).toHaveAccessibleDescription(expect.stringContaining('kept in the audit trail'));
    await user.type(reason, '  Agreed with sales for the conference ');
    await user.click(screen.getByRole('button', { name: 'Confirm and add subscribers' }));

    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
  });

  it("lists the users the server refused, with their email and the reason, until 'Done'", async () => {
    const user = userEvent.setup();
    const COOL_OFF = 'Within the trial policy cool-off until 01 Jun 2026';
    const create = vi.fn(() => ({
      data: {
        createBulkSubscriptions: outcome({ updated: 1, refused: 1 }, [{ __typename: 'BulkRefusal', userId: IDS.ada, reason: COOL_OFF }]),
      },
    }));
    const { router } = renderApp({
      path: PATH,
      user: editor,
      mocks: [
        channelMock(),
        checkMock(RESULT),
        {
          request: {
            query: CreateBulkSubscriptionsDocument,
            variables: {
              item: { channelId: IDS.oil, fileName: 'readers.csv', subscriptionType: 'trial', notes: null, policyOverrideReason: null },
              users: [IDS.ada],
              existing: [IDS.bob],
            },
          },
          result: create,
        },
        ...statsMocks(),
      ],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());
    await screen.findByRole('heading', { level: 1, name: 'Review upload' });
    await user.click(tab(/^Existing/));
    await user.click(await screen.findByRole('checkbox', { name: 'Overwrite subscribed users' }));
    await user.click(within(screen.getByRole('radiogroup', { name: 'Subscription type given' })).getByRole('radio', { name: 'Trial' }));
    await user.click(screen.getByRole('button', { name: 'Confirm and add subscribers' }));

    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('0 subscriber(s) added, 1 updated, 1 refused.')).toBeInTheDocument();
    // The screen stays: the refused users are shown by their email (from the review), not their id.
    const warning = await screen.findByText('1 user(s) were not given the subscription:');
    expect(warning.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Review upload' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(PATH);
    const refused = screen.getByRole('table', { name: 'Users refused' });
    expect(
      within(refused)
        .getAllByRole<HTMLTableRowElement>('row')
        .map((r) => [...r.cells].map((c) => c.textContent)),
    ).toEqual([
      ['Email', 'Reason'],
      ['ada@example.com', COOL_OFF],
    ]);
    expect(screen.queryByRole('button', { name: 'Confirm and add subscribers' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil Weekly: subscribers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/publisher/premium-channels/subscriber-stats/${IDS.oil}`);
  });

  it("shows 'Upload complete' and clears the review on Cancel", async () => {
    const user = userEvent.setup();
    renderApp({ path: PATH, user: editor, mocks: [channelMock(), checkMock(RESULT)] });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());
    await screen.findByRole('heading', { level: 1, name: 'Review upload' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Add subscribers' })).toBeInTheDocument();
    expect(screen.queryByText(/A total of/)).not.toBeInTheDocument();
    expect(screen.queryByText('Upload complete')).not.toBeInTheDocument();

    // The same file again is read again.
    await user.upload(screen.getByLabelText('CSV file'), csvFile());
    expect(await screen.findByRole('heading', { level: 1, name: 'Review upload' })).toBeInTheDocument();
  });

  it('says Upload complete once the file is read, while the check runs', async () => {
    const user = userEvent.setup();
    renderApp({
      path: PATH,
      user: editor,
      mocks: [{ ...checkMock(RESULT), delay: 400 }, channelMock()],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Review upload' })).toBeInTheDocument();
  });

  it("shows the server's refusal of the check", async () => {
    const user = userEvent.setup();
    renderApp({
      path: PATH,
      user: editor,
      mocks: [
        channelMock(),
        {
          request: { query: CheckEmailsDocument, variables: { channelId: IDS.oil, csv: CSV } },
          result: { errors: [{ message: 'The file has more than 100000 rows.', extensions: { code: 'BAD_USER_INPUT' } }] },
        },
      ],
    });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile());
    // Found by its text: a toast of an earlier test may still be another alert.
    const message = await screen.findByText('BAD_USER_INPUT::The file has more than 100000 rows.');
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Add subscribers' })).toBeInTheDocument();
  });

  it('sends users back to the channels list for an archived channel', async () => {
    const { router } = renderApp({ path: PATH, user: editor, mocks: [channelMock(subscriberChannel({ state: 'archived' }))] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/premium-channels'));
  });
});
