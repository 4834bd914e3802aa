import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { cards, READER_IDS } from '../testData';
import { BrowseCategoryDocument } from './__generated__/CategoryPage.generated';
import { FollowTopicDocument } from './__generated__/FollowButton.generated';
import { categoryMock, feedMock, month, sidebarMock, TOPIC_IDS, treeMock } from './testData';

const PATH = `/browse/${TOPIC_IDS.oil}`;
const READER = testUser('Subscriber');
const FILTER = { categoryId: TOPIC_IDS.oil };

function renderTopic(mocks: MockLink.MockedResponse[], path = PATH) {
  return renderApp({ path, user: READER, mocks: [treeMock(), ...mocks] });
}

function followMock(isAdd: boolean) {
  const result = vi.fn(() => ({
    data: { followEntity: { __typename: 'FollowResult', entityId: TOPIC_IDS.oil, isFollowing: isAdd, subscribersCount: isAdd ? 4 : 2 } },
  }));
  const mock: MockLink.MockedResponse = {
    request: { query: FollowTopicDocument, variables: { item: { entityId: TOPIC_IDS.oil, entityType: 'Category', isAdd } } },
    result,
  };
  return { mock, result };
}

const sidebar = () => within(screen.getByRole('complementary', { name: 'More about Oil' }));

beforeAll(async () => {
  await import('./CategoryPage');
});

describe('CategoryPage', () => {
  it('shows the breadcrumbs from the topic tree, the cover, the description and the latest articles', async () => {
    renderTopic([categoryMock(), sidebarMock(), feedMock(FILTER, { articles: cards(2) })]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil' })).toBeInTheDocument();

    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    await waitFor(() => expect(crumbs.getByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.energy}`));
    expect(crumbs.getByRole('link', { name: 'All topics' })).toHaveAttribute('href', '/topics-page');
    expect(crumbs.getByText('Oil')).toHaveAttribute('aria-current', 'page');

    expect(screen.getByText('Crude, products and shipping.')).toBeInTheDocument();
    // The cover is decorative (alt=""), so it has the presentation role.
    expect(screen.getByRole('presentation')).toHaveAttribute('src', '/uploads/oil-cover.png');
    const latest = await screen.findByRole('list', { name: 'Latest articles' });
    expect(within(latest).getAllByRole('article')).toHaveLength(2);
    expect(within(latest).getByRole('link', { name: 'Article 1' })).toBeInTheDocument();
  });

  it("loads 'More articles' by cursor, 9 at a time", async () => {
    renderTopic([
      categoryMock(),
      sidebarMock(),
      feedMock(FILTER, { articles: cards(9), endCursor: 'c9', hasNextPage: true }),
      feedMock(FILTER, { articles: cards(2, 10), after: 'c9', endCursor: 'c11', hasNextPage: false }),
    ]);
    const latest = await screen.findByRole('list', { name: 'Latest articles' });
    expect(within(latest).getAllByRole('listitem')).toHaveLength(9);

    await userEvent.click(screen.getByRole('button', { name: 'More articles' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Latest articles' })).getAllByRole('listitem')).toHaveLength(11));
    expect(screen.getByRole('link', { name: 'Article 11' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'More articles' })).not.toBeInTheDocument();
  });

  it('shows the sidebar: sub-topics, trending, channels, tags, desks and archive months', async () => {
    renderTopic([
      categoryMock(),
      sidebarMock(
        {
          trendingArticles: [{ __typename: 'ArticleCard', _id: cards(1)[0]._id, title: 'Hot take', publishDate: new Date().toISOString() }],
          channels: [{ __typename: 'ArticleChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' }],
          tags: [{ __typename: 'ArticleTag', _id: '65f000000000000000000001', name: 'Brent' }],
          desks: [{ __typename: 'DeskSummary', _id: READER_IDS.oilDesk, name: 'Oil desk' }],
        },
        [month(2026, 11, 4), month(2026, 10, 1)],
      ),
      feedMock(FILTER, { articles: [] }),
    ]);
    await screen.findByRole('heading', { level: 1, name: 'Oil' });
    await waitFor(() => expect(sidebar().getByRole('link', { name: 'Crude' })).toHaveAttribute('href', `/browse/${TOPIC_IDS.crude}`));
    expect(await sidebar().findByRole('link', { name: 'Hot take' })).toHaveAttribute('href', `/browse/article/${cards(1)[0]._id}`);
    expect(sidebar().getByText('Today')).toBeInTheDocument();
    expect(sidebar().getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${READER_IDS.oilChannel}`);
    expect(sidebar().getByRole('link', { name: 'Brent' })).toHaveAttribute('href', '/tag/65f000000000000000000001');
    expect(sidebar().getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', `/desk/${READER_IDS.oilDesk}`);
    expect(sidebar().getByRole('link', { name: 'November 2026 (4)' })).toHaveAttribute('href', '/archives/2026-11');
    expect(sidebar().getByRole('link', { name: 'October 2026 (1)' })).toHaveAttribute('href', '/archives/2026-10');
  });

  it('shows empty states for the articles and every sidebar list', async () => {
    renderTopic(
      [
        categoryMock({}, TOPIC_IDS.crude),
        sidebarMock({}, [], TOPIC_IDS.crude),
        feedMock({ categoryId: TOPIC_IDS.crude }, { articles: [] }),
      ],
      `/browse/${TOPIC_IDS.crude}`,
    );
    expect(await screen.findByText('No articles have been published under this topic yet.')).toBeInTheDocument();
    expect(await screen.findByText('Nothing is trending here yet.')).toBeInTheDocument();
    expect(screen.getByText('No channels publish under this topic yet.')).toBeInTheDocument();
    expect(screen.getByText('No tags yet.')).toBeInTheDocument();
    expect(screen.getByText('No desks publish under this topic yet.')).toBeInTheDocument();
    expect(screen.getByText('No archived months yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('This topic has no sub-topics.')).toBeInTheDocument());
  });

  it('follows a topic at once', async () => {
    const follow = followMock(true);
    renderTopic([categoryMock(), sidebarMock(), feedMock(FILTER, { articles: [] }), follow.mock]);
    await userEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('button', { name: 'Unfollow' })).toBeInTheDocument();
    expect(screen.getByText('4 followers')).toBeInTheDocument();
    expect(follow.result).toHaveBeenCalledTimes(1);
  });

  it('unfollows only after a confirmation', async () => {
    const unfollow = followMock(false);
    renderTopic([categoryMock({ isFollowing: true }), sidebarMock(), feedMock(FILTER, { articles: [] }), unfollow.mock]);

    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow' }));
    let dialog = within(await screen.findByRole('alertdialog', { name: 'Unfollow Oil?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(unfollow.result).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Unfollow' }));
    dialog = within(await screen.findByRole('alertdialog', { name: 'Unfollow Oil?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(unfollow.result).toHaveBeenCalledTimes(1);
    expect(screen.getByText('2 followers')).toBeInTheDocument();
  });

  it("shows 'Topic not found' for an id that is not an ObjectId, and for a topic the server does not know", async () => {
    const first = renderTopic([], '/browse/energy');
    expect(await screen.findByRole('heading', { name: 'Topic not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All topics' })).toHaveAttribute('href', '/topics-page');
    first.unmount();

    renderTopic([
      {
        request: { query: BrowseCategoryDocument, variables: { id: TOPIC_IDS.oil } },
        result: { errors: [{ message: 'Category not found', extensions: { code: 'NOT_FOUND' } }] },
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Topic not found' })).toBeInTheDocument();
  });
});
