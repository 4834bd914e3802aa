import { describe, expect, it } from 'vitest';
import { trialBannerText, trialFromUser, TrialStore } from './trial';

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
  it('shows nothing while more than expiryBannerDays days remain', () => {
    expect(trialBannerText(7 * DAY + 1, 7)).toBeNull();
    expect(trialBannerText(13 * DAY, 7)).toBeNull();
  });

  it('shows the remaining whole days from expiryBannerDays days before expiry', () => {
    expect(trialBannerText(7 * DAY, 7)).toBe('You are on a free trial: 7 days remaining.');
    expect(trialBannerText(2 * DAY + 600, 7)).toBe('You are on a free trial: 2 days remaining.');
    expect(trialBannerText(DAY + 360, 7)).toBe('You are on a free trial: 1 day remaining.');
    expect(trialBannerText(DAY, 7)).toBe('You are on a free trial: 1 day remaining.');
  });

  it("says 'your trial expires today' under 1440 minutes", () => {
    expect(trialBannerText(DAY - 1, 7)).toBe('You are on a free trial: your trial expires today.');
    expect(trialBannerText(1, 7)).toContain('your trial expires today');
  });

  it('follows the configured number of days', () => {
    expect(trialBannerText(10 * DAY, 14)).toContain('10 days');
    expect(trialBannerText(3 * DAY, 2)).toBeNull();
  });

  it('shows nothing for unknown or used-up minutes', () => {
    expect(trialBannerText(null, 7)).toBeNull();
    expect(trialBannerText(0, 7)).toBeNull();
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
