// The compliance trail end to end against the real server (issue 40): an Editor changes the title
// and the body of a published article and updates it; the article's history shows both changes as
// a diff; the Administrator finds the Editor's change in the audit trail, opens it to the fields
// before and after, and exports the trail as CSV. Readers see when the article was first
// published and when it was updated.
//
// Everything is made for this run through the API: the desk, the channel, the topic and the
// published article.
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { addWithToken, APP_URL, readyUserSession, screenshot } from './support';

const run = Date.now().toString(36);
const DESKTOP = { width: 1400, height: 900 };
const TITLE = `E2E compliance outlook ${run}`;
const REVISED = `E2E compliance outlook, corrected ${run}`;

interface Setup {
  admin: Awaited<ReturnType<typeof readyUserSession>>;
  editor: Awaited<ReturnType<typeof readyUserSession>>;
  articleId: string;
}

let s: Setup;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const [admin, editor] = await Promise.all((['Administrator', 'Editor'] as const).map((user) => readyUserSession(browser, user)));
  const api = await playwright.request.newContext();
  const deskId = await addWithToken(api, admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Compliance Desk ${run}`,
    description: 'Owns the channel of the compliance browser test',
    email: `e2e-compliance-${run}@example.com`,
    contributors: [editor.id],
  });
  const channelId = await addWithToken(api, admin.token, 'addChannel', 'ChannelInput', {
    name: `E2E Compliance Open ${run}`,
    description: 'Free research for the compliance test',
    type: 'freeOpen',
    ownerType: 'desk',
    ownerId: deskId,
    adminUsers: [editor.id],
  });
  const topicId = await addWithToken(api, admin.token, 'addCategory', 'CategoryInput', {
    name: `E2E Compliance Metals ${run}`,
    description: 'Metals for the compliance test',
  });
  const articleId = await addWithToken(api, editor.token, 'publishAdd', 'ArticleInput', {
    title: TITLE,
    categories: [topicId],
    summary: 'Copper in the next quarter.',
    html: '<p>Copper rose two percent.</p><p>Stocks fell.</p>',
    premiumChannelId: channelId,
    isPremium: false,
    contributors: [editor.id],
  });
  await api.dispose();
  s = { admin, editor, articleId };
});

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

async function pageWith(browser: Browser, user: Setup['admin']): Promise<Page> {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: user.state, viewport: DESKTOP });
  contexts.push(context);
  return context.newPage();
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

test('An Editor updates a published article and its history shows the change as a diff', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await pageWith(browser, s.editor);
  await page.goto(`publisher/articles/edit/${s.articleId}`);
  await expect(heading1(page, 'Edit article')).toBeVisible();
  const title = page.getByRole('textbox', { name: 'Title', exact: true });
  await title.fill(REVISED);
  const body = page.getByRole('textbox', { name: 'Article body' });
  await body.getByText('Copper rose two percent.').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Zinc followed.');
  await page.getByRole('group', { name: 'Article actions' }).getByRole('button', { name: 'Update' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Update article' });
  await dialog.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(page, 'Article updated')).toBeVisible();

  // The history: the update is revision 2 against the publication; the diff marks the words.
  await page.goto(`publisher/articles/edit/${s.articleId}`);
  await page.getByRole('group', { name: 'Article actions' }).getByRole('link', { name: 'History' }).click();
  await expect(heading1(page, 'Article history')).toBeVisible();
  const revisions = page.getByRole('table', { name: 'Revisions' });
  await expect(revisions.getByRole('row')).toHaveCount(3);
  await expect(revisions.getByRole('row').nth(1)).toContainText('Published');
  await expect(revisions.getByRole('row').nth(1)).toContainText(REVISED);
  await expect(page.getByRole('heading', { level: 3, name: 'Title Changed' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Body Changed' })).toBeVisible();
  await expect(page.locator('ins').filter({ hasText: 'Zinc followed.' })).toBeVisible();
  await expect(page.locator('ins').filter({ hasText: 'corrected' })).toBeVisible();
  await page.getByText('Side by side', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Side by side' })).toBeChecked();
  await expect(page.getByRole('heading', { level: 4, name: 'Revision 1' }).first()).toBeVisible();
  await screenshot(page, 'article-history');
  await expectAccessible(page, 'article history with a side-by-side diff');

  // Readers see when it first reached them and that it was updated.
  await page.goto(`browse/article/${s.articleId}`);
  await expect(page.getByText(/^First published \d\d \w{3} \d{4} \d\d:\d\d \S+ · Updated \d\d \w{3} \d{4} \d\d:\d\d$/)).toBeVisible();
});

test('The Administrator finds the change in the audit trail, opens it and exports the trail', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await pageWith(browser, s.admin);
  await page.goto(`publisher/audit?entityType=article&entityId=${s.articleId}`);
  await expect(heading1(page, 'Audit trail')).toBeVisible();
  const trail = page.getByRole('table', { name: 'Audit trail' });
  const update = trail.getByRole('row').filter({ hasText: 'publishEdit' }).first();
  await expect(update).toContainText('(Editor)');
  const publication = trail.getByRole('row').filter({ hasText: 'publishAdd' }).first();
  await expect(publication).toBeVisible();

  await update.getByRole('button', { name: /^Show details of .* publishEdit$/ }).click();
  const changes = page.getByRole('table', { name: `Changes of Article ${s.articleId}` });
  await expect(changes.getByRole('row').filter({ hasText: 'title' })).toContainText(TITLE);
  await expect(changes.getByRole('row').filter({ hasText: 'title' })).toContainText(REVISED);
  await screenshot(page, 'audit-trail');
  await expectAccessible(page, 'audit trail with an event opened');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text.startsWith('\uFEFFTime,Actor kind,Actor')).toBe(true);
  expect(text).toContain('publishEdit');
  expect(text).toContain(REVISED);

  // The export itself is in the trail.
  await page.goto('publisher/audit?action=GET%20%2Fexport%2Faudit.csv');
  await expect(page.getByRole('table', { name: 'Audit trail' }).getByRole('row').nth(1)).toContainText('GET /export/audit.csv');
});
