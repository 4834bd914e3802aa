//! Monthly prices (spec 1 §5, spec 3 §5): the rule a typed price follows, its 2-decimal form, and
//! how a price is shown. Shared by the channel form (the channel's price) and the subscriber form
//! (a bespoke monthly price).

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** '$49.00' for "49.00"; blank for a free channel (no price). */
export function formatPrice(price: string | null | undefined): string {
  if (price == null || price.trim() === '') return '';
  const amount = Number(price);
  return Number.isFinite(amount) ? USD.format(amount) : price;
}

/** Spec 1 §5 price rule: up to 18 digits, at most 2 decimals, no sign. */
export const PRICE_PATTERN = /^\d{1,18}(\.\d{1,2})?$/;

/**
 * A valid price with exactly 2 decimals ('49' → '49.00', '049.5' → '49.50'), done on the text so
 * long prices keep every digit; anything else is returned as typed.
 */
export function normalisePrice(text: string): string {
  const value = text.trim();
  if (!PRICE_PATTERN.test(value)) return text;
  const [whole, decimals = ''] = value.split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${decimals.padEnd(2, '0')}`;
}
