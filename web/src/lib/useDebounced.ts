//! Debouncing (spec 1 §9 and spec 3 §9: 500 ms): a value that settles once typing pauses, and a
//! call made once a burst of changes pauses (the email settings' On/Off switch).
import { useCallback, useEffect, useRef, useState } from 'react';

/** `value`, once it has stopped changing for `delay` ms. */
export function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export interface DebouncedCall<A> {
  /** Calls `fn(arg)` `delay` ms from now, replacing a call still waiting. */
  schedule: (arg: A) => void;
  /** Whether a call is waiting. */
  isWaiting: () => boolean;
}

/**
 * `fn` called with the last argument once `delay` ms pass without another `schedule`. A call
 * still waiting when the component goes away is made at once, so a change made just before
 * leaving the screen is not lost.
 */
export function useDebouncedCall<A>(fn: (arg: A) => void, delay: number): DebouncedCall<A> {
  const latest = useRef(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const waiting = useRef<{ arg: A } | null>(null);

  useEffect(() => {
    latest.current = fn;
  }, [fn]);

  const fire = useCallback(() => {
    const call = waiting.current;
    timer.current = null;
    waiting.current = null;
    if (call) latest.current(call.arg);
  }, []);

  const schedule = useCallback(
    (arg: A) => {
      if (timer.current !== null) clearTimeout(timer.current);
      waiting.current = { arg };
      timer.current = setTimeout(fire, delay);
    },
    [delay, fire],
  );

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
      fire();
    },
    [fire],
  );

  const isWaiting = useCallback(() => waiting.current !== null, []);
  return { schedule, isWaiting };
}
