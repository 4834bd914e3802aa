import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { MarketingArticlePageDocument } from './__generated__/MarketingArticlePage.generated';
import {
  ARTICLE_ID,
  CAMPAIGN_ID,
  embeddedPromotion,
  marketingArticle,
  marketingMock,
  PROMO_IDS,
  promotionBlockHtml,
  promotionTrackingMocks,
  viewMock,
  type MarketingArticle,
} from './testData';

const PATH = `/browse/marketing-article/${ARTICLE_ID}`;
const READER = testUser('Subscriber', { email: 'reader@example.com' });

function renderMarketing(mocks: MockLink.MockedResponse[], path = PATH) {
  return renderApp({ path, user: READER, mocks });
}

async function expectNoLongerAvailable() {
  expect(await screen.findByRole('heading', { name: 'This article is no longer available.' })).toBeInTheDocument();
  expect(screen.getByText('This article was archived or unpublished by a contributor.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Return to the product' })).toHaveAttribute('href', '/for-you');
}

beforeAll(async () => {
  await import('./MarketingArticlePage');
});

describe('MarketingArticlePage', () => {
  it('shows the article in full without the app header, and counts a marketing view with the campaign', async () => {
    const view = viewMock({
      articleId: ARTICLE_ID,
      type: 'marketing-article',
      source: 'campaign',
      sourceId: CAMPAIGN_ID,
      sourceDetail: 'email',
    });
    renderMarketing([marketingMock(marketingArticle({ showWatermark: true })), view.mock], `${PATH}/${CAMPAIGN_ID}_email`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Brent in March' })).toBeInTheDocument();
    const body = within(screen.getByRole('region', { name: 'Article body' }));
    expect(body.getByText('Brent rose again.')).toBeInTheDocument();
    expect(body.getAllByText('reader@example.com').length).toBeGreaterThan(0);
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    await waitFor(() => expect(view.result).toHaveBeenCalledTimes(1));
  });

  it('draws the promotional content blocks of the html as cards, and nothing for content no longer listed', async () => {
    const view = viewMock({ articleId: ARTICLE_ID, type: 'marketing-article' });
    const tracking = promotionTrackingMocks();
    const html = `<p>Brent rose again.</p>${promotionBlockHtml(PROMO_IDS.summit)}${promotionBlockHtml(PROMO_IDS.expired)}`;
    renderMarketing([
      marketingMock(marketingArticle({ html, embeddedPromotionalContent: [embeddedPromotion()] })),
      view.mock,
      ...tracking.mocks,
    ]);
    const body = within(await screen.findByRole('region', { name: 'Article body' }));
    const card = body.getByRole('complementary', { name: 'Promotion: Energy summit' });
    expect(within(card).getByRole('link')).toHaveAttribute('href', `/promotion/${PROMO_IDS.summit}`);
    expect(body.getAllByRole('complementary')).toHaveLength(1);
    await waitFor(() => expect(tracking.impressions).toHaveBeenCalledWith(PROMO_IDS.summit));
  });

  it('shows the summary and a link to the article page to a reader who may not read it in full', async () => {
    const view = viewMock({ articleId: ARTICLE_ID, type: 'marketing-article' });
    renderMarketing([marketingMock(marketingArticle({ canSeeFullVersion: false, html: null })), view.mock]);
    expect(await screen.findByText('Why prices rose.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Article body' })).not.toBeInTheDocument();
    expect(screen.getByText('The full article is available to subscribers of Oil Weekly.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the article' })).toHaveAttribute('href', `/browse/article/${ARTICLE_ID}`);
  });

  it.each<MarketingArticle['state']>(['Archived', 'Pending'])(
    "says 'no longer available' for a %s article, without counting a view",
    async (state) => {
      const view = viewMock({ articleId: ARTICLE_ID, type: 'marketing-article' });
      renderMarketing([marketingMock(marketingArticle({ state })), view.mock]);
      await expectNoLongerAvailable();
      expect(view.result).not.toHaveBeenCalled();
    },
  );

  it("says 'no longer available' when the article cannot be loaded", async () => {
    renderMarketing([
      {
        request: { query: MarketingArticlePageDocument, variables: { id: ARTICLE_ID } },
        result: { errors: [{ message: 'No such article', extensions: { code: 'ARTICLE_NOT_FOUND' } }] },
      },
    ]);
    await expectNoLongerAvailable();
  });

  it("says 'no longer available' for an id that is not an ObjectId", async () => {
    renderMarketing([], '/browse/marketing-article/nope');
    await expectNoLongerAvailable();
  });
});
