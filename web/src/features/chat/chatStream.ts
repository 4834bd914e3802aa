//! The chat's client side of `POST /chat` (server-sent events). EventSource cannot POST nor send a
//! bearer token, so the answer is read with fetch and the body's ReadableStream. Every event's data
//! is JSON: `citations` (a list), `delta` (a string), `done` ({questionId, conversationId, mode}),
//! `error` ({message}).
import { authorizedFetch, HttpError } from '../../lib/authorizedFetch';
import { MESSAGES } from '../../lib/errors';

export const CHAT_ENDPOINT = '/chat';

export interface ChatCitation {
  articleId: string;
  title: string;
  publishDate: string;
  link: string;
}

export interface ChatDone {
  questionId: string;
  conversationId: string | null;
  mode: 'llm' | 'passages';
}

export interface ChatHandlers {
  onCitations: (citations: ChatCitation[]) => void;
  onDelta: (text: string) => void;
  onDone: (done: ChatDone) => void;
}

export const FAILED_MESSAGE = 'The answer could not be completed. Please try again in a moment.';

export function tooQuicklyMessage(seconds: number): string {
  return `You are asking too quickly, try again in ${seconds} s`;
}

/** A question the server refused or could not answer; `message` is what the widget shows. */
export class ChatError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

export interface ServerEvent {
  event: string;
  data: unknown;
}

/** One event block ('event: x' and 'data: …' lines); null for comments (keep-alives) and partial blocks. */
export function parseEventBlock(block: string): ServerEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  try {
    return { event, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

/** Reads a stream of server-sent events, handing each complete one to `onEvent` as it arrives. */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: ServerEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = done ? '' : (blocks.pop() ?? '');
    for (const block of blocks) {
      const event = parseEventBlock(block);
      if (event) onEvent(event);
    }
    if (done) return;
  }
}

/** What a refused question says: the rate limit's wait, else the server's message. */
function refusal(error: HttpError): ChatError {
  if (error.status === 429) {
    const seconds = Number(error.headers.get('retry-after') ?? error.body?.retryAfter) || 1;
    return new ChatError(tooQuicklyMessage(seconds), 429, seconds);
  }
  return new ChatError(error.body?.message || FAILED_MESSAGE, error.status);
}

export interface AskOptions {
  question: string;
  conversationId: string;
  token: string | null;
  signal?: AbortSignal;
}

/** Asks the question and streams the answer to `handlers`; throws a ChatError with the message to show. */
export async function askChat(options: AskOptions, handlers: ChatHandlers): Promise<void> {
  const { question, conversationId, token, signal } = options;
  let response: Response;
  try {
    // The Response comes back unread: its body is the event stream.
    response = await authorizedFetch(CHAT_ENDPOINT, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ question, conversationId }),
      signal,
    });
  } catch (error) {
    if (error instanceof HttpError) throw refusal(error);
    if (signal?.aborted) throw error;
    throw new ChatError(MESSAGES.network);
  }
  if (!response.body) throw new ChatError(FAILED_MESSAGE, response.status);
  let failure: ChatError | null = null;
  let finished = false;
  await readEvents(response.body, ({ event, data }) => {
    switch (event) {
      case 'citations':
        handlers.onCitations(Array.isArray(data) ? (data as ChatCitation[]) : []);
        break;
      case 'delta':
        if (typeof data === 'string') handlers.onDelta(data);
        break;
      case 'done':
        finished = true;
        handlers.onDone(data as ChatDone);
        break;
      case 'error':
        failure = new ChatError((data as { message?: string })?.message || FAILED_MESSAGE, 200);
        break;
    }
  });
  if (failure) throw failure;
  // The connection ended before the answer did.
  if (!finished) throw new ChatError(FAILED_MESSAGE, 200);
}
