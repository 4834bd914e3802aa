//! The topic tree (`categoriesAsTree`), shared by the tree grid and the form's parent picker so
//! both read one cached answer. Topics nest at most 5 levels deep (spec 1 §2).
import { gql } from '@apollo/client';
import type { TreeSelectNode } from '../../components/admin';
import type { TopicTreeNodeFragment, TopicTreeQuery } from './__generated__/topicTree.generated';

export const MAX_TOPIC_DEPTH = 5;

export type TopicNode = TopicTreeNodeFragment & { children: TopicNode[] };

type AnswerNode = TopicTreeQuery['categoriesAsTree'][number];

/** The answer's nesting as one recursive type (the deepest level selects no children). */
export function toTopicNodes(nodes: readonly AnswerNode[]): TopicNode[] {
  const convert = (node: TopicTreeNodeFragment & { children?: readonly unknown[] }): TopicNode => ({
    ...node,
    children: ((node.children ?? []) as (TopicTreeNodeFragment & { children?: readonly unknown[] })[]).map(convert),
  });
  return nodes.map(convert);
}

export function findTopic(nodes: readonly TopicNode[], id: string): TopicNode | null {
  for (const node of nodes) {
    if (node._id === id) return node;
    const found = findTopic(node.children, id);
    if (found) return found;
  }
  return null;
}

/** Levels in a subtree: 1 for a leaf. */
export function subtreeHeight(node: TopicNode): number {
  return 1 + Math.max(0, ...node.children.map(subtreeHeight));
}

/**
 * The parent picker's tree. The topic itself and its descendants are left out by the select
 * (`exclude`); parents under which the topic's subtree would go deeper than 5 levels are disabled.
 */
export function parentOptions(nodes: readonly TopicNode[], self: string | null): TreeSelectNode[] {
  const selfNode = self ? findTopic(nodes, self) : null;
  const height = selfNode ? subtreeHeight(selfNode) : 1;
  const convert = (node: TopicNode, depth: number): TreeSelectNode => ({
    value: node._id,
    label: node.name,
    disabled: depth + height > MAX_TOPIC_DEPTH,
    children: node.children.map((child) => convert(child, depth + 1)),
  });
  return nodes.map((node) => convert(node, 1));
}

export const TOPIC_TREE_QUERY = gql`
  fragment TopicTreeNode on Category {
    _id
    name
    description
    parent
    level
    articleCount
    subscribersCount
    views
  }

  query TopicTree {
    categoriesAsTree {
      ...TopicTreeNode
      children {
        ...TopicTreeNode
        children {
          ...TopicTreeNode
          children {
            ...TopicTreeNode
            children {
              ...TopicTreeNode
            }
          }
        }
      }
    }
  }
`;
