import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubDownloads } from '../../testing/downloads';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { InterestsDocument, type InterestsQueryVariables } from './__generated__/Interests.generated';
import { exportUrl, itemPath } from './Interests';

/** 5 Mar 2026 14:05, local time. */
const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();
const IDS = {
  article: '65d000000000000000000001',
  channel: '65c000000000000000000001',
  promo: '66a000000000000000000001',
} as const;
const PATH = '/publisher/interests';
const ADMIN = testUser('Administrator');

function interest(_id: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Interest',
    _id,
    kind: 'Article',
    itemId: IDS.article,
    itemName: 'Brent in March',
    userId: `user-${_id}`,
    userName: 'Rita Reader',
    userEmail: 'rita@example.com',
    userCompany: 'Acme Oil',
    registeredAt: MARCH_5,
    deliveredTo: 'oil.desk@example.com',
    deliveryState: 'Delivered',
    deliveryError: null,
    ...overrides,
  };
}

const INTERESTS = [
  interest('i1'),
  interest('i2', {
    kind: 'Channel',
    itemId: IDS.channel,
    itemName: 'Oil Weekly',
    userName: 'Sam Subscriber',
    userEmail: 'sam@example.com',
    userCompany: null,
    deliveredTo: null,
    deliveryState: 'Pending',
  }),
  interest('i3', {
    kind: 'PromotionalContent',
    itemId: IDS.promo,
    itemName: 'Energy summit',
    deliveredTo: 'Microsoft Teams',
    deliveryState: 'Failed',
    deliveryError: 'Teams answered 400: invalid webhook',
  }),
  interest('i4', { deliveryState: 'Retrying', deliveryError: 'SMTP timeout' }),
];

type Params = NonNullable<InterestsQueryVariables['params']>;

/** A fake `getAllInterests`: records each call's params and answers `rows` (all of them, or one item's). */
function interestsMock(calls: Params[], { rows = INTERESTS, total }: { rows?: typeof INTERESTS; total?: number } = {}) {
  return {
    request: { query: InterestsDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = (variables as InterestsQueryVariables).params!;
      calls.push(params);
      const shown = params.itemId ? rows.filter((r) => r.itemId === params.itemId) : rows;
      return { data: { getAllInterests: { __typename: 'InterestPage', total: total ?? shown.length, interests: shown } } };
    },
  } satisfies MockLink.MockedResponse;
}

const table = () => screen.getByRole('table', { name: 'Interests' });
const rowOf = (text: string) => within(table()).getByText(text).closest<HTMLTableRowElement>('tr')!;
const cells = (row: HTMLTableRowElement) => Array.from(row.cells).map((c) => c.textContent);
const lastCall = (calls: Params[]) => calls[calls.length - 1];

beforeAll(async () => {
  await import('./Interests');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('Interests', () => {
  it('lists who registered interest in what, with links to the items and the delivery state', async () => {
    const calls: Params[] = [];
    renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock(calls)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Interests' })).toBeInTheDocument();
    await within(table()).findByText('Oil Weekly');

    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Registered at', 'Kind', 'Item', 'Reader', 'Email', 'Company', 'Delivered to', 'Delivery state']);
    expect(cells(rowOf('Oil Weekly'))).toEqual([
      '05 Mar 2026 14:05',
      'Channel',
      'Oil Weekly',
      'Sam Subscriber',
      'sam@example.com',
      '',
      '',
      'Pending',
    ]);
    expect(cells(rowOf('Energy summit'))).toEqual([
      '05 Mar 2026 14:05',
      'Promotional content',
      'Energy summit',
      'Rita Reader',
      'rita@example.com',
      'Acme Oil',
      'Microsoft Teams',
      'Failed',
    ]);

    expect(within(table()).getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${IDS.channel}`);
    expect(within(table()).getByRole('link', { name: 'Energy summit' })).toHaveAttribute(
      'href',
      `/publisher/promotional-content/edit/${IDS.promo}`,
    );
    expect(within(table()).getAllByRole('link', { name: 'Brent in March' })[0]).toHaveAttribute('href', `/browse/article/${IDS.article}`);

    // The last error of a failed or retrying delivery is its tooltip; a delivered one has none.
    expect(within(rowOf('Energy summit')).getByTitle('Teams answered 400: invalid webhook')).toHaveTextContent('Failed');
    expect(screen.getByTitle('SMTP timeout')).toHaveTextContent('Retrying');
    expect(rowOf('Oil Weekly').cells[7].querySelector('[title]')).toBeNull();

    expect(screen.getByText('Showing 1-4 of 4')).toBeInTheDocument();
    expect(lastCall(calls)).toEqual({ page: 1, pageSize: 15, kind: null, itemId: null, from: null, to: null, searchQuery: null });
  });

  it('filters by kind, search and date range, back on page 1 each time', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock(calls, { total: 40 })] });
    await within(await screen.findByRole('table', { name: 'Interests' })).findByText('Oil Weekly');

    const kinds = within(screen.getByRole('group', { name: 'Filter' }));
    expect(kinds.getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Article', 'Channel', 'Promotional content']);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastCall(calls).page).toBe(2));

    await user.click(kinds.getByRole('button', { name: 'Promotional content' }));
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ kind: 'PromotionalContent', page: 1 }));

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastCall(calls).page).toBe(2));
    await user.type(screen.getByRole('searchbox', { name: 'Search readers...' }), 'acme');
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ searchQuery: 'acme', kind: 'PromotionalContent', page: 1 }), {
      timeout: 3000,
    });

    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await user.type(screen.getByLabelText('To'), '2026-03-31');
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ from: '2026-03-01', to: '2026-03-31', searchQuery: 'acme' }));
  });

  it('says when the range ends before it starts, without asking or exporting', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Interests' })).findByText('Oil Weekly');
    await user.type(screen.getByLabelText('From'), '2026-03-31');
    await user.type(screen.getByLabelText('To'), '2026-03-01');
    expect(await screen.findByText('Date should not be before minimal date')).toBeInTheDocument();
    expect(calls.some((c) => c.to === '2026-03-01')).toBe(false);
    expect(screen.getByText('There are no items to show')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('shows one item’s interests from ?itemId=, and all items again', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    const { router } = renderApp({ path: `${PATH}?itemId=${IDS.promo}`, user: ADMIN, mocks: [interestsMock(calls)] });
    const filter = await screen.findByRole('group', { name: 'Item filter' });
    await within(table()).findByText('Energy summit');
    expect(filter).toHaveTextContent('Only interests in Energy summit');
    expect(lastCall(calls).itemId).toBe(IDS.promo);
    expect(within(table()).queryByText('Oil Weekly')).not.toBeInTheDocument();

    await user.click(within(filter).getByRole('button', { name: 'Show all items' }));
    await within(table()).findByText('Oil Weekly');
    expect(lastCall(calls).itemId).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it("narrows to a row's item from the list", async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    const { router } = renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Interests' })).findByText('Oil Weekly');
    await user.click(screen.getByRole('button', { name: 'Only interests in Oil Weekly' }));
    await waitFor(() => expect(lastCall(calls).itemId).toBe(IDS.channel));
    expect(router.state.location.search).toBe(`?itemId=${IDS.channel}`);
    expect(await screen.findByRole('group', { name: 'Item filter' })).toHaveTextContent('Only interests in Oil Weekly');
  });

  it('says there is nothing to show when nobody registered interest', async () => {
    renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock([], { rows: [] })] });
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });

  it('exports the same selection as CSV with the bearer token, busy while it downloads', async () => {
    const user = userEvent.setup();
    const { fetchSpy, saved, answer } = stubDownloads('blob:interests');

    const calls: Params[] = [];
    renderApp({ path: `${PATH}?itemId=${IDS.promo}`, user: ADMIN, mocks: [interestsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Interests' })).findByText('Energy summit');
    await user.click(within(screen.getByRole('group', { name: 'Filter' })).getByRole('button', { name: 'Promotional content' }));
    await user.type(screen.getByLabelText('From'), '2026-03-01');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe(`/export/interests.csv?kind=PromotionalContent&itemId=${IDS.promo}&from=2026-03-01`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    expect(screen.getByRole('button', { name: 'Export CSV' }).className).toMatch(/loading/);

    answer(new Response('Registered at,Kind\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:interests', download: 'interests.csv' }]));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' }).className).not.toMatch(/loading/));
  });

  it('says so in a toast when the export fails', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'Administrators only' }), { status: 403 })),
    );
    renderApp({ path: PATH, user: ADMIN, mocks: [interestsMock([])] });
    await within(await screen.findByRole('table', { name: 'Interests' })).findByText('Oil Weekly');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('The export failed: FORBIDDEN::Administrators only')).toBeInTheDocument();
  });

  it.each(['Editor', 'Contributor'] as const)('is for Administrators only (%s: Access Denied)', async (role) => {
    renderApp({ path: PATH, user: testUser(role), mocks: [interestsMock([])] });
    expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Interests' })).not.toBeInTheDocument();
  });
});

describe('interest links', () => {
  it('builds the export address from the filters that are set', () => {
    expect(exportUrl({ kind: null, itemId: null, from: null, to: null, searchQuery: null })).toBe('/export/interests.csv');
    expect(exportUrl({ kind: 'Article', itemId: null, from: null, to: '2026-03-31', searchQuery: 'a&b' })).toBe(
      '/export/interests.csv?kind=Article&to=2026-03-31&searchQuery=a%26b',
    );
  });

  it('links each kind of item to where it is seen', () => {
    expect(itemPath({ kind: 'Article', itemId: 'a' })).toBe('/browse/article/a');
    expect(itemPath({ kind: 'Channel', itemId: 'c' })).toBe('/browse/channel/c');
    expect(itemPath({ kind: 'PromotionalContent', itemId: 'p' })).toBe('/publisher/promotional-content/edit/p');
  });
});
