//! Private feeds and personal access tokens (issue 41) in words, for the reader's Subscriptions page
//! (features/reader/Feeds) and the Administrators' user screen (features/users/UserSecrets).
import { formatDateTime } from '../dates';
import type { TopicWording } from '../topicWording';

/** schema.graphql `FeedScopeKind`. */
export type FeedScopeKind = 'all' | 'channel' | 'topic' | 'desk' | 'contributor';

/** What a feed link follows, as the server answers it (`FeedLink.scope`). */
export interface FeedScopeValue {
  kind: FeedScopeKind;
  /** The channel's, topic's, desk's or contributor's name now; none for `all` or once deleted. */
  name?: string | null;
}

/** A deleted channel, topic, desk or contributor. */
export const DELETED_TEXT = '(deleted)';

/**
 * 'All my subscriptions', 'Channel: Metals Pro', 'Topic: Copper (and its sub-topics)', 'Desk: …',
 * 'Contributor: …'; '(deleted)' in place of a name no longer there.
 */
export function feedScopeText(scope: FeedScopeValue, words: TopicWording): string {
  if (scope.kind === 'all') return 'All my subscriptions';
  const name = scope.name ?? null;
  switch (scope.kind) {
    case 'channel':
      return `Channel: ${name ?? DELETED_TEXT}`;
    case 'topic':
      return name ? `${words.One}: ${name} (and its sub-${words.many})` : `${words.One}: ${DELETED_TEXT}`;
    case 'desk':
      return `Desk: ${name ?? DELETED_TEXT}`;
    case 'contributor':
      return `Contributor: ${name ?? DELETED_TEXT}`;
  }
}

/** A feed link's or token's last use: 'Never' before the first. */
export function lastUsedText(lastUsedAt: string | null | undefined): string {
  return lastUsedAt ? formatDateTime(lastUsedAt) : 'Never';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** '2 feed links, 1 access token', or 'None'. */
export function secretsCountText(feedLinks: number, accessTokens: number): string {
  if (feedLinks === 0 && accessTokens === 0) return 'None';
  return `${plural(feedLinks, 'feed link', 'feed links')}, ${plural(accessTokens, 'access token', 'access tokens')}`;
}
