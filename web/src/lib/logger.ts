//! Client logging: entries are batched and POSTed to the server's /log endpoint
//! (spec 1 §9 "Log batches": size 10, max 100, timeout 2000 ms; contract: POST /log
//! `{entries:[{level,message,timestamp,context}]}`, 1..=100 entries).
//!
//! Sending never logs its own failures, so a broken /log endpoint cannot cause a loop.
import { correlationHeaders } from './requestIds';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LogEntry {
  level: LogLevel;
  message: string;
  timestamp: string;
  context: Record<string, unknown>;
}

export interface LoggerOptions {
  endpoint: string;
  /** Entries that trigger an immediate flush. */
  batchSize: number;
  /** Most entries in one POST (the server refuses more than 100). */
  batchMax: number;
  /** A partial batch is sent this long after its first entry. */
  batchTimeoutMs: number;
  /** Sends one batch; rejections are ignored. */
  send: (entries: LogEntry[]) => Promise<unknown>;
  /** Also print to the browser console (development). */
  echo: boolean;
}

/** Entries kept while sends are failing or pending, beyond which the oldest are dropped. */
const QUEUE_LIMIT = 1000;

export const DEFAULT_LOG_OPTIONS = {
  endpoint: '/log',
  batchSize: 10,
  batchMax: 100,
  batchTimeoutMs: 2000,
} as const;

export function postEntries(endpoint: string) {
  return async (entries: LogEntry[]): Promise<void> => {
    const body = JSON.stringify({ entries });
    await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...correlationHeaders() },
      body,
      // keepalive lets a flush on page hide complete; browsers cap such bodies at 64 kB.
      keepalive: body.length < 60_000,
    });
  };
}

export class Logger {
  private options: LoggerOptions;
  private queue: LogEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushScheduled = false;

  constructor(options: Partial<LoggerOptions> = {}) {
    const endpoint = options.endpoint ?? DEFAULT_LOG_OPTIONS.endpoint;
    this.options = {
      ...DEFAULT_LOG_OPTIONS,
      send: postEntries(endpoint),
      echo: false,
      ...options,
    };
  }

  /** Applies the server's constants once the config has loaded. */
  configure(options: Partial<LoggerOptions>): void {
    const endpointChanged = options.endpoint && options.endpoint !== this.options.endpoint;
    this.options = { ...this.options, ...options };
    if (endpointChanged && !options.send) this.options.send = postEntries(this.options.endpoint);
  }

  error(message: string, context: Record<string, unknown> = {}): void {
    this.log('error', message, context);
  }
  warn(message: string, context: Record<string, unknown> = {}): void {
    this.log('warn', message, context);
  }
  info(message: string, context: Record<string, unknown> = {}): void {
    this.log('info', message, context);
  }
  debug(message: string, context: Record<string, unknown> = {}): void {
    this.log('debug', message, context);
  }

  log(level: LogLevel, message: string, context: Record<string, unknown> = {}): void {
    if (this.options.echo) console[level](message, context);
    this.queue.push({ level, message, timestamp: new Date().toISOString(), context });
    if (this.queue.length > QUEUE_LIMIT) this.queue.splice(0, this.queue.length - QUEUE_LIMIT);

    if (this.queue.length >= this.options.batchSize) {
      // Flush after the current task, so a burst of synchronous calls is sent together
      // (in POSTs of at most batchMax entries) instead of one POST per batchSize entries.
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        void Promise.resolve().then(() => this.flush());
      }
    } else if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.options.batchTimeoutMs);
    }
  }

  /** Sends everything queued now, in POSTs of at most batchMax entries. */
  async flush(): Promise<void> {
    this.flushScheduled = false;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const sends: Promise<unknown>[] = [];
    const max = Math.max(1, this.options.batchMax);
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, max);
      sends.push(this.safeSend(batch));
    }
    await Promise.all(sends);
  }

  private async safeSend(batch: LogEntry[]): Promise<void> {
    try {
      await this.options.send(batch);
    } catch {
      // Ignored on purpose: logging must never break the app or log about itself.
    }
  }
}

/** The app's logger; `configure`d from the server's constants at start-up. */
export const logger = new Logger({ echo: import.meta.env.DEV });
