//! Browse page test data shaped like the server's answers (schema.graphql 'Reader contract').
import type { MockLink } from '@apollo/client/testing';
import type { ArticleCardArticle } from '../common/ArticleCard';
import { READER_IDS } from '../testData';
import { BrowseArticlesDocument, type BrowseArticlesQueryVariables } from './__generated__/ArticleFeed.generated';
import {
  BrowseCategoryDocument,
  BrowseCategorySidebarDocument,
  type BrowseCategorySidebarQuery,
} from './__generated__/CategoryPage.generated';
import { BrowseTopicTreeDocument } from './__generated__/topicTree.generated';

export const TOPIC_IDS = {
  energy: READER_IDS.energy,
  oil: '65c000000000000000000021',
  crude: '65c000000000000000000022',
  metals: '65c000000000000000000023',
} as const;

export interface FeedPage {
  articles: ArticleCardArticle[];
  /** The cursor this page was asked with (none for the first). */
  after?: string;
  endCursor?: string | null;
  hasNextPage?: boolean;
}

/** One page of searchArticles for a filter. */
export function feedMock(params: NonNullable<BrowseArticlesQueryVariables['params']>, page: FeedPage): MockLink.MockedResponse {
  const { articles, after, endCursor = null, hasNextPage = false } = page;
  return {
    request: { query: BrowseArticlesDocument, variables: { params, first: 9, ...(after ? { after } : {}) } },
    result: {
      data: {
        searchArticles: {
          __typename: 'SearchArticlesResult',
          totalCount: articles.length,
          pageInfo: { __typename: 'PageInfo', endCursor, hasNextPage },
          documents: articles.map((article) => ({ __typename: 'SearchDocument', article })),
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

interface TreeSpec {
  _id: string;
  name: string;
  children?: TreeSpec[];
}

/** Energy > Oil > Crude, and Metals. */
export const TREE: TreeSpec[] = [
  {
    _id: TOPIC_IDS.energy,
    name: 'Energy',
    children: [{ _id: TOPIC_IDS.oil, name: 'Oil', children: [{ _id: TOPIC_IDS.crude, name: 'Crude' }] }],
  },
  { _id: TOPIC_IDS.metals, name: 'Metals' },
];

function treeNode(spec: TreeSpec, parent: string | null, level: number): Record<string, unknown> {
  const node: Record<string, unknown> = { __typename: 'Category', _id: spec._id, name: spec.name, parent };
  // The query selects `children` down to the fourth level.
  if (level < 5) node.children = (spec.children ?? []).map((c) => treeNode(c, spec._id, level + 1));
  return node;
}

export function treeMock(roots: TreeSpec[] = TREE): MockLink.MockedResponse {
  return {
    request: { query: BrowseTopicTreeDocument },
    result: { data: { categoriesAsTree: roots.map((r) => treeNode(r, null, 1)) } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

export function categoryMock(overrides: Record<string, unknown> = {}, id: string = TOPIC_IDS.oil): MockLink.MockedResponse {
  return {
    request: { query: BrowseCategoryDocument, variables: { id } },
    result: {
      data: {
        findCategoryById: {
          __typename: 'Category',
          _id: id,
          name: 'Oil',
          description: 'Crude, products and shipping.',
          largeImage: 'oil-cover.png',
          parent: TOPIC_IDS.energy,
          isFollowing: false,
          subscribersCount: 3,
          ...overrides,
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

type BrowseStatLists = Partial<Record<keyof BrowseCategorySidebarQuery['getBrowseStat'], Record<string, unknown>[]>>;

/** getBrowseStat and the archive months of a topic (records carry their __typename). */
export function sidebarMock(stat: BrowseStatLists = {}, months: Record<string, unknown>[] = [], id: string = TOPIC_IDS.oil) {
  return {
    request: { query: BrowseCategorySidebarDocument, variables: { categoryId: id } },
    result: {
      data: {
        getBrowseStat: { __typename: 'BrowseStat', trendingArticles: [], channels: [], tags: [], desks: [], ...stat },
        getLastMonthsWithArticles: months,
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  } satisfies MockLink.MockedResponse;
}

export function month(year: number, m: number, articleCount: number) {
  return { __typename: 'ArchiveMonth', dateId: `${year}-${String(m).padStart(2, '0')}`, year, month: m, articleCount };
}
