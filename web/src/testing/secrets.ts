//! Feed links and access tokens shaped like the server's answers and the server's revocations of
//! them, for the reader's (features/reader/Feeds) and the
//! Administrators' (features/users/UserSecrets) tests.
import type { MockLink } from '@apollo/client/testing';
import { RevokeAccessTokenDocument, RevokeFeedLinkDocument } from '../lib/secrets/__generated__/revoke.generated';
import type { FeedScopeKind } from '../lib/secrets/feedScope';

/** 5 Mar 2026 14:05, local time: when every link and token was created. */
export const CREATED_AT = new Date(2026, 2, 5, 14, 5).toISOString();
/** 6 Mar 2026 09:30, local time: a last use. */
export const LAST_USED_AT = new Date(2026, 2, 6, 9, 30).toISOString();

/** What a feed link follows: the item's id and name, none for `all` (or a name once deleted). */
export interface ScopeSpec {
  kind: FeedScopeKind;
  id?: string | null;
  name?: string | null;
}

/** The feed link `fl<n>`. */
export function feedLink(n: number, scope: ScopeSpec, lastUsedAt: string | null = null) {
  return {
    __typename: 'FeedLink',
    _id: `fl${n}`,
    scope: { __typename: 'FeedScope', id: null, name: null, ...scope },
    createdAt: CREATED_AT,
    lastUsedAt,
  };
}

/** The access token `at<n>`. */
export function accessToken(n: number, name: string, lastUsedAt: string | null = null) {
  return { __typename: 'AccessToken', _id: `at${n}`, name, createdAt: CREATED_AT, lastUsedAt };
}

/** What a test's server holds: the links and tokens, and the ids it was asked to revoke, in order. */
export interface SecretsState {
  links: ReturnType<typeof feedLink>[];
  tokens: ReturnType<typeof accessToken>[];
  revoked: string[];
}

/** The answers to `revokeFeedLink` and `revokeAccessToken`: each takes the link or token off `state`. */
export function revokeMocks(state: SecretsState): MockLink.MockedResponse[] {
  return [
    {
      request: { query: RevokeFeedLinkDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { id: string }) => {
        state.revoked.push(v.id);
        state.links = state.links.filter((l) => l._id !== v.id);
        return { data: { revokeFeedLink: true } };
      },
    },
    {
      request: { query: RevokeAccessTokenDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { id: string }) => {
        state.revoked.push(v.id);
        state.tokens = state.tokens.filter((t) => t._id !== v.id);
        return { data: { revokeAccessToken: true } };
      },
    },
  ];
}
