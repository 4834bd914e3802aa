import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { ChannelListDocument, type ChannelListQueryVariables } from './__generated__/ChannelList.generated';
import { CHANNEL_IDS, listChannel } from './testData';

type Params = NonNullable<ChannelListQueryVariables['params']>;

const CHANNELS = [
  listChannel(),
  listChannel({
    _id: CHANNEL_IDS.gas,
    name: 'Gas Open',
    type: 'freeOpen',
    ownerType: 'contributor',
    ownerId: CHANNEL_IDS.chris,
    owner: { __typename: 'ChannelOwner', _id: CHANNEL_IDS.chris, name: 'Chris Contributor', type: 'contributor' },
    price: null,
    articleCount: 2,
    channelActiveUsersCount: 40,
    createdAt: '2025-12-24T12:00:00Z',
    canEdit: false,
  }),
  listChannel({
    _id: CHANNEL_IDS.metals,
    name: 'Metals Closed',
    type: 'freeClosed',
    price: null,
    state: 'archived',
    canEdit: false,
    articleCount: 0,
    channelActiveUsersCount: 0,
  }),
];

/** The channels the viewer administers ('My Channels'). */
const MINE = new Set<string>([CHANNEL_IDS.oil]);

/** A fake `channels(params)`: filters, searches, sorts and pages like the server, and records each call. */
function channelsMock(calls: Params[]): MockLink.MockedResponse {
  return {
    request: { query: ChannelListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase();
      const sign = params.sortDirection === 'Desc' ? -1 : 1;
      const rows = CHANNELS.filter((c) => (params.filter === 'Archived' ? c.state === 'archived' : c.state === 'active'))
        .filter((c) => params.filter !== 'MyChannels' || MINE.has(c._id))
        .filter((c) => params.type === 'All' || (params.type === 'Premium') === (c.type === 'premium'))
        .filter((c) => !q || c.name.toLowerCase().includes(q))
        .sort((a, b) =>
          params.sortField === 'ActiveUsers'
            ? sign * (a.channelActiveUsersCount - b.channelActiveUsersCount)
            : sign * a.name.localeCompare(b.name),
        );
      const size = params.pageSize ?? 15;
      const page = params.page ?? 1;
      return { data: { channels: { __typename: 'ChannelPage', total: rows.length, items: rows.slice((page - 1) * size, page * size) } } };
    },
  };
}

const table = () => screen.getByRole('table', { name: 'Channels' });
const rowTexts = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));
const filters = () => within(screen.getByRole('group', { name: 'Filter' }));
const types = () => within(screen.getByRole('group', { name: 'Channel type' }));

// The route loads these lazily; loading them first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./ChannelList');
});

describe('ChannelList', () => {
  it('lists the active channels with their columns, owner links and the New channel button', async () => {
    const calls: Params[] = [];
    renderApp({ path: '/publisher/premium-channels', user: testUser('Administrator'), mocks: [channelsMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Oil Weekly' })).toHaveAttribute(
      'href',
      `/publisher/premium-channels/edit/${CHANNEL_IDS.oil}`,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Type',
      'Owner',
      'Price',
      'Articles',
      'Active users',
      'Created',
    ]);
    expect(rowTexts()).toEqual([
      ['Gas Open', 'Free open', 'Chris Contributor', '', '2', '40', '24 Dec 2025'],
      ['Oil Weekly', 'Premium', 'Oil desk', '$49.00', '12', '3', '05 Mar 2026'],
    ]);
    // A desk owner links to the desk; a contributor owner is plain text.
    expect(within(table()).getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', `/publisher/desks/edit/${CHANNEL_IDS.oilDesk}`);
    expect(within(table()).queryByRole('link', { name: 'Chris Contributor' })).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1-2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New channel' })).toHaveAttribute('href', '/publisher/premium-channels/add');
    expect(screen.getByRole('link', { name: 'Subscriber stats' })).toHaveAttribute('href', '/publisher/premium-channels/subscriber-stats');
    expect(filters().getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(types().getByRole('button', { name: 'All types' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls[0]).toEqual({
      page: 1,
      pageSize: 15,
      filter: 'All',
      type: 'All',
      searchQuery: null,
      sortField: 'Name',
      sortDirection: 'Asc',
    });
  });

  it('gives an Editor the New channel button, and links only the channels they may edit', async () => {
    renderApp({ path: '/publisher/premium-channels', user: testUser('Editor'), mocks: [channelsMock([])] });
    await screen.findByRole('link', { name: 'Oil Weekly' });
    expect(screen.getByRole('link', { name: 'New channel' })).toBeInTheDocument();
    expect(within(table()).getByText('Gas Open')).toBeInTheDocument();
    expect(within(table()).queryByRole('link', { name: 'Gas Open' })).not.toBeInTheDocument();
  });

  it('shows the list to a Contributor without the New channel button', async () => {
    renderApp({ path: '/publisher/premium-channels', user: testUser('Contributor'), mocks: [channelsMock([])] });
    await screen.findByRole('link', { name: 'Oil Weekly' });
    expect(screen.getByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New channel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Subscriber stats' })).not.toBeInTheDocument();
  });

  it('filters My Channels, Archived and by type, searches and sorts on the server', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: '/publisher/premium-channels', user: testUser('Administrator'), mocks: [channelsMock(calls)] });
    await screen.findByRole('link', { name: 'Oil Weekly' });

    await user.click(filters().getByRole('button', { name: 'My Channels' }));
    await screen.findByText('Showing 1-1 of 1');
    expect(calls.at(-1)).toMatchObject({ filter: 'MyChannels', page: 1 });
    expect(rowTexts().map((r) => r[0])).toEqual(['Oil Weekly']);

    // The Archived view adds the State column; an Administrator opens archived channels (read-only).
    await user.click(filters().getByRole('button', { name: 'Archived' }));
    expect(await within(table()).findByRole('link', { name: 'Metals Closed' })).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ filter: 'Archived' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('State');
    expect(rowTexts()[0]).toEqual(['Metals Closed', 'Free closed', 'Oil desk', '', '0', '0', '05 Mar 2026', 'Archived']);

    await user.click(filters().getByRole('button', { name: 'All' }));
    await user.click(types().getByRole('button', { name: 'Premium' }));
    await waitFor(() => expect(rowTexts().map((r) => r[0])).toEqual(['Oil Weekly']));
    expect(types().getByRole('button', { name: 'Premium' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls.at(-1)).toMatchObject({ filter: 'All', type: 'Premium', page: 1 });

    await user.click(types().getByRole('button', { name: 'Free' }));
    await waitFor(() => expect(rowTexts().map((r) => r[0])).toEqual(['Gas Open']));
    expect(calls.at(-1)).toMatchObject({ type: 'Free' });

    await user.click(types().getByRole('button', { name: 'All types' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search channels...' }), 'oil');
    await screen.findByText('Showing 1-1 of 1');
    expect(calls.at(-1)).toMatchObject({ searchQuery: 'oil', type: 'All' });

    await user.clear(screen.getByRole('searchbox', { name: 'Search channels...' }));
    await screen.findByText('Showing 1-2 of 2');
    await user.click(screen.getByRole('button', { name: 'Active users' }));
    await user.click(screen.getByRole('button', { name: 'Active users' }));
    await waitFor(() => expect(rowTexts().map((r) => r[0])).toEqual(['Gas Open', 'Oil Weekly']));
    expect(calls.at(-1)).toMatchObject({ sortField: 'ActiveUsers', sortDirection: 'Desc' });
  });

  it("says 'There are no items to show' when nothing matches", async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/premium-channels', user: testUser('Editor'), mocks: [channelsMock([])] });
    await screen.findByRole('link', { name: 'Oil Weekly' });
    await user.type(screen.getByRole('searchbox', { name: 'Search channels...' }), 'zinc');
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });
});
