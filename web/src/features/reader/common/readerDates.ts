//! Reader dates (spec 3 §9, spec 1 §9): 'DD MMM YYYY', and 'Today' for a date of today.
//! lib/dates.ts has 'Today HH:mm' for staff lists; reader cards show the day alone.
import { formatDate } from '../../../lib/dates';

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '05 Mar 2026', or 'Today' for today (local time); '' for a value that is not a date. */
export function formatCardDate(value: string | Date, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const day = formatDate(date);
  return day === formatDate(now) ? 'Today' : day;
}

/** '05 Mar 2026' even for today (an end date: 'Trial ends …', 'Access until …'). */
export function formatDay(value: string | Date): string {
  const date = toDate(value);
  return date ? formatDate(date) : '';
}
