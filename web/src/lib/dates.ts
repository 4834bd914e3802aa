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

/** '05 Mar 2026 14:05', or 'Today 14:05' for today. */
export function formatDateTime(value: string | Date, now: Date = new Date()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const day = formatDate(date) === formatDate(now) ? 'Today' : formatDate(date);
  return `${day} ${formatTime(date)}`;
}
