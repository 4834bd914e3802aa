import { describe, expect, it } from 'vitest';
import { isAllowedLinkUrl, isChartId, isPromotionalContentId, normalizeLinkUrl, promotionalContentRefusal } from './rules';

describe('promotionalContentRefusal', () => {
  it('refuses a selection inside a list item', () => {
    expect(promotionalContentRefusal(['text', 'listitem', 'list', 'root'])).toBe("You can't insert Promotional Content in a list.");
    expect(promotionalContentRefusal(new Set(['listitem']))).toBe("You can't insert Promotional Content in a list.");
  });

  it('allows paragraphs, headings, quotes and the document itself', () => {
    expect(promotionalContentRefusal(['text', 'paragraph', 'root'])).toBeNull();
    expect(promotionalContentRefusal(['link', 'heading', 'root'])).toBeNull();
    expect(promotionalContentRefusal(['root'])).toBeNull();
    expect(promotionalContentRefusal([])).toBeNull();
  });
});

describe('ids', () => {
  it('takes promotional content ids in the server format only', () => {
    expect(isPromotionalContentId('5f9b2c3e1a2b3c4d5e6f7a8b')).toBe(true);
    expect(isPromotionalContentId('5F9B2C3E1A2B3C4D5E6F7A8B')).toBe(false);
    expect(isPromotionalContentId('5f9b2c3e1a2b3c4d5e6f7a8')).toBe(false);
    expect(isPromotionalContentId('5f9b2c3e1a2b3c4d5e6f7a8b" onclick="x')).toBe(false);
  });

  it('takes chart ids of 1 to 64 letters, digits, underscores and hyphens', () => {
    expect(isChartId('sales-by-region_2024')).toBe(true);
    expect(isChartId('a'.repeat(64))).toBe(true);
    expect(isChartId('a'.repeat(65))).toBe(false);
    expect(isChartId('')).toBe(false);
    expect(isChartId('a b')).toBe(false);
    expect(isChartId('a"b')).toBe(false);
  });
});

describe('normalizeLinkUrl', () => {
  it('accepts http, https and mailto addresses, and takes a bare address as https', () => {
    expect(normalizeLinkUrl('https://example.com/report?a=1')).toBe('https://example.com/report?a=1');
    expect(normalizeLinkUrl('http://example.com')).toBe('http://example.com/');
    expect(normalizeLinkUrl(' example.com/report ')).toBe('https://example.com/report');
    expect(normalizeLinkUrl('mailto:desk@example.com')).toBe('mailto:desk@example.com');
  });

  it('refuses other schemes and malformed addresses', () => {
    for (const input of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com/f',
      'mailto:nobody',
      'https://report',
      'two words',
      '',
    ]) {
      expect(normalizeLinkUrl(input)).toBeNull();
    }
  });

  it('lets pasted links through only when they already have an allowed scheme', () => {
    expect(isAllowedLinkUrl('https://example.com')).toBe(true);
    expect(isAllowedLinkUrl('example.com')).toBe(false);
    expect(isAllowedLinkUrl('javascript:alert(1)')).toBe(false);
  });
});
