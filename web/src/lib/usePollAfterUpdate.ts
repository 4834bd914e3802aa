//! Polling for a short while after an update (spec 3 §4 and §9: the Subscriptions list refetches
//! one second after an update and stops after 2 seconds). Some changes reach the server a moment
//! after the mutation answers (a card payment confirmed by the provider's webhook), so the list
//! asks again instead of trusting the first answer alone.
import { useCallback, useEffect, useRef } from 'react';

export const POLL_AFTER_UPDATE_INTERVAL_MS = 1000;
export const POLL_AFTER_UPDATE_DURATION_MS = 2000;

/** What a query offers for polling (Apollo's `useQuery` result has both). */
export interface Pollable {
  startPolling: (interval: number) => void;
  stopPolling: () => void;
}

/**
 * A function to call after each update: the query polls every `interval` ms and stops `duration`
 * ms later. Calling it again restarts the window; leaving the screen stops it.
 */
export function usePollAfterUpdate(
  { startPolling, stopPolling }: Pollable,
  interval = POLL_AFTER_UPDATE_INTERVAL_MS,
  duration = POLL_AFTER_UPDATE_DURATION_MS,
): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const stop = useRef(stopPolling);
  useEffect(() => {
    stop.current = stopPolling;
  }, [stopPolling]);
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        stop.current();
      }
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    startPolling(interval);
    timer.current = setTimeout(() => {
      timer.current = null;
      stopPolling();
    }, duration);
  }, [startPolling, stopPolling, interval, duration]);
}
