import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { DeskListDocument } from './__generated__/DeskList.generated';

const member = (n: number) => ({ __typename: 'UserSummary', _id: `u${n}` });

function desk(_id: string, name: string, members: number, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Desk',
    _id,
    name,
    email: `${name.toLowerCase().replace(/ /g, '.')}@insights.example`,
    articleCount: 0,
    views: 0,
    canEdit: true,
    contributors: Array.from({ length: members }, (_, i) => member(i + 1)),
    ...overrides,
  };
}

const DESKS = [
  desk('66d000000000000000000001', 'Energy Desk', 2, { articleCount: 12, views: 340 }),
  desk('66d000000000000000000002', 'Metals Desk', 1, { canEdit: false, articleCount: 3, views: 25 }),
  desk('66d000000000000000000003', 'Agri Desk', 0, { email: null }),
];

const desksMock: MockLink.MockedResponse = {
  request: { query: DeskListDocument },
  result: { data: { desks: DESKS } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const table = () => screen.getByRole('table', { name: 'Desks' });
const column = (i: number) =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => r.cells[i].textContent);

beforeAll(async () => {
  await import('./DeskList');
});

describe('DeskList', () => {
  it("shows the columns, 'N contributor(s)' and the add button", async () => {
    renderApp({ path: '/publisher/desks', user: testUser('Editor'), mocks: [desksMock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Desks' })).toBeInTheDocument();
    await within(table()).findByText('Agri Desk');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Email', 'Members', 'Articles', 'Views']);
    expect(column(0)).toEqual(['Agri Desk', 'Energy Desk', 'Metals Desk']);
    expect(column(1)).toEqual(['', 'energy.desk@insights.example', 'metals.desk@insights.example']);
    expect(column(2)).toEqual(['0 contributor(s)', '2 contributor(s)', '1 contributor(s)']);
    expect(column(3)).toEqual(['0', '12', '3']);
    expect(column(4)).toEqual(['0', '340', '25']);
    expect(screen.getByText('Showing 1-3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add desk' })).toHaveAttribute('href', '/publisher/desks/add');
  });

  it('links a desk to its form only when the viewer may edit it', async () => {
    renderApp({ path: '/publisher/desks', user: testUser('Contributor'), mocks: [desksMock] });
    expect(await screen.findByRole('link', { name: 'Energy Desk' })).toHaveAttribute(
      'href',
      '/publisher/desks/edit/66d000000000000000000001',
    );
    expect(screen.getByRole('link', { name: 'Agri Desk' })).toHaveAttribute('href', '/publisher/desks/edit/66d000000000000000000003');
    expect(within(table()).getByText('Metals Desk')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Metals Desk' })).not.toBeInTheDocument();
  });

  it('sorts and searches in the browser', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/desks', user: testUser('Administrator'), mocks: [desksMock] });
    await screen.findByRole('link', { name: 'Energy Desk' });

    await user.click(screen.getByRole('button', { name: 'Members' }));
    expect(column(0)).toEqual(['Agri Desk', 'Metals Desk', 'Energy Desk']);
    await user.click(screen.getByRole('button', { name: 'Views' }));
    await user.click(screen.getByRole('button', { name: 'Views' }));
    expect(column(0)).toEqual(['Energy Desk', 'Metals Desk', 'Agri Desk']);

    await user.type(screen.getByRole('searchbox', { name: 'Search desks...' }), 'METAL');
    expect(await screen.findByText('Showing 1-1 of 1')).toBeInTheDocument();
    expect(column(0)).toEqual(['Metals Desk']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search desks...' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search desks...' }), 'nothing');
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });
});
