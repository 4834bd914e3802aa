//! The public unsubscribe endpoint (spec 3 §7 'REST', DESIGN §6): `POST /unsubscribe` with the
//! signed `data` of an email's link. `{data}` answers whose link it is and what it turns off;
//! `{data, reason}` turns it off and answers whether anything changed. No sign-in: the token is
//! the proof. An invalid or changed link is a 400 whose `fields.data` says so.
import { logger } from '../../../lib/logger';
import { correlationHeaders } from '../../../lib/requestIds';

export const UNSUBSCRIBE_ENDPOINT = '/unsubscribe';

export type UnsubscribeReason = 'too_frequent' | 'not_relevant' | 'dont_remember' | 'other';

export const REASONS: readonly { value: UnsubscribeReason; label: string }[] = [
  { value: 'too_frequent', label: 'I get too many emails' },
  { value: 'not_relevant', label: 'The content is not relevant to me' },
  { value: 'dont_remember', label: "I don't remember subscribing" },
  { value: 'other', label: 'Other' },
];

/** Whose link it is: their address, the channel it names (null: every channel email), and whether those emails are on. */
export interface UnsubscribeTarget {
  email: string;
  channelName: string | null;
  subscribed: boolean;
}

/** Why a call failed, in words for the page. */
export class UnsubscribeError extends Error {
  /** 'invalid': the server refused the link (or the reason: see `field`); 'network': no answer; 'server': any other failure. */
  readonly kind: 'invalid' | 'network' | 'server';
  /** The field the server's message is about ('data' or 'reason'), for a 400. */
  readonly field: string | null;

  constructor(kind: 'invalid' | 'network' | 'server', message: string, field: string | null = null) {
    super(message);
    this.kind = kind;
    this.field = field;
  }
}

export const NETWORK_MESSAGE = 'Cannot connect to server. Check your connection and try again.';
export const SERVER_MESSAGE = 'Something went wrong. Please try again in a moment.';

interface ErrorBody {
  code?: string;
  message?: string;
  fields?: Record<string, string>;
}

async function post<T>(body: Record<string, string>, fetchImpl: typeof fetch): Promise<T> {
  let response: Response;
  try {
    response = await fetchImpl(UNSUBSCRIBE_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...correlationHeaders() },
      body: JSON.stringify(body),
    });
  } catch (error) {
    logger.warn(`Unsubscribe failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new UnsubscribeError('network', NETWORK_MESSAGE);
  }
  if (response.ok) {
    try {
      return (await response.json()) as T;
    } catch {
      throw new UnsubscribeError('server', SERVER_MESSAGE);
    }
  }
  let answer: ErrorBody = {};
  try {
    answer = (await response.json()) as ErrorBody;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (response.status === 400) {
    const [field, message] = Object.entries(answer.fields ?? {})[0] ?? ['data', answer.message];
    throw new UnsubscribeError('invalid', message || answer.message || 'This unsubscribe link is not valid.', field);
  }
  logger.warn(`Unsubscribe failed: HTTP ${response.status} ${answer.message ?? ''}`.trim());
  throw new UnsubscribeError('server', SERVER_MESSAGE);
}

/** Whose link `data` is, before the reader confirms. */
export function describeLink(data: string, fetchImpl: typeof fetch = fetch): Promise<UnsubscribeTarget> {
  return post<UnsubscribeTarget>({ data }, fetchImpl);
}

/** Turns the link's emails off; false when they were off already. */
export async function unsubscribe(data: string, reason: UnsubscribeReason, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const answer = await post<{ status: boolean }>({ data, reason }, fetchImpl);
  return answer.status;
}
