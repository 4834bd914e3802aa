// Client firms end to end against the real server (issue 39): the Administrator adds a firm with an
// email domain (two readers already at it: the form asks before they join), makes one of them the
// firm's administrator and gives the firm a subscription of 2 seats to a premium channel. The firm's
// administrator gives the other reader a seat on 'My firm'; that reader reads the channel's premium
// article in full, sees the seat 'Provided by' the firm; the administrator takes the seat back and
// the reader is back to the preview. Beside that journey: the channel's firms view shows the firm's
// 2 seats, the seat's channel is in the reader's email settings, and the firm's administrator
// invites a colleague and withdraws the pending invitation.
//
// Everything is made for this run: the desk, the premium channel and its article through the API;
// the two readers sign in through the provider's 'another user' form at a domain of this run. Each
// test opens new contexts from the sessions saved in beforeAll.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { addWithToken, APP_URL, readyUserSession, screenshot } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

const DESKTOP = { width: 1400, height: 900 };
const DOMAIN = `firm-${run}.example`;
const FIRM = `E2E Firm ${run}`;
const CHANNEL = `E2E Firms Premium ${run}`;
const TITLE = `E2E firm seat outlook ${run}`;
/** Only in the premium article's body: a seat holder reads it, a reader without one does not. */
const PREMIUM_SENTENCE = `Seat holders of run ${run} read this premium paragraph in full.`;

interface Reader {
  name: string;
  email: string;
  /** The signed-in context's storage state. */
  state: Awaited<ReturnType<BrowserContext['storageState']>>;
}

interface Setup {
  admin: Awaited<ReturnType<typeof readyUserSession>>;
  firmAdmin: Reader;
  reader: Reader;
  channelId: string;
  articleId: string;
}

let s: Setup;

/** Signs a reader in through the provider's 'another user' form (their first sign-in makes them). */
async function signInReader(browser: Browser, name: string, email: string): Promise<Reader> {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: { cookies: [], origins: [] }, viewport: DESKTOP });
  try {
    const page = await context.newPage();
    await page.goto('for-you');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel(/^Scopes/).fill('insights:content-reader');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    return { name, email, state: await context.storageState() };
  } finally {
    await context.close();
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const [admin, editor] = await Promise.all((['Administrator', 'Editor'] as const).map((user) => readyUserSession(browser, user)));
  const api = await playwright.request.newContext();
  const deskId = await addWithToken(api, admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Firms Desk ${run}`,
    description: 'Owns the channel of the firms browser test',
    email: `e2e-firms-${run}@example.com`,
    contributors: [editor.id],
  });
  const channelId = await addWithToken(api, admin.token, 'addChannel', 'ChannelInput', {
    name: CHANNEL,
    description: 'Premium research for client firms',
    type: 'premium',
    ownerType: 'desk',
    ownerId: deskId,
    adminUsers: [editor.id],
    glAccount: 'GL-E2E-FIRMS',
    price: '40',
  });
  const topicId = await addWithToken(api, admin.token, 'addCategory', 'CategoryInput', {
    name: `E2E Firms Metals ${run}`,
    description: 'Metals for client firms',
  });
  const articleId = await addWithToken(api, editor.token, 'publishAdd', 'ArticleInput', {
    title: TITLE,
    categories: [topicId],
    summary: 'What the firm reads with its seats.',
    html: `<p>${PREMIUM_SENTENCE}</p><p>More detail for subscribers.</p>`,
    premiumChannelId: channelId,
    isPremium: true,
    contributors: [editor.id],
  });
  await api.dispose();
  // Both at the firm's domain before it exists: adding the firm brings them in.
  const firmAdmin = await signInReader(browser, `Frida Firmlead ${run}`, `e2e-firm-admin-${run}@${DOMAIN}`);
  const reader = await signInReader(browser, `Rex Reader ${run}`, `e2e-firm-reader-${run}@${DOMAIN}`);
  s = { admin, firmAdmin, reader, channelId, articleId };
});

/** Contexts opened by the test, closed after it. */
const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

async function pageWith(browser: Browser, state: Reader['state']): Promise<Page> {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: state, viewport: DESKTOP });
  contexts.push(context);
  return context.newPage();
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });
const rowOf = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });
/** Chooses a radio as a user does, by its label (Blueprint draws its indicator over the input). */
async function choose(group: Locator, name: string): Promise<void> {
  await group.getByText(name, { exact: true }).click();
  await expect(group.getByRole('radio', { name, exact: true })).toBeChecked();
}

/** 'My firm' through the account menu, and its seats of the run's channel opened. */
async function openSeats(page: Page): Promise<Locator> {
  await page.goto('for-you');
  await page.getByRole('button', { name: /\(Account menu\)$/ }).click();
  await page.getByRole('menu', { name: 'Account menu' }).getByRole('menuitem', { name: 'My firm' }).click();
  await expect(heading1(page, 'My firm')).toBeVisible();
  await expect(page.getByText(FIRM, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Seats of ${CHANNEL}` }).click();
  return page.getByRole('region', { name: `Seats of ${CHANNEL}` });
}

test('The Administrator adds a firm whose domain brings two readers, makes one its administrator and gives it 2 seats', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const page = await pageWith(browser, s.admin.state);
  await page.goto('publisher/firms');
  await expect(heading1(page, 'Firms')).toBeVisible();
  await page.getByRole('link', { name: 'Add firm' }).click();
  await expect(heading1(page, 'Add firm')).toBeVisible();
  const form = page.getByRole('form', { name: 'Add firm' });
  await form.getByLabel('Name', { exact: true }).fill(FIRM);
  await form.getByLabel('Email domains', { exact: true }).fill(DOMAIN);
  await choose(form.getByRole('radiogroup', { name: 'Billing method' }), 'Invoice');
  await form.getByRole('button', { name: 'Add', exact: true }).click();

  const dialog = page.getByRole('alertdialog', { name: 'Readers will join this firm' });
  await expect(dialog).toContainText(`2 readers at these domains will join ${FIRM}.`);
  await expectAccessible(page, 'firm form: the domain confirmation');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The firm ${FIRM} has been added.`)).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search firms...' }).fill(DOMAIN);
  const firms = page.getByRole('table', { name: 'Firms' });
  await expect(rowOf(firms, FIRM)).toContainText('0 / 0');
  await firms.getByRole('link', { name: FIRM, exact: true }).click();
  await expect(heading1(page, FIRM)).toBeVisible();

  const readers = page.getByRole('table', { name: 'Readers' });
  await expect(rowOf(readers, s.firmAdmin.name)).toContainText('Email domain');
  await expect(rowOf(readers, s.reader.name)).toBeVisible();
  // Checked once the server says so (the box follows the saved value, not the click).
  const adminBox = page.getByRole('checkbox', { name: `${s.firmAdmin.name} is an administrator of the firm` });
  await adminBox.click({ force: true });
  await expect(toast(page, `${s.firmAdmin.name} is now an administrator of ${FIRM}.`)).toBeVisible();
  await expect(adminBox).toBeChecked();

  await page.getByRole('tab', { name: /^Subscriptions/ }).click();
  await page.getByRole('link', { name: 'Add subscription' }).click();
  await expect(heading1(page, 'Add subscription')).toBeVisible();
  const subscription = page.getByRole('form', { name: 'Add subscription' });
  await subscription.getByLabel('Channel', { exact: true }).selectOption({ label: CHANNEL });
  await choose(subscription.getByRole('radiogroup', { name: 'Subscription type' }), 'Clearing account');
  await subscription.getByLabel('Seats', { exact: true }).fill('2');
  await subscription.getByLabel('Account number', { exact: true }).fill(`E2E-${run}`);
  await subscription.getByLabel('Notes', { exact: true }).fill('Two seats for the e2e firm');
  await expectAccessible(page, 'firm subscription form, filled');
  await subscription.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `${FIRM} now subscribes to ${CHANNEL}.`)).toBeVisible();
  await expect(heading1(page, FIRM)).toBeVisible();
  await expect(rowOf(page.getByRole('table', { name: 'Subscriptions' }), CHANNEL)).toContainText('0 / 2');
  await screenshot(page, 'firm-page-subscriptions');

  // The channel's subscriber stats list the firm on their Firms tab, with its seats held and used.
  await page.goto(`publisher/premium-channels/subscriber-stats/${s.channelId}`);
  await expect(heading1(page, `${CHANNEL}: subscribers`)).toBeVisible();
  await page.getByRole('tab', { name: 'Firms' }).click();
  const firmRow = rowOf(page.getByRole('table', { name: 'Firms' }), FIRM);
  await expect(firmRow.getByRole('cell')).toHaveText([FIRM, '2', '0', 'Paid - Clearing', 'Active', /\d{4}$/, 'No end date']);
  await expectAccessible(page, "a channel's firms");
});

test("The firm's administrator gives the reader a seat on My firm; the reader reads the premium article in full", async ({ browser }) => {
  test.setTimeout(60_000);
  const admin = await pageWith(browser, s.firmAdmin.state);
  const seats = await openSeats(admin);
  await expect(seats.getByText('0 of 2 seats used', { exact: true })).toBeVisible();
  await seats.getByRole('combobox', { name: `Give a seat of ${CHANNEL}` }).fill('Rex');
  await admin.getByRole('option', { name: new RegExp(s.reader.name) }).click();
  await seats.getByRole('button', { name: 'Give seat' }).click();
  await expect(toast(admin, `${s.reader.name} now has a seat of ${CHANNEL}.`)).toBeVisible();
  await expect(seats.getByText('1 of 2 seats used', { exact: true })).toBeVisible();
  await expect(seats.getByRole('table', { name: `Seat holders of ${CHANNEL}` })).toContainText(s.reader.name);
  await expectAccessible(admin, 'my firm: a subscription and its seats');
  await screenshot(admin, 'my-firm-seats');

  const reader = await pageWith(browser, s.reader.state);
  await reader.goto(`browse/article/${s.articleId}`);
  await expect(heading1(reader, TITLE)).toBeVisible();
  await expect(reader.getByRole('region', { name: 'Article body' }).getByText(PREMIUM_SENTENCE, { exact: true })).toBeVisible();
  await expect(reader.getByRole('region', { name: 'This is a premium article' })).toHaveCount(0);

  await reader.goto('subscriptions');
  const card = reader.getByRole('list', { name: 'Your subscriptions' }).getByRole('article', { name: CHANNEL, exact: true });
  await expect(card.getByText(`Provided by ${FIRM}`, { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Give back your seat of ${CHANNEL}` })).toBeVisible();

  // The seat's channel is among the reader's email settings.
  await reader.goto('email-notifications');
  await expect(reader.getByRole('checkbox', { name: CHANNEL, exact: true })).toHaveAccessibleDescription(`Provided by ${FIRM}`);
});

test("The firm's administrator sees the invitation just sent as pending and withdraws it", async ({ browser }) => {
  const admin = await pageWith(browser, s.firmAdmin.state);
  await admin.goto('my-firm');
  await expect(heading1(admin, 'My firm')).toBeVisible();
  const colleague = `e2e-firm-colleague-${run}@${DOMAIN}`;
  const invite = admin.getByRole('form', { name: 'Invite a colleague' });
  await invite.getByLabel("Colleague's email").fill(colleague);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(admin, `Invitation sent to ${colleague}`)).toBeVisible();
  const pending = admin.getByRole('table', { name: 'Pending invitations' });
  await expect(rowOf(pending, colleague)).toContainText(s.firmAdmin.name);
  await admin.getByRole('button', { name: `Withdraw the invitation to ${colleague}` }).click();
  await expect(toast(admin, `The invitation to ${colleague} has been withdrawn.`)).toBeVisible();
  await expect(pending).toContainText('No pending invitations');
});

test('The administrator takes the seat back: the reader sees the preview again', async ({ browser }) => {
  const admin = await pageWith(browser, s.firmAdmin.state);
  const seats = await openSeats(admin);
  await seats.getByRole('button', { name: `Take back the seat of ${s.reader.name}` }).click();
  await expect(toast(admin, `${s.reader.name} no longer has a seat of ${CHANNEL}.`)).toBeVisible();
  await expect(seats.getByText('0 of 2 seats used', { exact: true })).toBeVisible();

  const reader = await pageWith(browser, s.reader.state);
  await reader.goto(`browse/article/${s.articleId}`);
  await expect(heading1(reader, TITLE)).toBeVisible();
  await expect(reader.getByRole('region', { name: 'This is a premium article' })).toContainText(
    `Subscribe to ${CHANNEL} to read it in full`,
  );
  await expect(reader.getByText(PREMIUM_SENTENCE)).toHaveCount(0);
});
