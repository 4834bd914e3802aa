//! Article page test data shaped like the server's answers (schema.graphql 'Reader contract').
import type { MockLink } from '@apollo/client/testing';
import { vi } from 'vitest';
import { getSessionId } from '../../../lib/requestIds';
import { articleId, channel, MARCH_5, READER_IDS } from '../testData';
import type { ArticlePageQuery } from './__generated__/ArticlePage.generated';
import { ArticlePageDocument } from './__generated__/ArticlePage.generated';
import { MarketingArticlePageDocument, type MarketingArticlePageQuery } from './__generated__/MarketingArticlePage.generated';
import {
  LogPromotionalContentClickDocument,
  LogPromotionalContentImpressionDocument,
  type EmbeddedPromotion_CardFragment,
} from './__generated__/PromotionalContent.generated';
import { RecordArticleViewDocument } from './__generated__/useArticleView.generated';

export type PublishedArticle = ArticlePageQuery['findPublishedArticleById'];
export type MarketingArticle = MarketingArticlePageQuery['findMarketingArticleById'];

export const ARTICLE_ID = articleId(7);
export const CAMPAIGN_ID = '65e000000000000000000001';
export const DESK_EMAIL = 'oil.desk@example.com';
export const ARTICLE_TOPIC_IDS = { energy: READER_IDS.energy, crude: '65c000000000000000000022' } as const;

export const ARTICLE_HTML = [
  '<p>Brent rose again.</p>',
  '<p><a href="/uploads/prices.xlsx">Prices (Excel)</a> and <a href="https://example.org/report">the full report</a>',
  ' and <a href="/browse/channel/65c000000000000000000001">our channel</a>.</p>',
  '<iframe src="https://player.vimeo.com/video/123" width="100%" height="360" title="Vimeo video player"></iframe>',
].join('');

/** 6 Mar 2026 09:12, local time: a correction after the first publication. */
export const MARCH_6_09_12 = new Date(2026, 2, 6, 9, 12).toISOString();

export function publishedArticle(overrides: Partial<PublishedArticle> = {}): PublishedArticle {
  const { premiumChannelDetails, ...rest } = overrides;
  return {
    __typename: 'PublishedArticle',
    _id: ARTICLE_ID,
    title: 'Brent in March',
    summary: 'Why prices rose.',
    html: ARTICLE_HTML,
    publishDate: MARCH_5,
    firstPublishedAt: MARCH_5,
    updatedAt: MARCH_6_09_12,
    disclosures: [],
    publishedBy: { __typename: 'ArticlePublisher', _id: READER_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    canSeeFullVersion: true,
    isLocked: false,
    isPremium: true,
    showWatermark: false,
    blockCopy: false,
    deskEmail: DESK_EMAIL,
    premiumChannel: { __typename: 'ArticleChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' },
    premiumChannelDetails: premiumChannelDetails === undefined ? { ...channel(), hideDisclaimer: false } : premiumChannelDetails,
    contributors: [
      {
        __typename: 'ArticleContributor',
        _id: READER_IDS.chris,
        name: 'Chris Analyst',
        position: 'Oil analyst',
        phone: '+44 20 1234 5678',
        hasProfilePicture: false,
      },
    ],
    categories: [
      { __typename: 'ArticleTopic', _id: READER_IDS.energy, name: 'Energy' },
      { __typename: 'ArticleTopic', _id: ARTICLE_TOPIC_IDS.crude, name: 'Crude oil' },
    ],
    tags: [
      { __typename: 'ArticleTag', _id: '65f000000000000000000001', name: 'Brent' },
      { __typename: 'ArticleTag', _id: '65f000000000000000000002', name: 'OPEC' },
    ],
    recentChannelArticles: [{ __typename: 'ArticleCard', _id: articleId(8), title: 'Diesel margins', publishDate: MARCH_5 }],
    randomisedPromotionalContent: null,
    embeddedPromotionalContent: [],
    ...rest,
  } as PublishedArticle;
}

export function articleMock(article: PublishedArticle, id = article._id): MockLink.MockedResponse {
  return {
    request: { query: ArticlePageDocument, variables: { id } },
    result: { data: { findPublishedArticleById: article } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

export function articleErrorMock(id: string, code: string, message = 'Refused'): MockLink.MockedResponse {
  return {
    request: { query: ArticlePageDocument, variables: { id } },
    result: { errors: [{ message, extensions: { code } }] },
  };
}

export interface ViewItem {
  articleId: string;
  type: string;
  session: string;
  source?: string;
  sourceId?: string;
  sourceDetail?: string;
}

/** The view stat of this browser session; `result` is a spy that answers it. */
export function viewMock(item: Omit<ViewItem, 'session'>) {
  const result = vi.fn(() => ({
    data: { addArticleViewStat: { __typename: 'ArticleViewResult', counted: true, kind: 'full' } },
  }));
  const mock: MockLink.MockedResponse = {
    request: { query: RecordArticleViewDocument, variables: { item: { ...item, session: getSessionId() } } },
    result,
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
  return { mock, result };
}

export function marketingArticle(overrides: Partial<MarketingArticle> = {}): MarketingArticle {
  return {
    __typename: 'MarketingArticle',
    _id: ARTICLE_ID,
    title: 'Brent in March',
    summary: 'Why prices rose.',
    html: '<p>Brent rose again.</p>',
    publishDate: MARCH_5,
    firstPublishedAt: MARCH_5,
    updatedAt: null,
    state: 'Published',
    canSeeFullVersion: true,
    showWatermark: false,
    publishedBy: { __typename: 'ArticlePublisher', _id: READER_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    premiumChannel: { __typename: 'ArticleChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly' },
    embeddedPromotionalContent: [],
    ...overrides,
  } as MarketingArticle;
}

export function marketingMock(article: MarketingArticle): MockLink.MockedResponse {
  return {
    request: { query: MarketingArticlePageDocument, variables: { id: article._id } },
    result: { data: { findMarketingArticleById: article } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

export const PROMO_IDS = {
  summit: '66a000000000000000000001',
  webinar: '66a000000000000000000002',
  expired: '66a000000000000000000003',
} as const;

/** A promotional content block of the article html, as the editor writes it. */
export function promotionBlockHtml(id: string): string {
  return `<div data-promotional-content-id="${id}" class="editor-promotional-content"></div>`;
}

export function embeddedPromotion(overrides: Partial<EmbeddedPromotion_CardFragment> = {}): EmbeddedPromotion_CardFragment {
  return {
    __typename: 'PromotionalContentCard',
    _id: PROMO_IDS.summit,
    name: 'Energy summit',
    description: 'Two days with our analysts.',
    articleImage: 'summit-wide.png',
    target: `/promotion/${PROMO_IDS.summit}`,
    ...overrides,
  } as EmbeddedPromotion_CardFragment;
}

/**
 * Answers the impression and click mutations of promotional content; `impressions` and `clicks`
 * are spies called with each content id.
 */
export function promotionTrackingMocks() {
  const impressions = vi.fn((id: string) => id);
  const clicks = vi.fn((id: string) => id);
  const mocks: MockLink.MockedResponse[] = [
    {
      request: { query: LogPromotionalContentImpressionDocument, variables: () => true },
      result: (variables: Record<string, unknown>) => {
        impressions(String(variables.id));
        return { data: { logPromotionalContentImpression: true } };
      },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
    {
      request: { query: LogPromotionalContentClickDocument, variables: () => true },
      result: (variables: Record<string, unknown>) => {
        clicks(String(variables.id));
        return { data: { logPromotionalContentClick: true } };
      },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
  ];
  return { mocks, impressions, clicks };
}
