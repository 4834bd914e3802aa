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

  describe('waiting for a change that comes later (a new card from the webhook)', () => {
    interface Data {
      card: string;
    }
    function setupWait(initial: Data) {
      const query = { startPolling: vi.fn(), stopPolling: vi.fn() };
      const hook = renderHook(({ data }: { data: Data }) => usePollAfterUpdate<Data>({ ...query, data }), {
        initialProps: { data: initial },
      });
      const newCard = (d: Data) => d.card !== initial.card;
      return { query, hook, newCard };
    }

    it('polls each second for 2 seconds, then every 3 seconds until the data shows the change', () => {
      const { query, hook, newCard } = setupWait({ card: 'Visa ending 4242' });
      act(() => hook.result.current(newCard));
      expect(query.startPolling).toHaveBeenLastCalledWith(1000);
      act(() => vi.advanceTimersByTime(2000));
      expect(query.stopPolling).not.toHaveBeenCalled();
      expect(query.startPolling).toHaveBeenLastCalledWith(3000);

      // An answer still with the old card changes nothing; the new card ends the polling.
      hook.rerender({ data: { card: 'Visa ending 4242' } });
      act(() => vi.advanceTimersByTime(10_000));
      expect(query.stopPolling).not.toHaveBeenCalled();
      hook.rerender({ data: { card: 'Mastercard ending 4444' } });
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
      expect(query.startPolling).toHaveBeenCalledTimes(2);
      act(() => vi.advanceTimersByTime(60_000));
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
    });

    it('gives up after a minute when the change never shows', () => {
      const { query, hook, newCard } = setupWait({ card: 'Visa ending 4242' });
      act(() => hook.result.current(newCard));
      act(() => vi.advanceTimersByTime(59_999));
      expect(query.stopPolling).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(1));
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
    });

    it('keeps the 2 seconds when the change is there within them, and waits for nothing already shown', () => {
      const { query, hook, newCard } = setupWait({ card: 'Visa ending 4242' });
      act(() => hook.result.current(newCard));
      hook.rerender({ data: { card: 'Mastercard ending 4444' } });
      expect(query.stopPolling).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(2000));
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
      expect(query.startPolling).toHaveBeenCalledTimes(1);

      // Already changed when asked (the webhook came before the return from the bank): 2 seconds only.
      act(() => hook.result.current(newCard));
      act(() => vi.advanceTimersByTime(2000));
      expect(query.stopPolling).toHaveBeenCalledTimes(2);
      expect(query.startPolling).toHaveBeenCalledTimes(2);
    });

    it('stops when the screen goes away while waiting', () => {
      const { query, hook, newCard } = setupWait({ card: 'Visa ending 4242' });
      act(() => hook.result.current(newCard));
      act(() => vi.advanceTimersByTime(5000));
      hook.unmount();
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
      act(() => vi.advanceTimersByTime(60_000));
      expect(query.stopPolling).toHaveBeenCalledTimes(1);
    });
  });
});
