import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { UserListDocument, type UserListQueryVariables } from './__generated__/UserList.generated';
import { trialPeriodText } from './UserList';

/** 5 Mar 2026 14:05, local time. */
const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();

function userRow(_id: string, name: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'User',
    _id,
    email: `${name.split(' ')[0].toLowerCase()}@example.com`,
    name,
    company: 'Insights Research',
    role: 'Contributor',
    lastLogin: MARCH_5,
    trialMinLeft: -1,
    articleCount: 0,
    views: 0,
    ...overrides,
  };
}

const USERS = [
  userRow('internal|alex', 'Alex Admin', { role: 'Administrator', articleCount: 4, views: 120 }),
  userRow('internal|chris', 'Chris Contributor', { articleCount: 2, views: 30 }),
  userRow('sam', 'Sam Subscriber', { role: 'Subscriber', company: null, trialMinLeft: 0, lastLogin: null }),
  userRow('tara', 'Tara Trial', { role: 'Subscriber', trialMinLeft: 90 }),
  userRow('tom', 'Tom Trial', { role: 'Subscriber', trialMinLeft: 3 * 1440 + 5 * 60 }),
];

/** A fake `getPaginatedUsers`: answers a fixed page and records each call. */
function usersMock(calls: UserListQueryVariables[], total = USERS.length): MockLink.MockedResponse {
  return {
    request: { query: UserListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const vars = variables as UserListQueryVariables;
      calls.push(vars);
      const rows = vars.type === 'Trial' ? USERS.filter((u) => u.trialMinLeft > 0) : USERS;
      return { data: { getPaginatedUsers: { __typename: 'UserPage', total: vars.type === 'Trial' ? rows.length : total, users: rows } } };
    },
  };
}

const table = () => screen.getByRole('table', { name: 'Users' });
const cells = (name: string) =>
  Array.from(within(table()).getByRole('link', { name }).closest<HTMLTableRowElement>('tr')!.cells).map((c) => c.textContent);

beforeAll(async () => {
  await import('./UserList');
});

describe('trialPeriodText', () => {
  it('is blank without a trial, Expired at 0, whole days from a day on, else hours and minutes', () => {
    expect(trialPeriodText(-1)).toBe('');
    expect(trialPeriodText(0)).toBe('Expired');
    expect(trialPeriodText(90)).toBe('1 hour 30 min');
    expect(trialPeriodText(3 * 1440 + 5 * 60)).toBe('3 days');
    expect(trialPeriodText(1440)).toBe('1 day');
    expect(trialPeriodText(1439)).toBe('23 hours 59 min');
    expect(trialPeriodText(120)).toBe('2 hours');
    expect(trialPeriodText(45)).toBe('45 min');
  });
});

describe('UserList', () => {
  it('shows the tabs, the columns and each cell as the spec words it', async () => {
    const calls: UserListQueryVariables[] = [];
    renderApp({ path: '/publisher/users', user: testUser('Editor'), mocks: [usersMock(calls)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    await within(table()).findByRole('link', { name: 'Alex Admin' });

    const tabs = within(screen.getByRole('group', { name: 'Filter' })).getAllByRole('button');
    expect(tabs.map((t) => t.textContent)).toEqual(['All', 'Administrator', 'Editor', 'Contributor', 'Subscriber', 'Trial']);
    expect(tabs[0]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('searchbox', { name: 'Search users...' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Email',
      'Name',
      'Company',
      'Role',
      'Last signed in',
      'Trial Period',
      'Articles',
      'Views',
    ]);

    expect(cells('Alex Admin')).toEqual([
      'alex@example.com',
      'Alex Admin',
      'Insights Research',
      'Administrator',
      '05 Mar 2026 14:05',
      '',
      '4',
      '120',
    ]);
    expect(cells('Sam Subscriber')).toEqual(['sam@example.com', 'Sam Subscriber', '', 'Subscriber', '', 'Expired', '0', '0']);
    expect(cells('Tara Trial')[5]).toBe('1 hour 30 min');
    expect(cells('Tom Trial')[5]).toBe('3 days');
    // Ids may hold characters a path must escape.
    expect(screen.getByRole('link', { name: 'Alex Admin' })).toHaveAttribute('href', '/publisher/users/edit/internal%7Calex');
    expect(screen.getByText('Showing 1-5 of 5')).toBeInTheDocument();

    expect(calls[0]).toEqual({ type: 'All', searchQuery: null, sortField: 'Name', sortDirection: 'Asc', limit: 15, offset: 0 });
  });

  it('asks the server for the chosen tab, search, sort and page', async () => {
    const user = userEvent.setup();
    const calls: UserListQueryVariables[] = [];
    renderApp({ path: '/publisher/users', user: testUser('Contributor'), mocks: [usersMock(calls, 40)] });
    await screen.findByRole('link', { name: 'Alex Admin' });
    expect(screen.getByText('Showing 1-15 of 40')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ offset: 15, limit: 15 }));
    expect(await screen.findByText('Showing 16-30 of 40')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Last signed in' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'LastLogin', sortDirection: 'Asc', offset: 0 }));
    await user.click(screen.getByRole('button', { name: 'Trial Period' }));
    await user.click(screen.getByRole('button', { name: 'Trial Period' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'TrialMinLeft', sortDirection: 'Desc' }));

    await user.type(screen.getByRole('searchbox', { name: 'Search users...' }), 'tr');
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ searchQuery: 'tr', offset: 0 }));
    expect(calls.filter((c) => c.searchQuery === 't')).toEqual([]);

    await user.click(within(screen.getByRole('group', { name: 'Filter' })).getByRole('button', { name: 'Trial' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ type: 'Trial', searchQuery: 'tr', offset: 0 }));
    expect(await screen.findByText('Showing 1-2 of 2')).toBeInTheDocument();
  });
});
