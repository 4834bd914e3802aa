// Channels administration against the real server (spec 3 §2, §4, §5, §8): an Administrator creates
// a premium channel owned by a desk, edits it, filters the list (My Channels, Premium / Free,
// Archived) and archives it; the archived channel then opens read-only.
import { expect, test, type Page } from '@playwright/test';
import { graphqlData, PNG_1X1, screenshot, signInAs } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

/** The success toast, worded as spec 3 §8 says. */
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

test('An Administrator creates a premium channel owned by a desk, edits it, filters the list and archives it', async ({ page }) => {
  const deskName = `E2E Desk ${run}`;
  const channel = `E2E Channel ${run}`;

  await signInAs(page, 'Administrator', 'publisher/premium-channels');
  await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();

  // The owner: a desk made through the API, so this journey does not depend on the desk screens.
  const { me } = await graphqlData<{ me: { _id: string } }>(page, '{ me { _id } }');
  const { addDesk } = await graphqlData<{ addDesk: { _id: string } }>(
    page,
    `
      mutation ($item: DeskInput!) {
        addDesk(item: $item) {
          _id
        }
      }
    `,
    { item: { name: deskName, description: 'Owns the channels of the browser test', contributors: [me._id] } },
  );
  const deskId = addDesk._id;

  // Add: the signed-in user is a fixed admin; the form checks the price and the GL account.
  await page.getByRole('link', { name: 'New channel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add channel' })).toBeVisible();
  const form = page.getByRole('form');
  await expect(form.getByText('Alex Admin', { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Remove Alex Admin' })).toHaveCount(0);
  await expect(form.getByRole('radiogroup', { name: 'Subscription type' }).getByRole('radio', { name: 'Premium' })).toBeChecked();

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('This field is required');
  await expect(page.getByRole('combobox', { name: 'Owner' })).toHaveAccessibleDescription('This field should be chosen');

  await page.getByLabel('Name', { exact: true }).fill(channel);
  await page.getByLabel('Description').fill('Weekly crude and refined products analysis');
  await page.getByLabel('GL account').fill('G'.repeat(33));
  await page.getByLabel('GL account').blur();
  await expect(page.getByLabel('GL account')).toHaveAccessibleDescription('Maximum 32 chars');
  await page.getByLabel('GL account').fill('GL-E2E-100');
  const price = page.getByLabel('Price (USD per month)');
  await price.fill('49.555');
  await price.blur();
  await expect(price).toHaveAccessibleDescription('Invalid price format');
  await price.fill('49.5');
  await price.blur();
  await expect(price).toHaveValue('49.50');

  // The owner is found by name, after the search debounce.
  await page.getByRole('combobox', { name: 'Owner' }).fill(deskName);
  await page.getByRole('listbox', { name: 'Matching desks' }).getByRole('option', { name: deskName, exact: true }).click();
  await expect(page.getByLabel('Owner', { exact: true })).toHaveValue(deskName);

  // A profile image: POST /upload, then its preview, fetched with the token (not public until saved).
  await page
    .getByLabel('Profile image')
    .setInputFiles({ name: 'profile.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
  const preview = page.getByRole('img', { name: 'Profile image preview' });
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  await screenshot(page, 'channel-add');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The Premium Channel ${channel} has been created`)).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/premium-channels$/);

  // The list: found by name, with its type, desk owner link and price.
  const table = page.getByRole('table', { name: 'Channels' });
  const filters = page.getByRole('group', { name: 'Filter' });
  const types = page.getByRole('group', { name: 'Channel type' });
  await page.getByRole('searchbox', { name: 'Search channels...' }).fill(channel);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: channel, exact: true }) });
  await expect(row).toContainText('Premium');
  await expect(row).toContainText('$49.50');
  await expect(row.getByRole('link', { name: deskName })).toHaveAttribute('href', new RegExp(`/publisher/desks/edit/${deskId}$`));
  await screenshot(page, 'channel-list');

  // My Channels: the creator administers it. Type filters: it is premium, not free.
  await filters.getByRole('button', { name: 'My Channels' }).click();
  await expect(filters.getByRole('button', { name: 'My Channels' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table.getByRole('link', { name: channel, exact: true })).toBeVisible();
  await types.getByRole('button', { name: 'Free' }).click();
  await expect(page.getByText('There are no items to show')).toBeVisible();
  await types.getByRole('button', { name: 'Premium' }).click();
  await expect(table.getByRole('link', { name: channel, exact: true })).toBeVisible();
  await filters.getByRole('button', { name: 'Archived' }).click();
  await expect(page.getByText('There are no items to show')).toBeVisible();
  await filters.getByRole('button', { name: 'All' }).click();
  await types.getByRole('button', { name: 'All types' }).click();

  // Edit: the type and the owner are fixed; the counts are beside the form.
  await table.getByRole('link', { name: channel, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit channel' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(channel);
  await expect(page.getByRole('radiogroup', { name: 'Subscription type' }).getByRole('radio', { name: 'Premium' })).toBeDisabled();
  await expect(page.getByLabel('Owner', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Owner', { exact: true })).toHaveValue(deskName);
  const summary = page.getByRole('complementary', { name: 'Channel summary' });
  await expect(summary).toContainText('Articles0');
  await expect(summary).toContainText('Active users0');
  await page.getByLabel('Description').fill('Weekly crude oil analysis');
  await page.getByLabel('Price (USD per month)').fill('59');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, `The Premium Channel ${channel} has been updated`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search channels...' }).fill(channel);
  await expect(table.getByRole('row').filter({ hasText: channel })).toContainText('$59.00');

  // Archive, after the confirmation; it then shows under Archived and opens read-only.
  await table.getByRole('link', { name: channel, exact: true }).click();
  await page.getByRole('form').getByRole('button', { name: 'Archive' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Archive channel' });
  await expect(dialog).toContainText(`Archive the channel ${channel}?`);
  await screenshot(page, 'channel-archive-confirm', false);
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(toast(page, `The Premium Channel ${channel} has been archived`)).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/premium-channels$/);

  await page.getByRole('searchbox', { name: 'Search channels...' }).fill(channel);
  await expect(page.getByText('There are no items to show')).toBeVisible();
  await filters.getByRole('button', { name: 'Archived' }).click();
  const archived = table.getByRole('row').filter({ hasText: channel });
  await expect(archived).toContainText('Archived');
  await table.getByRole('link', { name: channel, exact: true }).click();
  await expect(page.getByText('This channel is archived: it can no longer be changed.')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  await screenshot(page, 'channel-archived-read-only');
});
