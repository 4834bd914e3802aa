import { describe, expect, it } from 'vitest';
import { trialBannerIsWarning, trialBannerText, trialFromUser, TrialStore } from './trial';

const DAY = 1440;

describe('trialFromUser', () => {
  it('reads the state and minutes left from me', () => {
    expect(trialFromUser({ trialState: 'NoTrial', trialMinLeft: -1 })).toEqual({ state: 'NoTrial', minutesLeft: null });
    expect(trialFromUser({ trialState: 'TrialContinues', trialMinLeft: 3 * DAY })).toEqual({
      state: 'TrialContinues',
      minutesLeft: 3 * DAY,
    });
    expect(trialFromUser({ trialState: 'TrialExpired', trialMinLeft: 0 }).state).toBe('TrialExpired');
    expect(trialFromUser({ trialState: 'TrialContinues', trialMinLeft: 0 }).state).toBe('TrialExpired');
  });
});

describe('trialBannerText', () => {
  it('shows the remaining whole days for the whole trial', () => {
    expect(trialBannerText(14 * DAY)).toBe('You are on a free trial: 14 days remaining.');
    expect(trialBannerText(7 * DAY)).toBe('You are on a free trial: 7 days remaining.');
    expect(trialBannerText(2 * DAY + 600)).toBe('You are on a free trial: 2 days remaining.');
    expect(trialBannerText(DAY + 360)).toBe('You are on a free trial: 1 day remaining.');
    expect(trialBannerText(DAY)).toBe('You are on a free trial: 1 day remaining.');
  });

  it("says 'your trial expires today' under 1440 minutes", () => {
    expect(trialBannerText(DAY - 1)).toBe('You are on a free trial: your trial expires today.');
    expect(trialBannerText(1)).toContain('your trial expires today');
  });

  it('shows nothing for unknown or used-up minutes', () => {
    expect(trialBannerText(null)).toBeNull();
    expect(trialBannerText(0)).toBeNull();
  });
});

describe('trialBannerIsWarning', () => {
  it('warns when fewer than expiryBannerDays remain', () => {
    expect(trialBannerIsWarning(7 * DAY, 7)).toBe(false);
    expect(trialBannerIsWarning(7 * DAY - 1, 7)).toBe(true);
    expect(trialBannerIsWarning(10 * DAY, 14)).toBe(true);
    expect(trialBannerIsWarning(10 * DAY, 2)).toBe(false);
  });
});

describe('TrialStore', () => {
  it('never leaves TrialExpired', () => {
    const store = new TrialStore();
    store.update({ state: 'TrialContinues', minutesLeft: 100 });
    expect(store.get().state).toBe('TrialContinues');
    store.markExpired();
    store.update({ state: 'TrialContinues', minutesLeft: 5000 });
    store.update({ state: 'NoTrial', minutesLeft: null });
    expect(store.get().state).toBe('TrialExpired');
  });

  it('notifies subscribers of changes', () => {
    const store = new TrialStore();
    let calls = 0;
    store.subscribe(() => calls++);
    store.update({ state: 'TrialContinues', minutesLeft: 100 });
    store.update({ state: 'TrialContinues', minutesLeft: 100 });
    store.markExpired();
    expect(calls).toBe(2);
  });
});
