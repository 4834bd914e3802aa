//! Topics and tags shaped like the server's answers, for the taxonomy screen tests.
import type { MockLink } from '@apollo/client/testing';
import { TopicTreeDocument } from '../features/taxonomy/__generated__/topicTree.generated';

export interface TreeSpec {
  _id: string;
  name: string;
  articleCount?: number;
  subscribersCount?: number;
  views?: number;
  children?: TreeSpec[];
}

/** A categoriesAsTree node: `children` is selected down to the fourth level, as the query asks. */
function treeNode(spec: TreeSpec, parent: string | null, level: number): Record<string, unknown> {
  const node: Record<string, unknown> = {
    __typename: 'Category',
    _id: spec._id,
    name: spec.name,
    description: `About ${spec.name}`,
    parent,
    level,
    articleCount: spec.articleCount ?? 0,
    subscribersCount: spec.subscribersCount ?? 0,
    views: spec.views ?? 0,
  };
  if (level < 5) node.children = (spec.children ?? []).map((c) => treeNode(c, spec._id, level + 1));
  return node;
}

export function topicTreeMock(roots: TreeSpec[]): MockLink.MockedResponse {
  return {
    request: { query: TopicTreeDocument },
    result: { data: { categoriesAsTree: roots.map((r) => treeNode(r, null, 1)) } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

/** Ids in the ObjectId format the server uses. */
export const IDS = {
  energy: '65a000000000000000000001',
  oil: '65a000000000000000000002',
  crude: '65a000000000000000000003',
  metals: '65a000000000000000000004',
  gas: '65a000000000000000000005',
} as const;

/** Energy > Oil > Crude, and Metals. */
export const SAMPLE_TREE: TreeSpec[] = [
  {
    _id: IDS.energy,
    name: 'Energy',
    articleCount: 3,
    subscribersCount: 7,
    views: 120,
    children: [
      { _id: IDS.oil, name: 'Oil', articleCount: 2, subscribersCount: 1, views: 40, children: [{ _id: IDS.crude, name: 'Crude' }] },
    ],
  },
  { _id: IDS.metals, name: 'Metals', articleCount: 5, subscribersCount: 0, views: 9 },
];

export function categoryRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Category',
    _id: IDS.oil,
    name: 'Oil',
    description: 'About Oil',
    parent: IDS.energy,
    isFeatured: false,
    smallImage: null,
    largeImage: null,
    promotionalContentId: null,
    isLocked: false,
    isPremium: false,
    version: 1,
    articleCount: 2,
    ...overrides,
  };
}

export function tagRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Tag',
    _id: '65b000000000000000000001',
    name: 'Oil',
    description: 'About oil',
    articleCount: 2,
    views: 10,
    ...overrides,
  };
}
