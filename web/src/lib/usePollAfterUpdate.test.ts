import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePollAfterUpdate } from './usePollAfterUpdate';

describe('usePollAfterUpdate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup() {
    const query = { startPolling: vi.fn(), stopPolling: vi.fn() };
    const hook = renderHook(() => usePollAfterUpdate(query));
    return { query, hook };
  }

  it('polls every second after an update and stops after 2 seconds', () => {
    const { query, hook } = setup();
    expect(query.startPolling).not.toHaveBeenCalled();
    act(() => hook.result.current());
    expect(query.startPolling).toHaveBeenCalledWith(1000);
    act(() => vi.advanceTimersByTime(1999));
    expect(query.stopPolling).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(query.stopPolling).toHaveBeenCalledTimes(1);
  });

  it('restarts the 2 seconds on a second update', () => {
    const { query, hook } = setup();
    act(() => hook.result.current());
    act(() => vi.advanceTimersByTime(1500));
    act(() => hook.result.current());
    act(() => vi.advanceTimersByTime(1500));
    expect(query.stopPolling).not.toHaveBeenCalled();
    expect(query.startPolling).toHaveBeenCalledTimes(2);
    act(() => vi.advanceTimersByTime(500));
    expect(query.stopPolling).toHaveBeenCalledTimes(1);
  });

  it('stops polling when the screen goes away mid-window, and not otherwise', () => {
    const first = setup();
    first.hook.unmount();
    expect(first.query.stopPolling).not.toHaveBeenCalled();

    const second = setup();
    act(() => second.hook.result.current());
    second.hook.unmount();
    expect(second.query.stopPolling).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(5000));
    expect(second.query.stopPolling).toHaveBeenCalledTimes(1);
  });
});
