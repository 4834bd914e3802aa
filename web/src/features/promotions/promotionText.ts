//! Paths, limits, messages and small rules of the promotions screens (spec 2 'Promotional content',
//! 'Promotion pages', §5, §9): the expiry date as dd/MM/yyyy text and the ISO day the API takes, the
//! list's cut description and click-through rate.

export const CONTENT_PATH = '/publisher/promotional-content';
export const PAGES_PATH = '/publisher/promotional-page';

/** The edit path is the list path + '/edit/{id}' (spec 2 'Promotion pages'). */
export const contentEditPath = (id: string) => `${CONTENT_PATH}/edit/${id}`;
export const pageEditPath = (id: string) => `${PAGES_PATH}/edit/${id}`;
/** The reader's landing page of a promotional content with a promotion page. */
export const landingPath = (contentId: string) => `/promotion/${contentId}`;

export const CONTENT_LIMITS = { name: 50, description: 250 } as const;
/** The database keeps page names of at most 100 characters; the spec sets no lower limit. */
export const PAGE_LIMITS = { name: 100, pageSummary: 200, successMessage: 200, successTitle: 200 } as const;
/** The list's Description column (spec 2 'Promotional content'). */
export const DESCRIPTION_CUT = 130;

export const MESSAGES = {
  /** Spec 5 'Shared': promotional content's required fields. */
  required: 'This field is required',
  /** Spec 5: the promotion page's required fields say it with a full stop. */
  pageRequired: 'This field is required.',
  destination: 'Please choose a destination link',
  invalidExpiry: 'Invalid Expiry Date',
  inUse: 'Heads up! This page is currently in use. Any updates will be reflected everywhere.',
  maximum: (n: number) => `Maximum ${n} characters`,
} as const;

/** The text cut at `max` characters with an ellipsis (the list's Description column). */
export function cutText(text: string, max: number = DESCRIPTION_CUT): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** '12.5%' (one decimal at most); '—' without impressions. */
export function formatRate(rate: number | null | undefined): string {
  if (rate == null || !Number.isFinite(rate)) return '—';
  return `${Number((rate * 100).toFixed(1))}%`;
}

// ---- the expiry date: dd/MM/yyyy in the form, an ISO day for the API ----

interface Day {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
}

const DAY_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayNumber = ({ year, month, day }: Day) => year * 10000 + month * 100 + day;

/** The day of a 'dd/MM/yyyy' text, or null when it is not a real date (31/02/2026). */
function parseDay(text: string): Day | null {
  const match = DAY_TEXT.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/**
 * 'Invalid Expiry Date' for a text that is not a dd/MM/yyyy date or a day before today (the
 * admin's today); nothing for an empty text (the expiry is optional).
 */
export function expiryError(text: string, now: Date = new Date()): string | undefined {
  if (text.trim() === '') return undefined;
  const day = parseDay(text);
  const today = { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  if (!day || dayNumber(day) < dayNumber(today)) return MESSAGES.invalidExpiry;
  return undefined;
}

/** The API's `Date` ('2026-03-05'), or null for an empty or unreadable text. */
export function expiryToIsoDay(text: string): string | null {
  const day = parseDay(text);
  return day ? `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}` : null;
}

/**
 * A stored expiry (23:59:59 UTC of the chosen day) as dd/MM/yyyy: its UTC day, the day the admin
 * chose, whatever the browser's time zone.
 */
export function isoToDayText(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCFullYear(), 4)}`;
}
