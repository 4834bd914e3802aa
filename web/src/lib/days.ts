//! Calendar days typed as 'dd/MM/yyyy' text in the admin forms (subscriber and promotional content
//! expiry dates): parsing, formatting, comparing, and reading back a stored expiry as its UTC day.

export interface Day {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
}

/**
 * Spec 1 §5's shared date messages, for a date field whose own message the spec does not give (it
 * gives 'Invalid Publish Date' and 'Invalid Expiry Date' for some); the server says the same.
 */
export const DATE_MESSAGES = {
  invalid: 'Invalid Date',
  beforeMin: 'Date should not be before minimal date',
  past: 'Date cannot be in the past',
} as const;

const DAY_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The day of a 'dd/MM/yyyy' text (surrounding spaces allowed), or null when it is not a real date (31/02/2026). */
export function parseDay(text: string): Day | null {
  const match = DAY_TEXT.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** '05/03/2026'. */
export function dayText({ year, month, day }: Day): string {
  return `${pad(day)}/${pad(month)}/${pad(year, 4)}`;
}

/** '2026-03-05', the API's `Date`. */
export function isoDay({ year, month, day }: Day): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Today on the admin's clock. */
export function localDay(now: Date): Day {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** Whether `a` is an earlier day than `b`. */
export function isBefore(a: Day, b: Day): boolean {
  const number = ({ year, month, day }: Day) => year * 10000 + month * 100 + day;
  return number(a) < number(b);
}

/**
 * A stored expiry as dd/MM/yyyy: its UTC day, the day the admin chose (the server keeps a time
 * on that day), whatever the browser's time zone; '' for none or an unreadable value.
 */
export function isoToDayText(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dayText({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}
