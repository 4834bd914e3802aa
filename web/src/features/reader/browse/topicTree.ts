//! The topic tree as readers browse it (categoriesAsTree: roots with sub-topics nested up to 5
//! levels), for the topics directory, a topic's breadcrumbs and its sub-topics.
import { gql } from '@apollo/client';
import type { BrowseTopicTreeQuery } from './__generated__/topicTree.generated';

export interface TopicNode {
  _id: string;
  name: string;
  children: TopicNode[];
}

type AnswerNode = BrowseTopicTreeQuery['categoriesAsTree'][number];

/** The answer with `children` always present (the deepest selected level has none). */
export function toTopicNodes(nodes: readonly AnswerNode[]): TopicNode[] {
  const convert = (node: { _id: string; name: string; children?: readonly unknown[] }): TopicNode => ({
    _id: node._id,
    name: node.name,
    children: ((node.children ?? []) as { _id: string; name: string; children?: readonly unknown[] }[]).map(convert),
  });
  return nodes.map(convert);
}

/** The topics from a root down to the one with `id` (both included); empty when it is not in the tree. */
export function topicPathTo(roots: readonly TopicNode[], id: string): TopicNode[] {
  for (const node of roots) {
    if (node._id === id) return [node];
    const below = topicPathTo(node.children, id);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

/** A topic with the topics above it (root first). */
export interface TopicEntry {
  topic: TopicNode;
  ancestors: TopicNode[];
}

/** Every topic of the tree, parents before their sub-topics (the directory's order). */
export function allTopics(roots: readonly TopicNode[]): TopicEntry[] {
  const walk = (nodes: readonly TopicNode[], ancestors: TopicNode[]): TopicEntry[] =>
    nodes.flatMap((topic) => [{ topic, ancestors }, ...walk(topic.children, [...ancestors, topic])]);
  return walk(roots, []);
}

/**
 * The topics a filter text finds, at any level, in the directory's order: each word of the text
 * (ignoring case) is in the topic's path, and one of them in its own name. 'energy' finds the
 * topics named Energy (not everything under them); 'equities energy' the Energy topics under Equities.
 */
export function findTopics(roots: readonly TopicNode[], text: string): TopicEntry[] {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return allTopics(roots).filter(({ topic, ancestors }) => {
    const name = topic.name.toLowerCase();
    const path = [...ancestors.map((a) => a.name.toLowerCase()), name].join(' › ');
    return words.every((w) => path.includes(w)) && words.some((w) => name.includes(w));
  });
}

export const BROWSE_TOPIC_TREE_QUERY = gql`
  fragment BrowseTopicNode on Category {
    _id
    name
    parent
  }

  query BrowseTopicTree {
    categoriesAsTree {
      ...BrowseTopicNode
      children {
        ...BrowseTopicNode
        children {
          ...BrowseTopicNode
          children {
            ...BrowseTopicNode
            children {
              ...BrowseTopicNode
            }
          }
        }
      }
    }
  }
`;
