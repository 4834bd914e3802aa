//! Dates as the spec shows them (spec 1 §9): 'DD MMM YYYY' and 'HH:mm', and 'Today' for today.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/** '05 Mar 2026' (local time). */
export function formatDate(date: Date): string {
  return `${pad(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** '14:05' (local time). */
export function formatTime(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The date a server string stands for, or null when it is not a date. */
function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '05 Mar 2026 14:05', or 'Today 14:05' for today. */
export function formatDateTime(value: string | Date, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const day = formatDate(date) === formatDate(now) ? 'Today' : formatDate(date);
  return `${day} ${formatTime(date)}`;
}

/** The local time zone's short name at `date` ('GMT+1', 'CET', 'UTC'). */
export function timeZoneName(date: Date): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' }).formatToParts(date).find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'UTC';
}

/** '05 Mar 2026 14:05 GMT+1': an instant that matters on its own (a first publication). */
export function formatDateTimeWithZone(value: string | Date): string {
  const date = toDate(value);
  return date ? `${formatDate(date)} ${formatTime(date)} ${timeZoneName(date)}` : '';
}

/**
 * '05 Mar 2026 14:05', today included: for a date the spec words in full ('DD MMM YYYY HH:mm'),
 * such as a premium expiry, which readers compare with other dates rather than with now.
 */
export function formatFullDateTime(value: string | Date): string {
  const date = toDate(value);
  return date ? `${formatDate(date)} ${formatTime(date)}` : '';
}

/**
 * A day-precision date (an expiry, a trial's end) as 'DD MMM YYYY'. The server stores them at
 * 23:59:59 UTC of the chosen day, so the UTC day is shown: a local clock east of UTC would show
 * the next day. '' for none or an unreadable value.
 */
export function formatUtcDay(iso: string | null | undefined): string {
  const date = iso ? toDate(iso) : null;
  return date ? formatDate(new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())) : '';
}

/** A month the server gives as its first instant in UTC ('2026-03-01T00:00:00Z') as 'Mar 2026'; '' for none. */
export function formatUtcMonth(iso: string | null | undefined): string {
  const date = iso ? toDate(iso) : null;
  return date ? `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}` : '';
}
