// The reader side against the real server (spec 3 §2, the reader issue): a reader with one free
// subscription reads a free article in full with the watermark, sees a premium article as a teaser
// with the premium panel, follows a topic from its browse page and finds it on For You, searches
// with a filter and opens a hit, shares an article's link, goes from an article to its topic,
// follows it and finds it and its articles on For You and in the topics directory; every reader
// page at desktop and phone width (no horizontal overflow, a screenshot each); and the first-load
// numbers.
//
// Staff make everything through the API once: a desk (the Editor and the Contributor), a free-open
// and a premium channel of the desk, a topic, a tag, and three articles published by the Editor.
// The reader's free subscription has no API yet: it is inserted into the database (support.ts).
// The reader is signed in once; each test starts a new context from that storage state.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  addWithToken,
  addFreeSubscription,
  APP_URL,
  ARTIFACTS,
  graphqlData,
  graphqlWithToken,
  readyUserSession,
  screenshot,
  type SignedInUser,
} from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The reader's signed-in storage state, written by beforeAll and read by each test's context. */
const READER_STATE = join(tmpdir(), `insights-e2e-reader-${process.pid}-${run}.json`);

const FOR_YOU_TITLE = 'All the latest market insights, tailored for you.';
const SEARCH_WORD = 'naphtha';
const SEARCH_QUERY = `${SEARCH_WORD} ${run}`;
/** Only in the free article's body. */
const FREE_SENTENCE = `Naphtha cracks widened for the fourth session in run ${run}.`;
/** Only in the premium article's body, which a reader without the channel must never receive. */
const PREMIUM_SENTENCE = `Premium margins in run ${run} reached a two-year high.`;

interface Named {
  id: string;
  name: string;
}
interface ArticleRef {
  id: string;
  title: string;
  summary: string;
}
interface Setup {
  reader: SignedInUser;
  contributor: Named;
  desk: Named;
  freeChannel: Named;
  premiumChannel: Named;
  topic: Named;
  tag: Named;
  /** Free channel, watermarked, under the topic, with the tag. */
  free: ArticleRef;
  /** Premium channel, premium. */
  premium: ArticleRef;
  /** Premium channel, under the topic: the reader only meets it by following the topic. */
  topicOnly: ArticleRef;
  /** A sub-topic of the topic, for the journey from an article to its topic. */
  subTopic: Named;
  /** Free channel, under the sub-topic: where the journey starts. */
  subTopicFree: ArticleRef;
  /** Premium channel, under the sub-topic only: For You shows it once the reader follows the sub-topic. */
  subTopicOnly: ArticleRef;
}

let setup: Setup;

test.use({ storageState: READER_STATE, viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  // Users exist once they have signed in; the desk and the articles need their ids.
  const admin = await readyUserSession(browser, 'Administrator');
  const editor = await readyUserSession(browser, 'Editor');
  const contributor = await readyUserSession(browser, 'Contributor');
  const reader = await readyUserSession(browser, 'Subscriber');
  writeFileSync(READER_STATE, JSON.stringify(reader.state));

  const api = await playwright.request.newContext();
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>): Promise<string> =>
    addWithToken(api, token, mutation, type, item);

  const deskName = `E2E Reader Desk ${run}`;
  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: deskName,
    description: 'Publishes the articles of the reader browser test',
    email: `e2e-reader-${run}@example.com`,
    contributors: [editor.id, contributor.id],
  });
  const channel = (name: string, type: 'freeOpen' | 'premium') => ({
    name,
    description: type === 'premium' ? 'Premium petrochemicals analysis' : 'Free petrochemicals news',
    type,
    ownerType: 'desk',
    ownerId: deskId,
    adminUsers: [],
    ...(type === 'premium' ? { glAccount: 'GL-E2E-READ', price: '30' } : {}),
  });
  const freeChannel = `E2E Reader Free ${run}`;
  const freeChannelId = await add(admin.token, 'addChannel', 'ChannelInput', channel(freeChannel, 'freeOpen'));
  const premiumChannel = `E2E Reader Premium ${run}`;
  const premiumChannelId = await add(admin.token, 'addChannel', 'ChannelInput', channel(premiumChannel, 'premium'));
  const topic = `E2E Petrochemicals ${run}`;
  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', { name: topic, description: 'Naphtha, ethylene and aromatics' });
  // Every published article needs a topic: the premium one has its own.
  const marginsTopicId = await add(admin.token, 'addCategory', 'CategoryInput', {
    name: `E2E Margins ${run}`,
    description: 'Refining margins',
  });
  const subTopic = `E2E Ethylene ${run}`;
  const subTopicId = await add(admin.token, 'addCategory', 'CategoryInput', {
    name: subTopic,
    description: 'Crackers and ethylene derivatives',
    parent: topicId,
  });
  const tag = `e2e-naphtha-${run}`;
  const tagId = await add(admin.token, 'addTag', 'TagInput', { name: tag, description: 'Naphtha' });

  // The Editor publishes; the oldest first, so the free article is the newest.
  const publish = async (article: Omit<ArticleRef, 'id'>, item: Record<string, unknown>): Promise<ArticleRef> => ({
    ...article,
    id: await add(editor.token, 'publishAdd', 'ArticleInput', {
      title: article.title,
      summary: article.summary,
      contributors: [contributor.id],
      tags: [tagId],
      ...item,
    }),
  });
  // The sub-topic's articles say neither 'naphtha' nor the run in their text: the search test counts its hits.
  const subTopicOnly = await publish(
    { title: `E2E Ethylene contract prices ${run}`, summary: 'Contract prices settle higher in Europe.' },
    { html: '<p>Contract prices settle higher in Europe.</p>', premiumChannelId, isPremium: true, categories: [subTopicId] },
  );
  const subTopicFree = await publish(
    { title: `E2E Cracker restarts ${run}`, summary: 'Two crackers restart after turnarounds.' },
    { html: '<p>Two crackers restart after turnarounds.</p>', premiumChannelId: freeChannelId, categories: [subTopicId] },
  );
  const topicOnly = await publish(
    { title: `E2E Naphtha exports outlook ${run}`, summary: 'Export arbitrage to Asia stays open.' },
    { html: '<p>Export arbitrage to Asia stays open.</p>', premiumChannelId, isPremium: true, categories: [topicId] },
  );
  const premium = await publish(
    { title: `E2E Naphtha premium margins ${run}`, summary: 'Margins are at a two-year high; the detail is for subscribers.' },
    { html: `<p>${PREMIUM_SENTENCE}</p><p>Detail for subscribers.</p>`, premiumChannelId, isPremium: true, categories: [marginsTopicId] },
  );
  const free = await publish(
    { title: `E2E Naphtha cracks widen ${run}`, summary: 'Cracks widen as petrochemical demand returns.' },
    {
      html: `<p>${FREE_SENTENCE}</p><p>Petrochemical demand returned after the maintenance season.</p>`,
      premiumChannelId: freeChannelId,
      categories: [topicId],
      showWatermark: true,
    },
  );
  await api.dispose();

  addFreeSubscription(freeChannelId, reader.id);

  setup = {
    reader,
    contributor: { id: contributor.id, name: contributor.name },
    desk: { id: deskId, name: deskName },
    freeChannel: { id: freeChannelId, name: freeChannel },
    premiumChannel: { id: premiumChannelId, name: premiumChannel },
    topic: { id: topicId, name: topic },
    tag: { id: tagId, name: tag },
    free,
    premium,
    topicOnly,
    subTopic: { id: subTopicId, name: subTopic },
    subTopicFree,
    subTopicOnly,
  };
});

test.afterAll(() => rmSync(READER_STATE, { force: true }));

const articlePath = (id: string) => `browse/article/${id}`;
const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const articleBody = (page: Page) => page.getByRole('region', { name: 'Article body' });
const articleLink = (scope: Page | Locator, title: string) => scope.getByRole('link', { name: title, exact: true });

/**
 * The header's last control (the account menu, or below the small breakpoint the mobile menu) lies
 * within the bar: the bar keeps one row rather than wrapping over the page's title.
 */
async function headerMenuInsideBar(page: Page, size: 'desktop' | 'phone'): Promise<boolean> {
  const bar = page.getByRole('navigation', { name: 'Main' });
  const menu =
    size === 'phone' ? bar.getByRole('button', { name: 'Menu', exact: true }) : bar.getByRole('button', { name: /\(Account menu\)$/ });
  await expect(menu).toBeVisible();
  const [barBox, menuBox] = [await bar.boundingBox(), await menu.boundingBox()];
  return !!barBox && !!menuBox && menuBox.y >= barBox.y && menuBox.y + menuBox.height <= barBox.y + barBox.height;
}

/** The page's width against the window's: nothing may scroll sideways. */
async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return { scrollWidth: g.document.documentElement.scrollWidth, innerWidth: g.innerWidth };
  });
}

test('A reader reads a free article in full, watermarked with their email', async ({ page }) => {
  const s = setup;
  await page.goto(articlePath(s.free.id));
  await expect(heading1(page, s.free.title)).toBeVisible();
  await expect(page.getByText(s.free.summary, { exact: true })).toBeVisible();
  await expect(page.getByText(`Published by ${s.desk.name}`)).toBeVisible();

  const body = articleBody(page);
  await expect(body.getByText(FREE_SENTENCE, { exact: true })).toBeVisible();
  // The watermark repeats the reader's email over the body.
  await expect(body.getByText(s.reader.email, { exact: true }).first()).toBeVisible();
  expect(await body.getByText(s.reader.email, { exact: true }).count()).toBeGreaterThan(1);
  await expect(page.getByRole('heading', { name: 'This is a premium article' })).toHaveCount(0);

  // The sidebar names the contributor and the tag.
  const sidebar = page.getByRole('complementary', { name: 'About this article' });
  await expect(sidebar.getByText(s.contributor.name).first()).toBeVisible();
  await expect(sidebar.getByRole('link', { name: s.tag.name })).toBeVisible();
});

test('A reader without the premium channel sees the teaser and the premium panel, and registers interest', async ({ page }) => {
  const s = setup;
  await page.goto(articlePath(s.premium.id));
  await expect(heading1(page, s.premium.title)).toBeVisible();
  await expect(page.getByText(s.premium.summary, { exact: true })).toBeVisible();

  const panel = page.getByRole('region', { name: 'This is a premium article' });
  await expect(panel).toContainText(`Subscribe to ${s.premiumChannel.name} to read it in full`);
  // The body never reaches the browser.
  await expect(articleBody(page)).toHaveCount(0);
  await expect(page.getByText(PREMIUM_SENTENCE)).toHaveCount(0);
  expect(await page.content()).not.toContain(PREMIUM_SENTENCE);

  await panel.getByRole('button', { name: 'Register interest' }).click();
  await expect(panel.getByText('Thank you for your interest')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Register interest' })).toHaveCount(0);
});

test('A reader follows a topic from its browse page and finds its article on For You', async ({ page }) => {
  const s = setup;
  await page.goto(`browse/${s.topic.id}`);
  await expect(heading1(page, s.topic.name)).toBeVisible();
  const latest = page.getByRole('list', { name: 'Latest articles' });
  await expect(articleLink(latest, s.free.title)).toBeVisible();
  await expect(page.getByText('0 followers', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByText(`You are now following ${s.topic.name}.`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfollow', exact: true })).toBeVisible();
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();
  await screenshot(page, 'reader-topic-followed-desktop');

  // The server keeps the follow and picks the topic's articles for the reader.
  const { me } = await graphqlData<{ me: { followedCategories: Named[]; recommendedArticles: { _id: string }[] } }>(
    page,
    '{ me { followedCategories { id: _id name } recommendedArticles(take: 50) { _id } } }',
  );
  expect(me.followedCategories).toContainEqual({ id: s.topic.id, name: s.topic.name });
  expect(me.recommendedArticles.map((a) => a._id)).toEqual(expect.arrayContaining([s.free.id, s.topicOnly.id]));

  // For You: the topic's free article, from the reader's subscribed channel.
  await page.getByRole('link', { name: 'For you', exact: true }).click();
  await expect(heading1(page, FOR_YOU_TITLE)).toBeVisible();
  await expect(articleLink(page.getByRole('list', { name: 'From your subscriptions' }), s.free.title)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your channel subscriptions' }).getByText(s.freeChannel.name)).toBeVisible();
});

// 'From your subscriptions' holds the server's recommendations: the reader's channels and the
// topics they follow, premium articles of other channels included (as teasers).
test('For You shows the articles of a followed topic from channels the reader does not hold', async ({ page }) => {
  const s = setup;
  await graphqlWithToken(page.request, s.reader.token, 'mutation ($item: FollowInput!) { followEntity(item: $item) { isFollowing } }', {
    item: { entityId: s.topic.id, entityType: 'Category', isAdd: true },
  });
  await page.goto('for-you');
  await expect(heading1(page, FOR_YOU_TITLE)).toBeVisible();
  await expect(articleLink(page, s.topicOnly.title)).toBeVisible();
});

// Spec 1 §1: readers browse by topic and follow topics. The article names its topics; the topic's
// page follows it; For You lists it and picks its articles; the header's Topics entry opens the
// directory, whose filter finds it under its parent and marks it followed.
test('A reader goes from an article to its topic, follows it and finds it and its articles on For You', async ({ page }) => {
  const s = setup;
  await page.goto(articlePath(s.subTopicFree.id));
  await expect(heading1(page, s.subTopicFree.title)).toBeVisible();
  await page.getByRole('list', { name: 'Article topics' }).getByRole('link', { name: s.subTopic.name, exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/insights/browse/${s.subTopic.id}$`));
  await expect(heading1(page, s.subTopic.name)).toBeVisible();
  // The breadcrumbs lead up to the parent topic and the directory.
  await expect(page.getByRole('link', { name: s.topic.name, exact: true })).toHaveAttribute('href', `/insights/browse/${s.topic.id}`);
  await expect(articleLink(page.getByRole('list', { name: 'Latest articles' }), s.subTopicFree.title)).toBeVisible();
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByText(`You are now following ${s.subTopic.name}.`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfollow', exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'For you', exact: true }).click();
  await expect(heading1(page, FOR_YOU_TITLE)).toBeVisible();
  const followed = page.getByRole('region', { name: 'Topics you follow' });
  await expect(followed.getByRole('link', { name: s.subTopic.name, exact: true })).toHaveAttribute(
    'href',
    `/insights/browse/${s.subTopic.id}`,
  );
  // Its premium article, from a channel the reader does not hold, is picked for them now; its card links the topic.
  const picked = page.getByRole('list', { name: 'From your subscriptions' });
  await expect(articleLink(picked, s.subTopicOnly.title)).toBeVisible();
  const card = picked.getByRole('article', { name: s.subTopicOnly.title });
  await expect(card.getByRole('list', { name: 'Topics' }).getByRole('link', { name: s.subTopic.name })).toHaveAttribute(
    'href',
    `/insights/browse/${s.subTopic.id}`,
  );
  await screenshot(page, 'reader-for-you-followed-topic-desktop');

  // The directory: top levels collapsed; the filter finds the sub-topic under its parent, followed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topics', exact: true }).click();
  await expect(heading1(page, 'Topics')).toBeVisible();
  const tree = page.getByRole('list', { name: 'Topics', exact: true });
  await expect(tree.getByRole('link', { name: s.topic.name, exact: true })).toBeVisible();
  await expect(tree.getByRole('link', { name: s.subTopic.name, exact: true })).toHaveCount(0);
  const disclosure = tree.getByRole('button', { name: `${s.topic.name} sub-topics` });
  await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
  await disclosure.press('Enter');
  await expect(disclosure).toHaveAttribute('aria-expanded', 'true');
  await expect(
    page.getByRole('list', { name: `${s.topic.name} sub-topics` }).getByRole('link', { name: s.subTopic.name, exact: true }),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Filter topics' }).fill(`ethylene ${run}`);
  const found = page.getByRole('list', { name: 'Topics found' });
  await expect(found.getByRole('listitem')).toHaveCount(1);
  await expect(found.getByRole('link', { name: s.subTopic.name, exact: true })).toHaveAccessibleDescription(`in ${s.topic.name}`);
  await expect(found.getByText('Following', { exact: true })).toBeVisible();
  await screenshot(page, 'reader-topics-filtered-desktop');
  await found.getByRole('link', { name: s.subTopic.name, exact: true }).click();
  await expect(heading1(page, s.subTopic.name)).toBeVisible();
});

test('A reader searches, narrows to a channel and opens the hit', async ({ page }) => {
  const s = setup;
  await page.goto('search');
  await expect(heading1(page, 'Search and explore')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search articles' }).fill(SEARCH_QUERY);
  const total = page.getByRole('status');
  await expect(total).toHaveText(`3 articles found for '${SEARCH_QUERY}'`);
  const results = page.getByRole('list', { name: 'Search results' });
  for (const article of [s.free, s.premium, s.topicOnly]) await expect(articleLink(results, article.title)).toBeVisible();

  const access = page.getByRole('group', { name: 'Article access' });
  await access.getByRole('button', { name: 'Premium', exact: true }).click();
  await expect(total).toHaveText(`2 articles found for '${SEARCH_QUERY}'`);
  await expect(articleLink(results, s.free.title)).toHaveCount(0);
  await access.getByRole('button', { name: 'All articles', exact: true }).click();
  await expect(total).toHaveText(`3 articles found for '${SEARCH_QUERY}'`);

  await page.getByRole('combobox', { name: 'Channel', exact: true }).selectOption({ label: s.freeChannel.name });
  await expect(total).toHaveText(`1 article found for '${SEARCH_QUERY}'`);
  await expect(page).toHaveURL(new RegExp(`[?&]channel=${s.freeChannel.id}`));
  // One card (its topics are a list of their own inside it).
  await expect(results.getByRole('article')).toHaveCount(1);
  // The hit shows the matched words highlighted.
  await expect(results.getByText(/naphtha/i).first()).toBeVisible();
  await screenshot(page, 'reader-search-filtered-desktop');

  await articleLink(results, s.free.title).click();
  await expect(page).toHaveURL(new RegExp(`/insights/browse/article/${s.free.id}$`));
  await expect(heading1(page, s.free.title)).toBeVisible();
  await expect(articleBody(page).getByText(FREE_SENTENCE, { exact: true })).toBeVisible();
});

test('A reader opens the share dialog and copies the article link', async ({ page }) => {
  const s = setup;
  await page.goto(articlePath(s.free.id));
  await expect(heading1(page, s.free.title)).toBeVisible();
  await page.getByRole('button', { name: 'Share', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Share this article' });
  await expect(dialog).toBeVisible();
  const methods = dialog.getByRole('group', { name: 'Share methods' });
  for (const name of ['Email', 'Twitter', 'LinkedIn', 'Facebook']) await expect(methods.getByRole('link', { name })).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'QR code of the article link' })).toBeVisible();
  await screenshot(page, 'reader-share-dialog-desktop', false);
  await expectAccessible(page, 'article: the share dialog with its QR code');

  await methods.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied to clipboard', { exact: true })).toBeVisible();
  await expectAccessible(page, 'article: a toast');
  const copied = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(copied).toBe(`${APP_URL}${articlePath(s.free.id)}`);
});

interface ReaderPage {
  name: string;
  path: string;
  /** What shows once the page has loaded its content. */
  ready: (page: Page) => Locator[];
}

function readerPages(s: Setup): ReaderPage[] {
  const latest = (page: Page) => page.getByRole('list', { name: 'Latest articles' });
  return [
    {
      name: 'for-you',
      path: 'for-you',
      ready: (page) => [
        heading1(page, FOR_YOU_TITLE),
        // Not 'From your subscriptions': the reader has opened it twice by now, so it is no longer recommended.
        articleLink(page.getByRole('list', { name: 'Latest free articles' }), s.free.title),
      ],
    },
    {
      name: 'channels',
      path: 'channels',
      ready: (page) => [
        heading1(page, 'Find channels and subscribe'),
        page.getByRole('list', { name: 'Channels' }).getByRole('heading', { name: s.freeChannel.name }),
      ],
    },
    {
      name: 'channel',
      path: `browse/channel/${s.freeChannel.id}`,
      ready: (page) => [heading1(page, s.freeChannel.name), articleLink(latest(page), s.free.title)],
    },
    {
      name: 'article-full',
      path: articlePath(s.free.id),
      ready: (page) => [heading1(page, s.free.title), articleBody(page).getByText(FREE_SENTENCE, { exact: true })],
    },
    {
      name: 'article-premium',
      path: articlePath(s.premium.id),
      ready: (page) => [heading1(page, s.premium.title), page.getByRole('region', { name: 'This is a premium article' })],
    },
    {
      name: 'topic',
      path: `browse/${s.topic.id}`,
      ready: (page) => [heading1(page, s.topic.name), articleLink(latest(page), s.free.title)],
    },
    {
      name: 'topics',
      path: 'topics-page',
      ready: (page) => [
        heading1(page, 'Topics'),
        page.getByRole('list', { name: 'Topics', exact: true }).getByRole('link', { name: s.topic.name }),
      ],
    },
    {
      name: 'search',
      path: `search?q=${encodeURIComponent(SEARCH_QUERY)}`,
      ready: (page) => [
        heading1(page, 'Search and explore'),
        articleLink(page.getByRole('list', { name: 'Search results' }), s.free.title),
      ],
    },
    {
      name: 'desk',
      path: `desk/${s.desk.id}`,
      ready: (page) => [heading1(page, s.desk.name), articleLink(latest(page), s.free.title)],
    },
    {
      name: 'contributor',
      path: `contributor/${s.contributor.id}`,
      ready: (page) => [heading1(page, s.contributor.name), articleLink(latest(page), s.free.title)],
    },
    {
      name: 'tag',
      path: `tag/${s.tag.id}`,
      ready: (page) => [
        heading1(page, `All articles tagged ${s.tag.name}`),
        articleLink(page.getByRole('list', { name: 'Articles' }), s.free.title),
      ],
    },
    {
      name: 'archives',
      path: 'archives',
      ready: (page) => [heading1(page, 'Archives'), page.getByRole('list', { name: 'Months' }).getByRole('link').first()],
    },
    {
      name: 'marketing-article',
      path: `browse/marketing-article/${s.free.id}`,
      ready: (page) => [heading1(page, s.free.title), articleBody(page).getByText(FREE_SENTENCE, { exact: true })],
    },
  ];
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test.describe(`At ${size} width`, () => {
    test.use({ viewport, ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}) });

    test(`every reader page loads without horizontal overflow (screenshots reader-*-${size})`, async ({ page }) => {
      test.setTimeout(60_000);
      for (const { name, path, ready } of readerPages(setup)) {
        await page.goto(path);
        for (const locator of ready(page)) await expect(locator, `${name}: ${locator}`).toBeVisible();
        const { scrollWidth, innerWidth } = await horizontalOverflow(page);
        expect.soft(scrollWidth, `${name} is ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
        if (name === 'marketing-article') {
          // Campaign emails' page: the article without the app header.
          await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
        } else {
          expect.soft(await headerMenuInsideBar(page, size), `${name}: the header's menu wraps out of the bar`).toBe(true);
        }
        await screenshot(page, `reader-${name}-${size}`);
      }
    });

    test(`the header's ${size === 'phone' ? 'menu' : 'bar'} leads to the topics directory`, async ({ page }) => {
      await page.goto('for-you');
      await expect(heading1(page, FOR_YOU_TITLE)).toBeVisible();
      const bar = page.getByRole('navigation', { name: 'Main' });
      if (size === 'phone') {
        await bar.getByRole('button', { name: 'Menu', exact: true }).click();
        await page.getByRole('menu', { name: 'Menu' }).getByRole('menuitem', { name: 'Topics' }).click();
      } else {
        await bar.getByRole('link', { name: 'Topics', exact: true }).click();
      }
      await expect(page).toHaveURL(/\/insights\/topics-page$/);
      await expect(heading1(page, 'Topics')).toBeVisible();
    });
  });
}

test('First load: time to the article text on a cold cache, and the JavaScript For You loads', async ({ browser }) => {
  test.setTimeout(60_000);
  const s = setup;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  // A new context each time: an empty HTTP cache, signed in through the stored tokens.
  const articleLoads: { sinceNavigationStartMs: number; wallClockMs: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP, storageState: READER_STATE });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(articlePath(s.free.id), { waitUntil: 'commit' });
    // Checked in the page on every frame: the moment (since navigation start) the text is rendered.
    const shownAt = await page.waitForFunction(
      (sentence) => {
        const g = globalThis as unknown as {
          document: { querySelector(s: string): { innerText: string } | null };
          performance: { now(): number };
        };
        const body = g.document.querySelector('[role="region"][aria-label="Article body"]');
        return body && body.innerText.includes(sentence) ? g.performance.now() : false;
      },
      FREE_SENTENCE,
      { polling: 'raf', timeout: 20_000 },
    );
    const wallClockMs = Date.now() - started;
    await expect(articleBody(page).getByText(FREE_SENTENCE, { exact: true })).toBeVisible();
    articleLoads.push({ sinceNavigationStartMs: Math.round((await shownAt.jsonValue()) as number), wallClockMs });
    await context.close();
  }

  // For You on a cold cache: every script until the network is idle.
  const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP, storageState: READER_STATE });
  const page = await context.newPage();
  const scripts: Promise<{ file: string; transferBytes: number; bodyBytes: number; gzipBytes: number }>[] = [];
  page.on('response', (response) => {
    const file = new URL(response.url()).pathname;
    if (!file.endsWith('.js')) return;
    scripts.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        return { file, transferBytes: sizes.responseBodySize, bodyBytes: body.length, gzipBytes: gzipSync(body).length };
      })(),
    );
  });
  await page.goto('for-you');
  await expect(heading1(page, FOR_YOU_TITLE)).toBeVisible();
  await expect(articleLink(page.getByRole('list', { name: 'Latest free articles' }), s.free.title)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(scripts);
  await context.close();
  const sum = (key: 'transferBytes' | 'bodyBytes' | 'gzipBytes') => files.reduce((total, f) => total + f[key], 0);

  const result = {
    measuredAt: new Date().toISOString(),
    articleFirstText: {
      note: 'new browser context each run (cold HTTP cache), signed in; from navigation start until the body text is rendered',
      runs: articleLoads,
      medianSinceNavigationStartMs: median(articleLoads.map((l) => l.sinceNavigationStartMs)),
      medianWallClockMs: median(articleLoads.map((l) => l.wallClockMs)),
    },
    forYouJavaScript: {
      note: 'every .js response of a cold /for-you until network idle; transfer = encoded body bytes on the wire, gzip = the bodies gzip -6',
      files: files.length,
      transferBytes: sum('transferBytes'),
      bodyBytes: sum('bodyBytes'),
      gzipBytes: sum('gzipBytes'),
      perFile: files.sort((a, b) => b.bodyBytes - a.bodyBytes),
    },
  };
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'reader-first-load.json'), `${JSON.stringify(result, null, 2)}\n`);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `Reader first load: article text after ${result.articleFirstText.medianSinceNavigationStartMs} ms from navigation start ` +
      `(median of ${articleLoads.map((l) => l.sinceNavigationStartMs).join(', ')} ms; wall clock ${result.articleFirstText.medianWallClockMs} ms); ` +
      `/for-you JavaScript: ${files.length} files, ${kb(result.forYouJavaScript.transferBytes)} transferred, ` +
      `${kb(result.forYouJavaScript.bodyBytes)} uncompressed, ${kb(result.forYouJavaScript.gzipBytes)} gzip'd`,
  );
  expect(files.length).toBeGreaterThan(0);
});
