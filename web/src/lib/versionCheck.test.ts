import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decideOnVersion, VersionWatcher } from './versionCheck';

describe('decideOnVersion', () => {
  it('does nothing while the version is the same', () => {
    expect(decideOnVersion('1.0.0+a', '1.0.0+a', '/for-you')).toBe('unchanged');
  });

  it('reloads on a new version outside add and edit pages', () => {
    expect(decideOnVersion('1.0.0+a', '1.0.0+b', '/for-you')).toBe('reload');
    expect(decideOnVersion('1.0.0+a', '1.0.0+b', '/publisher/articles')).toBe('reload');
  });

  it('only notifies on add and edit pages', () => {
    expect(decideOnVersion('1.0.0+a', '1.0.0+b', '/publisher/articles/add')).toBe('notify');
    expect(decideOnVersion('1.0.0+a', '1.0.0+b', '/publisher/tags/edit/65a1b2c3d4e5f60718293a4b')).toBe('notify');
    expect(decideOnVersion('1.0.0+a', '1.0.0+b', '/publisher/premium-channels/subscribers/x/add-bulk')).toBe('notify');
  });
});

describe('VersionWatcher', () => {
  const IDLE = 1_200_000;
  const POLL = 300_000;
  let path: string;
  let reload: ReturnType<typeof vi.fn<() => void>>;
  let notify: ReturnType<typeof vi.fn<() => void>>;
  let fetchVersion: ReturnType<typeof vi.fn<() => Promise<string>>>;
  let watcher: VersionWatcher;

  beforeEach(() => {
    vi.useFakeTimers();
    path = '/for-you';
    reload = vi.fn<() => void>();
    notify = vi.fn<() => void>();
    fetchVersion = vi.fn(async () => 'v1');
    watcher = new VersionWatcher({
      loadedVersion: 'v1',
      idleTimeoutMs: IDLE,
      pollMs: POLL,
      fetchVersion,
      getPath: () => path,
      reload,
      notify,
    });
    watcher.start();
  });
  afterEach(() => {
    watcher.stop();
    vi.useRealTimers();
  });

  it('asks only after the idle timeout, then every poll interval', async () => {
    await vi.advanceTimersByTimeAsync(IDLE - 1);
    expect(fetchVersion).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchVersion).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL);
    expect(fetchVersion).toHaveBeenCalledTimes(2);
    expect(reload).not.toHaveBeenCalled();
  });

  it('user activity postpones the check and stops polling', async () => {
    await vi.advanceTimersByTimeAsync(IDLE - 1000);
    watcher.activity();
    await vi.advanceTimersByTimeAsync(IDLE - 1000);
    expect(fetchVersion).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchVersion).toHaveBeenCalledTimes(1);
    watcher.activity();
    await vi.advanceTimersByTimeAsync(POLL * 2);
    expect(fetchVersion).toHaveBeenCalledTimes(1);
  });

  it('reloads when the server has a new version', async () => {
    fetchVersion.mockResolvedValue('v2');
    await vi.advanceTimersByTimeAsync(IDLE);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows the Refresh notice instead on an edit page, once', async () => {
    path = '/publisher/articles/edit/65a1b2c3d4e5f60718293a4b';
    fetchVersion.mockResolvedValue('v2');
    await vi.advanceTimersByTimeAsync(IDLE + POLL * 2);
    expect(fetchVersion).toHaveBeenCalledTimes(3);
    expect(notify).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('ignores failed checks and keeps polling', async () => {
    fetchVersion.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce('v2');
    await vi.advanceTimersByTimeAsync(IDLE);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(POLL);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
