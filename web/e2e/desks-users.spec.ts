// Desks and users administration against the real server (spec 2 §2 "Desks" and "Users", §4, §5):
// an administrator creates a desk with two contributors, finds it in the list, edits and deletes
// it; and sets a user's Function.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { screenshot, signInAs } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

interface NewUser {
  email: string;
  name: string;
}

const contributor = (key: string): NewUser => ({ email: `e2e-${key}-${run}@insights.example`, name: `E2E ${key} ${run}` });

/**
 * Signs `user` in once, as a Contributor, through the built-in provider's "Another user" form: the
 * server records a user at their first sign-in, and only then can a desk or the user list show them.
 */
async function signUpContributor(browser: Browser, baseURL: string | undefined, user: NewUser): Promise<void> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Name', { exact: true }).fill(user.name);
  // A company makes the profile complete: no detour to the external profile page.
  await page.getByLabel('Company', { exact: true }).fill('E2E Research');
  await page.getByLabel('Scopes').fill('insights:content-edit');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/insights\/publisher\/articles$/);
  await context.close();
}

/** Picks a user in the contributors picker: type, wait for the debounced search, choose. */
async function pickContributor(page: Page, user: NewUser): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Contributors' });
  await picker.fill(user.name);
  await page.getByRole('option', { name: new RegExp(user.name) }).click();
  await expect(picker).toHaveValue('');
}

/** The success toast, worded as spec 1 §8 says. */
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

test('An administrator creates a desk with two contributors, edits it and deletes it', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const first = contributor('desk-a');
  const second = contributor('desk-b');
  await signUpContributor(browser, baseURL, first);
  await signUpContributor(browser, baseURL, second);
  const desk = `E2E Desk ${run}`;

  await signInAs(page, 'Administrator', 'publisher/desks');
  await expect(page.getByRole('heading', { level: 1, name: 'Desks' })).toBeVisible();
  await page.getByRole('link', { name: 'Add desk' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add desk' })).toBeVisible();

  // Nothing is sent while the name and the contributors are missing.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('This field is required');
  await expect(page.getByRole('combobox', { name: 'Contributors' })).toHaveAccessibleDescription('This field should be chosen');
  await expect(page.getByRole('heading', { level: 1, name: 'Add desk' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(desk);
  await expect(page.getByRole('checkbox', { name: 'Show all users' })).not.toBeChecked();
  await pickContributor(page, first);
  await pickContributor(page, second);
  await page.getByLabel('Contact email').fill('not-an-email');
  await page.getByLabel('Description').focus();
  await expect(page.getByLabel('Contact email')).toHaveAccessibleDescription('Email should be valid');
  await page.getByLabel('Contact email').fill(`desk-${run}@insights.example`);
  await page.getByLabel('Description').fill('A desk made by the browser test');
  await screenshot(page, 'desk-add');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The desk ${desk} has been added.`)).toBeVisible();
  await expectAccessible(page, 'desks: the list with a toast');
  await expect(page).toHaveURL(/\/publisher\/desks$/);

  // The list shows it with its two members; an administrator may open it.
  const table = page.getByRole('table', { name: 'Desks' });
  await page.getByRole('searchbox', { name: 'Search desks...' }).fill(desk);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: desk, exact: true }) });
  await expect(row).toContainText('2 contributor(s)');
  await expect(row).toContainText(`desk-${run}@insights.example`);
  await screenshot(page, 'desk-list');

  // Edit: one contributor leaves and the description changes.
  await row.getByRole('link', { name: desk, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit desk' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(desk);
  await page.getByRole('button', { name: `Remove ${second.name}` }).click();
  await page.getByLabel('Description').fill('Edited by the browser test');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, `The desk ${desk} has been updated.`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search desks...' }).fill(desk);
  await expect(row).toContainText('1 contributor(s)');

  // The edit was saved.
  await row.getByRole('link', { name: desk, exact: true }).click();
  await expect(page.getByLabel('Description')).toHaveValue('Edited by the browser test');
  await expect(page.getByRole('button', { name: `Remove ${first.name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Remove ${second.name}` })).toHaveCount(0);

  // It owns no channel, so it can be deleted.
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete desk' });
  await expect(dialog).toContainText(`Delete the desk ${desk}?`);
  await expectAccessible(page, 'desk form: the delete confirmation');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, `The desk ${desk} has been deleted.`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search desks...' }).fill(desk);
  await expect(page.getByText('There are no items to show')).toBeVisible();
});

test("An administrator sets a user's Function", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const person = contributor('user');
  await signUpContributor(browser, baseURL, person);
  const position = `Desk analyst ${run}`;

  await signInAs(page, 'Administrator', 'publisher/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  const filters = page.getByRole('group', { name: 'Filter' });
  await filters.getByRole('button', { name: 'Contributor' }).click();
  await expect(filters.getByRole('button', { name: 'Contributor' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('searchbox', { name: 'Search users...' }).fill(person.email);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1);
  await expect(row).toContainText(person.email);
  await expect(row).toContainText('Contributor');
  await expect(row).toContainText(/Today \d\d:\d\d/);
  await screenshot(page, 'user-list');

  await row.getByRole('link', { name: person.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit user' })).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/users\/edit\/[^/]+$/);
  await expect(page.getByText(person.email, { exact: true })).toBeVisible();
  // Typing stops at 50 characters.
  await page.getByLabel('Function').fill('');
  await page.getByLabel('Function').pressSequentially('f'.repeat(55));
  await expect(page.getByLabel('Function')).toHaveValue('f'.repeat(50));
  await page.getByLabel('Function').fill(position);
  // An administrator may change the tableau-chart access.
  await expect(page.getByRole('checkbox', { name: 'Tableau chart access' })).toBeEnabled();
  await screenshot(page, 'user-edit');
  const editPath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, `The user ${person.name} has been updated.`)).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/users$/);

  // Saved: the form shows it again.
  await page.goto(editPath);
  await expect(page.getByLabel('Function')).toHaveValue(position);
});
