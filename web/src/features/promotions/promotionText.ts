//! Paths, limits, messages and small rules of the promotions screens (spec 2 'Promotional content',
//! 'Promotion pages', §5, §9): the expiry date as dd/MM/yyyy text and the ISO day the API takes, the
//! list's cut description and click-through rate.
import { DATE_MESSAGES, isBefore, isoDay, localDay, parseDay } from '../../lib/days';

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

// ---- the expiry date: dd/MM/yyyy in the form (lib/days), an ISO day for the API ----

/**
 * 'Invalid Expiry Date' (spec 2 §5) for a text that is not a dd/MM/yyyy date; spec 1 §5's 'Date
 * cannot be in the past' for a day before today (the admin's today), which spec 2 gives no message
 * of its own, as the server says; nothing for an empty text (the expiry is optional).
 */
export function expiryError(text: string, now: Date = new Date()): string | undefined {
  if (text.trim() === '') return undefined;
  const day = parseDay(text);
  if (!day) return MESSAGES.invalidExpiry;
  if (isBefore(day, localDay(now))) return DATE_MESSAGES.past;
  return undefined;
}

/** The API's `Date` ('2026-03-05'), or null for an empty or unreadable text. */
export function expiryToIsoDay(text: string): string | null {
  const day = parseDay(text);
  return day ? isoDay(day) : null;
}
