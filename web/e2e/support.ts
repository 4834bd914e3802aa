import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Ready users of the built-in identity provider's sign-in page (src/auth/provider/page.rs). */
export type ReadyUser =
  'Administrator' | 'Editor' | 'Contributor' | 'Subscriber' | 'Trial subscriber' | 'Firm administrator' | 'No Insights access';

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
    ...(premiumChannels ? ['Firms'] : []),
    ...(role === 'Administrator'
      ? ['Promotional Content', 'Interests', 'Reader questions', 'Audit trail', 'Trial policy', 'Disclosures']
      : []),
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

/** The app's base, as playwright.config.ts gives it to the `page` fixture (contexts made by hand need it too). */
export const APP_URL = `${BASE_URL}/insights/`;

/** One GraphQL call with a bearer token (set-up without a page); fails the test on any error. */
export async function graphqlWithToken<T>(
  request: APIRequestContext,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await request.post(`${BASE_URL}/graphql`, { headers: { authorization: `Bearer ${token}` }, data: { query, variables } });
  expect(response.ok()).toBeTruthy();
  const body = await response.json();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

/** Runs an `add…(item: …)` mutation with `token` and returns the new record's id. */
export async function addWithToken(
  request: APIRequestContext,
  token: string,
  mutation: string,
  type: string,
  item: Record<string, unknown>,
): Promise<string> {
  const data = await graphqlWithToken<Record<string, { _id: string }>>(
    request,
    token,
    `mutation ($item: ${type}!) { ${mutation}(item: $item) { _id } }`,
    { item },
  );
  return data[mutation]._id;
}

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  token: string;
  /** The signed-in context's cookies and localStorage: `storageState` for new contexts signed in as this user. */
  state: Awaited<ReturnType<BrowserContext['storageState']>>;
}

/**
 * Signs `user` in once in a throw-away context (which also creates the user on their first
 * sign-in) and returns their id, email and access token, for set-up through the API, and the
 * storage state that signs new contexts in as them.
 */
export async function readyUserSession(browser: Browser, user: ReadyUser): Promise<SignedInUser> {
  // Signed out, whatever `storageState` the spec's `test.use` gives new contexts.
  // A desktop window too (the account menu below is desktop-only), whatever describe block runs it.
  const context = await browser.newContext({
    baseURL: APP_URL,
    storageState: { cookies: [], origins: [] },
    viewport: { width: 1400, height: 900 },
    isMobile: false,
    hasTouch: false,
  });
  try {
    const page = await context.newPage();
    await signInAs(page, user);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    const { me } = await graphqlData<{ me: { _id: string; name: string; email: string } }>(page, '{ me { _id name email } }');
    return { id: me._id, name: me.name, email: me.email, token: await accessToken(page), state: await context.storageState() };
  } finally {
    await context.close();
  }
}

/**
 * Runs SQL against the server's database (E2E_DATABASE_URL, exported by scripts/test.sh), for
 * set-up that has no API yet. `variables` are psql variables: write `:'name'` in the SQL for a
 * quoted literal. Returns psql's unaligned, tuples-only output.
 */
export function psql(sql: string, variables: Record<string, string> = {}): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: scripts/test.sh (run_e2e) exports the database of the server under test');
  const args = [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'];
  for (const [name, value] of Object.entries(variables)) args.push('-v', `${name}=${value}`);
  // Through stdin: psql interpolates variables there, not in `-c`.
  return execFileSync('psql', args, { input: sql, encoding: 'utf8' }).trim();
}

/** An active free subscription of the user to the channel (subscriptions have no API yet). */
export function addFreeSubscription(channelId: string, userId: string): void {
  psql(
    `insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state)
     values (:'channel', :'user', 'free', 'active')
     on conflict (channel_id, user_id) do update set subscription_type = 'free', subscription_state = 'active', updated_at = now();`,
    { channel: channelId, user: userId },
  );
}

/** Where the accessibility check's set-up (demo.setup.ts) saves a user's signed-in state, for `storageState`. */
export const signedInStatePath = (user: ReadyUser) => `${ARTIFACTS}signed-in/${user.toLowerCase().replace(/ /g, '-')}.json`;
