// Paying for premium channels end to end (issue 13, spec 3 §2 'Checkout' and 'Subscriptions', §4,
// §5, §8) against the real server and the Stripe test double (tests/stripe-double), which
// scripts/test.sh starts with the server pointed at it (INSIGHTS_STRIPE_API_BASE, its fake
// Stripe.js at /js/v3, webhooks posted to /webhooks/stripe) and gives to the specs as
// E2E_STRIPE_URL for its /_double controls (clock, next renewal).
//
// 1. A reader buys a premium channel by card (4242 4242 4242 4242 in the Payment Element) and then
//    reads its premium article in full; the Subscriptions page shows the card and the invoice.
// 2. An Administrator adds a clearing account on the reader's user screen; the reader pays with it.
// 3. A card reader's renewal fails (the double's clock passes the 1st with a failing renewal):
//    they see the payment-issue alert, update the card, and the alert goes.
//
// Each test signs in a reader of its own through the built-in provider's 'Another user' form, so
// the ready users' subscriptions (other specs) are not touched.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { addWithToken, APP_URL, graphqlData, readyUserSession, screenshot, type SignedInUser } from './support';

const run = Date.now().toString(36);
const DESKTOP = { width: 1400, height: 900 };
const STRIPE_URL = (process.env.E2E_STRIPE_URL ?? '').replace(/\/$/, '');
const PREMIUM_SENTENCE = `Card readers of run ${run} read this premium paragraph in full.`;
const PAYMENT_FAILED_TEXT =
  'There was an issue processing your payment for this channel. Please update your payment details to avoid cancellation.';

interface Named {
  id: string;
  name: string;
}

interface Setup {
  admin: SignedInUser;
  card: Named;
  clearing: Named;
  renewal: Named;
  article: { id: string; title: string };
}

let s: Setup;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  expect(STRIPE_URL, 'E2E_STRIPE_URL: scripts/test.sh (run_e2e) starts the Stripe double and exports its address').not.toBe('');
  const [admin, editor] = await Promise.all((['Administrator', 'Editor'] as const).map((user) => readyUserSession(browser, user)));
  const api = await playwright.request.newContext();
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>) =>
    addWithToken(api, token, mutation, type, item);
  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Checkout Desk ${run}`,
    description: 'Owns the channels of the checkout browser test',
    email: `e2e-checkout-${run}@example.com`,
    contributors: [editor.id],
  });
  const channel = async (name: string): Promise<Named> => ({
    name,
    id: await add(admin.token, 'addChannel', 'ChannelInput', {
      name,
      description: 'Premium freight analysis, paid monthly',
      type: 'premium',
      ownerType: 'desk',
      ownerId: deskId,
      adminUsers: [editor.id],
      glAccount: 'GL-E2E-CHECKOUT',
      price: '49.50',
    }),
  });
  const card = await channel(`E2E Card Premium ${run}`);
  const clearing = await channel(`E2E Clearing Premium ${run}`);
  const renewal = await channel(`E2E Renewal Premium ${run}`);
  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', { name: `E2E Freight ${run}`, description: 'Freight' });
  const title = `E2E tanker freight premium outlook ${run}`;
  const articleId = await add(editor.token, 'publishAdd', 'ArticleInput', {
    title,
    summary: 'Tanker rates for the winter, for subscribers.',
    html: `<p>${PREMIUM_SENTENCE}</p><p>Rates stay firm into January.</p>`,
    premiumChannelId: card.id,
    isPremium: true,
    categories: [topicId],
    contributors: [editor.id],
  });
  await api.dispose();
  s = { admin, card, clearing, renewal, article: { id: articleId, title } };
});

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

interface Reader {
  page: Page;
  id: string;
  name: string;
}

/** A new reader of this run, signed in through the provider's 'Another user' form. */
async function newReader(browser: Browser, key: string): Promise<Reader> {
  const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP });
  contexts.push(context);
  const page = await context.newPage();
  const name = `E2E ${key} Reader ${run}`;
  await page.goto('');
  await page.getByRole('textbox', { name: 'Email' }).fill(`e2e-${key}-${run}@buyer.example`);
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Company' }).fill('Buyer Trading Ltd');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  const { me } = await graphqlData<{ me: { _id: string } }>(page, '{ me { _id } }');
  return { page, id: me._id, name };
}

async function pageAs(browser: Browser, user: SignedInUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: user.state, viewport: DESKTOP });
  contexts.push(context);
  return context.newPage();
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const stepHeading = (page: Page, n: number, title: string) => page.getByRole('heading', { level: 2, name: `Step ${n} of 3: ${title}` });

/** From the channel's subscription page through the first two steps of the checkout. */
async function checkoutToPayment(page: Page, channel: Named): Promise<void> {
  await page.goto(`subscribe/channel/${channel.id}`);
  await page.getByRole('link', { name: 'Buy Premium access' }).click();
  await expect(page).toHaveURL(new RegExp(`/subscribe/channel/confirm/${channel.id}$`));
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toContainText('All channels');
  await expect(crumbs).toContainText('Confirm');
  await expect(stepHeading(page, 1, 'Business and tax identification')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(3);
  await page.getByLabel('Business name').fill('Buyer Trading Ltd');
  // Stripe's GB VAT type, whatever the country list calls the United Kingdom.
  const gbVat = await page.getByLabel('Tax ID type').locator('option[value^="gb_vat|"]').getAttribute('value');
  await page.getByLabel('Tax ID type').selectOption(gbVat!);
  await page.getByLabel('Tax ID', { exact: true }).fill('GB123456789');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(stepHeading(page, 2, 'Billing information')).toBeVisible();
  await page.getByLabel('Address line 1').fill('1 King Street');
  await page.getByLabel('City').fill('London');
  await page.getByLabel('Postcode').fill('!');
  await page.getByLabel('Country').selectOption('GB');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please enter a valid postcode')).toBeVisible();
  await expect(page.getByText('Terms of Service for Premium Content is required')).toBeVisible();
  await page.getByLabel('Postcode').fill('EC2V 8AU');
  await page.getByText('I accept the Terms of Service for Premium Content').click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 3, 'Payment')).toBeVisible();
}

/** Types a card into the double's Payment Element (plain inputs, as its fake Stripe.js draws them). */
async function typeCard(scope: Page | Locator, number = '4242 4242 4242 4242'): Promise<void> {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiration').fill('12/34');
  await scope.getByLabel('CVC').fill('123');
  await scope.getByLabel('Postal code').fill('EC2V 8AU');
}

/** The whole card checkout, ending on the subscribed page. */
async function buyByCard(page: Page, channel: Named): Promise<void> {
  await checkoutToPayment(page, channel);
  const type = page.getByRole('radiogroup', { name: 'Payment type' });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Payment type should be chosen')).toBeVisible();
  await type.getByText('Card', { exact: true }).click();
  await expect(type.getByRole('radio', { name: 'Card' })).toBeChecked();
  await typeCard(page);
  const pay = page.getByRole('button', { name: 'Pay and subscribe' });
  await expect(pay).toBeEnabled();
  await screenshot(page, 'checkout-payment-step');
  await pay.click();
  await expect(page).toHaveURL(new RegExp(`/browse/channel/${channel.id}/subscribed$`), { timeout: 20_000 });
  await expect(heading1(page, 'Subscription confirmed')).toBeVisible();
}

/** A card of the Subscriptions page. */
const subscriptionCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your subscriptions', exact: true }).getByRole('article', { name, exact: true });

/** Reloads `path` until `check` passes (the server learns of payments from Stripe's webhooks). */
async function eventually(page: Page, path: string, check: () => Promise<void>, timeout = 20_000): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    await check();
  }).toPass({ timeout, intervals: [500, 1000, 2000] });
}

async function double(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${STRIPE_URL}/_double${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `POST /_double${path}: ${response.status}`).toBeTruthy();
  return response;
}

test('A reader buys a premium channel by card and reads its premium article in full', async ({ browser }) => {
  test.setTimeout(90_000);
  const { page } = await newReader(browser, 'card');
  // Locked before paying.
  await page.goto(`browse/article/${s.article.id}`);
  await expect(heading1(page, s.article.title)).toBeVisible();
  await expect(page.getByText(PREMIUM_SENTENCE, { exact: true })).toHaveCount(0);

  await buyByCard(page, s.card);
  await screenshot(page, 'checkout-card-subscribed');

  await eventually(page, `browse/article/${s.article.id}`, async () => {
    await expect(page.getByRole('region', { name: 'Article body' }).getByText(PREMIUM_SENTENCE, { exact: true })).toBeVisible({
      timeout: 3000,
    });
  });
  await expect(page.getByRole('region', { name: 'This is a premium article' })).toHaveCount(0);
  await screenshot(page, 'checkout-card-premium-article');

  await page.goto('subscriptions');
  const card = subscriptionCard(page, s.card.name);
  await expect(card.getByText('Paid - Non-clearing')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('Visa ending 4242')).toBeVisible();
  await expect(card.getByText('Next payment')).toBeVisible();
  const invoices = page.getByRole('list', { name: 'Your invoices' });
  await expect(invoices.getByRole('listitem').filter({ hasText: s.card.name })).toHaveCount(1);
  const link = invoices.getByRole('link', { name: new RegExp(`^View ${s.card.name}`) });
  await expect(link).toHaveAttribute('target', '_blank');
  await screenshot(page, 'checkout-card-subscriptions');
});

test('An Administrator adds a clearing account and the reader pays with it', async ({ browser }) => {
  test.setTimeout(90_000);
  const reader = await newReader(browser, 'clearing');
  const { page } = reader;
  const account = `ACC-${run}`.toUpperCase();

  // Without an account the option is disabled, with the contact-sales hint.
  await checkoutToPayment(page, s.clearing);
  const option = page.getByRole('radio', { name: 'Clearing account' });
  await expect(option).toBeDisabled();
  await expect(page.getByText('Please contact sales to set one up.')).toBeVisible();

  const admin = await pageAs(browser, s.admin);
  await admin.goto(`publisher/users/edit/${encodeURIComponent(reader.id)}`);
  await expect(heading1(admin, 'Edit user')).toBeVisible();
  const section = admin.getByRole('region', { name: 'Clearing accounts' });
  await expect(section.getByText('No clearing accounts.')).toBeVisible();
  await section.getByLabel('Account number').fill(account);
  await section.getByLabel('Account name (optional)').fill('Buyer Trading clearing');
  await section.getByRole('button', { name: 'Add account' }).click();
  await expect(section.getByRole('list', { name: 'Clearing accounts' })).toContainText(account);
  await screenshot(admin, 'checkout-admin-clearing-account');

  await checkoutToPayment(page, s.clearing);
  const type = page.getByRole('radiogroup', { name: 'Payment type' });
  await type.getByText('Clearing account', { exact: true }).click();
  await expect(type.getByRole('radio', { name: 'Clearing account' })).toBeChecked();
  await page.getByRole('combobox', { name: 'Clearing account' }).selectOption(account);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(new RegExp(`/browse/channel/${s.clearing.id}/subscribed$`));
  await expect(heading1(page, 'Subscription confirmed')).toBeVisible();

  await page.goto('subscriptions');
  const card = subscriptionCard(page, s.clearing.name);
  await expect(card.getByText('Paid - Clearing')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
});

test("A reader's renewal fails: the alert, a card update, and the alert goes", async ({ browser }) => {
  test.setTimeout(150_000);
  const { page } = await newReader(browser, 'renewal');
  await buyByCard(page, s.renewal);
  await eventually(page, 'subscriptions', async () => {
    await expect(subscriptionCard(page, s.renewal.name).getByText('Visa ending 4242')).toBeVisible({ timeout: 3000 });
  });
  const { me } = await graphqlData<{ me: { channelSubscriptions: { channelId: string; subscriptionId: string | null }[] } }>(
    page,
    '{ me { channelSubscriptions { channelId subscriptionId } } }',
  );
  const subscriptionId = me.channelSubscriptions.find((c) => c.channelId === s.renewal.id)?.subscriptionId;
  expect(subscriptionId, 'the card subscription has its Stripe id').toBeTruthy();

  // The next renewal fails; the double's clock passes the 1st of next month (the billing anchor).
  await double(`/subscriptions/${subscriptionId}/next-renewal`, { outcome: 'fail' });
  const clock = (await (await fetch(`${STRIPE_URL}/_double/clock`)).json()) as { now: number };
  const now = new Date(clock.now * 1000);
  const firstOfNextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 2, 0, 0) / 1000;
  await double('/clock', { to: firstOfNextMonth });

  const card = subscriptionCard(page, s.renewal.name);
  await eventually(page, 'subscriptions', async () => {
    await expect(card.getByRole('alert')).toContainText(PAYMENT_FAILED_TEXT, { timeout: 3000 });
  });
  await expect(card.getByText('Payment failed', { exact: true })).toBeVisible();
  await screenshot(page, 'checkout-renewal-failed');

  await card.getByRole('alert').getByRole('button', { name: 'Update card' }).click();
  const dialog = page.getByRole('dialog', { name: `Update the card for ${s.renewal.name}` });
  await expect(dialog).toBeVisible();
  await typeCard(dialog);
  const save = dialog.getByRole('button', { name: 'Save card' });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.locator('.bp6-toast').getByText('Your card has been updated. Any payment due is being taken with it.')).toBeVisible({
    timeout: 15_000,
  });
  await expect(dialog).toBeHidden();

  await eventually(page, 'subscriptions', async () => {
    await expect(card.getByText('Active', { exact: true })).toBeVisible({ timeout: 3000 });
    await expect(card.getByRole('alert')).toHaveCount(0);
  });
  await screenshot(page, 'checkout-renewal-card-updated');
});
