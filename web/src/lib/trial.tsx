//! Trial state of the signed-in reader (spec 1 §4, spec 3 §4 "Trial state"):
//! NoTrial, TrialContinues or TrialExpired, and once expired it never changes back.
import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useSession } from './session';

export type TrialState = 'NoTrial' | 'TrialContinues' | 'TrialExpired';

export interface TrialStatus {
  state: TrialState;
  /** Minutes left of a continuing trial; null when unknown or not in a trial. */
  minutesLeft: number | null;
}

export const MINUTES_PER_DAY = 1440;

const NO_TRIAL: TrialStatus = { state: 'NoTrial', minutesLeft: null };
const EXPIRED: TrialStatus = { state: 'TrialExpired', minutesLeft: 0 };

/** Reads `me.trialState` and `me.trialMinLeft` (-1 no trial, 0 expired, else minutes left). */
export function trialFromUser(user: { trialState: TrialState; trialMinLeft: number }): TrialStatus {
  if (user.trialState === 'TrialExpired') return EXPIRED;
  if (user.trialState === 'TrialContinues') {
    if (user.trialMinLeft === 0) return EXPIRED;
    return { state: 'TrialContinues', minutesLeft: user.trialMinLeft > 0 ? user.trialMinLeft : null };
  }
  return NO_TRIAL;
}

/**
 * The banner text for a continuing trial (spec 3 §4: "an info banner with remaining time, or
 * 'your trial expires today' under 1440 minutes"), or null when there is no time to show.
 * Whole days are counted down (30 hours left reads '1 day').
 */
export function trialBannerText(minutesLeft: number | null): string | null {
  if (minutesLeft === null || minutesLeft <= 0) return null;
  if (minutesLeft < MINUTES_PER_DAY) return 'You are on a free trial: your trial expires today.';
  const days = Math.floor(minutesLeft / MINUTES_PER_DAY);
  return `You are on a free trial: ${days} ${days === 1 ? 'day' : 'days'} remaining.`;
}

/** The banner turns from information into a warning when fewer than `expiryBannerDays` remain. */
export function trialBannerIsWarning(minutesLeft: number, expiryBannerDays: number): boolean {
  return minutesLeft < expiryBannerDays * MINUTES_PER_DAY;
}

/**
 * Holds the trial state outside React, because the Apollo error link (not a component) moves it
 * to TrialExpired when any operation answers 'Trial period has expired'.
 */
export class TrialStore {
  private status: TrialStatus = NO_TRIAL;
  private listeners = new Set<() => void>();

  get = (): TrialStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Takes the state reported by the server, except that an expired trial stays expired. */
  update(next: TrialStatus): void {
    if (this.status.state === 'TrialExpired') return;
    if (next.state === this.status.state && next.minutesLeft === this.status.minutesLeft) return;
    this.status = next;
    this.listeners.forEach((l) => l());
  }

  markExpired = (): void => this.update(EXPIRED);
}

const TrialStoreContext = createContext<TrialStore | null>(null);

export function TrialStoreProvider({ store, children }: { store: TrialStore; children: ReactNode }) {
  return <TrialStoreContext.Provider value={store}>{children}</TrialStoreContext.Provider>;
}

export function useTrialStore(): TrialStore {
  const store = useContext(TrialStoreContext);
  if (!store) throw new Error('useTrialStore outside TrialStoreProvider');
  return store;
}

/**
 * The signed-in user's trial state: what `me` says, unless the trial has expired at any point
 * (in `me` or in an error), which wins for good. Reading `me` directly (not only through the
 * store) means the first render after sign-in already shows the right screen.
 */
export function useTrial(): TrialStatus {
  const store = useTrialStore();
  const user = useSession();
  const stored = useSyncExternalStore(store.subscribe, store.get, store.get);
  const fromServer = trialFromUser(user);
  useEffect(() => store.update(fromServer), [store, fromServer.state, fromServer.minutesLeft]); // eslint-disable-line react-hooks/exhaustive-deps
  if (stored.state === 'TrialExpired' || fromServer.state === 'TrialExpired') return EXPIRED;
  return fromServer;
}
