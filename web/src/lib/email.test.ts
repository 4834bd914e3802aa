import { describe, expect, it } from 'vitest';
import { isEmail } from './email';

// The server's cases (validation.rs emails_need_a_local_part_and_a_dotted_domain), and the domain
// shapes the old pattern let through but the server refuses.
describe('isEmail', () => {
  it('takes a local part and a dotted domain, as the server does', () => {
    for (const good of ['desk@insights.example', ' a.b+c@x.co ']) expect(isEmail(good)).toBe(true);
    for (const bad of ['desk', '@x.co', 'a@b', 'a@b.', 'a b@x.co', 'a@b@c.co', 'a@b..co', 'a@.b.co']) expect(isEmail(bad)).toBe(false);
  });
});
