import { describe, expect, it } from 'vitest';
import { isEmail, truncateEmail } from './email';

// The server's cases (validation.rs emails_need_a_local_part_and_a_dotted_domain), and the domain
// shapes the old pattern let through but the server refuses.
describe('isEmail', () => {
  it('takes a local part and a dotted domain, as the server does', () => {
    for (const good of ['desk@insights.example', ' a.b+c@x.co ']) expect(isEmail(good)).toBe(true);
    for (const bad of ['desk', '@x.co', 'a@b', 'a@b.', 'a b@x.co', 'a@b@c.co', 'a@b..co', 'a@.b.co']) expect(isEmail(bad)).toBe(false);
  });
});

describe('truncateEmail', () => {
  it('keeps an email of up to 30 characters as it is', () => {
    const thirty = 'abcdefghij.klmnopqrs@example.io';
    expect(thirty).toHaveLength(31);
    expect(truncateEmail('ada@example.com')).toBe('ada@example.com');
    expect(truncateEmail(thirty.slice(1))).toBe(thirty.slice(1));
  });

  it('shows the first 30 characters of a longer one, then an ellipsis', () => {
    expect(truncateEmail('christopher.contributor-longname@research.example.com')).toBe('christopher.contributor-longna…');
    expect(truncateEmail('abcdefghij.klmnopqrs@example.io')).toBe('abcdefghij.klmnopqrs@example.i…');
  });

  it('counts characters, not UTF-16 units', () => {
    const email = `${'é'.repeat(25)}@例え.テスト.jp`;
    expect(truncateEmail(email)).toBe(`${'é'.repeat(25)}@例え.テ…`);
  });
});
