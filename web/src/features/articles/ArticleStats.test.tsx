import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../lib/dates';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { ArticleStatsScreenDocument } from './__generated__/ArticleStats.generated';
import { ARTICLE_IDS, articlesMock, listArticle, MARCH_5, topicsMock } from './testData';

const STATS_PATH = `/publisher/articles/stats/${ARTICLE_IDS.oil}`;
const NOW = new Date();

function viewer(_id: string, name: string, views: number, lastViewed: string) {
  return { __typename: 'ArticleViewer', _id, name, email: `${name.split(' ')[0].toLowerCase()}@example.com`, views, lastViewed };
}

/** Newest view first, as the server sorts them. */
const VIEWERS = [
  viewer('u-ann', 'Ann Reader', 5, NOW.toISOString()),
  viewer('u-bob', 'Bob Reader', 1, MARCH_5),
  viewer('u-cid', 'Cid Reader', 6, new Date(2026, 0, 2, 8, 0).toISOString()),
];

function statsMock(overrides: { article?: Record<string, unknown>; viewers?: unknown[]; views?: number; users?: number } = {}) {
  const { article, viewers = VIEWERS, views = 12, users = 3 } = overrides;
  return {
    request: { query: ArticleStatsScreenDocument, variables: { id: ARTICLE_IDS.oil } },
    result: {
      data: {
        findArticleStats: {
          __typename: 'ArticleStats',
          views,
          users,
          article: {
            __typename: 'Article',
            _id: ARTICLE_IDS.oil,
            title: 'Oil outlook',
            state: 'Published',
            publishDate: MARCH_5,
            lastEdited: NOW.toISOString(),
            canEdit: true,
            ...article,
          },
          viewers,
        },
      },
    },
  } satisfies MockLink.MockedResponse;
}

function refusedMock(code: string): MockLink.MockedResponse {
  return {
    request: { query: ArticleStatsScreenDocument, variables: { id: ARTICLE_IDS.oil } },
    result: { errors: [{ message: 'Refused', extensions: { code } }] },
  };
}

const breadcrumb = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
const rowTexts = () =>
  within(screen.getByRole('table', { name: 'Viewers' }))
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));

beforeAll(async () => {
  await import('./ArticleStats');
});

describe('ArticleStats', () => {
  it('shows the breadcrumb, the title, the status bar and the viewers in the server order', async () => {
    renderApp({ path: STATS_PATH, user: testUser('Contributor'), mocks: [statsMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil outlook' })).toBeInTheDocument();

    expect(breadcrumb().getByRole('link', { name: 'Articles' })).toHaveAttribute('href', '/publisher/articles');
    expect(breadcrumb().getByRole('link', { name: 'Oil outlook' })).toHaveAttribute('href', `/publisher/articles/edit/${ARTICLE_IDS.oil}`);
    expect(breadcrumb().getByText('View stats')).toHaveAttribute('aria-current', 'page');

    const status = within(screen.getByRole('list', { name: 'Article status' }));
    expect(status.getAllByRole('listitem').map((i) => i.textContent)).toEqual([
      'Published',
      'Published 05 Mar 2026 14:05',
      `Last edit Today ${formatTime(NOW)}`,
      '12 view(s)',
      '3 user(s)',
    ]);

    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Email', 'Views', 'Last viewed']);
    expect(rowTexts()).toEqual([
      ['Ann Reader', 'ann@example.com', '5', `Today ${formatTime(NOW)}`],
      ['Bob Reader', 'bob@example.com', '1', '05 Mar 2026 14:05'],
      ['Cid Reader', 'cid@example.com', '6', '02 Jan 2026 08:00'],
    ]);
    expect(screen.getByText('Showing 1-3 of 3')).toBeInTheDocument();
  });

  it('shows the title as text when the viewer may not edit, a draft without a published date, and singular counts', async () => {
    renderApp({
      path: STATS_PATH,
      user: testUser('Administrator'),
      mocks: [statsMock({ article: { canEdit: false, state: 'Pending', publishDate: null }, viewers: [VIEWERS[1]], views: 1, users: 1 })],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil outlook' })).toBeInTheDocument();
    expect(breadcrumb().getByText('Oil outlook')).toBeInTheDocument();
    expect(breadcrumb().queryByRole('link', { name: 'Oil outlook' })).not.toBeInTheDocument();
    const status = within(screen.getByRole('list', { name: 'Article status' }));
    expect(status.getAllByRole('listitem').map((i) => i.textContent)).toEqual([
      'Pending',
      `Last edit Today ${formatTime(NOW)}`,
      '1 view(s)',
      '1 user(s)',
    ]);
  });

  it("says 'There are no items to show' when nobody read the article", async () => {
    renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [statsMock({ viewers: [], views: 0, users: 0 })] });
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
    expect(screen.getByText('0 view(s)')).toBeInTheDocument();
    expect(screen.getByText('0 user(s)')).toBeInTheDocument();
  });

  it.each([
    ['NOT_FOUND', 'This article no longer exists.'],
    ['FORBIDDEN', "You don't have access to the stats of this article."],
  ])('goes back to the list with a toast on %s', async (code, message) => {
    const { router } = renderApp({
      path: STATS_PATH,
      user: testUser('Contributor'),
      mocks: [refusedMock(code), articlesMock([], [listArticle()]), topicsMock()],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Articles' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/publisher/articles');
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('shows other failures on the page with Retry', async () => {
    const user = userEvent.setup();
    renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [refusedMock('INTERNAL'), statsMock()] });
    expect(await screen.findByText('INTERNAL::Refused')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil outlook' })).toBeInTheDocument();
  });
});
