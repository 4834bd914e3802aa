import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatFullDateTime, formatUtcDay, formatUtcMonth } from './dates';

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
    expect(formatFullDateTime('not a date')).toBe('');
  });

  it("writes the full date and time even for today when asked to ('DD MMM YYYY HH:mm')", () => {
    const now = new Date();
    expect(formatFullDateTime(now)).toBe(
      `${formatDate(now)} ${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`,
    );
    expect(formatFullDateTime(new Date(2024, 0, 5, 14, 30).toISOString())).toBe('05 Jan 2024 14:30');
  });

  it("shows a stored expiry (23:59:59 UTC of its day) as that day, 'DD MMM YYYY', whatever the local clock", () => {
    expect(formatUtcDay('2026-12-31T23:59:59Z')).toBe('31 Dec 2026');
    expect(formatUtcDay('2026-03-05T00:00:00Z')).toBe('05 Mar 2026');
    expect(formatUtcDay(null)).toBe('');
    expect(formatUtcDay('not a date')).toBe('');
  });

  it("shows a month given as its first instant in UTC as 'MMM YYYY', whatever the local clock", () => {
    expect(formatUtcMonth('2026-03-01T00:00:00Z')).toBe('Mar 2026');
    expect(formatUtcMonth('2025-12-01T00:00:00+00:00')).toBe('Dec 2025');
    expect(formatUtcMonth(null)).toBe('');
  });
});
