//! Polling for a short while after an update (spec 3 §4 and §9: the Subscriptions list refetches
//! one second after an update and stops after 2 seconds). Some changes reach the server a moment
//! after the mutation answers (a card payment confirmed by the provider's webhook), so the list
//! asks again instead of trusting the first answer alone.
//!
//! A change known to come later still (a new card arrives with Stripe's webhook, often well after
//! 2 seconds) can be waited for: the query then keeps polling, less often, until the data shows
//! it or a minute has passed, whichever comes first.
import { useCallback, useEffect, useRef } from 'react';

export const POLL_AFTER_UPDATE_INTERVAL_MS = 1000;
export const POLL_AFTER_UPDATE_DURATION_MS = 2000;
/** While waiting for a change after the first 2 seconds: a read every 3 seconds… */
export const POLL_UNTIL_INTERVAL_MS = 3000;
/** …for a minute at most (the page then shows what the server has). */
export const POLL_UNTIL_MAX_MS = 60_000;

/** What a query offers for polling (Apollo's `useQuery` result has all three). */
export interface Pollable<D = unknown> {
  startPolling: (interval: number) => void;
  stopPolling: () => void;
  data?: D;
}

/** Has the data shown the awaited change? */
export type Settled<D> = (data: D) => boolean;

export interface PollTimes {
  interval?: number;
  duration?: number;
  untilInterval?: number;
  untilMax?: number;
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * A function to call after each update: the query polls every `interval` ms and stops `duration`
 * ms later. Calling it again restarts the window; leaving the screen stops it.
 *
 * Given `settled`, it also keeps polling every `untilInterval` ms after the window until
 * `settled(data)` holds for the query's data, or `untilMax` ms after the call.
 */
export function usePollAfterUpdate<D>(
  query: Pollable<D>,
  {
    interval = POLL_AFTER_UPDATE_INTERVAL_MS,
    duration = POLL_AFTER_UPDATE_DURATION_MS,
    untilInterval = POLL_UNTIL_INTERVAL_MS,
    untilMax = POLL_UNTIL_MAX_MS,
  }: PollTimes = {},
): (settled?: Settled<D>) => void {
  const { startPolling, stopPolling, data } = query;
  const windowTimer = useRef<Timer | null>(null);
  const waits = useRef(new Map<Settled<D>, Timer>());
  // The interval the query polls at now (null: not polling).
  const pollingAt = useRef<number | null>(null);
  const latest = useRef({ startPolling, stopPolling, data });
  useEffect(() => {
    latest.current = { startPolling, stopPolling, data };
  });

  /** Polls as the window and the waits ask: each second in the window, then slower, then not. */
  const settle = useCallback(() => {
    const next = windowTimer.current ? interval : waits.current.size > 0 ? untilInterval : null;
    if (next === pollingAt.current) return;
    pollingAt.current = next;
    if (next === null) latest.current.stopPolling();
    else latest.current.startPolling(next);
  }, [interval, untilInterval]);

  const endWait = useCallback((settled: Settled<D>) => {
    const timer = waits.current.get(settled);
    if (timer) clearTimeout(timer);
    waits.current.delete(settled);
  }, []);

  // Each new answer: the waits it settles end.
  useEffect(() => {
    if (data === undefined || waits.current.size === 0) return;
    for (const settled of [...waits.current.keys()]) if (settled(data)) endWait(settled);
    settle();
  }, [data, endWait, settle]);

  useEffect(() => {
    const pending = waits.current;
    return () => {
      if (windowTimer.current) clearTimeout(windowTimer.current);
      pending.forEach((timer) => clearTimeout(timer));
      pending.clear();
      if (pollingAt.current !== null) latest.current.stopPolling();
    };
  }, []);

  return useCallback(
    (settled?: Settled<D>) => {
      if (windowTimer.current) clearTimeout(windowTimer.current);
      windowTimer.current = setTimeout(() => {
        windowTimer.current = null;
        settle();
      }, duration);
      const current = latest.current.data;
      if (settled && !(current !== undefined && settled(current))) {
        waits.current.set(
          settled,
          setTimeout(() => {
            waits.current.delete(settled);
            settle();
          }, untilMax),
        );
      }
      // Each update restarts the polling (Apollo reads again one interval from now).
      pollingAt.current = interval;
      latest.current.startPolling(interval);
    },
    [settle, interval, duration, untilMax],
  );
}
