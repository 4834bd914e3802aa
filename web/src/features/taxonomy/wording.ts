//! 'Topic' replaces 'category' everywhere when premium channels are on (spec 1 §1, §2): titles,
//! breadcrumbs, buttons and messages of the topic screens read their words from here.
import { useConfig } from '../../lib/config';

export interface TopicWording {
  /** 'topic' / 'category': in sentences and messages. */
  one: string;
  /** 'Topic' / 'Category': at the start of a title. */
  One: string;
  /** 'Topics' / 'Categories': list titles and breadcrumbs. */
  Many: string;
}

export const TOPIC_WORDS: TopicWording = { one: 'topic', One: 'Topic', Many: 'Topics' };
export const CATEGORY_WORDS: TopicWording = { one: 'category', One: 'Category', Many: 'Categories' };

export function useTopicWording(): TopicWording {
  return useConfig().features.premiumChannels ? TOPIC_WORDS : CATEGORY_WORDS;
}

/** 'No articles use this topic.' / '3 articles use this topic and will lose it.' */
export function articleUseText(count: number, word: string): string {
  if (count === 0) return `No articles use this ${word}.`;
  return `${count} ${count === 1 ? 'article uses' : 'articles use'} this ${word} and will lose it.`;
}
