import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { highlightParts, unescapeHtml } from './highlight';
import { dayToIso, readSearchView, searchArticlesParams, TOO_SHORT_TEXT, writeSearchView } from './searchView';
import { card, cards, READER_IDS } from './testData';
import { SearchFiltersDocument, SearchScreenDocument, type SearchScreenQueryVariables } from './__generated__/Search.generated';

type Vars = SearchScreenQueryVariables;

const docs = (articles: ReturnType<typeof card>[]) => articles.map((article) => ({ article }));

function searchMock(
  calls: Vars[],
  answer: (v: Vars) => { docs: { article: ReturnType<typeof card>; highlight?: string | null }[]; total?: number; next?: string },
) {
  return {
    request: { query: SearchScreenDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Vars) => {
      calls.push(variables);
      const { docs, total, next } = answer(variables);
      return {
        data: {
          searchArticles: {
            __typename: 'SearchArticlesResult',
            totalCount: total ?? docs.length,
            pageInfo: { __typename: 'PageInfo', endCursor: next ?? null, hasNextPage: !!next },
            documents: docs.map((d) => ({ __typename: 'SearchDocument', highlight: d.highlight ?? null, article: d.article })),
          },
        },
      };
    },
  } as MockLink.MockedResponse;
}

const filtersMock: MockLink.MockedResponse = {
  request: { query: SearchFiltersDocument },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: {
    data: {
      categoriesAsTree: [{ __typename: 'Category', _id: READER_IDS.energy, name: 'Energy', children: [] }],
      allChannels: [{ __typename: 'Channel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' }],
      getBrowseStat: { __typename: 'BrowseStat', desks: [{ __typename: 'DeskSummary', _id: READER_IDS.oilDesk, name: 'Oil desk' }] },
      contributors: [{ __typename: 'Contributor', _id: READER_IDS.chris, name: 'Chris Contributor' }],
    },
  },
};

function open(path: string, mocks: MockLink.MockedResponse[], width?: number) {
  return renderApp({ path, user: testUser('Subscriber'), mocks: [filtersMock, ...mocks], width });
}

const box = () => screen.getByRole('searchbox', { name: 'Search articles' });
const results = () => within(screen.getByRole('list', { name: 'Search results' }));

describe('Search', () => {
  it('searches once typing pauses, and not for 1 character', async () => {
    const calls: Vars[] = [];
    const { router } = open('/search', [
      searchMock(calls, (v) =>
        v.params.searchQuery === 'oil'
          ? { docs: [{ article: card(), highlight: 'Brent &amp; WTI: <mark>oil</mark> &lt;rises&gt;' }] }
          : { docs: docs(cards(2, 20)) },
      ),
    ]);
    expect(await screen.findByRole('heading', { name: 'Search and explore', level: 1 })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Search results' });
    expect(calls).toHaveLength(1);
    expect(calls[0].params.searchQuery).toBeNull();

    await userEvent.type(box(), 'o');
    expect(screen.getByText(TOO_SHORT_TEXT)).toBeInTheDocument();
    // Well past the debounce: still no search for one character.
    await new Promise((r) => setTimeout(r, 700));
    expect(calls).toHaveLength(1);

    await userEvent.type(box(), 'il');
    expect(screen.queryByText(TOO_SHORT_TEXT)).not.toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].params.searchQuery).toBe('oil');
    expect(router.state.location.search).toBe('?q=oil');

    // The highlight: the matched word marked, the rest as text, no markup from the server.
    const mark = await screen.findByText('oil', { selector: 'mark' });
    expect(mark.parentElement).toHaveTextContent('Brent & WTI: oil <rises>');
    expect(screen.getByText('1 article found', { exact: false })).toBeInTheDocument();

    // A trailing space is not a new search.
    await userEvent.type(box(), ' ');
    await new Promise((r) => setTimeout(r, 700));
    expect(calls).toHaveLength(2);
  }, 15_000);

  it("loads 'More results' by cursor", async () => {
    const calls: Vars[] = [];
    open('/search?q=gas', [
      searchMock(calls, (v) =>
        v.after === 'c1' ? { docs: docs(cards(3, 10)), total: 12 } : { docs: docs(cards(9)), total: 12, next: 'c1' },
      ),
    ]);
    await screen.findByRole('list', { name: 'Search results' });
    expect(box()).toHaveValue('gas');
    expect(screen.getByText("12 articles found for 'gas'")).toBeInTheDocument();
    expect(results().getAllByRole('article')).toHaveLength(9);
    await userEvent.click(screen.getByRole('button', { name: 'More results' }));
    await waitFor(() => expect(results().getAllByRole('article')).toHaveLength(12));
    expect(calls.at(-1)).toMatchObject({ after: 'c1', params: { searchQuery: 'gas' } });
    expect(screen.queryByRole('button', { name: 'More results' })).not.toBeInTheDocument();
  }, 15_000);

  it('shows the empty state', async () => {
    open('/search?q=zzz', [searchMock([], () => ({ docs: [] }))], 360);
    expect(await screen.findByText("No articles match 'zzz'")).toBeInTheDocument();
  });

  it('keeps filters in the address and searches with them', async () => {
    const calls: Vars[] = [];
    const { router } = open(`/search?channel=${READER_IDS.oilChannel}&access=premium&from=2026-03-01`, [
      searchMock(calls, () => ({ docs: docs(cards(1)) })),
    ]);
    await screen.findByRole('list', { name: 'Search results' });
    expect(calls[0].params).toMatchObject({
      premiumChannelId: READER_IDS.oilChannel,
      premiumOnly: true,
      freeOnly: false,
      dateFrom: dayToIso('2026-03-01'),
    });
    expect(await screen.findByRole('option', { name: 'Oil Weekly' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Channel' })).toHaveValue(READER_IDS.oilChannel);
    expect(within(screen.getByRole('group', { name: 'Article access' })).getByRole('button', { name: 'Premium' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Desk' }), 'Oil desk');
    await waitFor(() =>
      expect(calls.at(-1)?.params).toMatchObject({ deskId: READER_IDS.oilDesk, premiumChannelId: READER_IDS.oilChannel }),
    );
    expect(new URLSearchParams(router.state.location.search).get('desk')).toBe(READER_IDS.oilDesk);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Only my subscriptions' }));
    await waitFor(() => expect(calls.at(-1)?.params).toMatchObject({ onlyMySubscriptions: true }));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));

    // Back restores the previous search.
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Only my subscriptions' })).toBeChecked());
  }, 15_000);
});

describe('search helpers', () => {
  it('splits highlights into text and marks without trusting markup', () => {
    expect(highlightParts('a <mark>b</mark> c')).toEqual([
      { text: 'a ', marked: false },
      { text: 'b', marked: true },
      { text: ' c', marked: false },
    ]);
    expect(highlightParts('&lt;script&gt;<mark>x')).toEqual([{ text: '<script><mark>x', marked: false }]);
    expect(unescapeHtml('&#39;&#x41;&quot;&bogus;')).toBe('\'A"&bogus;');
  });

  it('reads the address, ignoring bad ids and dates', () => {
    const view = readSearchView(new URLSearchParams('q=%20oil%20&channel=nope&tag=65e000000000000000000001&from=2026-13&mine'));
    expect(view).toMatchObject({ q: 'oil', channel: null, tag: '65e000000000000000000001', from: null, mine: true, access: 'all' });
    expect(writeSearchView(view).toString()).toBe('q=oil&tag=65e000000000000000000001&mine=true');
    expect(searchArticlesParams({ ...view, q: 'o' }).searchQuery).toBeNull();
  });
});
