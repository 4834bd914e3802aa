//! Monthly prices (spec 1 §5, spec 3 §5): the rule a typed price follows, its 2-decimal form, and
//! how a price is shown. Shared by the channel form (the channel's price) and the subscriber form
//! (a bespoke monthly price); the server checks the same rule (`channels::service::is_valid_price`).

/** Most digits before the point (spec 1 §5 "up to 18 digits, at most 2 decimals"). */
export const PRICE_MAX_DIGITS = 18;

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

/**
 * '$49.00' for "49.00", '$123,456,789,012,345,678.90' for 18 digits (on the text: a number would
 * round them); blank for a free channel (no price).
 */
export function formatPrice(price: string | null | undefined): string {
  if (price == null || price.trim() === '') return '';
  const value = normalisePrice(price);
  if (!PRICE_PATTERN.test(value)) return price;
  const [whole, decimals] = value.split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
}

/**
 * The most a card payment may be a month: Stripe takes amounts of at most 8 digits in cents. A
 * dearer channel is paid by clearing account or invoice (the server refuses the card too).
 */
export const CARD_PRICE_MAX = '999999.99';
export const CARD_LIMIT_HINT = 'Card payments are limited to $999,999.99 a month: choose a clearing account or an invoice.';

/** Whether a price can be paid by card (at most $999,999.99), compared on the text. */
export function cardPayable(price: string | null | undefined): boolean {
  const value = normalisePrice(price ?? '');
  if (!PRICE_PATTERN.test(value)) return false;
  return value.split('.')[0].length <= CARD_PRICE_MAX.split('.')[0].length;
}
