//! The Apollo client: bearer token, correlation headers and one error link that applies
//! spec 1 §8 through `reportOperationError` (lib/errors.ts).
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { GRAPHQL_ENDPOINT } from './config';
import { reportOperationError, type ErrorReporterDeps } from './errors';
import { getSessionId, newRequestId } from './requestIds';

export interface ApolloOptions extends ErrorReporterDeps {
  getAccessToken: () => Promise<string | null>;
  uri?: string;
  /** Replaces the browser's fetch (tests). */
  fetch?: typeof fetch;
}

export function createCache(): InMemoryCache {
  // Every entity is identified by `_id` (DESIGN §6), which Apollo's default key function reads.
  // Singletons without ids (config, completeness) are stored under their parent field.
  return new InMemoryCache({
    typePolicies: {
      // A follower's `_id` is the user's: the same user follows many topics, each at its own time,
      // so followers stay inside their page instead of being merged by id.
      Follower: { keyFields: false },
      // A viewer is a user, but their views differ per article.
      ArticleViewer: { keyFields: false },
      // A subscriber is a user as one channel sees them (their subscription to that channel).
      SubscribedUser: { keyFields: ['channelId', '_id'] },
      // A bulk check's user carries their subscription to the channel checked.
      CsvCheckUser: { keyFields: false },
    },
  });
}

export function createLinks({ getAccessToken, uri = GRAPHQL_ENDPOINT, fetch: fetchImpl, ...deps }: ApolloOptions): ApolloLink {
  const correlation = new SetContextLink((prev) => {
    const requestId = newRequestId();
    return {
      requestId,
      headers: { ...prev.headers, 'x-request-id': requestId, 'x-session-id': getSessionId() },
    };
  });

  const errors = new ErrorLink(({ error, operation }) => {
    reportOperationError(
      error,
      { operationName: operation.operationName, requestId: operation.getContext().requestId as string | undefined },
      deps,
    );
  });

  const bearer = new SetContextLink(async (prev) => {
    const token = await getAccessToken();
    return token ? { headers: { ...prev.headers, authorization: `Bearer ${token}` } } : {};
  });

  return ApolloLink.from([correlation, errors, bearer, new HttpLink({ uri, fetch: fetchImpl })]);
}

export function createApolloClient(options: ApolloOptions): ApolloClient {
  return new ApolloClient({ link: createLinks(options), cache: createCache() });
}
