import { describe, expect, it } from 'vitest';
import { cutText, expiryError, expiryToIsoDay, formatRate } from './promotionText';

describe('promotion words and rules', () => {
  it('cuts a description at 130 characters', () => {
    expect(cutText('short')).toBe('short');
    expect(cutText('x'.repeat(130))).toBe('x'.repeat(130));
    expect(cutText('x'.repeat(131))).toBe(`${'x'.repeat(130)}…`);
  });

  it("shows the click-through rate as a percentage, '—' without impressions", () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.125)).toBe('12.5%');
    expect(formatRate(1 / 3)).toBe('33.3%');
  });

  it("refuses an expiry that is not a dd/MM/yyyy day ('Invalid Expiry Date') or is before today ('Date cannot be in the past')", () => {
    const now = new Date(2026, 2, 5, 15, 0); // 05/03/2026, afternoon
    expect(expiryError('', now)).toBeUndefined();
    expect(expiryError('05/03/2026', now)).toBeUndefined();
    expect(expiryError('6/3/2026', now)).toBeUndefined();
    expect(expiryError('04/03/2026', now)).toBe('Date cannot be in the past');
    expect(expiryError('31/02/2027', now)).toBe('Invalid Expiry Date');
    expect(expiryError('2027-03-05', now)).toBe('Invalid Expiry Date');
  });

  // A stored expiry shown as its UTC day: lib/days.test.ts.
  it('sends the ISO day', () => {
    expect(expiryToIsoDay('6/3/2026')).toBe('2026-03-06');
    expect(expiryToIsoDay('')).toBeNull();
  });
});
