import { describe, expect, it } from 'vitest';
import { CATEGORY_WORDS, TOPIC_WORDS } from '../topicWording';
import { feedScopeText, lastUsedText, secretsCountText } from './feedScope';

describe('Feed links and access tokens in words', () => {
  it('words what a link follows, with the topic wording and deleted items', () => {
    expect(feedScopeText({ kind: 'all' }, TOPIC_WORDS)).toBe('All my subscriptions');
    expect(feedScopeText({ kind: 'channel', name: 'Metals Pro' }, TOPIC_WORDS)).toBe('Channel: Metals Pro');
    expect(feedScopeText({ kind: 'topic', name: 'Copper' }, TOPIC_WORDS)).toBe('Topic: Copper (and its sub-topics)');
    expect(feedScopeText({ kind: 'topic', name: 'Copper' }, CATEGORY_WORDS)).toBe('Category: Copper (and its sub-categories)');
    expect(feedScopeText({ kind: 'desk', name: 'Metals desk' }, TOPIC_WORDS)).toBe('Desk: Metals desk');
    expect(feedScopeText({ kind: 'contributor', name: 'Chris Analyst' }, TOPIC_WORDS)).toBe('Contributor: Chris Analyst');
    expect(feedScopeText({ kind: 'desk', name: null }, TOPIC_WORDS)).toBe('Desk: (deleted)');
    expect(feedScopeText({ kind: 'topic', name: null }, TOPIC_WORDS)).toBe('Topic: (deleted)');
  });

  it('counts links and tokens', () => {
    expect(secretsCountText(0, 0)).toBe('None');
    expect(secretsCountText(2, 1)).toBe('2 feed links, 1 access token');
    expect(secretsCountText(1, 0)).toBe('1 feed link, 0 access tokens');
  });

  it("says 'Never' before a first use", () => {
    expect(lastUsedText(null)).toBe('Never');
    expect(lastUsedText(new Date(2026, 2, 6, 9, 30).toISOString())).toBe('06 Mar 2026 09:30');
  });
});
