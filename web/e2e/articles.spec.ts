// Articles against the real server (spec 2 "Article editor", "Articles list", "Article stats",
// "Templates", §4): a contributor drafts an article with an uploaded image, a topic and a tag; an
// editor publishes it (subscribers notified), finds it in the list and its stats, archives and
// unarchives it. An editor makes a template whose title holds {{today}} and starts an article from
// it. The local draft survives a reload and is offered back ('Resume editing?').
//
// The desk (the Editor and the Contributor), its premium channel, a topic and a tag are made once
// through the API by the Administrator.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { BASE_URL, graphqlData, localStorageItem, PNG_1X1, screenshot, signInAs, type ReadyUser } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

/** The app's base, as playwright.config.ts gives it to the `page` fixture. */
const APP_URL = `${BASE_URL}/insights/`;
const VIEWPORT = { width: 1400, height: 900 };

const AUTOSAVE_TEXT = 'Content is auto-saved locally in this browser until the article is saved.';
const RESUME_TITLE = 'Unpublished content – Resume editing?';
const CONTRIBUTOR_NAME = 'Chris Contributor';

interface Setup {
  deskName: string;
  channel: string;
  channelId: string;
  topic: string;
  tag: string;
}

let setup: Setup;

/** A new browser context signed in as `user`, on the articles list. */
async function signedIn(browser: Browser, user: ReadyUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: APP_URL, viewport: VIEWPORT });
  const page = await context.newPage();
  await signInAs(page, user, 'publisher/articles');
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible();
  return { context, page };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(60_000);
  // The users exist once they have signed in; the desk needs their ids.
  const ids: string[] = [];
  for (const user of ['Editor', 'Contributor'] as const) {
    const { context, page } = await signedIn(browser, user);
    ids.push((await graphqlData<{ me: { _id: string } }>(page, '{ me { _id } }')).me._id);
    await context.close();
  }

  const { context, page } = await signedIn(browser, 'Administrator');
  const deskName = `E2E Articles Desk ${run}`;
  const { addDesk } = await graphqlData<{ addDesk: { _id: string } }>(
    page,
    `
      mutation ($item: DeskInput!) {
        addDesk(item: $item) {
          _id
        }
      }
    `,
    { item: { name: deskName, description: 'Publishes the articles of the browser test', contributors: ids } },
  );
  const channel = `E2E Oil Markets ${run}`;
  const { addChannel } = await graphqlData<{ addChannel: { _id: string } }>(
    page,
    `
      mutation ($item: ChannelInput!) {
        addChannel(item: $item) {
          _id
        }
      }
    `,
    {
      item: {
        name: channel,
        description: 'Premium oil market analysis',
        type: 'premium',
        ownerType: 'desk',
        ownerId: addDesk._id,
        adminUsers: [],
        glAccount: 'GL-E2E-ART',
        price: '25',
      },
    },
  );
  const topic = `E2E Refining ${run}`;
  await graphqlData(
    page,
    `
      mutation ($item: CategoryInput!) {
        addCategory(item: $item) {
          _id
        }
      }
    `,
    { item: { name: topic, description: 'Refining margins and runs' } },
  );
  const tag = `e2e-brent-${run}`;
  await graphqlData(
    page,
    `
      mutation ($item: TagInput!) {
        addTag(item: $item) {
          _id
        }
      }
    `,
    { item: { name: tag, description: 'Brent crude' } },
  );
  await context.close();
  setup = { deskName, channel, channelId: addChannel._id, topic, tag };
});

/** The success toast. */
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** 'DD MMM YYYY HH:mm' in local time, as the list words a premium expiry. */
function fullDateTime(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Today as the server writes it into a template's title (UTC), like '05 Jan 2024'. */
function serverToday(): string {
  const d = new Date();
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Back to the top of the page, for a screenshot of the window (not the full page). */
async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
}

/** The article's row in the list (found by its title link). */
function articleRow(page: Page, title: string): Locator {
  return page
    .getByRole('table', { name: 'Articles' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

/** The list on `tab`, searched for `title`. */
async function searchArticles(page: Page, tab: 'All' | 'Pending' | 'Published' | 'Archived', title: string): Promise<void> {
  const tabs = page.getByRole('group', { name: 'Filter', exact: true });
  await tabs.getByRole('button', { name: tab, exact: true }).click();
  await expect(tabs.getByRole('button', { name: tab, exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('searchbox', { name: 'Search articles...' }).fill(title);
  // The search lands after the debounce: until then the rows are the tab's, not the search's.
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(title);
}

/** The row of `title`, the only match of the search on `tab`. */
async function findArticle(page: Page, tab: 'All' | 'Pending' | 'Published' | 'Archived', title: string): Promise<Locator> {
  await searchArticles(page, tab, title);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  const row = articleRow(page, title);
  await expect(row).toBeVisible();
  return row;
}

/** The editor's parts. */
function editorParts(page: Page) {
  const settings = page.getByRole('complementary', { name: 'Article settings' });
  return {
    title: page.getByRole('textbox', { name: 'Title', exact: true }),
    body: page.getByRole('textbox', { name: 'Article body' }),
    actions: page.getByRole('group', { name: 'Article actions' }),
    settings,
    channel: settings.getByRole('combobox', { name: 'Channel', exact: true }),
    topics: settings.getByRole('tree', { name: 'Topics' }),
    chosenTags: settings.getByRole('list', { name: 'Chosen tags' }),
  };
}

/** Checks a topic of the tree, found through the filter box. */
async function chooseTopic(scope: Locator, topic: string): Promise<void> {
  await scope.getByRole('searchbox', { name: 'Filter topics' }).fill(topic);
  const item = scope.getByRole('treeitem', { name: topic, exact: true });
  await item.getByText(topic, { exact: true }).click();
  await expect(item).toHaveAttribute('aria-checked', 'true');
}

interface ArticleRecord {
  state: string;
  sendEmails: boolean;
  wasPublishedPreviously: boolean;
  publishDate: string | null;
  premiumExpiresAt: string | null;
  premiumExpiryOffset: string | null;
  isPremium: boolean;
  html: string;
  summary: string | null;
  templateId: string | null;
  author: { name: string } | null;
  publishedBy: { name: string } | null;
  premiumChannel: { name: string } | null;
  contributors: { name: string }[];
  categories: { name: string }[];
  tags: { name: string }[];
}

async function findArticleById(page: Page, id: string): Promise<ArticleRecord> {
  const { findArticleById } = await graphqlData<{ findArticleById: ArticleRecord }>(
    page,
    `
      query ($id: ID!) {
        findArticleById(id: $id) {
          state
          sendEmails
          wasPublishedPreviously
          publishDate
          premiumExpiresAt
          premiumExpiryOffset
          isPremium
          html
          summary
          templateId
          author {
            name
          }
          publishedBy {
            name
          }
          premiumChannel {
            name
          }
          contributors {
            name
          }
          categories {
            name
          }
          tags {
            name
          }
        }
      }
    `,
    { id },
  );
  return findArticleById;
}

/** The id at the end of the title's edit link: /publisher/articles/edit/{_id}. */
async function articleId(row: Locator, title: string): Promise<string> {
  const href = await row.getByRole('link', { name: title, exact: true }).getAttribute('href');
  expect(href).toMatch(/\/publisher\/articles\/edit\/[^/]+$/);
  return href!.split('/').pop()!;
}

test('A contributor drafts an article with an image and a tag; an editor publishes, archives and unarchives it', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const s = setup;
  const title = `E2E Brent outlook ${run}`;
  const summary = 'Brent holds above 80 dollars as inventories draw for a third week.';
  const bodyText = 'Crude inventories fell for the third week in a row.';

  // The contributor writes the draft.
  await signInAs(page, 'Contributor', 'publisher/articles');
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible();
  await page.getByRole('link', { name: 'New article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeVisible();
  await expect(page.getByText(AUTOSAVE_TEXT)).toBeVisible();
  const editor = editorParts(page);
  // A contributor may save, not publish; a new article cannot be archived.
  await expect(editor.actions.getByRole('button')).toHaveText(['Save to draft']);

  await editor.title.fill(title);
  await editor.body.click();
  await page.keyboard.type(bodyText);
  // The toolbar's image button opens the file chooser; the image is uploaded and shown from /uploads/
  // with the token (linked from nothing yet, it is not public).
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Insert image', exact: true }).click();
  await (await chooser).setFiles({ name: 'inventories.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
  // What the image shows is asked before it goes in (its alt text).
  const describe = page.getByRole('dialog', { name: 'Insert image inventories.png' });
  await expectAccessible(page, 'editor: the image description dialog');
  await describe.getByRole('textbox', { name: 'Alternative text' }).fill('US crude inventories, weekly');
  await describe.getByRole('button', { name: 'Insert image' }).click();
  const image = editor.body.locator('img');
  await expect(image).toHaveAttribute('alt', 'US crude inventories, weekly');
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);

  // The channel first: choosing it resets the contributors. Its owner publishes the article.
  await editor.channel.selectOption({ label: s.channel });
  await expect(editor.settings.getByText(`Published by: ${s.deskName}`, { exact: true })).toBeVisible();
  await editor.settings.getByRole('combobox', { name: 'Premium expiry' }).selectOption({ label: '1 week' });
  const contributors = editor.settings.getByRole('combobox', { name: 'Contributors' });
  await contributors.fill(CONTRIBUTOR_NAME);
  await page
    .getByRole('listbox', { name: 'Suggested users' })
    .getByRole('option', { name: new RegExp(CONTRIBUTOR_NAME) })
    .click();
  await expect(editor.settings.getByRole('button', { name: `Remove ${CONTRIBUTOR_NAME}` })).toBeVisible();
  await editor.settings.getByRole('textbox', { name: 'Summary' }).fill(summary);
  await expect(editor.settings.getByText(`${250 - summary.length} characters remaining`)).toBeVisible();
  await chooseTopic(editor.settings, s.topic);
  await editor.settings.getByRole('combobox', { name: 'Tags' }).fill(s.tag);
  await page.getByRole('listbox', { name: 'Matching tags' }).getByRole('option', { name: s.tag, exact: true }).click();
  await expect(editor.chosenTags).toContainText(s.tag);
  // Not full page: the capture resizes the window, which remounts the unsaved form.
  await scrollToTop(page);
  await screenshot(page, 'article-editor', false);

  await editor.actions.getByRole('button', { name: 'Save to draft' }).click();
  await expect(toast(page, 'Article saved as a draft')).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/articles$/);
  const draftRow = await findArticle(page, 'Pending', title);
  await expect(draftRow).toContainText('Pending');
  await expect(draftRow.getByRole('cell').nth(5)).toHaveText('Expires 1 week after publishing');
  const id = await articleId(draftRow, title);
  const draft = await findArticleById(page, id);
  expect(draft).toMatchObject({
    state: 'Pending',
    publishDate: null,
    summary,
    isPremium: true,
    premiumExpiryOffset: '1w',
    author: { name: CONTRIBUTOR_NAME },
    publishedBy: { name: s.deskName },
    premiumChannel: { name: s.channel },
    contributors: [{ name: CONTRIBUTOR_NAME }],
    categories: [{ name: s.topic }],
    tags: [{ name: s.tag }],
  });
  expect(draft.html).toContain(bodyText);
  expect(draft.html).toMatch(/<img src="\/uploads\/[0-9a-f]{32}\.png"/);
  const imagePath = /<img src="(\/uploads\/[0-9a-f]{32}\.png)"/.exec(draft.html)![1];

  // The editor, a member of the publishing desk, opens it from the list and publishes it.
  const { context, page: ed } = await signedIn(browser, 'Editor');
  let row = await findArticle(ed, 'All', title);
  await expect(row).toContainText('Pending');
  await row.getByRole('link', { name: title, exact: true }).click();
  await expect(ed.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible();
  const edEditor = editorParts(ed);
  await expect(edEditor.title).toHaveValue(title);
  await expect(edEditor.body).toContainText(bodyText);
  await expect(edEditor.body.locator('img')).toHaveAttribute('src', /^blob:/);
  await expect(edEditor.channel).toHaveValue(s.channelId);
  await expect(edEditor.chosenTags).toContainText(s.tag);
  await expect(edEditor.topics.getByRole('treeitem', { name: s.topic, exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(edEditor.actions.getByRole('button')).toHaveText(['Update draft', 'Publish', 'Archive']);

  await edEditor.actions.getByRole('button', { name: 'Publish' }).click();
  const publish = ed.getByRole('alertdialog', { name: 'Publish article' });
  // A fresh article published now always notifies: there is no choice to make. The new channel has
  // nobody subscribed yet, which the dialog says; sendEmails is checked through the API below.
  await expect(publish).toContainText('Publish this article now? The channel has no subscribers to notify.');
  await expect(publish.getByRole('checkbox')).toHaveCount(0);
  await screenshot(ed, 'publish-dialog', false);
  await publish.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(toast(ed, 'Article published')).toBeVisible();
  await expect(ed).toHaveURL(/\/publisher\/articles$/);

  const published = await findArticleById(ed, id);
  expect(published).toMatchObject({ state: 'Published', sendEmails: true, wasPublishedPreviously: true, premiumExpiryOffset: '1w' });

  expect(Date.parse(published.premiumExpiresAt!) - Date.parse(published.publishDate!)).toBe(7 * 24 * 3600 * 1000);

  // The list: Title, Published By (the desk), Unique views, Published, Last Edit, Premium.
  row = await findArticle(ed, 'Published', title);
  await expect(ed.getByRole('table', { name: 'Articles' }).getByRole('columnheader')).toHaveText([
    'Title',
    'Published By',
    'Unique views',
    'Published',
    'Last Edit',
    'Premium',
  ]);
  await expect(row.getByRole('cell')).toHaveText([
    title,
    s.deskName,
    '0',
    /^Today \d\d:\d\d$/,
    /^Today \d\d:\d\d$/,
    `Expires ${fullDateTime(published.premiumExpiresAt!)}`,
  ]);
  await screenshot(ed, 'articles-list');

  // Its stats: nobody has read it yet.
  await row.getByRole('link', { name: `0 unique views of ${title}` }).click();
  await expect(ed).toHaveURL(new RegExp(`/publisher/articles/stats/${id}$`));
  await expect(ed.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(ed.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(/Articles.*View stats/);
  const status = ed.getByRole('list', { name: 'Article status' });
  await expect(status.getByRole('listitem')).toHaveText([
    'Published',
    /^Published Today \d\d:\d\d$/,
    /^Last edit Today \d\d:\d\d$/,
    '0 view(s)',
    '0 user(s)',
  ]);
  await expect(ed.getByText('There are no items to show')).toBeVisible();
  await screenshot(ed, 'article-stats');

  // The premium article's image: not to an anonymous client, and on the article page through a link
  // signed for the reader (here staff, who may read it), which Chromium loads without the token. After
  // the stats: the visit counts a view.
  expect((await ed.request.get(imagePath)).status()).toBe(404);
  await ed.goto(`browse/article/${id}`);
  const readerImage = ed.locator('.insights-article-html img');
  await expect(readerImage).toHaveAttribute('src', new RegExp(`^${imagePath}\\?u=[0-9a-f]{24}&e=\\d+&s=`));
  await expect.poll(() => readerImage.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  await ed.goBack();

  // Archive, after the confirmation: it leaves Published and shows under Archived.
  await ed.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Articles' }).click();
  row = await findArticle(ed, 'Published', title);
  await row.getByRole('link', { name: title, exact: true }).click();
  await expect(ed.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible();
  await expect(edEditor.actions.getByRole('button')).toHaveText(['Convert to draft', 'Update', 'Archive']);
  await edEditor.actions.getByRole('button', { name: 'Archive' }).click();
  const archive = ed.getByRole('alertdialog', { name: 'Archive article' });
  await expect(archive).toContainText('Archive this article? Readers will no longer see it.');
  await screenshot(ed, 'article-archive-confirm', false);
  await archive.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(toast(ed, 'Article archived')).toBeVisible();
  await expect(ed).toHaveURL(/\/publisher\/articles$/);
  await searchArticles(ed, 'Published', title);
  await expect(ed.getByText('There are no items to show')).toBeVisible();
  row = await findArticle(ed, 'Archived', title);
  await expect(row).toContainText('Archived');
  expect((await findArticleById(ed, id)).state).toBe('Archived');

  // Unarchive: saving an archived article makes it a draft again.
  await row.getByRole('link', { name: title, exact: true }).click();
  await expect(ed.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible();
  await expect(edEditor.actions.getByRole('button')).toHaveText(['Update and unarchive', 'Publish']);
  await edEditor.actions.getByRole('button', { name: 'Update and unarchive' }).click();
  await expect(toast(ed, 'Article saved as a draft')).toBeVisible();
  await expect(ed).toHaveURL(/\/publisher\/articles$/);
  await searchArticles(ed, 'Archived', title);
  await expect(ed.getByText('There are no items to show')).toBeVisible();
  row = await findArticle(ed, 'Pending', title);
  await expect(row).toContainText('Pending');
  expect(await findArticleById(ed, id)).toMatchObject({ state: 'Pending', wasPublishedPreviously: true });
  await context.close();
});

test('An editor creates a template with {{today}} in its title and starts a draft from it', async ({ page }) => {
  test.setTimeout(90_000);
  const s = setup;
  const templateTitle = `E2E Morning report ${run} {{today}}`;
  const articleTitle = `E2E Morning report ${run} ${serverToday()}`;
  const bodyText = 'Overnight moves in crude and products.';

  await signInAs(page, 'Editor', 'publisher/templates');
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible();
  await page.getByRole('link', { name: 'New template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New template' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(templateTitle);
  await form.getByRole('textbox', { name: 'Template body' }).click();
  await page.keyboard.type(bodyText);
  await form.getByRole('combobox', { name: 'Channel', exact: true }).selectOption({ label: s.channel });
  await chooseTopic(form, s.topic);
  await scrollToTop(page);
  await screenshot(page, 'template-form', false);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The template ${templateTitle} has been added.`)).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/templates$/);

  // The list: publisher (the channel's desk), channel, not used yet.
  await page.getByRole('searchbox', { name: 'Search templates...' }).fill(`Morning report ${run}`);
  const templates = page.getByRole('table', { name: 'Templates' });
  const templateRow = templates.getByRole('row').filter({ has: page.getByRole('link', { name: templateTitle, exact: true }) });
  await expect(templateRow).toContainText(s.deskName);
  await expect(templateRow).toContainText(s.channel);
  await expect(templateRow).toContainText('no articles');
  await screenshot(page, 'template-list');

  // Articles > New from template > the template.
  await page.getByRole('navigation', { name: 'Publisher' }).getByRole('link', { name: 'Articles' }).click();
  await page.getByRole('link', { name: 'New from template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a template to create a new article' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search templates...' }).fill(`Morning report ${run}`);
  const choice = page.getByRole('table', { name: 'Templates' }).getByRole('link', { name: templateTitle, exact: true });
  const templateId = (await choice.getAttribute('href'))!.split('/').pop()!;
  await choice.click();
  await expect(page).toHaveURL(new RegExp(`/publisher/articles/add-from-template/${templateId}$`));

  // The editor starts with today's title, the body, the channel (and its publisher) and the topic.
  await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeVisible();
  const editor = editorParts(page);
  await expect(editor.title).toHaveValue(articleTitle);
  await expect(editor.body).toContainText(bodyText);
  await expect(editor.channel).toHaveValue(s.channelId);
  await expect(editor.settings.getByText(`Published by: ${s.deskName}`, { exact: true })).toBeVisible();
  await expect(editor.topics.getByRole('treeitem', { name: s.topic, exact: true })).toHaveAttribute('aria-checked', 'true');
  await scrollToTop(page);
  await screenshot(page, 'article-from-template', false);

  await editor.actions.getByRole('button', { name: 'Save to draft' }).click();
  await expect(toast(page, 'Article saved as a draft')).toBeVisible();
  await expect(page).toHaveURL(/\/publisher\/articles$/);
  const row = await findArticle(page, 'Pending', articleTitle);
  await expect(row).toContainText('Pending');
  await expect(row.getByRole('cell').nth(1)).toHaveText(s.deskName);
  await expect(row.getByRole('cell').nth(5)).toHaveText('No expiry');
  const article = await findArticleById(page, await articleId(row, articleTitle));
  expect(article).toMatchObject({ state: 'Pending', templateId, premiumChannel: { name: s.channel }, categories: [{ name: s.topic }] });

  // The template now counts it.
  await page.getByRole('navigation', { name: 'Publisher' }).getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('searchbox', { name: 'Search templates...' }).fill(`Morning report ${run}`);
  await expect(templateRow).toContainText('1 article');
});

test('Unsaved changes survive a reload and are offered back: Resume editing, Discard content', async ({ page }) => {
  test.setTimeout(60_000);
  const s = setup;
  const title = `E2E Diesel cracks ${run}`;
  const revised = `${title} revised`;
  const added = 'Added before the reload.';

  await signInAs(page, 'Contributor', 'publisher/articles');
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible();
  const { addArticle } = await graphqlData<{ addArticle: { _id: string } }>(
    page,
    `
      mutation ($item: ArticleInput!) {
        addArticle(item: $item) {
          _id
        }
      }
    `,
    { item: { title, html: '<p>Diesel cracks widened.</p>', premiumChannelId: s.channelId } },
  );
  const key = `insights.articleDraft.${addArticle._id}`;
  const storedDraft = async () => {
    const raw = await localStorageItem(page, key);
    return raw ? (JSON.parse(raw) as { values: { title: string; html: string } }).values : null;
  };

  await page.goto(`publisher/articles/edit/${addArticle._id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible();
  const editor = editorParts(page);
  await expect(editor.title).toHaveValue(title);
  await expect(page.getByText(AUTOSAVE_TEXT)).toBeVisible();
  await expect(page.getByRole('heading', { name: RESUME_TITLE })).toHaveCount(0);

  await editor.title.fill(revised);
  await editor.body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(` ${added}`);
  // The timer stores the changed content (every 3 s by default).
  await expect
    .poll(storedDraft, { timeout: 15_000 })
    .toMatchObject({ title: revised, html: expect.stringContaining(`Diesel cracks widened. ${added}`) });

  await page.reload();
  await expect(page.getByRole('heading', { name: RESUME_TITLE })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume editing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Discard content' })).toBeVisible();
  // Until the user answers, the editor shows the saved article.
  await expect(editor.title).toHaveValue(title);
  await expect(editor.body).not.toContainText(added);
  await screenshot(page, 'article-resume-draft', false);

  await page.getByRole('button', { name: 'Resume editing' }).click();
  await expect(page.getByRole('heading', { name: RESUME_TITLE })).toHaveCount(0);
  await expect(editor.title).toHaveValue(revised);
  await expect(editor.body).toContainText(`Diesel cracks widened. ${added}`);

  // Not saved, so a reload offers it again; discarding it keeps the saved article and forgets the draft.
  await page.reload();
  await expect(page.getByRole('heading', { name: RESUME_TITLE })).toBeVisible();
  await page.getByRole('button', { name: 'Discard content' }).click();
  await expect(page.getByRole('heading', { name: RESUME_TITLE })).toHaveCount(0);
  await expect(editor.title).toHaveValue(title);
  await expect.poll(storedDraft).toBeNull();
});
