//! Version check (spec 3 §4): after `idleTimeoutMs` without user activity the app asks
//! POST /version every `versionPollMs`. A new version reloads the page, except on add and edit
//! pages, where the user is told with a 'Refresh' toast instead so no typing is lost.
//! Failed checks are ignored silently.
import { correlationHeaders } from './requestIds';

export type VersionDecision = 'unchanged' | 'reload' | 'notify';

/** Add and edit pages hold unsaved input: '/add' or '/edit' anywhere in the path. */
export function isEditingPath(path: string): boolean {
  return path.includes('/add') || path.includes('/edit');
}

export function decideOnVersion(loadedVersion: string, serverVersion: string | null | undefined, path: string): VersionDecision {
  if (!serverVersion || serverVersion === loadedVersion) return 'unchanged';
  return isEditingPath(path) ? 'notify' : 'reload';
}

export async function fetchServerVersion(fetchImpl: typeof fetch = fetch): Promise<string> {
  const response = await fetchImpl('/version', { method: 'POST', headers: correlationHeaders() });
  if (!response.ok) throw new Error(`version check answered ${response.status}`);
  const body = (await response.json()) as { version?: unknown };
  if (typeof body.version !== 'string') throw new Error('version check without a version');
  return body.version;
}

export interface VersionWatcherOptions {
  /** The version the app started with (config.version). */
  loadedVersion: string;
  idleTimeoutMs: number;
  pollMs: number;
  fetchVersion: () => Promise<string>;
  /** The current path inside the app. */
  getPath: () => string;
  reload: () => void;
  notify: () => void;
}

/** Activity within this long of the last one does not restart the idle timer (mousemove floods). */
const ACTIVITY_THROTTLE_MS = 1000;

export class VersionWatcher {
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private lastActivity = -Infinity;
  private notified = false;
  private stopped = true;
  private readonly options: VersionWatcherOptions;

  constructor(options: VersionWatcherOptions) {
    this.options = options;
  }

  start(): void {
    this.stopped = false;
    this.restartIdleTimer();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
  }

  /** Called on user input: polling stops until the user is idle again. */
  activity(now: number = Date.now()): void {
    if (this.stopped) return;
    if (this.pollTimer === null && now - this.lastActivity < ACTIVITY_THROTTLE_MS) return;
    this.lastActivity = now;
    this.restartIdleTimer();
  }

  /** One check; never throws. */
  async check(): Promise<VersionDecision> {
    let serverVersion: string;
    try {
      serverVersion = await this.options.fetchVersion();
    } catch {
      return 'unchanged';
    }
    if (this.stopped) return 'unchanged';
    const decision = decideOnVersion(this.options.loadedVersion, serverVersion, this.options.getPath());
    if (decision === 'reload') {
      this.stop();
      this.options.reload();
    } else if (decision === 'notify' && !this.notified) {
      this.notified = true;
      this.options.notify();
    }
    return decision;
  }

  private restartIdleTimer(): void {
    this.clearTimers();
    this.idleTimer = setTimeout(() => this.startPolling(), this.options.idleTimeoutMs);
  }

  private startPolling(): void {
    this.idleTimer = null;
    void this.check();
    this.pollTimer = setInterval(() => void this.check(), this.options.pollMs);
  }

  private clearTimers(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.idleTimer = null;
    this.pollTimer = null;
  }
}
