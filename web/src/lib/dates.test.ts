import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('dates', () => {
  it("formats as 'DD MMM YYYY' and 'HH:mm'", () => {
    expect(formatDate(new Date(2026, 2, 5, 9, 7))).toBe('05 Mar 2026');
    expect(formatDateTime(new Date(2026, 2, 5, 9, 7), new Date(2026, 5, 1))).toBe('05 Mar 2026 09:07');
  });

  it("shows today's dates as 'Today'", () => {
    expect(formatDateTime(new Date(2026, 10, 21, 14, 5), new Date(2026, 10, 21, 23, 0))).toBe('Today 14:05');
  });

  it('gives nothing for an invalid date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});
