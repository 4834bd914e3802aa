import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { SubscriberStatsChannelsDocument, type SubscriberStatsChannelsQueryVariables } from './__generated__/SubscriberStatsMain.generated';
import { EDITOR_ID, IDS } from './testData';

type Params = NonNullable<SubscriberStatsChannelsQueryVariables['params']>;

const channel = (_id: string, name: string, type: string, count: number, admins: string[], state = 'active') => ({
  __typename: 'Channel',
  _id,
  name,
  type,
  state,
  owner: { __typename: 'ChannelOwner', _id: '65e000000000000000000001', name: 'Oil desk', type: 'desk' },
  adminUsers: admins.map((id) => ({ __typename: 'UserSummary', _id: id, name: 'Admin', email: 'admin@example.com' })),
  channelActiveUsersCount: count,
});

const CHANNELS = [
  channel(IDS.gas, 'Gas Open', 'freeOpen', 40, []),
  channel(IDS.oil, 'Oil Weekly', 'premium', 3, [EDITOR_ID]),
  channel(IDS.metals, 'Metals Closed', 'freeClosed', 0, [EDITOR_ID], 'archived'),
];

function channelsMock(calls: Params[]): MockLink.MockedResponse {
  return {
    request: { query: SubscriberStatsChannelsDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase();
      const rows = CHANNELS.filter((c) => (params.filter === 'Archived' ? c.state === 'archived' : c.state === 'active'))
        .filter((c) => params.filter !== 'MyChannels' || c.adminUsers.some((u) => u._id === EDITOR_ID))
        .filter((c) => !q || c.name.toLowerCase().includes(q));
      return { data: { channels: { __typename: 'ChannelPage', total: rows.length, items: rows } } };
    },
  };
}

const PATH = '/publisher/premium-channels/subscriber-stats';
const table = () => screen.getByRole('table', { name: 'Channels' });
const rowTexts = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));
const filters = () => within(screen.getByRole('group', { name: 'Filter' }));

beforeAll(async () => {
  await import('./SubscriberStatsMain');
});

// Long journeys (a debounced search, a save and the screen it returns to) on a busy machine.
describe('SubscriberStatsMain', { timeout: 15_000 }, () => {
  it('lists every channel with its active subscribers for an Administrator, each opening its stats', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [channelsMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Gas Open' })).toHaveAttribute('href', `${PATH}/${IDS.gas}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Subscriber stats' })).toBeInTheDocument();
    expect(rowTexts()).toEqual([
      ['Gas Open', 'Free open', 'Oil desk', '40'],
      ['Oil Weekly', 'Premium', 'Oil desk', '3'],
    ]);
    expect(filters().getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls[0]).toEqual({
      page: 1,
      pageSize: 15,
      filter: 'All',
      type: 'All',
      searchQuery: null,
      sortField: 'Name',
      sortDirection: 'Asc',
    });

    await user.click(screen.getByRole('button', { name: 'Active subscribers' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'ActiveUsers', sortDirection: 'Asc' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search channels...' }), 'oil');
    await waitFor(() => expect(rowTexts().map((r) => r[0])).toEqual(['Oil Weekly']));
    expect(calls.at(-1)).toMatchObject({ searchQuery: 'oil' });

    await user.click(filters().getByRole('button', { name: 'Archived' }));
    await user.clear(screen.getByRole('searchbox', { name: 'Search channels...' }));
    await waitFor(() => expect(rowTexts()).toEqual([['Metals Closed', 'Free closed', 'Oil desk', '0', 'Archived']]));
  });

  it('starts an Editor on the channels they administer, and opens only those', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: testUser('Editor'), mocks: [channelsMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `${PATH}/${IDS.oil}`);
    expect(calls[0]).toMatchObject({ filter: 'MyChannels' });
    expect(filters().getByRole('button', { name: 'My Channels' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(filters().getByRole('button', { name: 'All' }));
    await screen.findByText('Gas Open');
    expect(within(table()).queryByRole('link', { name: 'Gas Open' })).not.toBeInTheDocument();
  });

  it('sends /subscribers to the subscriber stats main', async () => {
    const { router } = renderApp({
      path: '/publisher/premium-channels/subscribers',
      user: testUser('Administrator'),
      mocks: [channelsMock([])],
    });
    await screen.findByRole('heading', { level: 1, name: 'Subscriber stats' });
    expect(router.state.location.pathname).toBe(PATH);
  });
});
