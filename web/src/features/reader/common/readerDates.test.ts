import { describe, expect, it } from 'vitest';
import { formatCardDate, formatDay } from './readerDates';

describe('reader dates', () => {
  const now = new Date(2026, 2, 5, 18, 0);

  it("shows 'DD MMM YYYY', or 'Today' for today", () => {
    expect(formatCardDate(new Date(2026, 2, 4, 9, 0).toISOString(), now)).toBe('04 Mar 2026');
    expect(formatCardDate(new Date(2026, 2, 5, 0, 1).toISOString(), now)).toBe('Today');
    expect(formatCardDate('not a date', now)).toBe('');
  });

  it('shows end dates in full even for today', () => {
    expect(formatDay(new Date().toISOString())).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
  });
});
