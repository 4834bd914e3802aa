//! 'Topic' replaces 'category' everywhere when premium channels are on (spec 1 §1, §2): the words
//! of the topic screens, the header's entry and the reader's topic links come from here.
import { useConfig } from './config';

export interface TopicWording {
  /** 'topic' / 'category': in sentences and messages. */
  one: string;
  /** 'Topic' / 'Category': at the start of a title. */
  One: string;
  /** 'topics' / 'categories': in sentences. */
  many: string;
  /** 'Topics' / 'Categories': list titles and breadcrumbs. */
  Many: string;
}

export const TOPIC_WORDS: TopicWording = { one: 'topic', One: 'Topic', many: 'topics', Many: 'Topics' };
export const CATEGORY_WORDS: TopicWording = { one: 'category', One: 'Category', many: 'categories', Many: 'Categories' };

export function useTopicWording(): TopicWording {
  return useConfig().features.premiumChannels ? TOPIC_WORDS : CATEGORY_WORDS;
}
