import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Ready users of the built-in identity provider's sign-in page (src/auth/provider/page.rs). */
export type ReadyUser = 'Administrator' | 'Editor' | 'Contributor' | 'Subscriber' | 'Trial subscriber' | 'No Insights access';

export const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** Opens `path` (inside the app), which redirects to the provider's page, and signs in there. */
export async function signInAs(page: Page, user: ReadyUser, path = ''): Promise<void> {
  await page.goto(path);
  const button = page.getByRole('button', { name: `Sign in as ${user}`, exact: true });
  await expect(button).toBeVisible();
  await button.click();
}

/**
 * Saves a screenshot in the artifacts. `fullPage` resizes the window while it captures, which the
 * app sees as a resize (the publisher area re-checks its width): pass false while a dialog is open.
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage });
}

export interface ServerConfig {
  features: { premiumChannels: boolean };
  constants: { expiryBannerDays: number; trialLengthDays: number };
}

/** The same anonymous `config` query the app starts with. */
export async function serverConfig(request: APIRequestContext): Promise<ServerConfig> {
  const base = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  const response = await request.post(`${base}/graphql`, {
    data: { query: '{ config { features { premiumChannels } constants { expiryBannerDays trialLengthDays } } }' },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).data.config;
}

export function expectedSidebar(role: 'Administrator' | 'Editor' | 'Contributor', premiumChannels: boolean): string[] {
  return [
    'Articles',
    'Templates',
    ...(premiumChannels ? ['Channels', 'Topics'] : ['Categories']),
    'Tags',
    'Users',
    'Desks',
    ...(role === 'Administrator' ? ['Promotional Content'] : []),
  ];
}

/** The server under test. */
export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');

/** A 1×1 transparent PNG, base64. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The signed-in user's access token, as the app keeps it (oidc-client-ts, localStorage). */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    // Runs in the page; the e2e tsconfig has no DOM types.
    const storage = (
      globalThis as unknown as { localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null } }
    ).localStorage;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i)!;
      if (key.startsWith('oidc.user:')) return JSON.parse(storage.getItem(key)!).access_token as string;
    }
    throw new Error('no signed-in user in localStorage');
  });
}

/** One item of the page's localStorage (null when absent). */
export async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate(
    (k) => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(k),
    key,
  );
}

/** One GraphQL call as the signed-in user; the whole response (data and errors). */
export async function graphqlResponse(page: Page, query: string, variables: Record<string, unknown> = {}) {
  const response = await page.request.post(`${BASE_URL}/graphql`, {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
    data: { query, variables },
  });
  expect(response.ok()).toBeTruthy();
  return response.json();
}

/** One GraphQL call as the signed-in user; fails the test on any error. */
export async function graphqlData<T>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await graphqlResponse(page, query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}
