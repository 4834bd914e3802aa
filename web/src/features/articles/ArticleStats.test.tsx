import type { MockLink } from '@apollo/client/testing';
import type { MockedProviderProps } from '@apollo/client/testing/react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTime } from '../../lib/dates';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { ArticleStatsScreenDocument, CreateCampaignDocument } from './__generated__/ArticleStats.generated';
import { ARTICLE_IDS, articlesMock, listArticle, MARCH_5, topicsMock } from './testData';

// The app's cache (lib/apollo.ts), not MockedProvider's bare one: it keeps each viewer inside the
// stats (`ArticleViewer` has no key fields), so a reader listed once per source is not merged into
// one entry by their `_id`.
vi.mock('@apollo/client/testing/react', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@apollo/client/testing/react')>();
  const { createCache } = await import('../../lib/apollo');
  const { useState } = await import('react');
  function MockedProvider(props: MockedProviderProps) {
    const [cache] = useState(createCache);
    return <actual.MockedProvider cache={cache} {...props} />;
  }
  return { ...actual, MockedProvider };
});

const STATS_PATH = `/publisher/articles/stats/${ARTICLE_IDS.oil}`;
const NOW = new Date();

/** A reader's views of the article through one source ('web', 'feed' or 'agent'). */
function viewer(_id: string, name: string, views: number, lastViewed: string, source = 'web') {
  return { __typename: 'ArticleViewer', _id, name, email: `${name.split(' ')[0].toLowerCase()}@example.com`, source, views, lastViewed };
}

/** Newest view first, as the server sorts them. */
const VIEWERS = [
  viewer('u-ann', 'Ann Reader', 5, NOW.toISOString()),
  viewer('u-bob', 'Bob Reader', 1, MARCH_5, 'feed'),
  viewer('u-cid', 'Cid Reader', 6, new Date(2026, 0, 2, 8, 0).toISOString(), 'agent'),
];

function campaign(_id: string, campaignType: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'CampaignStats',
    _id,
    campaignType,
    articleLink: `https://insights.example.com/insights/browse/article/${ARTICLE_IDS.oil}/${_id}_${campaignType}`,
    marketingArticleLink: `https://insights.example.com/insights/browse/marketing-article/${ARTICLE_IDS.oil}/${_id}_${campaignType}`,
    createdAt: MARCH_5,
    views: 0,
    uniqueReaders: 0,
    ...overrides,
  };
}

const CAMPAIGN_IDS = { newsletter: '65e000000000000000000002', email: '65e000000000000000000001' } as const;

function statsMock(
  overrides: { article?: Record<string, unknown>; viewers?: unknown[]; views?: number; users?: number; campaigns?: unknown[] } = {},
) {
  const { article, viewers = VIEWERS, views = 12, users = 3, campaigns = [] } = overrides;
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
          campaigns,
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

    expect(
      within(screen.getByRole('table', { name: 'Viewers' }))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Source', 'Views', 'Last viewed']);
    expect(rowTexts()).toEqual([
      ['Ann Reader', 'ann@example.com', 'Web', '5', `Today ${formatTime(NOW)}`],
      ['Bob Reader', 'bob@example.com', 'Feed', '1', '05 Mar 2026 14:05'],
      ['Cid Reader', 'cid@example.com', 'AI assistant', '6', '02 Jan 2026 08:00'],
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

  it('lists a reader once per source: on the web and through their AI assistant', async () => {
    const viewers = [viewer('u-ann', 'Ann Reader', 2, NOW.toISOString(), 'agent'), viewer('u-ann', 'Ann Reader', 4, MARCH_5, 'web')];
    const consoleError = vi.spyOn(console, 'error');
    renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [statsMock({ viewers, views: 6, users: 1 })] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Oil outlook' })).toBeInTheDocument();
    // Each row has its own key (the reader and the source): React warns of no duplicate.
    expect(consoleError.mock.calls.flat().join('\n')).not.toContain('same key');
    consoleError.mockRestore();
    expect(rowTexts()).toEqual([
      ['Ann Reader', 'ann@example.com', 'AI assistant', '2', `Today ${formatTime(NOW)}`],
      ['Ann Reader', 'ann@example.com', 'Web', '4', '05 Mar 2026 14:05'],
    ]);
    expect(screen.getByText('Showing 1-2 of 2')).toBeInTheDocument();
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

  describe('campaign links', () => {
    const campaignRows = () =>
      within(screen.getByRole('table', { name: 'Campaigns' }))
        .getAllByRole<HTMLTableRowElement>('row')
        .slice(1);

    function createMock(campaignType: string, result: MockLink.MockedResponse['result']): MockLink.MockedResponse {
      return { request: { query: CreateCampaignDocument, variables: { articleId: ARTICLE_IDS.oil, campaignType } }, result };
    }

    it('lists the campaigns with their views, unique readers and links, each link copied with a toast', async () => {
      const user = userEvent.setup();
      const campaigns = [
        campaign(CAMPAIGN_IDS.newsletter, 'newsletter', { views: 7, uniqueReaders: 4 }),
        campaign(CAMPAIGN_IDS.email, 'email', { views: 1, uniqueReaders: 1, createdAt: new Date(2026, 0, 2, 8, 0).toISOString() }),
      ];
      renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [statsMock({ campaigns })] });
      const section = within(await screen.findByRole('region', { name: 'Campaign links' }));
      expect(section.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
        'Type',
        'Created',
        'Views',
        'Unique readers',
        'Article link',
        'Marketing article link',
      ]);
      const [newsletter, email] = campaignRows();
      expect([...newsletter.cells].slice(0, 4).map((c) => c.textContent)).toEqual(['newsletter', '05 Mar 2026 14:05', '7', '4']);
      expect([...email.cells].slice(0, 4).map((c) => c.textContent)).toEqual(['email', '02 Jan 2026 08:00', '1', '1']);
      const link = within(newsletter).getByRole('link', { name: campaigns[0].articleLink });
      expect(link).toHaveAttribute('target', '_blank');
      expect(within(newsletter).getByRole('link', { name: campaigns[0].marketingArticleLink })).toHaveAttribute(
        'href',
        campaigns[0].marketingArticleLink,
      );

      await user.click(within(newsletter).getByRole('button', { name: 'Copy the marketing article link of newsletter' }));
      expect(await screen.findByText('Link copied to clipboard')).toBeInTheDocument();
      expect(await navigator.clipboard.readText()).toBe(campaigns[0].marketingArticleLink);
      await user.click(within(email).getByRole('button', { name: 'Copy the article link of email' }));
      await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(campaigns[1].articleLink));
    });

    it('says there are no campaign links yet', async () => {
      renderApp({ path: STATS_PATH, user: testUser('Contributor'), mocks: [statsMock()] });
      const section = within(await screen.findByRole('region', { name: 'Campaign links' }));
      expect(section.getByText('No campaign links yet: create one to follow the readers a campaign brings.')).toBeInTheDocument();
    });

    it('creates a campaign of a suggested type and shows it in the list', async () => {
      const user = userEvent.setup();
      const create = vi.fn(() => ({
        data: {
          createCampaign: {
            __typename: 'Campaign',
            _id: CAMPAIGN_IDS.newsletter,
            articleLink: campaign(CAMPAIGN_IDS.newsletter, 'newsletter').articleLink,
            marketingArticleLink: campaign(CAMPAIGN_IDS.newsletter, 'newsletter').marketingArticleLink,
            campaignType: 'newsletter',
          },
        },
      }));
      renderApp({
        path: STATS_PATH,
        user: testUser('Editor'),
        mocks: [statsMock(), createMock('newsletter', create), statsMock({ campaigns: [campaign(CAMPAIGN_IDS.newsletter, 'newsletter')] })],
      });
      const form = within(await screen.findByRole('form', { name: 'New campaign link' }));
      const types = within(form.getByRole('group', { name: 'Campaign types' }));
      expect(types.getAllByRole('button').map((b) => b.textContent)).toEqual(['email', 'newsletter', 'social', 'event']);
      await user.click(types.getByRole('button', { name: 'newsletter' }));
      expect(form.getByRole('textbox', { name: 'Campaign type' })).toHaveValue('newsletter');
      expect(types.getByRole('button', { name: 'newsletter' })).toHaveAttribute('aria-pressed', 'true');

      await user.click(form.getByRole('button', { name: 'Create campaign link' }));
      expect(await screen.findByText('The newsletter campaign link has been created.')).toBeInTheDocument();
      expect(create).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(campaignRows().map((r) => r.cells[0].textContent)).toEqual(['newsletter']));
      expect(form.getByRole('textbox', { name: 'Campaign type' })).toHaveValue('');
    });

    it("asks for a type before calling, and shows the server's field message for a typed one", async () => {
      const user = userEvent.setup();
      const refused = vi.fn(() => ({
        errors: [
          {
            message: 'Invalid input',
            extensions: { code: 'BAD_USER_INPUT', fields: { campaignType: "Use letters, digits, '-' and '_' only" } },
          },
        ],
      }));
      renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [statsMock(), createMock('trade show', refused)] });
      const form = within(await screen.findByRole('form', { name: 'New campaign link' }));
      await user.click(form.getByRole('button', { name: 'Create campaign link' }));
      expect(await form.findByText('This field is required')).toBeInTheDocument();
      expect(refused).not.toHaveBeenCalled();

      await user.type(form.getByRole('textbox', { name: 'Campaign type' }), 'trade show');
      expect(form.queryByText('This field is required')).not.toBeInTheDocument();
      await user.click(form.getByRole('button', { name: 'Create campaign link' }));
      expect(await form.findByText("Use letters, digits, '-' and '_' only")).toBeInTheDocument();
      expect(form.getByRole('textbox', { name: 'Campaign type' })).toHaveAttribute('aria-invalid', 'true');
      expect(refused).toHaveBeenCalledTimes(1);
    });

    it('shows other failures in a banner', async () => {
      const user = userEvent.setup();
      renderApp({
        path: STATS_PATH,
        user: testUser('Editor'),
        mocks: [statsMock(), createMock('email', { errors: [{ message: 'Only published articles', extensions: { code: 'CONFLICT' } }] })],
      });
      const form = within(await screen.findByRole('form', { name: 'New campaign link' }));
      await user.type(form.getByRole('textbox', { name: 'Campaign type' }), 'email');
      await user.click(form.getByRole('button', { name: 'Create campaign link' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('CONFLICT::Only published articles');
    });

    it('offers no form for an article that is not published', async () => {
      renderApp({ path: STATS_PATH, user: testUser('Editor'), mocks: [statsMock({ article: { state: 'Pending', publishDate: null } })] });
      const section = within(await screen.findByRole('region', { name: 'Campaign links' }));
      expect(section.getByText('Campaign links can be created once the article is published.')).toBeInTheDocument();
      expect(section.queryByRole('form')).not.toBeInTheDocument();
    });
  });
});
