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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
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
