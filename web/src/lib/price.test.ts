import { describe, expect, it } from 'vitest';
import { formatPrice, normalisePrice, PRICE_PATTERN } from './price';

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

  it('shows dollars', () => {
    expect(formatPrice('49.00')).toBe('$49.00');
    expect(formatPrice(null)).toBe('');
  });
});
