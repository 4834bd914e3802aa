// The emails the server sent, from maildev's REST API (scripts/test.sh starts maildev, points the
// server's INSIGHTS_SMTP_URL at it and exports its address as E2E_MAILDEV_URL).
import { expect, type APIRequestContext } from '@playwright/test';
import { BASE_URL } from './support';

export const MAILDEV_URL = (process.env.E2E_MAILDEV_URL ?? '').replace(/\/$/, '');

export interface MaildevEmail {
  id: string;
  subject: string;
  to: { address: string; name?: string }[];
  html: string;
  text: string;
  headers: Record<string, string | string[]>;
}

/** The emails maildev holds for `to` with `subject`. */
async function emailsTo(request: APIRequestContext, to: string, subject: string): Promise<MaildevEmail[]> {
  const response = await request.get(`${MAILDEV_URL}/api/email`);
  expect(response.ok()).toBeTruthy();
  const all = (await response.json()) as MaildevEmail[];
  return all.filter((e) => e.subject === subject && e.to.some((t) => t.address.toLowerCase() === to.toLowerCase()));
}

/** Waits for the email to `to` with `subject` (the worker delivers within seconds of the publish); fails unless exactly one came. */
export async function waitForEmail(request: APIRequestContext, to: string, subject: string): Promise<MaildevEmail> {
  await expect
    .poll(async () => (await emailsTo(request, to, subject)).length, { timeout: 30_000, intervals: [250, 500, 1000] })
    .toBeGreaterThan(0);
  const found = await emailsTo(request, to, subject);
  expect(found, 'the email arrives once').toHaveLength(1);
  return found[0];
}

/** HTML text with its character references decoded ('&#x2f;' is '/'), as a mail client reads an href. */
export function decodeHtml(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The page link of an email's unsubscribe footer, {public}/insights/unsubscribe?data=…, the same in both parts. */
export function unsubscribeLink(email: MaildevEmail): string {
  const pattern = new RegExp(`href="(${escapeRegExp(BASE_URL)}/insights/unsubscribe\\?data=[A-Za-z0-9_.-]+)"`);
  const inHtml = decodeHtml(email.html).match(pattern)?.[1];
  expect(inHtml, 'the html part links to the unsubscribe page').toBeTruthy();
  expect(email.text, 'the text part has the same link').toContain(`Unsubscribe: ${inHtml!}`);
  return inHtml!;
}
