//! REST calls to this server outside Apollo (uploads, protected images and downloads, the chat's
//! event stream): the bearer token and the correlation headers on every request, and an HTTP
//! failure as one typed error carrying the server's `{code, message}` body.
import { correlationHeaders } from './requestIds';

/** The JSON body of the server's REST errors (DESIGN §6); other fields (the chat's `retryAfter`) pass through. */
export interface ErrorBody {
  code?: string;
  message?: string;
  [field: string]: unknown;
}

/** An answer outside 2xx. `message` is 'HTTP <status>'; `display` is the server's own error, when it sent one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** The JSON object the server answered with, or null (no body, or not JSON: a proxy's page). */
    readonly body: ErrorBody | null,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpError';
  }

  /** The server's error as the app shows errors: 'CODE::message' (the message alone without a code); null without a message. */
  get display(): string | null {
    const message = this.body?.message;
    if (!message) return null;
    return this.body?.code ? `${this.body.code}::${message}` : message;
  }
}

async function errorBody(response: Response): Promise<ErrorBody | null> {
  try {
    const body: unknown = JSON.parse(await response.text());
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { code, message, ...rest } = body as Record<string, unknown>;
    return {
      ...rest,
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    };
  } catch {
    return null;
  }
}

export interface AuthorizedInit extends Omit<RequestInit, 'headers'> {
  /** The signed-in user's access token (lib/auth `useAccessToken`); null sends no authorization. */
  token: string | null;
  headers?: Record<string, string>;
}

/**
 * fetch(`path`) with the correlation headers and the bearer token. Resolves to the Response of a
 * 2xx answer with its body unread (a blob, JSON or a stream, as the caller needs); throws an
 * HttpError for any other status, and fetch's own error when the server cannot be reached.
 */
export async function authorizedFetch(path: string, { token, headers, ...init }: AuthorizedInit): Promise<Response> {
  const response = await fetch(path, {
    ...init,
    headers: { ...headers, ...correlationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) throw new HttpError(response.status, await errorBody(response), response.headers);
  return response;
}
