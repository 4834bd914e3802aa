// Promotions end to end against the real server (issue 14, spec 2 'Promotional content',
// 'Promotion pages', §9): an Administrator makes a promotion page and promotional content that
// opens it, through the admin screens; an Editor puts the content on a topic and in an article's
// body (the editor's 'Insert promotional content'), and publishes the article; a reader sees it in
// the article's sidebar and body, opens the landing page and registers interest; the impression
// and the click are counted; the Administrator finds the interest on the Interests screen and
// exports it as CSV.
//
// A desk (the Editor and the Contributor), its free-open channel and a topic are made once through
// the API by the Administrator; the reader's free subscription is inserted (support.ts).
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import {
  addFreeSubscription,
  addWithToken,
  APP_URL,
  graphqlWithToken,
  PNG_1X1,
  readyUserSession,
  screenshot,
  serverConfig,
  type SignedInUser,
} from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);
const VIEWPORT = { width: 1400, height: 900 };
const CONTRIBUTOR_NAME = 'Chris Contributor';

const PAGE_NAME = `E2E Summit page ${run}`;
const PAGE_TEXT = `Join our analysts at the energy summit ${run}.`;
const SUCCESS_TITLE = 'Thank you for registering';
const SUCCESS_MESSAGE = 'Our events team will be in touch within two working days.';
/** Where the page's interest goes: an email address (a Teams webhook URL is the other choice). */
const PAGE_INBOX = `e2e-promotions-${run}@example.com`;
const CONTENT_NAME = `E2E Summit ${run}`;
const CONTENT_DESCRIPTION = 'Two days of market outlooks with our analysts.';

const ARTICLE_TITLE = `E2E Summit preview ${run}`;
const ARTICLE_TEXT = 'Refiners gather in Rotterdam next month to talk margins.';

interface Setup {
  admin: SignedInUser;
  editor: SignedInUser;
  reader: SignedInUser;
  channel: string;
  topicId: string;
  /** 'topics' or 'categories', by the premium channels flag. */
  taxonomy: string;
}

let setup: Setup;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const admin = await readyUserSession(browser, 'Administrator');
  const editor = await readyUserSession(browser, 'Editor');
  const contributor = await readyUserSession(browser, 'Contributor');
  const reader = await readyUserSession(browser, 'Subscriber');

  const api = await playwright.request.newContext();
  const add = (mutation: string, type: string, item: Record<string, unknown>) => addWithToken(api, admin.token, mutation, type, item);
  const deskId = await add('addDesk', 'DeskInput', {
    name: `E2E Promotions Desk ${run}`,
    description: 'Publishes the articles of the promotions browser test',
    email: `e2e-promotions-desk-${run}@example.com`,
    contributors: [editor.id, contributor.id],
  });
  const channel = `E2E Promotions Free ${run}`;
  const channelId = await add('addChannel', 'ChannelInput', {
    name: channel,
    description: 'Free events news',
    type: 'freeOpen',
    ownerType: 'desk',
    ownerId: deskId,
    adminUsers: [],
  });
  const topicId = await add('addCategory', 'CategoryInput', { name: `E2E Events ${run}`, description: 'Conferences and events' });
  const { features } = await serverConfig(api);
  await api.dispose();
  addFreeSubscription(channelId, reader.id);

  setup = { admin, editor, reader, channel, topicId, taxonomy: features.premiumChannels ? 'topics' : 'categories' };
});

/** A new context signed in as a user of the set-up. */
async function contextOf(browser: Browser, user: SignedInUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: APP_URL,
    viewport: VIEWPORT,
    storageState: user.state,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  return { context, page: await context.newPage() };
}

const toast = (page: Page, text: string | RegExp) => page.locator('.bp6-toast').getByText(text);
const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const image = { name: 'promo.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') };

interface ContentStats {
  _id: string;
  name: string;
  impressions: number;
  clicks: number;
  target: string | null;
}

async function contentStats(request: Page['request'], token: string): Promise<ContentStats | undefined> {
  const { promotionalContent } = await graphqlWithToken<{ promotionalContent: { promotionalContent: ContentStats[] } }>(
    request,
    token,
    `query ($params: PromotionalContentListParams) {
      promotionalContent(params: $params) { promotionalContent { _id name impressions clicks target } }
    }`,
    { params: { page: 1, pageSize: 15, searchQuery: CONTENT_NAME } },
  );
  return promotionalContent.promotionalContent.find((c) => c.name === CONTENT_NAME);
}

interface InterestRow {
  userEmail: string;
  deliveredTo: string | null;
  deliveryState: string;
}

async function interestsIn(request: Page['request'], token: string, itemId: string): Promise<InterestRow[]> {
  const { getAllInterests } = await graphqlWithToken<{ getAllInterests: { interests: InterestRow[] } }>(
    request,
    token,
    `query ($params: InterestListParams) {
      getAllInterests(params: $params) { interests { userEmail deliveredTo deliveryState } }
    }`,
    { params: { page: 1, pageSize: 15, itemId } },
  );
  return getAllInterests.interests;
}

test('An administrator promotes a page, an editor places it, a reader registers interest and the administrator sees it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const s = setup;

  // 1. The Administrator: a promotion page, then promotional content that opens it.
  const { context: adminContext, page: admin } = await contextOf(browser, s.admin);
  await admin.goto('publisher/promotional-content');
  await expect(heading1(admin, 'Promotional Content')).toBeVisible();
  await admin.getByRole('link', { name: 'Promotion pages', exact: true }).click();
  await expect(heading1(admin, 'Promotion pages')).toBeVisible();
  await admin.getByRole('link', { name: 'Add promotion page' }).click();
  await expect(heading1(admin, 'Add promotion page')).toBeVisible();
  await admin.getByRole('textbox', { name: 'Name', exact: true }).fill(PAGE_NAME);
  await admin.getByRole('textbox', { name: 'Page content' }).click();
  await admin.keyboard.type(PAGE_TEXT);
  await admin.getByRole('textbox', { name: 'Teams channel or email' }).fill(PAGE_INBOX);
  await admin.getByRole('textbox', { name: 'Page summary' }).fill('Two days of outlooks at the energy summit.');
  await admin.getByLabel('Social sharing image', { exact: true }).setInputFiles(image);
  await expect(admin.getByRole('img', { name: 'Social sharing image preview' })).toBeVisible();
  await admin.getByRole('textbox', { name: 'Success title' }).fill(SUCCESS_TITLE);
  await admin.getByRole('textbox', { name: 'Success message' }).fill(SUCCESS_MESSAGE);
  await admin.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(admin, `The promotion page ${PAGE_NAME} has been added.`)).toBeVisible();
  await expect(heading1(admin, 'Promotion pages')).toBeVisible();

  await admin.goto('publisher/promotional-content/add');
  await expect(heading1(admin, 'Add promotional content')).toBeVisible();
  await admin.getByRole('textbox', { name: 'Name', exact: true }).fill(CONTENT_NAME);
  await admin.getByRole('textbox', { name: 'Description' }).fill(CONTENT_DESCRIPTION);
  await admin.getByLabel('Article image', { exact: true }).setInputFiles(image);
  await expect(admin.getByRole('img', { name: 'Article image preview' })).toBeVisible();
  await admin.getByLabel('Sidebar image', { exact: true }).setInputFiles(image);
  await expect(admin.getByRole('img', { name: 'Sidebar image preview' })).toBeVisible();
  // Blueprint draws the radio's indicator over the input: the label is what a user clicks.
  await admin.getByText('Custom landing page', { exact: true }).click();
  await expect(admin.getByRole('radio', { name: 'Custom landing page' })).toBeChecked();
  await admin.getByRole('combobox', { name: 'Promotion page' }).fill(PAGE_NAME);
  await admin.getByRole('listbox', { name: 'Matching promotion pages' }).getByRole('option', { name: PAGE_NAME }).click();
  await screenshot(admin, 'promotional-content-form', false);
  await admin.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(admin, `The promotional content ${CONTENT_NAME} has been added.`)).toBeVisible();
  await expect(heading1(admin, 'Promotional Content')).toBeVisible();
  const created = await contentStats(admin.request, s.admin.token);
  expect(created).toMatchObject({ impressions: 0, clicks: 0, target: `/promotion/${created?._id}` });
  const contentId = created!._id;

  // 2. The Editor: the content on the article's topic (its sidebar) and as a block in its body.
  const { context: editorContext, page: editor } = await contextOf(browser, s.editor);
  await editor.goto(`publisher/${s.taxonomy}/edit/${s.topicId}`);
  const promotionSelect = editor.getByRole('combobox', { name: 'Promotional content' });
  await expect(promotionSelect.getByRole('option', { name: CONTENT_NAME })).toBeAttached();
  await promotionSelect.selectOption({ label: CONTENT_NAME });
  await editor.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(editor, /has been updated\.$/)).toBeVisible();

  await editor.goto('publisher/articles/add');
  await expect(heading1(editor, 'New article')).toBeVisible();
  await editor.getByRole('textbox', { name: 'Title', exact: true }).fill(ARTICLE_TITLE);
  // The details first: the body editor keeps the focus once a block is inserted.
  const settings = editor.getByRole('complementary', { name: 'Article settings' });
  await settings.getByRole('combobox', { name: 'Channel', exact: true }).selectOption({ label: s.channel });
  // Choosing the channel resets the contributors: pick them once it has been applied.
  await expect(settings.getByText(`Published by: E2E Promotions Desk ${run}`, { exact: true })).toBeVisible();
  const contributors = settings.getByRole('combobox', { name: 'Contributors' });
  await contributors.fill(CONTRIBUTOR_NAME);
  // Its suggestions close when it loses focus: a click opens them again.
  await contributors.click();
  await editor
    .getByRole('listbox', { name: 'Suggested users' })
    .getByRole('option', { name: new RegExp(CONTRIBUTOR_NAME) })
    .click();
  await settings.getByRole('textbox', { name: 'Summary' }).fill('The summit preview, with the programme.');
  await settings.getByRole('searchbox', { name: 'Filter topics' }).fill(`E2E Events ${run}`);
  const topic = settings.getByRole('treeitem', { name: `E2E Events ${run}`, exact: true });
  await topic.getByText(`E2E Events ${run}`, { exact: true }).click();
  await expect(topic).toHaveAttribute('aria-checked', 'true');
  const body = editor.getByRole('textbox', { name: 'Article body' });
  await body.click();
  await editor.keyboard.type(ARTICLE_TEXT);
  await editor.keyboard.press('Enter');
  await editor.getByRole('button', { name: 'Insert promotional content' }).click();
  await editor.getByRole('menuitem', { name: CONTENT_NAME }).click();
  await expect(body.getByText(`Promotional content: ${CONTENT_NAME}`)).toBeVisible();

  await editor.getByRole('group', { name: 'Article actions' }).getByRole('button', { name: 'Publish' }).click();
  await editor.getByRole('alertdialog', { name: 'Publish article' }).getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(toast(editor, 'Article published')).toBeVisible();
  await editor.getByRole('searchbox', { name: 'Search articles...' }).fill(ARTICLE_TITLE);
  const href = await editor.getByRole('link', { name: ARTICLE_TITLE, exact: true }).getAttribute('href');
  const articleId = href!.split('/').pop()!;
  await editorContext.close();

  // 3. The reader: the content in the sidebar (its sidebar image) and in the body (a card), counted
  // once seen; its link opens the landing page, where they register interest.
  const { context: readerContext, page: reader } = await contextOf(browser, s.reader);
  await reader.goto(`browse/article/${articleId}`);
  await expect(heading1(reader, ARTICLE_TITLE)).toBeVisible();
  const articleBody = reader.getByRole('region', { name: 'Article body' });
  await expect(articleBody.getByText(ARTICLE_TEXT)).toBeVisible();
  const card = articleBody.getByRole('complementary', { name: `Promotion: ${CONTENT_NAME}` });
  await expect(card).toBeVisible();
  await expect(card.getByRole('link')).toHaveAttribute('href', new RegExp(`/promotion/${contentId}$`));
  await expect(card).toContainText(CONTENT_DESCRIPTION);
  const sidebar = reader.getByRole('complementary', { name: 'About this article' });
  const sidebarLink = sidebar.getByRole('link', { name: CONTENT_NAME, exact: true });
  await sidebarLink.scrollIntoViewIfNeeded();
  // The link's text names the promotion; its image is decorative (alt="") so the name is read once.
  await expect(sidebarLink.locator('img')).toHaveAttribute('src', /^\/uploads\/[0-9a-f]{32}\.png$/);
  await expect(sidebarLink.locator('img')).toHaveAttribute('alt', '');
  await expect.poll(async () => (await contentStats(reader.request, s.admin.token))?.impressions, { timeout: 15_000 }).toBeGreaterThan(0);
  await screenshot(reader, 'article-promotion');

  await sidebarLink.click();
  await expect(reader).toHaveURL(new RegExp(`/promotion/${contentId}$`));
  await expect(heading1(reader, PAGE_NAME)).toBeVisible();
  await expect(reader.getByText(PAGE_TEXT)).toBeVisible();
  await expect.poll(async () => (await contentStats(reader.request, s.admin.token))?.clicks, { timeout: 15_000 }).toBe(1);
  await reader.getByRole('button', { name: 'Register interest' }).click();
  await expect(reader.getByRole('heading', { name: SUCCESS_TITLE })).toBeVisible();
  await expect(reader.getByText(SUCCESS_MESSAGE)).toBeVisible();
  await screenshot(reader, 'promotion-registered');
  // Continue goes back to where the reader came from: the article.
  await reader.getByRole('button', { name: 'Continue' }).click();
  await expect(heading1(reader, ARTICLE_TITLE)).toBeVisible();
  await readerContext.close();

  // 4. The Administrator: the interest on the Interests screen, once delivered to the page's inbox
  // (a job), and in its CSV export.
  await expect
    .poll(
      async () => (await interestsIn(admin.request, s.admin.token, contentId)).map((i) => [i.userEmail, i.deliveredTo, i.deliveryState]),
      {
        timeout: 60_000,
        intervals: [500, 1000, 2000],
      },
    )
    .toEqual([[s.reader.email, PAGE_INBOX, 'Delivered']]);
  await admin.getByRole('navigation', { name: 'Publisher' }).getByRole('link', { name: 'Interests' }).click();
  await expect(heading1(admin, 'Interests')).toBeVisible();
  await admin.getByRole('group', { name: 'Filter' }).getByRole('button', { name: 'Promotional content' }).click();
  await admin.getByRole('searchbox', { name: 'Search readers...' }).fill(s.reader.email);
  const row = admin
    .getByRole('table', { name: 'Interests' })
    .getByRole('row')
    .filter({ has: admin.getByRole('link', { name: CONTENT_NAME, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell')).toHaveText([
    /^Today \d\d:\d\d$/,
    'Promotional content',
    CONTENT_NAME,
    s.reader.name,
    s.reader.email,
    /.*/,
    PAGE_INBOX,
    'Delivered',
  ]);
  await expect(row.getByRole('link', { name: CONTENT_NAME, exact: true })).toHaveAttribute(
    'href',
    new RegExp(`/publisher/promotional-content/edit/${contentId}$`),
  );
  await screenshot(admin, 'interests');

  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  // The server's name for the file, with the day.
  expect(file.suggestedFilename()).toMatch(/^interests-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('Registered at,Kind,Item,Reader,Email,Company,Delivered to,Delivery state');
  expect(lines.filter((l) => l.includes(CONTENT_NAME) && l.includes(s.reader.email))).toHaveLength(1);
  await adminContext.close();
});
