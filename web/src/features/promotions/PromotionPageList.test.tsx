import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { PromotionPageListDocument, type PromotionPageListQueryVariables } from './__generated__/PromotionPageList.generated';
import { CONTENT_IDS, PAGE_IDS } from './testData';

type Params = NonNullable<PromotionPageListQueryVariables['params']>;

const page = (_id: string, name: string, pageSummary: string, users: string[]) => ({
  __typename: 'PromotionPage',
  _id,
  name,
  pageSummary,
  inUse: users.length > 0,
  promotionalContent: users.map((n, i) => ({
    __typename: 'PromotionalContentSummary',
    _id: `${CONTENT_IDS.spring.slice(0, -1)}${i}`,
    name: n,
  })),
});

const PAGES = [
  page(PAGE_IDS.summit, 'Summit registration', 'x'.repeat(140), []),
  page(PAGE_IDS.webinar, 'Webinar sign-up', 'A live webinar on the gas market.', ['Energy webinar', 'Spring offer']),
];

/** A fake `allPages(params)`: searches and pages like the server, and records each call. */
function pagesMock(calls: Params[], pages = PAGES): MockLink.MockedResponse {
  return {
    request: { query: PromotionPageListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase();
      const found = pages.filter((p) => !q || p.name.toLowerCase().includes(q));
      const size = params.pageSize ?? 15;
      const n = params.page ?? 1;
      return { data: { allPages: { __typename: 'PromotionPagePage', total: found.length, pages: found.slice((n - 1) * size, n * size) } } };
    },
  };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Promotion pages' }))
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));

beforeAll(async () => {
  await import('./PromotionPageList');
});

describe('PromotionPageList', () => {
  it('lists the pages with their summary and whether they are in use', async () => {
    const calls: Params[] = [];
    renderApp({ path: '/publisher/promotional-page', user: testUser('Administrator'), mocks: [pagesMock(calls)] });
    expect(await screen.findByRole('link', { name: 'Webinar sign-up' })).toHaveAttribute(
      'href',
      `/publisher/promotional-page/edit/${PAGE_IDS.webinar}`,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Summary', 'In use']);
    expect(rows()).toEqual([
      ['Summit registration', `${'x'.repeat(130)}…`, 'No'],
      ['Webinar sign-up', 'A live webinar on the gas market.', 'Yes (Energy webinar, Spring offer)'],
    ]);
    expect(screen.getByRole('link', { name: 'Add promotion page' })).toHaveAttribute('href', '/publisher/promotional-page/add');
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Promotional Content' }),
    ).toHaveAttribute('href', '/publisher/promotional-content');
    expect(calls[0]).toEqual({ page: 1, pageSize: 15, searchQuery: null });
  }, 15_000);

  it('searches and pages on the server', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    const many = Array.from({ length: 16 }, (_, i) =>
      page(`66f0000000000000000001${String(i).padStart(2, '0')}`, `Page ${i + 1}`, 's', []),
    );
    renderApp({ path: '/publisher/promotional-page', user: testUser('Administrator'), mocks: [pagesMock(calls, [...PAGES, ...many])] });
    expect(await screen.findByText('Showing 1-15 of 18')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 16-18 of 18')).toBeInTheDocument();
    await waitFor(() => expect(rows().map((r) => r[0])).toEqual(['Page 14', 'Page 15', 'Page 16']));
    expect(calls.at(-1)).toEqual({ page: 2, pageSize: 15, searchQuery: null });

    await user.type(screen.getByRole('searchbox', { name: 'Search promotion pages...' }), 'webinar');
    await waitFor(() => expect(rows().map((r) => r[0])).toEqual(['Webinar sign-up']));
    expect(calls.at(-1)).toEqual({ page: 1, pageSize: 15, searchQuery: 'webinar' });
  }, 20_000);

  it('is for Administrators only', async () => {
    renderApp({ path: '/publisher/promotional-page', user: testUser('Editor') });
    expect(await screen.findByText(/^Access Denied:/)).toBeInTheDocument();
  });
});
