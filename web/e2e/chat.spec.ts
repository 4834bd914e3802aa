// The intelligence chat against the real server (issue 14): a reader with the intelligence scope
// opens the widget, asks a question and gets an answer citing a free article (no model configured:
// the answer is the passages themselves), never the premium article they may not read; the
// citation opens the article, and the widget stays open across pages and reloads.
//
// The Editor publishes a free and a premium article through the API; the reader signs in through
// the built-in provider's form with the reader and intelligence scopes. The server must run with
// INSIGHTS_FEATURE_INTELLIGENCE=true (scripts/test.sh).
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { addWithToken, APP_URL, BASE_URL, readyUserSession, screenshot } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);
const FREE_TITLE = `E2E Butadiene spreads ${run}`;
const FREE_SENTENCE = `Butadiene spreads in run ${run} widened as tyre demand recovered.`;
const PREMIUM_TITLE = `E2E Butadiene premium ${run}`;
/** Only in the premium article: the reader must never receive it. */
const MARKER = `quorvexite${run}`;
const QUESTION = `What happened to butadiene spreads in run ${run}?`;
const TITLE = 'Ask our research';

let freeId = '';

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext();
  const config = await api.post(`${BASE_URL}/graphql`, { data: { query: '{ config { features { intelligence } } }' } });
  const intelligence = (await config.json()).data.config.features.intelligence;
  expect(intelligence, 'the server under test needs INSIGHTS_FEATURE_INTELLIGENCE=true (scripts/test.sh)').toBe(true);

  const admin = await readyUserSession(browser, 'Administrator');
  const editor = await readyUserSession(browser, 'Editor');
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>) =>
    addWithToken(api, token, mutation, type, item);
  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Chat Desk ${run}`,
    description: 'Publishes the articles of the chat browser test',
    email: `e2e-chat-${run}@example.com`,
    contributors: [editor.id],
  });
  const channel = (name: string, type: 'freeOpen' | 'premium') => ({
    name,
    description: type === 'premium' ? 'Premium rubber analysis' : 'Free rubber news',
    type,
    ownerType: 'desk',
    ownerId: deskId,
    adminUsers: [],
    ...(type === 'premium' ? { glAccount: 'GL-E2E-CHAT', price: '30' } : {}),
  });
  const freeChannelId = await add(admin.token, 'addChannel', 'ChannelInput', channel(`E2E Chat Free ${run}`, 'freeOpen'));
  const premiumChannelId = await add(admin.token, 'addChannel', 'ChannelInput', channel(`E2E Chat Premium ${run}`, 'premium'));
  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', { name: `E2E Synthetic rubber ${run}`, description: 'Butadiene' });
  const publish = (title: string, html: string, item: Record<string, unknown>) =>
    add(editor.token, 'publishAdd', 'ArticleInput', {
      title,
      summary: 'Butadiene markets this week.',
      html,
      categories: [topicId],
      contributors: [editor.id],
      ...item,
    });
  await publish(PREMIUM_TITLE, `<p>Butadiene spreads in run ${run} are set to narrow, says the ${MARKER} model.</p>`, {
    premiumChannelId,
    isPremium: true,
  });
  freeId = await publish(FREE_TITLE, `<p>${FREE_SENTENCE}</p><p>Asian butadiene prices followed.</p>`, { premiumChannelId: freeChannelId });
  await api.dispose();
});

/** Signs in through the provider's 'Another user' form as a reader with the intelligence scope. */
async function signInWithIntelligence(page: Page): Promise<void> {
  await page.goto('for-you');
  await page.getByLabel('Email').fill(`e2e-chat-reader-${run}@client.example`);
  await page.getByLabel('Name').fill('Chat Reader');
  await page.getByLabel(/^Scopes/).fill('insights:content-reader intelligence');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

test('A reader with the intelligence scope asks the chat and gets an answer citing a free article', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: APP_URL, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await signInWithIntelligence(page);

  await page.getByRole('button', { name: TITLE }).click();
  const chat = page.getByRole('region', { name: TITLE });
  const input = chat.getByRole('textbox', { name: 'Your question' });
  await expect(input).toBeFocused();
  await input.fill(QUESTION);
  await input.press('Enter');

  const log = chat.getByRole('log', { name: 'Conversation' });
  await expect(log.getByText(/^Here is what our research says:/)).toBeVisible();
  await expect(log.getByText(FREE_SENTENCE, { exact: false })).toBeVisible();
  const sources = log.getByRole('list', { name: 'Sources' });
  await expect(sources.getByRole('link', { name: FREE_TITLE, exact: true })).toBeVisible();
  await expect(chat.getByText(MARKER)).toHaveCount(0);
  await expect(chat.getByText(PREMIUM_TITLE)).toHaveCount(0);
  await expect(input).toHaveValue('');
  await screenshot(page, 'chat-answer', false);
  await expectAccessible(page, 'chat: open, with an answer and its sources');

  // The citation opens the article; the widget stays open there and after a reload.
  await sources.getByRole('link', { name: FREE_TITLE, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/browse/article/${freeId}$`));
  await expect(page.getByRole('heading', { level: 1, name: FREE_TITLE, exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: TITLE })).toBeVisible();
  await page.getByRole('button', { name: 'Minimise the chat' }).click();
  await expect(page.getByRole('button', { name: TITLE })).toBeVisible();
  await context.close();
});
