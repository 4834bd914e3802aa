//! Email addresses in the web app: the forms' rule (spec 1 §5 "Email: 'Email should be valid'"), the
//! one the server checks too (`validation::optional_email`), so a form never passes an address the
//! server refuses; and an email in a description (a user picker's suggestion), of which spec 3 §9
//! shows at most 30 characters (the field is 220 px wide), the whole address staying in the tooltip
//! and for screen readers.

export const INVALID_EMAIL = 'Email should be valid';

/** Text before one `@`, a dotted domain after it with no empty part, no spaces. */
export function isEmail(text: string): boolean {
  const value = text.trim();
  if (/\s/.test(value)) return false;
  const at = value.indexOf('@');
  if (at <= 0) return false;
  const domain = value.slice(at + 1);
  if (domain.includes('@')) return false;
  const parts = domain.split('.');
  return parts.length >= 2 && parts.every((part) => part !== '');
}

export const EMAIL_DESCRIPTION_CHARS = 30;

/** The first `max` characters of `email` and '…' when it is longer; the email itself otherwise. */
export function truncateEmail(email: string, max = EMAIL_DESCRIPTION_CHARS): string {
  // By code point: an internationalised address never loses half a character.
  const chars = Array.from(email);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : email;
}
