import { describe, expect, it } from 'vitest';
import { recentMonths } from './ReadingStatement';

describe('ReadingStatement', () => {
  it('offers the last twelve months, newest first', () => {
    const months = recentMonths(new Date(2026, 0, 15));
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ value: '2026-01', label: 'January 2026' });
    expect(months[1]).toEqual({ value: '2025-12', label: 'December 2025' });
    expect(months[11]).toEqual({ value: '2025-02', label: 'February 2025' });
  });
});
