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
// 4. A reader's card is declined (4000 0000 0000 0002): the checkout says so and nothing is granted;
//    then a card needing 3D Secure (4000 0025 0000 3155) is authenticated in the double's challenge
//    dialog and the reader is subscribed.
// 5. A reader asks to pay by invoice; the request waits (Pending, 'Billed externally') until the
//    channel's admin, the Editor, approves it under Requests in subscriber stats; the reader's
//    subscription is then active.
//
// Each test signs in a reader of its own through the built-in provider's 'Another user' form, so
// the ready users' subscriptions (other specs) are not touched.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { addWithToken, APP_URL, graphqlData, readyUserSession, screenshot, type SignedInUser } from './support';

const run = Date.now().toString(36);
const DESKTOP = { width: 1400, height: 900 };
const STRIPE_URL = (process.env.E2E_STRIPE_URL ?? '').replace(/\/$/, '');
const PREMIUM_SENTENCE = `Card readers of run ${run} read this premium paragraph in full.`;
const PAYMENT_FAILED_TEXT =
  'There was an issue processing your payment for this channel. Please update your payment details to avoid cancellation.';
/** Stripe's message for a generic decline, which the checkout shows as it comes (spec 3 §8). */
const DECLINED_TEXT = 'Your card was declined.';

interface Named {
  id: string;
  name: string;
}

interface Setup {
  admin: SignedInUser;
  /** An admin user of every channel here: processes the invoice request. */
  editor: SignedInUser;
  card: Named;
  clearing: Named;
  renewal: Named;
  invoice: Named;
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
  const invoice = await channel(`E2E Invoice Premium ${run}`);
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
  s = { admin, editor, card, clearing, renewal, invoice, article: { id: articleId, title } };
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
  await expectAccessible(page, 'checkout: step 1 with its errors');
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
  await expectAccessible(page, 'checkout: step 2 with its errors');
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

/** Waits until the double has posted every event it made to the server (the API tests' `settle()`). */
async function webhooksDelivered(): Promise<void> {
  const get = async <T>(path: string) => (await (await fetch(`${STRIPE_URL}/_double${path}`)).json()) as T;
  await expect
    .poll(
      async () => {
        const { queued, events } = await get<{ queued: string[]; events: { id: string }[] }>('/events');
        const delivered = new Set((await get<{ event_id: string }[]>('/deliveries')).map((d) => d.event_id));
        return queued.length + events.filter((e) => !delivered.has(e.id)).length;
      },
      { message: 'events waiting for delivery', timeout: 15_000 },
    )
    .toBe(0);
}

/** The reader's subscription to a channel, as the server has it (null when there is none). */
async function mySubscription(page: Page, channel: Named): Promise<{ subscriptionState: string } | null> {
  const { channel: found } = await graphqlData<{ channel: { userChannelSubscription: { subscriptionState: string } | null } }>(
    page,
    'query($c: ID!) { channel(id: $c) { userChannelSubscription { subscriptionState } } }',
    { c: channel.id },
  );
  return found.userChannelSubscription;
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
  // @stripe/stripe-js warns when the Stripe.js on the page is of another release train than the
  // API version it is built for: the double's is of the version async-stripe speaks.
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  // Locked before paying.
  await page.goto(`browse/article/${s.article.id}`);
  await expect(heading1(page, s.article.title)).toBeVisible();
  await expect(page.getByText(PREMIUM_SENTENCE, { exact: true })).toHaveCount(0);

  await buyByCard(page, s.card);
  await screenshot(page, 'checkout-card-subscribed');
  expect(warnings.filter((w) => w.includes('Stripe.js@'))).toEqual([]);

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
  const link = invoices.getByRole('link', { name: new RegExp(`^View invoice: ${s.card.name}`) });
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
  await expectAccessible(page, 'subscriptions: the card update dialog');
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

test("A reader's card is declined, then a card needing 3D Secure is authenticated and the reader is subscribed", async ({ browser }) => {
  test.setTimeout(90_000);
  const { page } = await newReader(browser, 'declined');
  await checkoutToPayment(page, s.card);
  const type = page.getByRole('radiogroup', { name: 'Payment type' });
  await type.getByText('Card', { exact: true }).click();
  await expect(type.getByRole('radio', { name: 'Card' })).toBeChecked();
  const cardDetails = page.getByRole('region', { name: 'Card details' });
  const pay = page.getByRole('button', { name: 'Pay and subscribe' });

  // Declined: Stripe's message, in the checkout's alert and under the card; still on the payment step.
  await typeCard(page, '4000 0000 0000 0002');
  await expect(pay).toBeEnabled();
  await pay.click();
  const declined = page.getByRole('alert').filter({ hasText: DECLINED_TEXT });
  await expect(declined).toHaveCount(2);
  await expect(cardDetails.getByRole('alert')).toHaveText(DECLINED_TEXT);
  await expectAccessible(page, 'checkout: step 3 with a declined card');
  await expect(stepHeading(page, 3, 'Payment')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/subscribe/channel/confirm/${s.card.id}$`));
  await expect(pay).toBeEnabled();
  await screenshot(page, 'checkout-card-declined');
  // Nothing granted once Stripe's events about the failed payment have reached the server (its
  // workers apply them within milliseconds when idle; the API tests check this after applying).
  await webhooksDelivered();
  expect(await mySubscription(page, s.card)).toBeNull();

  // The same Payment Element, a card that asks for 3D Secure: the double's challenge dialog.
  await typeCard(page, '4000 0025 0000 3155');
  await pay.click();
  const challenge = page.getByRole('dialog', { name: '3D Secure authentication' });
  await expect(challenge).toBeVisible({ timeout: 15_000 });
  await expect(challenge.getByRole('heading', { name: '3D Secure test payment' })).toBeVisible();
  await expect(challenge.getByRole('button', { name: 'Fail authentication' })).toBeVisible();
  await screenshot(page, 'checkout-3ds-challenge');
  await challenge.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(challenge).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/browse/channel/${s.card.id}/subscribed$`), { timeout: 20_000 });
  await expect(heading1(page, 'Subscription confirmed')).toBeVisible();
  await expect(page.getByText(`You are now subscribed to ${s.card.name}.`, { exact: false })).toBeVisible();
  await screenshot(page, 'checkout-3ds-subscribed');

  const card = subscriptionCard(page, s.card.name);
  await eventually(page, 'subscriptions', async () => {
    await expect(card.getByText('Active', { exact: true })).toBeVisible({ timeout: 3000 });
    await expect(card.getByText('Visa ending 3155')).toBeVisible({ timeout: 3000 });
  });
  await expect(card.getByText('Paid - Non-clearing')).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  expect(await mySubscription(page, s.card)).toEqual({ subscriptionState: 'active' });
  await screenshot(page, 'checkout-3ds-subscriptions');
});

test("A reader asks to pay by invoice and the channel's editor confirms it", async ({ browser }) => {
  test.setTimeout(90_000);
  const reader = await newReader(browser, 'invoice');
  const { page } = reader;
  const email = `e2e-invoice-${run}@buyer.example`;

  await checkoutToPayment(page, s.invoice);
  const type = page.getByRole('radiogroup', { name: 'Payment type' });
  await type.getByText('Invoice', { exact: true }).click();
  await expect(type.getByRole('radio', { name: 'Invoice' })).toBeChecked();
  const request = page.getByRole('button', { name: 'Request invoice' });
  await request.click();
  await expect(page.getByText('This field is required')).toHaveCount(2);
  await page.getByLabel('Legal entity name').fill('Buyer Trading Ltd');
  await page.getByLabel('Billing email address').fill('not-an-email');
  await expect(page.getByText('Email should be valid')).toBeVisible();
  await page.getByLabel('Billing email address').fill(`accounts-${run}@buyer.example`);
  await screenshot(page, 'checkout-invoice-payment-step');
  await request.click();

  await expect(page).toHaveURL(new RegExp(`/browse/channel/${s.invoice.id}/paying-invoice-requested$`));
  await expect(heading1(page, 'Invoice requested')).toBeVisible();
  await expect(page.getByText('Thank you for your request')).toBeVisible();
  await expect(
    page.getByText(
      `Your request to pay for ${s.invoice.name} by invoice has been received. Your Premium access starts once the invoice has been set up, and we will email you.`,
    ),
  ).toBeVisible();
  await screenshot(page, 'checkout-invoice-requested');

  // Waiting for staff: billed externally, pending, withdrawable.
  await page.goto('subscriptions');
  const card = subscriptionCard(page, s.invoice.name);
  await expect(card.getByText('Billed externally', { exact: true })).toBeVisible();
  await expect(card.getByText('Pending', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Withdraw request' })).toBeVisible();

  // The channel's admin (the Editor) approves it in subscriber stats, under Requests.
  const editor = await pageAs(browser, s.editor);
  await editor.goto(`publisher/premium-channels/subscriber-stats/${s.invoice.id}`);
  await expect(heading1(editor, `${s.invoice.name}: subscribers`)).toBeVisible();
  const views = editor.getByRole('group', { name: 'Filter' });
  await views.getByRole('button', { name: 'Requests (1)', exact: true }).click();
  await expect(views.getByRole('button', { name: 'Requests (1)', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const subscribers = editor.getByRole('table', { name: 'Subscribers' });
  const row = subscribers.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(reader.name);
  await expect(row).toContainText('Billed externally');
  await expect(row).toContainText('Pending');
  await screenshot(editor, 'checkout-invoice-request-stats');
  await row.getByRole('button', { name: `Approve ${reader.name}` }).click();
  const approve = editor.getByRole('alertdialog', { name: 'Approve request' });
  await expect(approve).toContainText(
    `Approve the invoice request of ${reader.name}? The subscription starts now, billed externally, and ${reader.name} is told by email.`,
  );
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(
    editor.locator('.bp6-toast').getByText(`The invoice request of ${reader.name} has been approved.`, { exact: true }),
  ).toBeVisible();
  await expect(approve).toBeHidden();
  await expect(views.getByRole('button', { name: 'Requests (0)', exact: true })).toBeVisible();
  await views.getByRole('button', { name: 'Paid (1)', exact: true }).click();
  const paid = subscribers.getByRole('row').filter({ hasText: email });
  await expect(paid).toContainText('Billed externally');
  await expect(paid).toContainText('Active');
  await screenshot(editor, 'checkout-invoice-approved-stats');

  // The reader: paid by invoice, active.
  await page.goto('subscriptions');
  await expect(card.getByText('Billed externally', { exact: true })).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Withdraw request' })).toHaveCount(0);
  expect(await mySubscription(page, s.invoice)).toEqual({ subscriptionState: 'active' });
  await screenshot(page, 'checkout-invoice-subscriptions');
});
