//! An email in a description (a user picker's suggestion): spec 3 §9 shows at most 30 characters
//! of it (the field is 220 px wide); the whole address stays in the tooltip and for screen readers.

export const EMAIL_DESCRIPTION_CHARS = 30;

/** The first `max` characters of `email` and '…' when it is longer; the email itself otherwise. */
export function truncateEmail(email: string, max = EMAIL_DESCRIPTION_CHARS): string {
  // By code point: an internationalised address never loses half a character.
  const chars = Array.from(email);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : email;
}
