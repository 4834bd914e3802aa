import { describe, expect, it } from 'vitest';
import { cardPayable, formatPrice, normalisePrice, PRICE_PATTERN } from './price';

describe('price', () => {
  it('formats a valid price to 2 decimals, keeping every digit', () => {
    expect(normalisePrice('49')).toBe('49.00');
    expect(normalisePrice('049.5')).toBe('49.50');
    expect(normalisePrice('0.5')).toBe('0.50');
    expect(normalisePrice('123456789012345678.9')).toBe('123456789012345678.90');
    expect(normalisePrice('12.345')).toBe('12.345');
  });

  it('accepts digits with at most 2 decimals and no sign', () => {
    expect(PRICE_PATTERN.test('49.99')).toBe(true);
    for (const bad of ['-5', '+5', '1.234', '4,9', '']) expect(PRICE_PATTERN.test(bad)).toBe(false);
  });

  // The server's rule (channels::service::is_valid_price, tests/api channels and subscriber_admin)
  // has the same edge: 18 digits before the point pass, 19 do not.
  it('takes up to 18 digits before the point, as the server does', () => {
    for (const good of ['123456789012345678', '123456789012345678.99', '000000000000000001']) expect(PRICE_PATTERN.test(good)).toBe(true);
    for (const bad of ['1234567890123456789', '1234567890123456789.00', '1.', '.5']) expect(PRICE_PATTERN.test(bad)).toBe(false);
  });

  it('shows dollars, every digit of a long price included', () => {
    expect(formatPrice('49.00')).toBe('$49.00');
    expect(formatPrice('1234.5')).toBe('$1,234.50');
    expect(formatPrice('123456789012345678.90')).toBe('$123,456,789,012,345,678.90');
    expect(formatPrice(null)).toBe('');
  });

  it('lets a card pay at most $999,999.99 a month', () => {
    expect(cardPayable('49.50')).toBe(true);
    expect(cardPayable('999999.99')).toBe(true);
    expect(cardPayable('1000000.00')).toBe(false);
    expect(cardPayable('123456789012345678.90')).toBe(false);
    expect(cardPayable(null)).toBe(false);
  });
});
