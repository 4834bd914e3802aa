import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../lib/dates';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { NO_FILTERS, readArticleListView, writeArticleListView } from './articleListState';
import { premiumText } from './articleText';
import { articleListParams, topicNodes } from './ArticleList';
import {
  ArticleFilterChannelDocument,
  ArticleFilterDeskDocument,
  ArticleFilterTagDocument,
} from './__generated__/ArticleFilterChips.generated';
import { ARTICLE_IDS, articlesMock, listArticle, MARCH_5, topicsMock, type ArticleParams } from './testData';

const PATH = '/publisher/articles';

/** Now, so that the Published and Last Edit cells say 'Today'. */
const NOW = new Date();

const ROWS = [
  listArticle({
    publishDate: NOW.toISOString(),
    isPremium: true,
    premiumExpiryOffset: '1w',
    premiumExpiresAt: new Date(2024, 0, 5, 14, 30).toISOString(),
  }),
  listArticle({
    _id: ARTICLE_IDS.gas,
    title: 'Gas weekly',
    state: 'Pending',
    publishedBy: { __typename: 'ArticlePublisher', _id: ARTICLE_IDS.chris, name: 'Chris Contributor' },
    uniqueViews: 0,
    publishDate: null,
    lastEdited: NOW.toISOString(),
    isPremium: true,
    canEdit: false,
    canViewStats: false,
  }),
  listArticle({ _id: ARTICLE_IDS.metals, title: 'Metals review', state: 'Archived', uniqueViews: 7, canViewStats: false }),
  listArticle({
    _id: ARTICLE_IDS.coal,
    title: 'Coal draft',
    state: 'Pending',
    publishDate: null,
    publishedBy: null,
    uniqueViews: 3,
    isPremium: true,
    premiumExpiryOffset: '3d',
    canEdit: false,
  }),
];

const DEFAULT_PARAMS: ArticleParams = {
  type: 'all',
  searchQuery: null,
  sortField: 'Created',
  sortDirection: 'Desc',
  limit: 15,
  offset: 0,
};

const table = () => screen.getByRole('table', { name: 'Articles' });
const rowTexts = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));
const tabs = () => within(screen.getByRole('group', { name: 'Filter' }));
const chips = () => screen.queryByRole('group', { name: 'Active filters' });

function lookupMock(
  query: MockLink.MockedResponse['request']['query'],
  id: string,
  data: Record<string, unknown>,
): MockLink.MockedResponse {
  return { request: { query, variables: { id } }, result: { data } };
}

beforeAll(async () => {
  await import('./ArticleList');
});

describe('article list helpers', () => {
  it("words the Premium cell: empty, 'No expiry', 'Expires DD MMM YYYY HH:mm', or the offset of a draft", () => {
    expect(premiumText({ isPremium: false, premiumExpiresAt: MARCH_5 })).toBe('');
    expect(premiumText({ isPremium: true, premiumExpiryOffset: null, premiumExpiresAt: null })).toBe('No expiry');
    expect(premiumText({ isPremium: true, premiumExpiryOffset: '1w', premiumExpiresAt: new Date(2024, 0, 5, 14, 30).toISOString() })).toBe(
      'Expires 05 Jan 2024 14:30',
    );
    // The expiry reads in full even today.
    expect(premiumText({ isPremium: true, premiumExpiresAt: NOW.toISOString() })).not.toMatch(/Today/);
    expect(premiumText({ isPremium: true, premiumExpiryOffset: '1m', premiumExpiresAt: null })).toBe('Expires 1 month after publishing');
  });

  it('turns the state and filters into params, leaving out empty filters', () => {
    const view = readArticleListView(new URLSearchParams(), [15, 30], 15);
    expect(articleListParams(view.list, view.filters)).toEqual(DEFAULT_PARAMS);
    const filtered = readArticleListView(
      new URLSearchParams('type=pending&search=oil&sort=views&direction=asc&page=3&pageSize=30&categoryId=a&categoryId=b&tagId=t'),
      [15, 30],
      15,
    );
    expect(articleListParams(filtered.list, filtered.filters)).toEqual({
      type: 'pending',
      searchQuery: 'oil',
      sortField: 'Views',
      sortDirection: 'Asc',
      limit: 30,
      offset: 60,
      categoryId: ['a', 'b'],
      tagId: ['t'],
    });
  });

  it('keeps defaults out of the URL and ignores values it does not know', () => {
    const view = readArticleListView(new URLSearchParams('type=nope&page=-2&pageSize=17&sort=html&direction=up'), [15, 30], 15);
    expect(view.list).toEqual({ page: 1, pageSize: 15, search: '', filter: 'all', sort: { key: 'created', direction: 'desc' } });
    expect(writeArticleListView(view, 15).toString()).toBe('');
    expect(
      writeArticleListView(
        { list: { ...view.list, filter: 'my', page: 2 }, filters: { ...NO_FILTERS, channel: ['c1', 'c2'] } },
        15,
      ).toString(),
    ).toBe('type=my&page=2&channel=c1&channel=c2');
  });

  it('nests the flat topics under their parents and disables the chosen ones', () => {
    const topics = [
      { _id: 'crude', name: 'Crude', parent: 'energy' },
      { _id: 'energy', name: 'Energy', parent: null },
      { _id: 'orphan', name: 'Orphan', parent: 'gone' },
    ];
    expect(topicNodes(topics, ['crude'])).toEqual([
      { value: 'energy', label: 'Energy', disabled: false, children: [{ value: 'crude', label: 'Crude', disabled: true, children: [] }] },
      { value: 'orphan', label: 'Orphan', disabled: false, children: [] },
    ]);
  });
});

describe('ArticleList', () => {
  it('shows the tabs, the columns and each cell as the spec words it', async () => {
    const calls: ArticleParams[] = [];
    renderApp({ path: PATH, user: testUser('Editor'), mocks: [articlesMock(calls, ROWS), topicsMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Articles' })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Oil outlook' });

    expect(
      tabs()
        .getAllByRole('button')
        .map((t) => t.textContent),
    ).toEqual(['Today', 'All', 'My', 'Published', 'Pending', 'Archived']);
    expect(tabs().getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('searchbox', { name: 'Search articles...' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Title',
      'Published By',
      'Unique views',
      'Published',
      'Last Edit',
      'Premium',
    ]);

    const today = `Today ${formatTime(NOW)}`;
    expect(rowTexts()).toEqual([
      ['Oil outlook', 'Oil desk', '12', today, '05 Mar 2026 14:05', 'Expires 05 Jan 2024 14:30'],
      ['Gas weeklyPending', 'Chris Contributor', '0', '', today, 'No expiry'],
      ['Metals reviewArchived', 'Oil desk', '7', '05 Mar 2026 14:05', '05 Mar 2026 14:05', ''],
      ['Coal draftPending', '', '3', '', '05 Mar 2026 14:05', 'Expires 3 days after publishing'],
    ]);
    expect(screen.getByText('Showing 1-4 of 4')).toBeInTheDocument();
    expect(calls[0]).toEqual(DEFAULT_PARAMS);
  });

  it('links the title only when the viewer may edit, and the views only when they may see the stats', async () => {
    renderApp({ path: PATH, user: testUser('Contributor'), mocks: [articlesMock([], ROWS), topicsMock()] });
    expect(await screen.findByRole('link', { name: 'Oil outlook' })).toHaveAttribute('href', `${PATH}/edit/${ARTICLE_IDS.oil}`);
    expect(within(table()).getByRole('link', { name: 'Metals review' })).toHaveAttribute('href', `${PATH}/edit/${ARTICLE_IDS.metals}`);
    expect(within(table()).getByText('Gas weekly')).toBeInTheDocument();
    expect(within(table()).queryByRole('link', { name: 'Gas weekly' })).not.toBeInTheDocument();
    expect(within(table()).queryByRole('link', { name: 'Coal draft' })).not.toBeInTheDocument();

    expect(within(table()).getByRole('link', { name: '12 unique views of Oil outlook' })).toHaveAttribute(
      'href',
      `${PATH}/stats/${ARTICLE_IDS.oil}`,
    );
    expect(within(table()).getByRole('link', { name: '3 unique views of Coal draft' })).toHaveAttribute(
      'href',
      `${PATH}/stats/${ARTICLE_IDS.coal}`,
    );
    expect(within(table()).queryByRole('link', { name: /unique views of (Gas weekly|Metals review)/ })).not.toBeInTheDocument();
  });

  it('offers New article and New from template to Editors and Contributors only', async () => {
    for (const role of ['Editor', 'Contributor'] as const) {
      const view = renderApp({ path: PATH, user: testUser(role), mocks: [articlesMock([], ROWS), topicsMock()] });
      expect(await screen.findByRole('link', { name: 'New article' })).toHaveAttribute('href', `${PATH}/add`);
      expect(screen.getByRole('link', { name: 'New from template' })).toHaveAttribute('href', `${PATH}/add-from-template`);
      view.unmount();
    }
    renderApp({ path: PATH, user: testUser('Administrator'), mocks: [articlesMock([], ROWS), topicsMock()] });
    await screen.findByRole('link', { name: 'Oil outlook' });
    expect(screen.queryByRole('link', { name: 'New article' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New from template' })).not.toBeInTheDocument();
  });

  it('asks the server for the chosen tab, search, sort and page, and keeps them in the URL', async () => {
    const user = userEvent.setup();
    const calls: ArticleParams[] = [];
    const { router } = renderApp({
      path: PATH,
      user: testUser('Editor'),
      mocks: [articlesMock(calls, ROWS, () => ({ rows: ROWS, total: 40 })), topicsMock()],
    });
    await screen.findByRole('link', { name: 'Oil outlook' });
    expect(screen.getByText('Showing 1-15 of 40')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ offset: 15, limit: 15 }));
    expect(await screen.findByText('Showing 16-30 of 40')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');

    await user.click(tabs().getByRole('button', { name: 'Pending' }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ ...DEFAULT_PARAMS, type: 'pending' }));
    expect(tabs().getByRole('button', { name: 'Pending' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(tabs().getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ type: 'today', offset: 0 }));

    await user.click(screen.getByRole('button', { name: 'Unique views' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'Views', sortDirection: 'Asc' }));
    await user.click(screen.getByRole('button', { name: 'Unique views' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'Views', sortDirection: 'Desc' }));
    await user.click(screen.getByRole('button', { name: 'Premium' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ sortField: 'Premium', sortDirection: 'Asc' }));

    await user.type(screen.getByRole('searchbox', { name: 'Search articles...' }), 'oil');
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ searchQuery: 'oil', type: 'today', offset: 0 }));
    // Debounced: no call for the letters on the way.
    expect(calls.filter((c) => c.searchQuery === 'o' || c.searchQuery === 'oi')).toEqual([]);
    expect(new URLSearchParams(router.state.location.search).toString()).toBe('type=today&search=oil&sort=premium&direction=asc');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '30');
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ limit: 30, offset: 0 }));
  });

  it('opens the view the URL describes', async () => {
    const calls: ArticleParams[] = [];
    renderApp({
      path: `${PATH}?type=my&search=gas&sort=title&direction=asc&page=2&pageSize=30`,
      user: testUser('Editor'),
      mocks: [articlesMock(calls, ROWS, () => ({ rows: ROWS, total: 40 })), topicsMock()],
    });
    await screen.findByRole('link', { name: 'Oil outlook' });
    expect(calls[0]).toEqual({ type: 'my', searchQuery: 'gas', sortField: 'Title', sortDirection: 'Asc', limit: 30, offset: 30 });
    expect(tabs().getByRole('button', { name: 'My' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('searchbox', { name: 'Search articles...' })).toHaveValue('gas');
    expect(screen.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByText('Showing 31-40 of 40')).toBeInTheDocument();
  });

  it('filters by topics, shows each as a chip and removes it with ×', async () => {
    const user = userEvent.setup();
    const calls: ArticleParams[] = [];
    const { router } = renderApp({ path: PATH, user: testUser('Editor'), mocks: [articlesMock(calls, ROWS), topicsMock()] });
    await screen.findByRole('link', { name: 'Oil outlook' });
    expect(chips()).not.toBeInTheDocument();

    const topic = screen.getByRole('combobox', { name: 'Topic' });
    await screen.findByRole('option', { name: 'Energy' });
    await user.selectOptions(topic, ARTICLE_IDS.energy);
    await waitFor(() => expect(calls.at(-1)).toEqual({ ...DEFAULT_PARAMS, categoryId: [ARTICLE_IDS.energy] }));
    expect(within(chips()!).getByText('Topic: Energy')).toBeInTheDocument();
    // A chosen topic is not offered again; the select adds further topics.
    expect(screen.getByRole('option', { name: 'Energy' })).toBeDisabled();
    expect(topic).toHaveValue('');

    await user.selectOptions(topic, ARTICLE_IDS.crude);
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ categoryId: [ARTICLE_IDS.energy, ARTICLE_IDS.crude] }));
    expect(router.state.location.search).toBe(`?categoryId=${ARTICLE_IDS.energy}&categoryId=${ARTICLE_IDS.crude}`);

    await user.click(screen.getByRole('button', { name: 'Remove filter Topic: Energy' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ categoryId: [ARTICLE_IDS.crude] }));
    await user.click(screen.getByRole('button', { name: 'Remove filter Topic: Crude' }));
    await waitFor(() => expect(calls.at(-1)).toEqual(DEFAULT_PARAMS));
    expect(chips()).not.toBeInTheDocument();
  });

  it('shows chips with names for the publisher, tag and channel ids in the URL, and clears them', async () => {
    const user = userEvent.setup();
    const calls: ArticleParams[] = [];
    const missingTag = '65b0000000000000000000ff';
    renderApp({
      path: `${PATH}?publishedBy=${ARTICLE_IDS.oilDesk}&tagId=${ARTICLE_IDS.lngTag}&tagId=${missingTag}&channel=${ARTICLE_IDS.oilChannel}`,
      user: testUser('Editor'),
      mocks: [
        articlesMock(calls, ROWS),
        topicsMock(),
        lookupMock(ArticleFilterTagDocument, ARTICLE_IDS.lngTag, {
          findTagById: { __typename: 'Tag', _id: ARTICLE_IDS.lngTag, name: 'LNG' },
        }),
        {
          request: { query: ArticleFilterTagDocument, variables: { id: missingTag } },
          result: { errors: [{ message: 'Tag not found', extensions: { code: 'NOT_FOUND' } }] },
        },
        lookupMock(ArticleFilterChannelDocument, ARTICLE_IDS.oilChannel, {
          channel: { __typename: 'Channel', _id: ARTICLE_IDS.oilChannel, name: 'Oil Weekly' },
        }),
        lookupMock(ArticleFilterDeskDocument, ARTICLE_IDS.oilDesk, {
          findDeskById: { __typename: 'Desk', _id: ARTICLE_IDS.oilDesk, name: 'Oil desk' },
        }),
      ],
    });
    await screen.findByRole('link', { name: 'Oil outlook' });
    expect(calls[0]).toEqual({
      ...DEFAULT_PARAMS,
      publishedBy: [ARTICLE_IDS.oilDesk],
      tagId: [ARTICLE_IDS.lngTag, missingTag],
      channel: [ARTICLE_IDS.oilChannel],
    });
    // The publisher's name comes from the rows; the others from their lookups; an unknown id shows as itself.
    expect(await within(chips()!).findByText('Tag: LNG')).toBeInTheDocument();
    expect(await within(chips()!).findByText('Channel: Oil Weekly')).toBeInTheDocument();
    expect(await within(chips()!).findByText(`Tag: ${missingTag}`)).toBeInTheDocument();
    expect(within(chips()!).getByText('Publisher: Oil desk')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove filter Tag: LNG' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ tagId: [missingTag] }));
    await user.click(within(chips()!).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(calls.at(-1)).toEqual(DEFAULT_PARAMS));
    expect(chips()).not.toBeInTheDocument();
  });

  it("says 'There are no items to show' for an empty page, and shows a failure with Retry", async () => {
    const view = renderApp({ path: PATH, user: testUser('Editor'), mocks: [articlesMock([], []), topicsMock()] });
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
    view.unmount();

    renderApp({
      path: PATH,
      user: testUser('Editor'),
      mocks: [
        topicsMock(),
        {
          request: { query: articlesMock([], []).request.query, variables: () => true },
          result: { errors: [{ message: 'Database is down', extensions: { code: 'INTERNAL' } }] },
        },
      ],
    });
    expect(await screen.findByText('INTERNAL::Database is down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
