import type { ApolloClient } from '@apollo/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadEmbeddingApi, tableauToken, TOKEN_CACHE_MS, vizUrl } from './tableau';

const T0 = Date.parse('2030-01-01T10:00:00Z');
const MINUTE = 60_000;

/** A client whose TableauToken answers give tokens t1, t2… that expire `lifetime` after `now`. */
function fakeClient(lifetime = 9 * MINUTE, now = () => T0) {
  let n = 0;
  const query = vi.fn(async () => {
    n += 1;
    return {
      data: { getTableauToken: { __typename: 'TableauToken', token: `t${n}`, expiresAt: new Date(now() + lifetime).toISOString() } },
    };
  });
  return { client: { query } as unknown as ApolloClient, query };
}

describe('tableauToken', () => {
  it('keeps the token for 5 minutes, then asks for a new one', async () => {
    const { client, query } = fakeClient();
    expect(await tableauToken(client, T0)).toBe('t1');
    expect(await tableauToken(client, T0 + TOKEN_CACHE_MS - 1)).toBe('t1');
    expect(query).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith(expect.objectContaining({ fetchPolicy: 'no-cache' }));

    expect(await tableauToken(client, T0 + TOKEN_CACHE_MS)).toBe('t2');
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('shares one request between charts asking at once', async () => {
    const { client, query } = fakeClient();
    const tokens = await Promise.all([tableauToken(client, T0), tableauToken(client, T0), tableauToken(client, T0)]);
    expect(tokens).toEqual(['t1', 't1', 't1']);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('does not hand out a token in its last minute', async () => {
    // A token the server made to last 3 minutes is kept for 2 of them only.
    const { client, query } = fakeClient(3 * MINUTE);
    await tableauToken(client, T0);
    expect(await tableauToken(client, T0 + 2 * MINUTE - 1)).toBe('t1');
    expect(await tableauToken(client, T0 + 2 * MINUTE + 1)).toBe('t2');
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure: the next chart asks again', async () => {
    const query = vi
      .fn()
      .mockRejectedValueOnce(new Error('UNAVAILABLE::Tableau is not available'))
      .mockResolvedValueOnce({ data: { getTableauToken: { token: 'ok', expiresAt: new Date(T0 + 9 * MINUTE).toISOString() } } });
    const client = { query } as unknown as ApolloClient;
    await expect(tableauToken(client, T0)).rejects.toThrow('Tableau is not available');
    expect(await tableauToken(client, T0 + 1)).toBe('ok');
  });

  it('keeps one token per client (a new session asks again)', async () => {
    const a = fakeClient();
    const b = fakeClient();
    await tableauToken(a.client, T0);
    await tableauToken(b.client, T0);
    expect(a.query).toHaveBeenCalledTimes(1);
    expect(b.query).toHaveBeenCalledTimes(1);
  });
});

describe('vizUrl', () => {
  const settings = {
    __typename: 'TableauSettings',
    serverUrl: 'https://tableau.example/',
    site: 'research',
    embeddingScriptUrl: '',
  } as const;

  it('embeds from the site, or from the default site', () => {
    expect(vizUrl(settings, 'Energy/GasPrices')).toBe('https://tableau.example/t/research/views/Energy/GasPrices');
    expect(vizUrl({ ...settings, site: '' }, 'Energy/GasPrices')).toBe('https://tableau.example/views/Energy/GasPrices');
  });

  it('encodes each segment of the path', () => {
    expect(vizUrl(settings, 'Oil & Gas/Q1 Prices')).toBe('https://tableau.example/t/research/views/Oil%20%26%20Gas/Q1%20Prices');
  });
});

describe('loadEmbeddingApi', () => {
  const URL = 'https://tableau.example/javascripts/api/tableau.embedding.3.latest.min.js';
  afterEach(() => document.head.querySelectorAll('script[data-tableau-embedding]').forEach((s) => s.remove()));

  it('adds the Embedding API as a module script, once', () => {
    loadEmbeddingApi(URL);
    loadEmbeddingApi(URL);
    const scripts = document.head.querySelectorAll<HTMLScriptElement>('script[data-tableau-embedding]');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toHaveAttribute('type', 'module');
    expect(scripts[0]).toHaveAttribute('src', URL);
  });
});
