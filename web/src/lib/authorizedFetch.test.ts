import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authorizedFetch, HttpError } from './authorizedFetch';

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The error authorizedFetch throws for `response`. */
async function failure(response: Response): Promise<HttpError> {
  fetchMock.mockResolvedValue(response);
  const error = await authorizedFetch('/export/interests.csv', { token: 't' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('authorizedFetch', () => {
  it('sends the bearer token and the correlation headers with the caller’s own, and hands back the unread Response', async () => {
    const answer = new Response('{"ok":true}', { status: 201 });
    fetchMock.mockResolvedValue(answer);
    const body = new FormData();

    const response = await authorizedFetch('/upload', { method: 'POST', token: 'abc', body, headers: { accept: 'application/json' } });

    expect(response).toBe(answer);
    expect(response.bodyUsed).toBe(false);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(body);
    expect(init?.headers).toEqual({
      accept: 'application/json',
      authorization: 'Bearer abc',
      'x-request-id': expect.any(String),
      'x-session-id': expect.any(String),
    });
  });

  it('sends no authorization without a token, and a new request id each time in one session', async () => {
    fetchMock.mockImplementation(async () => new Response(null, { status: 204 }));
    await authorizedFetch('/a', { token: null });
    await authorizedFetch('/b', { token: null });
    const [first, second] = fetchMock.mock.calls.map(([, init]) => init?.headers as Record<string, string>);
    expect(first).not.toHaveProperty('authorization');
    expect(first['x-request-id']).not.toBe(second['x-request-id']);
    expect(first['x-session-id']).toBe(second['x-session-id']);
  });

  it('throws an HttpError with the status and the server’s {code, message} on a 4xx', async () => {
    const error = await failure(
      new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'Administrators only' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(error.status).toBe(403);
    expect(error.body).toEqual({ code: 'FORBIDDEN', message: 'Administrators only' });
    expect(error.display).toBe('FORBIDDEN::Administrators only');
    expect(error.message).toBe('HTTP 403');
  });

  it('keeps the rest of the body and the headers (a rate limit’s wait), and shows a message without a code as it is', async () => {
    const error = await failure(
      new Response(JSON.stringify({ message: 'Slow down', retryAfter: 42 }), { status: 429, headers: { 'retry-after': '17' } }),
    );
    expect(error.body).toEqual({ message: 'Slow down', retryAfter: 42 });
    expect(error.headers.get('retry-after')).toBe('17');
    expect(error.display).toBe('Slow down');
  });

  it('throws an HttpError without a body on a 5xx that is not JSON', async () => {
    const error = await failure(new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(error.status).toBe(502);
    expect(error.body).toBeNull();
    expect(error.display).toBeNull();
    expect(error.message).toBe('HTTP 502');

    const array = await failure(new Response('[1]', { status: 500 }));
    expect(array.body).toBeNull();
  });

  it('lets fetch’s own error through when the server cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(authorizedFetch('/chat', { token: 't' })).rejects.toThrow(TypeError);
  });
});
