//! The topic screens' words: 'topic' or 'category' by the premium channels flag (spec 1 §1, §2;
//! lib/topicWording, shared with the reader's pages), and their messages.
export { CATEGORY_WORDS, TOPIC_WORDS, useTopicWording, type TopicWording } from '../../lib/topicWording';

/** 'No articles use this topic.' / '3 articles use this topic and will lose it.' */
export function articleUseText(count: number, word: string): string {
  if (count === 0) return `No articles use this ${word}.`;
  return `${count} ${count === 1 ? 'article uses' : 'articles use'} this ${word} and will lose it.`;
}
