//! Articles shaped like the server's answers, for the list and stats tests.
import type { MockLink } from '@apollo/client/testing';
import { ArticleListDocument, ArticleListTopicsDocument, type ArticleListQueryVariables } from './__generated__/ArticleList.generated';

export type ArticleParams = NonNullable<ArticleListQueryVariables['params']>;

/** Ids in the ObjectId format the server uses. */
export const ARTICLE_IDS = {
  oil: '65b000000000000000000001',
  gas: '65b000000000000000000002',
  metals: '65b000000000000000000003',
  coal: '65b000000000000000000004',
  oilDesk: '65b000000000000000000010',
  chris: '65b000000000000000000011',
  energy: '65b000000000000000000020',
  crude: '65b000000000000000000021',
  power: '65b000000000000000000022',
  lngTag: '65b000000000000000000030',
  oilChannel: '65b000000000000000000040',
} as const;

/** 5 Mar 2026 14:05, local time. */
export const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();

export function listArticle(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Article',
    _id: ARTICLE_IDS.oil,
    title: 'Oil outlook',
    state: 'Published',
    publishedBy: { __typename: 'ArticlePublisher', _id: ARTICLE_IDS.oilDesk, name: 'Oil desk' },
    uniqueViews: 12,
    publishDate: MARCH_5,
    lastEdited: MARCH_5,
    isPremium: false,
    premiumExpiryOffset: null,
    premiumExpiresAt: null,
    canEdit: true,
    canViewStats: true,
    ...overrides,
  };
}

/** A fake `articles(params)`: answers `rows` (or what `answer` picks) and records each call's params. */
export function articlesMock(
  calls: ArticleParams[],
  rows: readonly ReturnType<typeof listArticle>[],
  answer: (params: ArticleParams) => { rows: readonly unknown[]; total: number } = () => ({ rows, total: rows.length }),
): MockLink.MockedResponse {
  return {
    request: { query: ArticleListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = variables.params as ArticleParams;
      calls.push(params);
      const page = answer(params);
      return { data: { articles: { __typename: 'ArticlePage', total: page.total, articles: page.rows } } };
    },
  };
}

/** Energy > Crude, and Power: the flat `categories` answer, ordered by name. */
export function topicsMock(): MockLink.MockedResponse {
  const topic = (_id: string, name: string, parent: string | null) => ({ __typename: 'Category', _id, name, parent });
  return {
    request: { query: ArticleListTopicsDocument },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: {
        categories: [
          topic(ARTICLE_IDS.crude, 'Crude', ARTICLE_IDS.energy),
          topic(ARTICLE_IDS.energy, 'Energy', null),
          topic(ARTICLE_IDS.power, 'Power', null),
        ],
      },
    },
  };
}
