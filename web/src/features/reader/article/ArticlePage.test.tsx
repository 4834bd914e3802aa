import type { MockLink } from '@apollo/client/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../lib/logger';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { channel } from '../testData';
import { RegisterArticleInterestDocument } from './__generated__/AccessPanels.generated';
import { ArticlePageDocument } from './__generated__/ArticlePage.generated';
import {
  ARTICLE_ID,
  ARTICLE_TOPIC_IDS,
  articleErrorMock,
  articleMock,
  CAMPAIGN_ID,
  DESK_EMAIL,
  embeddedPromotion,
  PROMO_IDS,
  promotionBlockHtml,
  promotionTrackingMocks,
  publishedArticle,
  viewMock,
  type PublishedArticle,
} from './testData';

const PATH = `/browse/article/${ARTICLE_ID}`;
const READER = testUser('Subscriber', { email: 'reader@example.com' });

function renderArticle(article: PublishedArticle, { path = PATH, mocks = [] as MockLink.MockedResponse[] } = {}) {
  const view = viewMock({ articleId: article._id, type: 'article' });
  const app = renderApp({ path, user: READER, mocks: [articleMock(article), view.mock, ...mocks] });
  return { ...app, viewResult: view.result };
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

beforeAll(async () => {
  // Loaded once up front: the first lazy import can take longer than a test's wait on a busy machine.
  await import('./ArticlePage');
  await import('./ShareDialog');
});

describe('ArticlePage', () => {
  it("shows 'Article not found' with a way back for an id that is not an ObjectId, without asking the server", async () => {
    const result = vi.fn(() => ({ data: { findPublishedArticleById: publishedArticle() } }));
    renderApp({
      path: '/browse/article/not-an-id',
      user: READER,
      mocks: [{ request: { query: ArticlePageDocument, variables: { id: 'not-an-id' } }, result }],
    });

    expect(await screen.findByRole('heading', { name: 'Article not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to For you' })).toHaveAttribute('href', '/for-you');
    expect(result).not.toHaveBeenCalled();
  });

  it('sends the reader to For you when the server answers ARTICLE_NOT_FOUND', async () => {
    const { router } = renderApp({
      path: PATH,
      user: READER,
      mocks: [articleErrorMock(ARTICLE_ID, 'ARTICLE_NOT_FOUND', 'No such article')],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/for-you'));
  });

  it('also follows ARTICLE_NOT_FOUND in the message of another code', async () => {
    const { router } = renderApp({
      path: PATH,
      user: READER,
      mocks: [articleErrorMock(ARTICLE_ID, 'NOT_FOUND', 'ARTICLE_NOT_FOUND: gone')],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/for-you'));
  });

  it('shows the full article with the title, summary, published-by line and the watermark of the reader email', async () => {
    renderArticle(publishedArticle({ showWatermark: true }));
    expect(await heading('Brent in March')).toBeInTheDocument();
    expect(screen.getByText('Why prices rose.')).toBeInTheDocument();
    expect(screen.getByText(/Published by/)).toHaveTextContent('Published by Oil desk · 05 Mar 2026 14:05');
    expect(screen.getByRole('link', { name: 'Oil desk' })).toHaveAttribute('href', expect.stringMatching(/^\/desk\//));
    // When it first reached readers (with the time zone) and when a later publication changed it.
    expect(screen.getByText(/First published/).textContent).toMatch(/^First published 05 Mar 2026 14:05 \S+ · Updated 06 Mar 2026 09:12$/);

    const body = screen.getByRole('region', { name: 'Article body' });
    expect(within(body).getByText('Brent rose again.')).toBeInTheDocument();
    expect(within(body).getAllByText('reader@example.com').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    // Readers of the full article get no premium panel.
    expect(screen.queryByRole('button', { name: 'Register interest' })).not.toBeInTheDocument();
  });

  it('shows its topics as links to their pages, where the reader can follow them', async () => {
    const { router } = renderArticle(publishedArticle());
    await heading('Brent in March');
    const topics = within(screen.getByRole('list', { name: 'Article topics' }));
    expect(topics.getByRole('link', { name: 'Energy' })).toHaveAttribute('href', `/browse/${ARTICLE_TOPIC_IDS.energy}`);
    await userEvent.click(topics.getByRole('link', { name: 'Crude oil' }));
    expect(router.state.location.pathname).toBe(`/browse/${ARTICLE_TOPIC_IDS.crude}`);
  });

  it('lists no topics when the article has none', async () => {
    renderArticle(publishedArticle({ categories: [] }));
    await heading('Brent in March');
    expect(screen.queryByRole('list', { name: 'Article topics' })).not.toBeInTheDocument();
  });

  it('draws no watermark when the article has none', async () => {
    renderArticle(publishedArticle({ showWatermark: false }));
    await screen.findByText('Brent rose again.');
    expect(screen.queryByText('reader@example.com')).not.toBeInTheDocument();
  });

  it('opens spreadsheet and external links in a new tab, and keeps video players in an aspect-ratio box', async () => {
    renderArticle(publishedArticle());
    const body = within(await screen.findByRole('region', { name: 'Article body' }));
    for (const name of ['Prices (Excel)', 'the full report']) {
      expect(body.getByRole('link', { name })).toHaveAttribute('target', '_blank');
      expect(body.getByRole('link', { name }).getAttribute('rel')).toContain('noopener');
    }
    expect(body.getByRole('link', { name: 'our channel' })).not.toHaveAttribute('target');
    const player = body.getByTitle('Vimeo video player');
    expect(player.parentElement).toHaveClass('insights-article-video');
    expect(player).not.toHaveAttribute('height');
  });

  it('blocks copy, cut and the context menu on the body only when the article asks for it', async () => {
    renderArticle(publishedArticle({ blockCopy: true }));
    const body = await screen.findByRole('region', { name: 'Article body' });
    expect(fireEvent.copy(body)).toBe(false);
    expect(fireEvent.cut(body)).toBe(false);
    expect(fireEvent.contextMenu(body)).toBe(false);
    expect(fireEvent.copy(screen.getByRole('heading', { level: 1 }))).toBe(true);
  });

  it('lets copy through when the article does not block it', async () => {
    renderArticle(publishedArticle({ blockCopy: false }));
    expect(fireEvent.copy(await screen.findByRole('region', { name: 'Article body' }))).toBe(true);
  });

  it('shows the channel cover card and the premium panel, and registers interest', async () => {
    const register = vi.fn(() => ({ data: { notifyRegisteredInterestInArticle: true } }));
    renderArticle(publishedArticle({ canSeeFullVersion: false, html: null }), {
      mocks: [{ request: { query: RegisterArticleInterestDocument, variables: { item: { articleId: ARTICLE_ID } } }, result: register }],
    });
    expect(await screen.findByRole('heading', { name: 'This is a premium article' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Article body' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Oil Weekly' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Register interest' }));
    expect(await screen.findByText('Thank you for your interest')).toBeInTheDocument();
    expect(register).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Register interest' })).not.toBeInTheDocument();
  });

  it('only logs a failed interest registration', async () => {
    const warn = vi.spyOn(logger, 'warn');
    renderArticle(publishedArticle({ canSeeFullVersion: false, html: null }), {
      mocks: [
        {
          request: { query: RegisterArticleInterestDocument, variables: { item: { articleId: ARTICLE_ID } } },
          result: { errors: [{ message: 'Mail is down', extensions: { code: 'INTERNAL' } }] },
        },
      ],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Register interest' }));
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('Registering interest'), { articleId: ARTICLE_ID }));
    expect(screen.queryByText('Thank you for your interest')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the contact-the-desk panel with no register button for a locked article', async () => {
    renderArticle(publishedArticle({ canSeeFullVersion: false, html: null, isLocked: true }));
    const panel = await screen.findByRole('region', { name: 'This article is available to selected clients only' });
    expect(within(panel).getByRole('link', { name: 'Contact the desk' })).toHaveAttribute('href', `mailto:${DESK_EMAIL}`);
    expect(screen.queryByRole('button', { name: 'Register interest' })).not.toBeInTheDocument();
  });

  it('shows the disclaimer with the desk contact, unless the channel hides it', async () => {
    const first = renderArticle(publishedArticle());
    const disclaimer = await screen.findByRole('region', { name: 'Important information for institutional clients' });
    expect(within(disclaimer).getByRole('link', { name: DESK_EMAIL })).toHaveAttribute('href', `mailto:${DESK_EMAIL}`);
    first.unmount();

    renderArticle(publishedArticle({ premiumChannelDetails: { ...channel(), hideDisclaimer: true } }));
    await heading('Brent in March');
    expect(screen.queryByRole('region', { name: 'Important information for institutional clients' })).not.toBeInTheDocument();
  });

  it('shows the disclosures it was published under, naming their source and version, and none when there are none', async () => {
    const disclosures = [
      {
        __typename: 'Disclosure' as const,
        scopeType: 'channel' as const,
        scopeName: 'Oil Weekly',
        version: 2,
        html: '<p>We hold positions in Brent.</p>',
      },
      {
        __typename: 'Disclosure' as const,
        scopeType: 'desk' as const,
        scopeName: 'Oil desk',
        version: 1,
        html: '<p>Analyst certification.</p>',
      },
    ];
    const first = renderArticle(publishedArticle({ disclosures }));
    const region = await screen.findByRole('region', { name: 'Disclosures' });
    expect(
      within(region)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Channel: Oil Weekly (version 2)', 'Desk: Oil desk (version 1)']);
    expect(within(region).getByText('We hold positions in Brent.')).toBeInTheDocument();
    first.unmount();
    renderArticle(publishedArticle());
    await heading('Brent in March');
    expect(screen.queryByRole('region', { name: 'Disclosures' })).not.toBeInTheDocument();
  });

  it('shows the sidebar: channel card, desk contact, contributors, recent articles and tags (5, then Show all)', async () => {
    const tags = Array.from({ length: 7 }, (_, i) => ({
      __typename: 'ArticleTag' as const,
      _id: `65f00000000000000000000${i}`,
      name: `Tag ${i}`,
    }));
    renderArticle(publishedArticle({ tags }));
    const sidebar = within(await screen.findByRole('complementary', { name: 'About this article' }));
    expect(sidebar.getByRole('article', { name: 'Oil Weekly' })).toBeInTheDocument();
    expect(sidebar.getByRole('link', { name: DESK_EMAIL })).toHaveAttribute('href', `mailto:${DESK_EMAIL}`);
    expect(sidebar.getByRole('link', { name: 'Chris Analyst' })).toHaveAttribute('href', expect.stringMatching(/^\/contributor\//));
    expect(sidebar.getByText('Oil analyst')).toBeInTheDocument();
    expect(sidebar.getByRole('link', { name: '+44 20 1234 5678' })).toHaveAttribute('href', 'tel:+442012345678');
    expect(sidebar.getByRole('link', { name: 'Diesel margins' })).toBeInTheDocument();

    const tagList = sidebar.getByRole('list', { name: 'Article tags' });
    expect(within(tagList).getAllByRole('link')).toHaveLength(5);
    await userEvent.click(sidebar.getByRole('button', { name: 'Show all (7)' }));
    expect(within(tagList).getAllByRole('link')).toHaveLength(7);
  });

  it('shows the sidebar promotional content and logs its impression once per page view', async () => {
    const tracking = promotionTrackingMocks();
    const promo = {
      __typename: 'RandomisedPromotionalContent' as const,
      _id: PROMO_IDS.summit,
      name: 'Energy summit',
      link: 'https://example.org/summit',
      sidebarImage: 'summit.png',
    };
    const { container } = renderArticle(publishedArticle({ randomisedPromotionalContent: promo }), { mocks: tracking.mocks });
    // Under a visible 'Promotion' title, the image with the content's name as the link's text (the
    // image beside it has an empty alt, so the link is named once).
    const section = within(await screen.findByRole('region', { name: 'Promotion' }));
    const link = section.getByRole('link', { name: 'Energy summit' });
    expect(within(link).getByText('Energy summit')).toBeVisible();
    const image = container.querySelector(`img[src="/uploads/summit.png"]`);
    expect(link).toContainElement(image as HTMLElement);
    expect(image).toHaveAttribute('alt', '');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    await waitFor(() => expect(tracking.impressions.mock.calls).toEqual([[PROMO_IDS.summit]]));
    // A re-render (the share dialog opening) is the same page view.
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByRole('dialog', { name: 'Share this article' });
    expect(tracking.impressions).toHaveBeenCalledTimes(1);
    expect(tracking.clicks).not.toHaveBeenCalled();
  });

  it('waits until the promotional content is on screen before logging its impression', async () => {
    const tracking = promotionTrackingMocks();
    let report: IntersectionObserverCallback = () => {};
    class FakeObserver {
      constructor(callback: IntersectionObserverCallback) {
        report = callback;
      }
      observe() {}
      disconnect() {}
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    try {
      const promo = {
        __typename: 'RandomisedPromotionalContent' as const,
        _id: PROMO_IDS.webinar,
        name: 'Webinar',
        link: null,
        sidebarImage: null,
      };
      renderArticle(publishedArticle({ randomisedPromotionalContent: promo }), { mocks: tracking.mocks });
      await screen.findByText('Webinar');
      // Without a target there is nothing to follow.
      expect(screen.getByText('Webinar').closest('a')).toBeNull();
      expect(tracking.impressions).not.toHaveBeenCalled();

      const seen = (isIntersecting: boolean) =>
        act(() => report([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));
      seen(false);
      expect(tracking.impressions).not.toHaveBeenCalled();
      seen(true);
      seen(true);
      await waitFor(() => expect(tracking.impressions).toHaveBeenCalledTimes(1));
      expect(tracking.impressions).toHaveBeenCalledWith(PROMO_IDS.webinar);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('logs a click on the sidebar content and follows an app target inside the app', async () => {
    const tracking = promotionTrackingMocks();
    const promo = {
      __typename: 'RandomisedPromotionalContent' as const,
      _id: PROMO_IDS.summit,
      name: 'Energy summit',
      link: `/promotion/${PROMO_IDS.summit}`,
      sidebarImage: null,
    };
    const { router } = renderArticle(publishedArticle({ randomisedPromotionalContent: promo }), { mocks: tracking.mocks });
    const visited: string[] = [];
    router.subscribe((state) => visited.push(state.location.pathname));
    const link = await screen.findByRole('link', { name: 'Energy summit' });
    expect(link).toHaveAttribute('href', `/promotion/${PROMO_IDS.summit}`);
    expect(link).not.toHaveAttribute('target');
    await userEvent.click(link);
    expect(visited[0]).toBe(`/promotion/${PROMO_IDS.summit}`);
    await waitFor(() => expect(tracking.clicks.mock.calls).toEqual([[PROMO_IDS.summit]]));
  });

  it('draws each promotional content block of the html as a card, and nothing for content no longer listed', async () => {
    const tracking = promotionTrackingMocks();
    const html = [
      '<p>Before the promotion.</p>',
      promotionBlockHtml(PROMO_IDS.summit),
      '<p>Between them.</p>',
      // Expired or deleted content is left out by the server; what the block held is never shown.
      `<div data-promotional-content-id="${PROMO_IDS.expired}">stale text</div>`,
      promotionBlockHtml(PROMO_IDS.webinar),
    ].join('');
    const embedded = [
      embeddedPromotion(),
      embeddedPromotion({
        _id: PROMO_IDS.webinar,
        name: 'Webinar',
        description: '',
        articleImage: null,
        target: 'https://example.org/webinar',
      }),
    ];
    const { container } = renderArticle(publishedArticle({ html, embeddedPromotionalContent: embedded }), { mocks: tracking.mocks });
    const body = await screen.findByRole('region', { name: 'Article body' });

    const summitBlock = container.querySelector(`[data-promotional-content-id="${PROMO_IDS.summit}"]`)!;
    const summit = within(summitBlock as HTMLElement).getByRole('complementary', { name: 'Promotion: Energy summit' });
    const summitLink = within(summit).getByRole('link');
    expect(summitLink).toHaveAttribute('href', `/promotion/${PROMO_IDS.summit}`);
    expect(summitLink).not.toHaveAttribute('target');
    expect(summitLink).toHaveTextContent('Energy summitTwo days with our analysts.');
    expect(within(summit).getByRole('presentation')).toHaveAttribute('src', '/uploads/summit-wide.png');

    const webinar = within(body).getByRole('complementary', { name: 'Promotion: Webinar' });
    expect(within(webinar).getByRole('link')).toHaveAttribute('href', 'https://example.org/webinar');
    expect(within(webinar).getByRole('link')).toHaveAttribute('target', '_blank');
    expect(within(webinar).queryByRole('presentation')).not.toBeInTheDocument();

    const expiredBlock = container.querySelector(`[data-promotional-content-id="${PROMO_IDS.expired}"]`)!;
    expect(expiredBlock).toBeEmptyDOMElement();
    expect(screen.queryByText('stale text')).not.toBeInTheDocument();
    expect(within(body).getAllByRole('complementary')).toHaveLength(2);
    expect(within(body).getByText('Between them.')).toBeInTheDocument();

    // Each card shown counts an impression; a click counts for its content and leaves by its link.
    await waitFor(() => expect(tracking.impressions.mock.calls.flat().sort()).toEqual([PROMO_IDS.summit, PROMO_IDS.webinar]));
    const stopNavigation = (event: Event) => event.preventDefault();
    window.addEventListener('click', stopNavigation);
    try {
      await userEvent.click(within(webinar).getByRole('link'));
    } finally {
      window.removeEventListener('click', stopNavigation);
    }
    await waitFor(() => expect(tracking.clicks.mock.calls).toEqual([[PROMO_IDS.webinar]]));
  });

  it('prints with the browser print dialog', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    renderArticle(publishedArticle());
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("shares: the link is copied with 'Link copied to clipboard', the others point at the article", async () => {
    const user = userEvent.setup();
    renderArticle(publishedArticle());
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Share this article' }));
    const url = `${window.location.origin}/browse/article/${ARTICLE_ID}`;

    expect(dialog.getByRole('link', { name: 'Email' }).getAttribute('href')).toMatch(/^mailto:\?subject=Brent%20in%20March&body=/);
    expect(dialog.getByRole('link', { name: 'Twitter' }).getAttribute('href')).toContain(encodeURIComponent(url));
    expect(dialog.getByRole('link', { name: 'LinkedIn' }).getAttribute('href')).toContain('linkedin.com');
    expect(dialog.getByRole('link', { name: 'Facebook' })).toHaveAttribute('target', '_blank');
    expect(await dialog.findByRole('img', { name: 'QR code of the article link' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );

    await user.click(dialog.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(url);
  });

  it('counts the view once, with the campaign of the link', async () => {
    const view = viewMock({
      articleId: ARTICLE_ID,
      type: 'article',
      source: 'campaign',
      sourceId: CAMPAIGN_ID,
      sourceDetail: 'email_weekly',
    });
    const user = userEvent.setup();
    renderApp({ path: `${PATH}/${CAMPAIGN_ID}_email_weekly`, user: READER, mocks: [articleMock(publishedArticle()), view.mock] });
    await heading('Brent in March');
    await waitFor(() => expect(view.result).toHaveBeenCalledTimes(1));

    // Re-renders (a dialog opening) are not new page views.
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByRole('dialog', { name: 'Share this article' });
    expect(view.result).toHaveBeenCalledTimes(1);
  });

  it('counts a view without a campaign', async () => {
    const { viewResult } = renderArticle(publishedArticle());
    await heading('Brent in March');
    await waitFor(() => expect(viewResult).toHaveBeenCalledTimes(1));
  });
});
