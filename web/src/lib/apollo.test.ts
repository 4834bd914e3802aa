import { gql } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import { createApolloClient } from './apollo';
import { TrialStore } from './trial';

const QUERY = gql`
  query Probe {
    me {
      _id
    }
  }
`;

function respond(body: unknown) {
  return vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
  );
}

function headersOf(call: [RequestInfo | URL, RequestInit?]): Record<string, string> {
  return call[1]?.headers as Record<string, string>;
}

describe('Apollo links', () => {
  it('sends the bearer token, a new request id per request and one session id', async () => {
    const fetchMock = respond({ data: { me: { __typename: 'User', _id: 'a' } } });
    const client = createApolloClient({
      getAccessToken: async () => 'token-1',
      fetch: fetchMock as unknown as typeof fetch,
      logger: { warn: vi.fn(), error: vi.fn() },
      onTrialExpired: vi.fn(),
      reload: vi.fn(),
    });
    await client.query({ query: QUERY, fetchPolicy: 'network-only' });
    await client.query({ query: QUERY, fetchPolicy: 'network-only' });

    const [first, second] = fetchMock.mock.calls.map(headersOf);
    expect(first.authorization).toBe('Bearer token-1');
    expect(first['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second['x-request-id']).not.toBe(first['x-request-id']);
    expect(first['x-session-id']).toBe(second['x-session-id']);
    expect(window.sessionStorage.getItem('insights.sessionId')).toBe(first['x-session-id']);
  });

  it('sends no authorization header without a user', async () => {
    const fetchMock = respond({ data: { me: { __typename: 'User', _id: 'a' } } });
    const client = createApolloClient({
      getAccessToken: async () => null,
      fetch: fetchMock as unknown as typeof fetch,
      logger: { warn: vi.fn(), error: vi.fn() },
      onTrialExpired: vi.fn(),
      reload: vi.fn(),
    });
    await client.query({ query: QUERY });
    expect(headersOf(fetchMock.mock.calls[0]).authorization).toBeUndefined();
  });

  it('moves the trial to expired through the error link, and logs other errors with the request id', async () => {
    const trial = new TrialStore();
    const logger = { warn: vi.fn(), error: vi.fn() };
    const expired = createApolloClient({
      getAccessToken: async () => 't',
      fetch: respond({
        data: null,
        errors: [{ message: 'Trial period has expired', extensions: { code: 'TRIAL_EXPIRED' } }],
      }) as unknown as typeof fetch,
      logger,
      onTrialExpired: trial.markExpired,
      reload: vi.fn(),
    });
    await expect(expired.query({ query: QUERY })).rejects.toThrow();
    expect(trial.get().state).toBe('TrialExpired');
    expect(logger.error).not.toHaveBeenCalled();

    const fetchMock = respond({ data: null, errors: [{ message: 'Boom', extensions: { code: 'INTERNAL' } }] });
    const failing = createApolloClient({
      getAccessToken: async () => 't',
      fetch: fetchMock as unknown as typeof fetch,
      logger,
      onTrialExpired: vi.fn(),
      reload: vi.fn(),
    });
    await expect(failing.query({ query: QUERY })).rejects.toThrow();
    const requestId = headersOf(fetchMock.mock.calls[0])['x-request-id'];
    expect(logger.error).toHaveBeenCalledWith('INTERNAL::Boom', expect.objectContaining({ requestId, operationName: 'Probe' }));
  });

  it('reloads the page when the token cannot be renewed (login_required)', async () => {
    const reload = vi.fn();
    const client = createApolloClient({
      getAccessToken: async () => {
        throw Object.assign(new Error('login_required'), { error: 'login_required' });
      },
      fetch: respond({}) as unknown as typeof fetch,
      logger: { warn: vi.fn(), error: vi.fn() },
      onTrialExpired: vi.fn(),
      reload,
    });
    await expect(client.query({ query: QUERY })).rejects.toThrow();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
