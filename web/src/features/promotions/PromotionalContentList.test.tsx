import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  PromotionalContentListDocument,
  type PromotionalContentListQueryVariables,
} from './__generated__/PromotionalContentList.generated';
import { CONTENT_IDS, contentRow } from './testData';

type Params = NonNullable<PromotionalContentListQueryVariables['params']>;

const LONG = `${'Premium research on the energy transition, '.repeat(4)}and more.`;
const ROWS = [
  contentRow(),
  contentRow({
    _id: CONTENT_IDS.webinar,
    name: 'Energy webinar',
    description: LONG,
    categoriesCount: 0,
    articlesCount: 12,
    expiryDate: '2020-01-31T23:59:59Z',
    expired: true,
    impressions: 0,
    clicks: 0,
    clickThroughRate: null,
  }),
  contentRow({
    _id: CONTENT_IDS.summit,
    name: 'Metals summit',
    description: '',
    expiryDate: null,
    impressions: 40,
    clicks: 1,
    clickThroughRate: 0.025,
  }),
];

/** A fake `promotionalContent(params)`: searches, sorts and pages like the server, and records each call. */
function listMock(calls: Params[], rows = ROWS): MockLink.MockedResponse {
  return {
    request: { query: PromotionalContentListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase();
      const field = (
        {
          Name: 'name',
          ExpiryDate: 'expiryDate',
          CategoriesCount: 'categoriesCount',
          ArticlesCount: 'articlesCount',
          Impressions: 'impressions',
          Clicks: 'clicks',
        } as const
      )[params.sortField ?? 'Name'];
      const sign = params.sortDirection === 'Desc' ? -1 : 1;
      const found = rows
        .filter((c) => !q || c.name.toLowerCase().includes(q))
        .sort((a, b) => {
          const [x, y] = [a[field], b[field]];
          return sign * (typeof x === 'number' ? x - (y as number) : String(x).localeCompare(String(y)));
        });
      const size = params.pageSize ?? 15;
      const page = params.page ?? 1;
      return {
        data: {
          promotionalContent: {
            __typename: 'PromotionalContentPage',
            total: found.length,
            promotionalContent: found.slice((page - 1) * size, page * size),
          },
        },
      };
    },
  };
}

const table = () => screen.getByRole('table', { name: 'Promotional Content' });
const column = (i: number) =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => r.cells[i].textContent);
const administrator = testUser('Administrator');

beforeAll(async () => {
  await import('./PromotionalContentList');
});

describe('PromotionalContentList', () => {
  it("shows the columns, the cut description, the counts, 'DD MMM YYYY' expiry (spec 3 §9) and the click-through rate", async () => {
    const calls: Params[] = [];
    renderApp({ path: '/publisher/promotional-content', user: administrator, mocks: [listMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Spring offer' })).toHaveAttribute(
      'href',
      `/publisher/promotional-content/edit/${CONTENT_IDS.spring}`,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Description',
      'Topics',
      'Articles',
      'Expiry Date',
      'Impressions',
      'Clicks',
      'CTR',
    ]);
    expect(column(0)).toEqual(['Energy webinar', 'Metals summit', 'Spring offer']);
    expect(column(1)[0]).toBe(`${LONG.slice(0, 130).trimEnd()}…`);
    expect(column(2)).toEqual(['0', '2', '2']);
    expect(column(3)).toEqual(['12', '5', '5']);
    expect(column(4)).toEqual(['31 Jan 2020 (expired)', '', '30 Jun 2099']);
    expect(column(5)).toEqual(['0', '40', '200']);
    expect(column(6)).toEqual(['0', '1', '25']);
    expect(column(7)).toEqual(['—', '2.5%', '12.5%']);
    expect(screen.getByText('Showing 1-3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add promotional content' })).toHaveAttribute('href', '/publisher/promotional-content/add');
    expect(screen.getByRole('link', { name: 'Promotion pages' })).toHaveAttribute('href', '/publisher/promotional-page');
    expect(calls[0]).toEqual({ page: 1, pageSize: 15, searchQuery: null, sortField: 'Name', sortDirection: 'Asc' });
  }, 15_000);

  it("says 'Categories' when premium channels are off", async () => {
    renderApp({
      path: '/publisher/promotional-content',
      user: administrator,
      config: testConfig({ features: { ...testConfig().features, premiumChannels: false } }),
      mocks: [listMock([])],
    });
    await screen.findByRole('link', { name: 'Spring offer' });
    expect(screen.getByRole('columnheader', { name: 'Categories' })).toBeInTheDocument();
  });

  it('searches (after the debounce), sorts and pages on the server', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: '/publisher/promotional-content', user: administrator, mocks: [listMock(calls)] });
    await screen.findByRole('link', { name: 'Spring offer' });

    await user.type(screen.getByRole('searchbox', { name: 'Search promotional content...' }), 'summit');
    expect(await screen.findByText('Showing 1-1 of 1')).toBeInTheDocument();
    expect(column(0)).toEqual(['Metals summit']);
    // Only the debounced text reached the server, not every key.
    expect(calls.filter((c) => c.searchQuery && c.searchQuery !== 'summit')).toEqual([]);
    expect(calls.at(-1)).toMatchObject({ searchQuery: 'summit', page: 1 });

    await user.clear(screen.getByRole('searchbox', { name: 'Search promotional content...' }));
    await screen.findByText('Showing 1-3 of 3');
    await user.click(screen.getByRole('button', { name: 'Impressions' }));
    await user.click(screen.getByRole('button', { name: 'Impressions' }));
    await waitFor(() => expect(column(0)).toEqual(['Spring offer', 'Metals summit', 'Energy webinar']));
    expect(calls.at(-1)).toMatchObject({ sortField: 'Impressions', sortDirection: 'Desc' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '15');
    await user.click(screen.getByRole('button', { name: 'Expiry Date' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'ExpiryDate', sortDirection: 'Asc' }));
  }, 20_000);

  it('pages through the content', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    const many = Array.from({ length: 17 }, (_, i) =>
      contentRow({ _id: `66e0000000000000000001${String(i).padStart(2, '0')}`, name: `Offer ${String(i + 1).padStart(2, '0')}` }),
    );
    renderApp({ path: '/publisher/promotional-content', user: administrator, mocks: [listMock(calls, many)] });
    expect(await screen.findByText('Showing 1-15 of 17')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 16-17 of 17')).toBeInTheDocument();
    await waitFor(() => expect(column(0)).toEqual(['Offer 16', 'Offer 17']));
    expect(calls.at(-1)).toMatchObject({ page: 2, pageSize: 15 });
  }, 20_000);

  it("says 'There are no items to show' when there is none", async () => {
    renderApp({ path: '/publisher/promotional-content', user: administrator, mocks: [listMock([], [])] });
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });
});
