import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { FirmListDocument, type FirmListQueryVariables } from './__generated__/FirmList.generated';
import { firmListParams } from './FirmList';
import { firmSeatsText } from './firmText';
import { FIRM_IDS } from './testData';

function firm(_id: string, name: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Firm',
    _id,
    name,
    domains: [] as string[],
    state: 'active',
    readerCount: 0,
    seatsUsed: 0,
    seatsHeld: 0,
    subscriptionCount: 0,
    ...overrides,
  };
}

const ACME = firm(FIRM_IDS.acme, 'Acme Bank', {
  domains: ['acme-bank.example', 'acme.co.uk'],
  readerCount: 25,
  seatsUsed: 12,
  seatsHeld: 20,
  subscriptionCount: 2,
});
const NORTH = firm(FIRM_IDS.north, 'North Fund', {
  domains: ['north.example'],
  readerCount: 4,
  seatsUsed: 3,
  seatsHeld: null,
  subscriptionCount: 1,
});
const OLD = firm('67f000000000000000000003', 'Old Partners', { state: 'archived' });

/** The server: firms by state and search (a name or a domain), recording what it was asked. */
function server() {
  const asked: FirmListQueryVariables[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: FirmListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: FirmListQueryVariables) => {
      asked.push(variables);
      const params = variables.params ?? {};
      const search = params.search?.toLowerCase() ?? '';
      const firms = [ACME, NORTH, OLD].filter(
        (f) =>
          (!params.state || f.state === params.state) &&
          (!search || f.name.toLowerCase().includes(search) || f.domains.some((d) => d.includes(search))),
      );
      return { data: { firms: { __typename: 'FirmPage', firms, total: firms.length } } };
    },
  };
  return { asked, mock };
}

const table = () => screen.getByRole('table', { name: 'Firms' });
const column = (i: number) =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => r.cells[i].textContent);

beforeAll(async () => {
  await import('./FirmList');
});

describe('FirmList', () => {
  it("shows each firm's domains, readers, seats used / held ('unlimited') and subscriptions, linked to its page", async () => {
    const { mock } = server();
    renderApp({ path: '/publisher/firms', user: testUser('Editor'), mocks: [mock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Firms' })).toBeInTheDocument();
    await within(table()).findByText('Acme Bank');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Domains',
      'Readers',
      'Seats used / held',
      'Subscriptions',
    ]);
    expect(column(0)).toEqual(['Acme Bank', 'North Fund']);
    expect(column(1)).toEqual(['acme-bank.example, acme.co.uk', 'north.example']);
    expect(column(2)).toEqual(['25', '4']);
    expect(column(3)).toEqual(['12 / 20', '3 / unlimited']);
    expect(column(4)).toEqual(['2', '1']);
    expect(screen.getByRole('link', { name: 'Acme Bank' })).toHaveAttribute('href', `/publisher/firms/${FIRM_IDS.acme}`);
    expect(screen.getByRole('link', { name: 'Add firm' })).toHaveAttribute('href', '/publisher/firms/add');
  });

  it('filters by state on the server, with a State column beyond the active firms, and searches names and domains', async () => {
    const user = userEvent.setup();
    const { mock, asked } = server();
    renderApp({ path: '/publisher/firms', user: testUser('Administrator'), mocks: [mock] });
    await within(await screen.findByRole('table', { name: 'Firms' })).findByText('Acme Bank');
    expect(asked[0].params).toEqual({ page: 1, pageSize: 15, search: null, state: 'active' });
    expect(screen.getByRole('button', { name: 'Active' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'All' }));
    await within(table()).findByText('Old Partners');
    expect(asked.at(-1)?.params?.state).toBeNull();
    expect(column(5)).toEqual(['Active', 'Active', 'Archived']);

    await user.click(screen.getByRole('button', { name: 'Archived' }));
    await waitFor(() => expect(column(0)).toEqual(['Old Partners']));

    await user.click(screen.getByRole('button', { name: 'Active' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search firms...' }), 'north.ex');
    await waitFor(() => expect(column(0)).toEqual(['North Fund']));
    expect(asked.at(-1)?.params).toEqual({ page: 1, pageSize: 15, search: 'north.ex', state: 'active' });
  });

  it("lets Contributors read the list, without 'Add firm'", async () => {
    const { mock } = server();
    renderApp({ path: '/publisher/firms', user: testUser('Contributor'), mocks: [mock] });
    expect(await screen.findByRole('link', { name: 'Acme Bank' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add firm' })).not.toBeInTheDocument();
  });

  it("words a firm's seats: 'unlimited' when a subscription has no limit, none without a subscription", () => {
    expect(firmSeatsText({ seatsUsed: 12, seatsHeld: 20 })).toBe('12 / 20');
    expect(firmSeatsText({ seatsUsed: 3, seatsHeld: null })).toBe('3 / unlimited');
    expect(firmSeatsText({ seatsUsed: 0, seatsHeld: 0 })).toBe('0 / 0');
  });

  it('turns the list state into the parameters of firms(params)', () => {
    const state = { page: 2, pageSize: 30, search: '  acme ', filter: 'all', sort: null };
    expect(firmListParams(state)).toEqual({ page: 2, pageSize: 30, search: 'acme', state: null });
    expect(firmListParams({ ...state, search: '', filter: 'archived' })).toEqual({
      page: 2,
      pageSize: 30,
      search: null,
      state: 'archived',
    });
  });
});
