// Topics and tags administration against the real server (spec 1 §2, §4, §5, §8): an editor builds
// a small topic tree, edits it, cannot nest a topic under itself, deletes it; and manages a tag.
import { expect, test, type Page } from '@playwright/test';
import { press, tabTo } from './keyboard';
import { graphqlResponse, PNG_1X1, screenshot, serverConfig, signInAs } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

/** The id at the end of an edit link: /publisher/topics/edit/{_id}. */
async function idOf(page: Page, name: string): Promise<string> {
  const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
  return href!.split('/').pop()!;
}

/** Ticks a Blueprint checkbox by its label, as a user does (its styled box covers the input). */
async function tick(page: Page, label: string): Promise<void> {
  await page.locator('label', { hasText: label }).click();
  await expect(page.getByRole('checkbox', { name: label })).toBeChecked();
}

/** The success toast, worded as spec 1 §8 says. */
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

test('An editor adds a sub-topic, edits it, cannot nest a topic under itself, and deletes them', async ({ page, request }) => {
  const { features } = await serverConfig(request);
  const one = features.premiumChannels ? 'topic' : 'category';
  const many = features.premiumChannels ? 'Topics' : 'Categories';
  const section = features.premiumChannels ? 'topics' : 'categories';
  const parent = `E2E Energy ${run}`;
  const child = `E2E Oil ${run}`;

  await signInAs(page, 'Editor', `publisher/${section}`);
  await expect(page.getByRole('heading', { level: 1, name: many })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('100');

  // A root topic; the form shows its rules once a field is touched.
  await page.getByRole('link', { name: `Add ${one}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Add ${one}` })).toBeVisible();
  await page.getByLabel('Name').focus();
  await page.getByLabel('Description').focus();
  await expect(page.getByText('This field is required')).toBeVisible();
  await page.getByLabel('Name').fill(parent);
  await page.getByLabel('Description').fill('Energy markets');
  await expect(page.getByText('486 characters remaining')).toBeVisible();
  await tick(page, 'Sector');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The ${one} ${parent} has been added.`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/publisher/${section}$`));

  // A sub-topic: choosing the parent clears and disables Sector.
  await page.getByRole('link', { name: `Add ${one}` }).click();
  await page.getByLabel('Name').fill(child);
  await page.getByLabel('Description').fill('Crude and refined oil');
  await tick(page, 'Sector');
  await page.getByRole('combobox', { name: `Parent ${one}` }).selectOption({ label: parent });
  await expect(page.getByRole('checkbox', { name: 'Sector' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Sector' })).toBeDisabled();
  // A card image: POST /upload, then its preview, fetched with the token (not public until saved).
  await page.getByLabel('Card image').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
  const preview = page.getByRole('img', { name: 'Card image preview' });
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  await screenshot(page, 'topic-add-child');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The ${one} ${child} has been added.`)).toBeVisible();

  // The tree shows it under its parent.
  const tree = page.getByRole('table', { name: many });
  await expect(tree.getByRole('link', { name: child, exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: `Expand ${parent}` }).click();
  await expect(tree.getByRole('link', { name: child, exact: true })).toBeVisible();
  await screenshot(page, 'topic-tree');
  const parentId = await idOf(page, parent);
  const childId = await idOf(page, child);

  // "Move to…", by keyboard alone (WCAG 2.5.7: moving needs no dragging; keyboard.ts): the
  // sub-topic to the top level, and back under its parent.
  const parentOf = async () =>
    (await graphqlResponse(page, 'query ($id: ID!) { findCategoryById(id: $id) { parent } }', { id: childId })).data.findCategoryById
      .parent;
  const moveChildTo = async (choice: string) => {
    await press(page, page.getByRole('button', { name: `Move to… (${child})` }));
    const dialog = page.getByRole('dialog', { name: `Move ${child}` });
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByRole('combobox', { name: `New parent ${one}` }));
    await page.keyboard.type(choice);
    await press(page, dialog.getByRole('button', { name: 'Move', exact: true }));
    // The first move's toast may still show when the second one's comes: the newest is the last.
    await expect(toast(page, `The ${one} ${child} has been moved.`).last()).toBeVisible();
    await expect(dialog).toBeHidden();
  };
  await moveChildTo(`None (top-level ${one})`);
  await expect.poll(parentOf).toBeNull();
  await moveChildTo(parent);
  await expect.poll(parentOf).toBe(parentId);

  // The editor follows the parent: its Followers count leads to the subscriber stats listing them.
  const follow = await graphqlResponse(
    page,
    `
      mutation ($item: FollowInput!) {
        followEntity(item: $item) {
          isFollowing
          subscribersCount
        }
      }
    `,
    { item: { entityId: parentId, entityType: 'Category', isAdd: true } },
  );
  expect(follow.data.followEntity).toEqual({ isFollowing: true, subscribersCount: 1 });
  await page.reload();
  await page.getByRole('link', { name: `1 follower of ${parent}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${parent}: followers` })).toBeVisible();
  const followers = page.getByRole('table', { name: 'Followers' });
  await expect(followers.getByRole('row').nth(1)).toContainText('Erin Editor');
  await expect(followers.getByRole('row').nth(1)).toContainText(/Today \d\d:\d\d/);
  await screenshot(page, 'topic-subscriber-stats');
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: many }).click();

  // Edit the parent: the parent picker offers neither the topic itself nor its sub-topic.
  await tree.getByRole('link', { name: parent, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Edit ${one}` })).toBeVisible();
  const picker = page.getByRole('combobox', { name: `Parent ${one}` });
  await expect(picker.locator('option', { hasText: child })).toHaveCount(0);
  await expect(picker.locator('option', { hasText: parent })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Sector' })).toBeChecked();

  // The server refuses it too, with the spec's message on the parent field.
  const edit = await graphqlResponse(
    page,
    `
      mutation ($item: CategoryInput!) {
        editCategory(item: $item) {
          _id
        }
      }
    `,
    { item: { _id: parentId, name: parent, description: 'Energy markets', parent: childId, version: 1 } },
  );
  expect(edit.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect(edit.errors[0].extensions.fields.parent).toBe('A topic cannot be moved under one of its sub-topics');

  // An unchanged edit goes back without a call; a changed one is saved.
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL(new RegExp(`/publisher/${section}$`));
  await page.goto(`publisher/${section}/edit/${childId}`);
  await page.getByLabel('Description').fill('Crude oil, refined products');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, `The ${one} ${child} has been updated.`)).toBeVisible();

  // A topic with a sub-topic cannot be deleted: the server's CONFLICT stays on the form.
  await page.goto(`publisher/${section}/edit/${parentId}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Delete ${one}` });
  await expect(dialog).toContainText(`Delete the ${one} ${parent}? No articles use this ${one}.`);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const alert = page.getByRole('form').getByRole('alert');
  await expect(alert).toContainText(`CONFLICT::The topic ${parent} has 1 sub-topic`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit ${one}` })).toBeVisible();
  await screenshot(page, 'topic-delete-conflict');

  // Delete the sub-topic, then the topic.
  await page.goto(`publisher/${section}/edit/${childId}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, `The ${one} ${child} has been deleted.`)).toBeVisible();
  await tree.getByRole('link', { name: parent, exact: true }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, `The ${one} ${parent} has been deleted.`)).toBeVisible();
  await expect(tree.getByRole('link', { name: parent, exact: true })).toHaveCount(0);
});

test('An editor adds, searches, filters and deletes a tag', async ({ page }) => {
  const tag = `e2e-tag-${run}`;
  await signInAs(page, 'Editor', 'publisher/tags');
  await expect(page.getByRole('heading', { level: 1, name: 'Tags' })).toBeVisible();

  await page.getByRole('link', { name: 'Add tag' }).click();
  // Typing stops at 50 characters.
  await page.getByLabel('Name').pressSequentially('x'.repeat(55));
  await expect(page.getByLabel('Name')).toHaveValue('x'.repeat(50));
  await page.getByLabel('Name').fill(tag);
  await page.getByLabel('Description').fill('A tag made by the browser test');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The tag ${tag} has been added.`)).toBeVisible();

  // The same name again: the server's DUPLICATE message, on the form and on the field.
  await page.getByRole('link', { name: 'Add tag' }).click();
  await page.getByLabel('Name').fill(tag);
  await page.getByLabel('Description').fill('Again');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('form').getByRole('alert')).toHaveText('DUPLICATE::Cannot insert item due to name duplication');
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Cannot insert item due to name duplication');
  await screenshot(page, 'tag-duplicate');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Search (server-side, after the debounce) and filter.
  const table = page.getByRole('table', { name: 'Tags' });
  await page.getByRole('searchbox', { name: 'Search tags...' }).fill(tag);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  await expect(table.getByRole('link', { name: tag })).toBeVisible();
  const filters = page.getByRole('group', { name: 'Filter' });
  await filters.getByRole('button', { name: 'Empty tags' }).click();
  await expect(filters.getByRole('button', { name: 'Empty tags' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table.getByRole('link', { name: tag })).toBeVisible();
  await screenshot(page, 'tag-search-empty-filter');
  await page.getByRole('searchbox', { name: 'Search tags...' }).fill(`${tag}-nothing`);
  await expect(page.getByText('There are no items to show')).toBeVisible();
  await filters.getByRole('button', { name: 'All' }).click();
  await page.getByRole('searchbox', { name: 'Search tags...' }).fill(tag);

  // Delete it, after the confirmation that says how many articles lose it.
  await table.getByRole('link', { name: tag }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit tag' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete tag' });
  await expect(dialog).toContainText('No articles use this tag.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, `The tag ${tag} has been deleted.`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search tags...' }).fill(tag);
  await expect(page.getByText('There are no items to show')).toBeVisible();
});
