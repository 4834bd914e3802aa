import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Logger, postEntries, type LogEntry } from './logger';

const flushMicrotasks = () => new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => Promise.resolve());

describe('Logger batching', () => {
  let sent: LogEntry[][];
  let logger: Logger;

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    logger = new Logger({ batchSize: 10, batchMax: 100, batchTimeoutMs: 2000, send: async (entries) => void sent.push(entries) });
  });
  afterEach(() => vi.useRealTimers());

  it('sends a batch as soon as it holds batchSize entries', async () => {
    for (let i = 0; i < 9; i++) logger.info(`m${i}`);
    await flushMicrotasks();
    expect(sent).toHaveLength(0);
    logger.info('m9');
    await flushMicrotasks();
    expect(sent).toHaveLength(1);
    expect(sent[0].map((e) => e.message)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
  });

  it('sends a partial batch batchTimeoutMs after its first entry', async () => {
    logger.warn('first', { a: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    logger.error('second');
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual([
      { level: 'warn', message: 'first', timestamp: expect.any(String), context: { a: 1 } },
      { level: 'error', message: 'second', timestamp: expect.any(String), context: {} },
    ]);
    expect(() => new Date(sent[0][0].timestamp).toISOString()).not.toThrow();
  });

  it('never puts more than batchMax entries in one POST', async () => {
    for (let i = 0; i < 250; i++) logger.debug(`m${i}`);
    await flushMicrotasks();
    expect(sent.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(sent.flat().map((e) => e.message)).toEqual(Array.from({ length: 250 }, (_, i) => `m${i}`));
  });

  it('ignores send failures and does not log about them', async () => {
    const send = vi.fn(async () => {
      throw new Error('offline');
    });
    const failing = new Logger({ batchSize: 2, batchMax: 100, batchTimeoutMs: 2000, send });
    failing.error('a');
    failing.error('b');
    await flushMicrotasks();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).toHaveBeenCalledTimes(1);
    await expect(failing.flush()).resolves.toBeUndefined();
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('postEntries', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('POSTs {entries} as JSON to /log with the correlation headers', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const entry: LogEntry = { level: 'info', message: 'hello', timestamp: '2026-01-01T00:00:00.000Z', context: {} };
    await postEntries('/log')([entry]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/log');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ entries: [entry] });
    const headers = init.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-request-id']).toBeTruthy();
    expect(headers['x-session-id']).toBeTruthy();
  });
});
