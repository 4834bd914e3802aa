import { describe, expect, it } from 'vitest';
import { dayText, isBefore, isoDay, isoToDayText, localDay, parseDay } from './days';

describe('days (dd/MM/yyyy)', () => {
  it('parses real dates only', () => {
    expect(parseDay('05/03/2027')).toEqual({ year: 2027, month: 3, day: 5 });
    expect(parseDay(' 5/3/2027 ')).toEqual({ year: 2027, month: 3, day: 5 });
    for (const bad of ['31/02/2027', '2027-03-05', '05/13/2027', '00/01/2027', '05/03/27', 'tomorrow']) expect(parseDay(bad)).toBeNull();
  });

  it('writes a day as dd/MM/yyyy and as the ISO day', () => {
    expect(dayText({ year: 2026, month: 3, day: 6 })).toBe('06/03/2026');
    expect(isoDay({ year: 2026, month: 3, day: 6 })).toBe('2026-03-06');
  });

  it('takes today from the local clock and compares days', () => {
    expect(localDay(new Date(2026, 2, 5, 23, 59))).toEqual({ year: 2026, month: 3, day: 5 });
    expect(isBefore({ year: 2026, month: 3, day: 4 }, { year: 2026, month: 3, day: 5 })).toBe(true);
    expect(isBefore({ year: 2026, month: 3, day: 5 }, { year: 2026, month: 3, day: 5 })).toBe(false);
    expect(isBefore({ year: 2027, month: 1, day: 1 }, { year: 2026, month: 12, day: 31 })).toBe(false);
  });

  it('reads a stored expiry back as its UTC day', () => {
    expect(isoToDayText('2027-03-05T23:59:59Z')).toBe('05/03/2027');
    // Stored at 23:59:59 UTC of the chosen day: the same day in every time zone.
    expect(isoToDayText('2026-03-06T23:59:59Z')).toBe('06/03/2026');
    expect(isoToDayText(null)).toBe('');
    expect(isoToDayText('not a date')).toBe('');
  });
});
