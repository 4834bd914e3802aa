//! Email addresses in forms (spec 1 §5 "Email: 'Email should be valid'"): the rule the server
//! checks too (`validation::optional_email`), so a form never passes an address the server refuses.

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
