//! Embedded Tableau charts (spec 1 §3 'Charts item', §7): the charts of the configured project
//! (`getTableauCharts`), the embed token (`getTableauToken`, kept 5 minutes, spec 1 §9), the
//! Embedding API v3 script and the URL a view is embedded from. Used by the editor's chart picker
//! and the reader's article page; both need the user's tableauAccess and Tableau in the config.
import { gql, type ApolloClient } from '@apollo/client';
import type { ClientConfig } from '../config';
import { TableauTokenDocument } from './__generated__/tableau.generated';

export type TableauSettings = NonNullable<ClientConfig['tableau']>;

/** Spec 1 §9: the charts token is kept 5 minutes. */
export const TOKEN_CACHE_MS = 5 * 60 * 1000;
/** A token this close to its expiry is not handed out: the viz may still be loading when it ends. */
const MIN_VALIDITY_MS = 60 * 1000;

interface TokenEntry {
  promise: Promise<string>;
  fetchedAt: number;
  /** Known once the answer is in. */
  expiresAt: number;
}

// Per Apollo client, so a new session (or a test) never sees another's token.
const tokens = new WeakMap<ApolloClient, TokenEntry>();

/**
 * The embed token: the kept one while it is under 5 minutes old (and not about to expire), else a
 * new one from the server. Charts of one page asking at once share one request.
 */
export function tableauToken(client: ApolloClient, now: number = Date.now()): Promise<string> {
  const kept = tokens.get(client);
  if (kept && now - kept.fetchedAt < TOKEN_CACHE_MS && kept.expiresAt - now > MIN_VALIDITY_MS) return kept.promise;
  const entry: TokenEntry = { fetchedAt: now, expiresAt: Infinity, promise: Promise.resolve('') };
  entry.promise = client.query({ query: TableauTokenDocument, fetchPolicy: 'no-cache' }).then(({ data }) => {
    if (!data) throw new Error('No Tableau token');
    entry.expiresAt = Date.parse(data.getTableauToken.expiresAt);
    return data.getTableauToken.token;
  });
  // A failure is not kept: the next chart asks again.
  entry.promise.catch(() => {
    if (tokens.get(client) === entry) tokens.delete(client);
  });
  tokens.set(client, entry);
  return entry.promise;
}

/** Where a view is embedded from: `{server}/t/{site}/views/{path}` (`{server}/views/{path}` on the default site). */
export function vizUrl(settings: TableauSettings, path: string): string {
  const server = settings.serverUrl.replace(/\/+$/, '');
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return settings.site ? `${server}/t/${encodeURIComponent(settings.site)}/views/${encoded}` : `${server}/views/${encoded}`;
}

/** Adds Tableau's Embedding API v3 to the page once (a module script that defines `<tableau-viz>`). */
export function loadEmbeddingApi(url: string, doc: Document = document): void {
  const present = [...doc.querySelectorAll<HTMLScriptElement>('script[data-tableau-embedding]')].some((s) => s.src === url);
  if (present) return;
  const script = doc.createElement('script');
  script.type = 'module';
  script.src = url;
  script.dataset.tableauEmbedding = '';
  doc.head.append(script);
}

export const TABLEAU_CHARTS_QUERY = gql`
  query TableauCharts {
    getTableauCharts {
      id
      title
      path
      image
    }
  }
`;

export const TABLEAU_TOKEN_QUERY = gql`
  query TableauToken {
    getTableauToken {
      token
      expiresAt
    }
  }
`;
