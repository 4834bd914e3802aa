// The app shell against the real server: sign-in through the built-in provider, landing page per
// role, access rules, the narrow-window message and sign-out.
import { expect, test } from '@playwright/test';
import { expectedSidebar, screenshot, serverConfig, signInAs } from './support';

const FOR_YOU_TITLE = 'All the latest market insights, tailored for you.';

for (const role of ['Administrator', 'Editor', 'Contributor'] as const) {
  test(`${role} lands in the publisher area with the sidebar of the role`, async ({ page, request }) => {
    const config = await serverConfig(request);
    await signInAs(page, role);

    await expect(page).toHaveURL(/\/insights\/publisher\/articles$/);
    const sidebar = page.getByRole('navigation', { name: 'Publisher' });
    await expect(sidebar.getByRole('link')).toHaveText(expectedSidebar(role, config.features.premiumChannels));
    await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible();
    await expect(page.getByRole('link', { name: "Publisher's Dashboard" })).toBeVisible();
    await screenshot(page, `landing-${role.toLowerCase()}`);
  });
}

test('Subscriber lands on For You without the publisher link', async ({ page }) => {
  await signInAs(page, 'Subscriber');

  await expect(page).toHaveURL(/\/insights\/for-you$/);
  await expect(page.getByRole('heading', { level: 1, name: FOR_YOU_TITLE })).toBeVisible();
  for (const name of ['For you', 'Channels', 'Subscriptions']) await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: "Publisher's Dashboard" })).toHaveCount(0);
  await screenshot(page, 'landing-subscriber');
});

test('Trial subscriber lands on For You with the trial banner', async ({ page, request }) => {
  const { constants } = await serverConfig(request);
  await signInAs(page, 'Trial subscriber');

  await expect(page).toHaveURL(/\/insights\/for-you$/);
  await expect(page.getByRole('heading', { level: 1, name: FOR_YOU_TITLE })).toBeVisible();
  // A new trial has the whole trial length left.
  await expect(page.getByText(`You are on a free trial: ${constants.trialLengthDays} days remaining.`)).toBeVisible();
  await screenshot(page, 'landing-trial-subscriber');
});

test('A user without Insights scopes is told they are not permissioned', async ({ page }) => {
  await signInAs(page, 'No Insights access');

  await expect(page.getByText('User is not permissioned to use the Insights system')).toBeVisible();
  await expect(page.getByRole('link', { name: 'For you', exact: true })).toHaveCount(0);
  await screenshot(page, 'landing-no-insights-access');
});

test('A subscriber opening the publisher area gets Access Denied', async ({ page }) => {
  await signInAs(page, 'Subscriber', 'publisher/articles');

  await expect(page).toHaveURL(/\/insights\/publisher\/articles$/);
  await expect(page.getByText("Access Denied: You don't have sufficient permissions to access this area of the product")).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Publisher' })).toHaveCount(0);
});

test('A narrow window in the publisher area asks to resize the browser', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signInAs(page, 'Administrator', 'publisher/articles');

  await expect(page.getByText('Please resize your browser')).toBeVisible();
  await expect(page.getByText(/cannot work on small devices/)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Publisher' })).toHaveCount(0);
});

test('Signing out ends on the logged-out page', async ({ page }) => {
  await signInAs(page, 'Subscriber');
  await expect(page.getByRole('heading', { level: 1, name: FOR_YOU_TITLE })).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  // The refresh token is revoked at the provider (RFC 7009) before the end-session redirect.
  const revoked = page.waitForResponse((r) => r.url().endsWith('/oidc/revoke') && r.request().method() === 'POST');
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  expect((await revoked).status()).toBe(200);

  await expect(page).toHaveURL(/\/insights\/loggedout$/);
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in again' })).toBeVisible();
});
