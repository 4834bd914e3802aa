// Subscriptions end to end against the real server (issue 11, spec 3 §2, §4, §5, §8): a reader asks
// for a free trial of a premium channel (channel card → confirm-trial page) and for access to a
// free closed channel; the Editor, an admin of both channels, approves the trial and rejects the
// access request in subscriber stats; the reader then holds the trial on the Subscriptions page and
// reads a premium article in full. The Editor bulk-adds a CSV of 50 addresses (review tabs,
// confirmation, the new subscribers in the stats), and adds a subscriber with the payment
// categories (Paid > Clearing account), then moves them to Free > Non-client and sees the history.
// The reader makes a private feed link (issue 41), a feed reader reads it, and it ends once revoked.
//
// Everything is made for this run: the Administrator makes a desk, a topic and four channels with
// the Editor as their admin through the API; the Editor publishes the premium article; the users of
// the CSV and of the user search are inserted into the database (support.ts psql). Each test opens
// a new context from the ready users' signed-in storage state.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { press, tabTo, typeInto } from './keyboard';
import { addWithToken, APP_URL, graphqlWithToken, psql, readyUserSession, screenshot, type SignedInUser } from './support';

/** Names unique to this run, so a rerun against the same database does not collide. */
const run = Date.now().toString(36);

const DESKTOP = { width: 1400, height: 900 };
/** The premium channel's own trial length: the approval gives this many days. */
const TRIAL_DAYS = 14;
/** Only in the premium article's body, which the reader may read once the trial runs. */
const PREMIUM_SENTENCE = `Trial readers of run ${run} read this premium paragraph in full.`;

interface Named {
  id: string;
  name: string;
}

/** A user inserted into the database for this run. */
interface RunUser extends Named {
  email: string;
}

interface Setup {
  editor: SignedInUser;
  reader: SignedInUser;
  /** Premium, 14 trial days, with the premium article: the reader's trial. */
  premium: Named;
  /** Free closed: the reader's access request. */
  closed: Named;
  /** Premium: the bulk upload. */
  bulk: Named;
  /** Premium at $45.00: the subscriber added and edited by hand. */
  clearing: Named;
  article: { id: string; title: string };
  /** The CSV's 50 addresses, in file order, and who is behind them. */
  csv: { signedIn: RunUser[]; neverSignedIn: RunUser[]; unknown: string[]; existing: RunUser };
  /** Signed in, not subscribed to the clearing channel: found by the user search. */
  clearingUser: RunUser;
  /** Never signed in, with a matching email: not offered by the user search. */
  clearingNever: RunUser;
}

let s: Setup;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const [admin, editor, reader] = await Promise.all(
    (['Administrator', 'Editor', 'Subscriber'] as const).map((user) => readyUserSession(browser, user)),
  );

  const api = await playwright.request.newContext();
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>): Promise<string> =>
    addWithToken(api, token, mutation, type, item);

  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Subscriptions Desk ${run}`,
    description: 'Owns the channels of the subscriptions browser test',
    email: `e2e-subscriptions-${run}@example.com`,
    contributors: [editor.id],
  });
  const channel = async (name: string, type: 'premium' | 'freeClosed', extra: Record<string, unknown> = {}): Promise<Named> => ({
    name,
    id: await add(admin.token, 'addChannel', 'ChannelInput', {
      name,
      description: type === 'premium' ? 'Premium LNG shipping analysis' : 'Approved readers only',
      type,
      ownerType: 'desk',
      ownerId: deskId,
      // The Editor administers every channel of this run: they see its subscribers and decide its requests.
      adminUsers: [editor.id],
      ...(type === 'premium' ? { glAccount: 'GL-E2E-SUBS', price: '30' } : {}),
      ...extra,
    }),
  });
  const premium = await channel(`E2E Subs Premium ${run}`, 'premium', { defaultTrialDurationDays: TRIAL_DAYS });
  const closed = await channel(`E2E Subs Closed ${run}`, 'freeClosed');
  const bulk = await channel(`E2E Subs Bulk ${run}`, 'premium');
  const clearing = await channel(`E2E Subs Clearing ${run}`, 'premium', { price: '45' });

  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', {
    name: `E2E LNG ${run}`,
    description: 'Liquefied natural gas',
  });
  const title = `E2E LNG freight premium outlook ${run}`;
  const articleId = await add(editor.token, 'publishAdd', 'ArticleInput', {
    title,
    summary: 'Freight rates for the winter, for subscribers.',
    html: `<p>${PREMIUM_SENTENCE}</p><p>Rates stay firm into January.</p>`,
    premiumChannelId: premium.id,
    isPremium: true,
    categories: [topicId],
    contributors: [editor.id],
  });
  await api.dispose();

  // The CSV's people: 40 who have signed in (the first already a non-charge subscriber of the bulk
  // channel), 5 known to the identity provider who never signed in, and 5 addresses nobody has.
  const pad = (i: number) => String(i).padStart(2, '0');
  const people = Array.from({ length: 45 }, (_, k) => {
    const i = k + 1;
    return { id: hexId(`bulk-${i}`), name: `E2E Bulk ${pad(i)} ${run}`, email: `e2e-bulk-${pad(i)}-${run}@client.example` };
  });
  const signedIn = people.slice(0, 40);
  const neverSignedIn = people.slice(40);
  const unknown = Array.from({ length: 5 }, (_, k) => `e2e-nobody-${k + 1}-${run}@unknown.example`);
  const clearingUser = { id: hexId('clearing'), name: `E2E Clearing Reader ${run}`, email: `e2e-clearing-${run}@client.example` };
  const clearingNever = {
    id: hexId('clearing-never'),
    name: `E2E Clearing Never ${run}`,
    email: `e2e-clearing-${run}-never@client.example`,
  };
  insertUsers([...signedIn, clearingUser], true);
  insertUsers([...neverSignedIn, clearingNever], false);
  psql(
    `insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, added_by_admin)
     values (:'channel', :'user', 'nonCharge', 'active', true);`,
    { channel: bulk.id, user: signedIn[0].id },
  );

  s = {
    editor,
    reader,
    premium,
    closed,
    bulk,
    clearing,
    article: { id: articleId, title },
    csv: { signedIn, neverSignedIn, unknown, existing: signedIn[0] },
    clearingUser,
    clearingNever,
  };
});

/** A 24-hex user id unique to this run. */
function hexId(key: string): string {
  return createHash('md5').update(`${run}-${key}`).digest('hex').slice(0, 24);
}

/** Users as the identity provider's first sign-in makes them; `signedIn` sets their last sign-in. */
function insertUsers(users: RunUser[], signedIn: boolean): void {
  psql(
    `insert into users (user_id, subject, email, name, company, role, scopes, last_login)
     select u->>'id', 'e2e|' || (u->>'id'), u->>'email', u->>'name', 'E2E Client Co', 'Subscriber',
            '{insights:content-reader}', case when :'signed' = 'true' then now() - interval '1 day' end
     from jsonb_array_elements(:'users'::jsonb) as u;`,
    { users: JSON.stringify(users), signed: String(signedIn) },
  );
}

/** Contexts opened by the test, closed after it. */
const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

/** A page signed in as `user` (their stored session), at desktop width. */
async function pageAs(browser: Browser, user: SignedInUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: user.state, viewport: DESKTOP });
  contexts.push(context);
  return context.newPage();
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
/** A toast, worded as spec 3 §8 says. */
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });
/** A reader's channel card in the channels directory. */
const channelCard = (page: Page, name: string) => page.getByRole('list', { name: 'Channels' }).getByRole('article', { name, exact: true });
/** A card of the Subscriptions page. */
const subscriptionCard = (page: Page, list: 'Your subscriptions' | 'Past subscriptions', name: string) =>
  page.getByRole('list', { name: list, exact: true }).getByRole('article', { name, exact: true });
/** A subscriber stats view chip ('Requests (1)'). */
const view = (page: Page, name: string) => page.getByRole('group', { name: 'Filter' }).getByRole('button', { name, exact: true });
const subscribers = (page: Page) => page.getByRole('table', { name: 'Subscribers' });
const rowOf = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });
/** Chooses a radio as a user does, by its label (Blueprint draws its indicator over the input). */
async function choose(group: Locator, name: string): Promise<void> {
  await group.getByText(name, { exact: true }).click();
  await expect(group.getByRole('radio', { name, exact: true })).toBeChecked();
}
const statsPath = (id: string) => `publisher/premium-channels/subscriber-stats/${id}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 'DD MMM YYYY' in local time, as reader cards show an end (spec 1 §9). */
function dayText(date: Date): string {
  return `${String(date.getDate()).padStart(2, '0')} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

test.describe.serial('A reader asks, the Editor decides, the reader reads', () => {
  test('A reader requests a free trial of a premium channel and access to a free closed channel', async ({ browser }) => {
    const page = await pageAs(browser, s.reader);
    await page.goto('channels');
    await expect(heading1(page, 'Find channels and subscribe')).toBeVisible();

    // The premium card offers the trial; it goes through the confirm-trial page.
    const premiumCard = channelCard(page, s.premium.name);
    await expect(premiumCard).toContainText('$30.00 per month excluding tax');
    await expect(premiumCard.getByRole('link', { name: `View pricing for ${s.premium.name}` })).toBeVisible();
    await premiumCard.getByRole('link', { name: 'Request FREE trial', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/subscribe/channel/confirm-trial/${s.premium.id}$`));
    await expect(heading1(page, 'Request your free trial')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `Try ${s.premium.name} free for ${TRIAL_DAYS} days` })).toBeVisible();
    await screenshot(page, 'subscriptions-confirm-trial');
    // The trial policy asks for its terms first (issue 40): the request waits until they are accepted.
    await expect(page.getByRole('region', { name: 'Trial terms' })).toContainText('It ends by itself');
    await expect(page.getByRole('button', { name: 'Confirm free trial request' })).toBeDisabled();
    // Blueprint draws the box over the input: a user clicks its label.
    await page.getByText('I have read and accept the trial terms (version 1)', { exact: true }).click();
    await expect(page.getByRole('checkbox', { name: 'I have read and accept the trial terms (version 1)' })).toBeChecked();
    await page.getByRole('button', { name: 'Confirm free trial request' }).click();

    // The subscription page says the request waits; the trial is no longer offered, buying still is.
    await expect(page).toHaveURL(new RegExp(`/subscribe/channel/${s.premium.id}\\?trial$`));
    await expect(heading1(page, `Subscribe to ${s.premium.name}`)).toBeVisible();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('link', { name: s.premium.name })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Free trial requested' })).toContainText(
      `Your request for a free trial of ${s.premium.name} has been sent and is pending approval.`,
    );
    await expect(page.getByRole('link', { name: 'Buy Premium access' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request FREE trial now' })).toHaveCount(0);
    await screenshot(page, 'subscriptions-trial-requested');

    // Back in the directory: the premium card's button is disabled; the closed channel is asked for.
    await breadcrumb.getByRole('link', { name: 'All channels' }).click();
    await expect(heading1(page, 'Find channels and subscribe')).toBeVisible();
    await expect(premiumCard.getByRole('button', { name: 'Free trial requested' })).toBeDisabled();
    const closedCard = channelCard(page, s.closed.name);
    await closedCard.getByRole('button', { name: 'Request access', exact: true }).click();
    await expect(
      toast(page, `Your request to access ${s.closed.name} has been sent. You will get an email once it has been reviewed.`),
    ).toBeVisible();
    await expect(closedCard.getByRole('button', { name: 'Access request pending' })).toBeDisabled();
    await expect(closedCard.getByRole('button', { name: 'Request access', exact: true })).toHaveCount(0);
    await screenshot(page, 'subscriptions-requests-pending-cards');

    // Both requests wait on the Subscriptions page.
    await page.goto('subscriptions');
    await expect(heading1(page, 'Your subscriptions')).toBeVisible();
    const trialCard = subscriptionCard(page, 'Your subscriptions', s.premium.name);
    await expect(trialCard.getByText('Trial', { exact: true })).toBeVisible();
    await expect(trialCard.getByText('Free trial requested', { exact: true })).toBeVisible();
    await expect(trialCard.getByRole('button', { name: 'Withdraw request' })).toBeVisible();
    await expect(subscriptionCard(page, 'Your subscriptions', s.closed.name)).toContainText('Access request pending');
  });

  // By keyboard alone (WCAG 2.1.1: keyboard.ts), from the channel's link on.
  test('The Editor approves the trial and rejects the access request in subscriber stats', async ({ browser }) => {
    const page = await pageAs(browser, s.editor);
    const name = s.reader.name;

    // Subscriber stats main: the Editor starts on the channels they administer.
    await page.goto('publisher/premium-channels/subscriber-stats');
    await expect(heading1(page, 'Subscriber stats')).toBeVisible();
    await expect(view(page, 'My Channels')).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('searchbox', { name: 'Search channels...' }).fill(`E2E Subs Premium ${run}`);
    const channels = page.getByRole('table', { name: 'Channels' });
    await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
    await press(page, channels.getByRole('link', { name: s.premium.name, exact: true }));

    // The premium channel: the trial request waits under Requests.
    await expect(page).toHaveURL(new RegExp(`/${statsPath(s.premium.id)}$`));
    await expect(heading1(page, `${s.premium.name}: subscribers`)).toBeVisible();
    await press(page, view(page, 'Requests (1)'));
    await expect(view(page, 'Requests (1)')).toHaveAttribute('aria-pressed', 'true');
    const request = rowOf(subscribers(page), s.reader.email);
    await expect(request).toContainText(name);
    await expect(request).toContainText('Trial');
    await expect(request).toContainText('Pending');
    await screenshot(page, 'subscriptions-stats-trial-request');

    await press(page, request.getByRole('button', { name: `Approve ${name}` }));
    const approve = page.getByRole('alertdialog', { name: 'Approve request' });
    await expect(approve).toContainText(`Approve the free trial request of ${name}?`);
    await press(page, approve.getByRole('button', { name: 'Approve', exact: true }));
    await expect(toast(page, `The free trial request of ${name} has been approved.`)).toBeVisible();
    await expect(approve).toBeHidden();
    // The list updates: nothing waits any more, and the reader is a trial subscriber now.
    await expect(view(page, 'Requests (0)')).toBeVisible();
    await expect(subscribers(page)).toContainText('There are no items to show');
    await press(page, view(page, 'Trial (1)'));
    const trial = rowOf(subscribers(page), s.reader.email);
    await expect(trial).toContainText('Active');
    await expect(trial.getByRole('button', { name: `Approve ${name}` })).toHaveCount(0);
    await screenshot(page, 'subscriptions-stats-trial-approved');

    // The free closed channel: the access request is rejected.
    await page.goto(statsPath(s.closed.id));
    await expect(heading1(page, `${s.closed.name}: subscribers`)).toBeVisible();
    await view(page, 'Requests (1)').click();
    const access = rowOf(subscribers(page), s.reader.email);
    await expect(access).toContainText('Pending');
    await access.getByRole('button', { name: `Reject ${name}` }).click();
    const reject = page.getByRole('alertdialog', { name: 'Reject request' });
    await expect(reject).toContainText(`Reject the access request of ${name}?`);
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(toast(page, `The access request of ${name} has been rejected.`)).toBeVisible();
    await expect(view(page, 'Requests (0)')).toBeVisible();
    await expect(subscribers(page)).toContainText('There are no items to show');
    await view(page, 'Unsubscribed (1)').click();
    await expect(rowOf(subscribers(page), s.reader.email)).toContainText('Rejected');
  });

  test('The reader sees the trial on the Subscriptions page and reads the premium article in full', async ({ browser, request }) => {
    const page = await pageAs(browser, s.reader);
    const { me } = await graphqlWithToken<{ me: { channelSubscriptions: { channelId: string; cancelAt: string | null }[] } }>(
      request,
      s.reader.token,
      '{ me { channelSubscriptions { channelId cancelAt } } }',
    );
    const cancelAt = me.channelSubscriptions.find((c) => c.channelId === s.premium.id)?.cancelAt;
    expect(cancelAt, 'the approved trial has an end').toBeTruthy();
    const ends = new Date(cancelAt!);
    // The channel's trial days from the approval (the server may keep the end of that day).
    expect(ends.getTime() - Date.now()).toBeGreaterThan((TRIAL_DAYS - 1) * 86_400_000);
    expect(ends.getTime() - Date.now()).toBeLessThanOrEqual((TRIAL_DAYS + 1) * 86_400_000);

    await page.goto('subscriptions');
    await expect(heading1(page, 'Your subscriptions')).toBeVisible();
    const card = subscriptionCard(page, 'Your subscriptions', s.premium.name);
    await expect(card.getByText('Trial', { exact: true })).toBeVisible();
    await expect(card.getByText('Free trial', { exact: true })).toBeVisible();
    await expect(card.getByRole('definition')).toHaveText(dayText(ends));
    await expect(card.getByRole('term')).toHaveText('Trial ends');
    await expect(card.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
    // The rejected request is a past subscription.
    await expect(subscriptionCard(page, 'Past subscriptions', s.closed.name)).toContainText('Request not approved');
    await expect(subscriptionCard(page, 'Your subscriptions', s.closed.name)).toHaveCount(0);
    await screenshot(page, 'subscriptions-page-trial');

    // The article comes with the reader's subscriptions, and opens in full.
    const articles = page.getByRole('list', { name: 'Articles from your subscriptions' });
    await articles.getByRole('link', { name: s.article.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/browse/article/${s.article.id}$`));
    await expect(heading1(page, s.article.title)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Article body' }).getByText(PREMIUM_SENTENCE, { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'This is a premium article' })).toHaveCount(0);
    await screenshot(page, 'subscriptions-premium-article-full');

    // The channel's card now tells when the trial ends.
    await page.goto('channels');
    const premiumCard = channelCard(page, s.premium.name);
    await expect(premiumCard).toContainText(`Trial ends ${dayText(ends)}`);
    await expect(premiumCard.getByRole('link', { name: 'Buy now' })).toBeVisible();
    // The rejected request can be made again.
    const closedCard = channelCard(page, s.closed.name);
    await expect(closedCard).toContainText('Your last request was not approved.');
    await expect(closedCard.getByRole('button', { name: 'Request access', exact: true })).toBeEnabled();
  });
});

// By keyboard alone from the stats page on (keyboard.ts), the file chosen through the chooser Enter opens.
test('The Editor bulk-adds a CSV of 50 addresses: review tabs, confirmation, the new subscribers', async ({ browser }) => {
  const page = await pageAs(browser, s.editor);
  const { signedIn, neverSignedIn, unknown, existing } = s.csv;
  // A spreadsheet export: a header row, CRLF, quoted values with commas; every address once.
  const lines = [
    'Email,Name,Company',
    ...[...signedIn, ...neverSignedIn].map((u) => `${u.email},"${u.name}","E2E Client Co, London"`),
    ...unknown.map((email) => `${email},,`),
  ];
  expect(lines.length - 1).toBe(50);
  const csv = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');

  await page.goto(statsPath(s.bulk.id));
  await expect(heading1(page, `${s.bulk.name}: subscribers`)).toBeVisible();
  await expect(view(page, 'All (1)')).toBeVisible();
  await press(page, page.getByRole('link', { name: 'Add subscribers in bulk' }));
  await expect(page).toHaveURL(new RegExp(`/publisher/premium-channels/subscribers/${s.bulk.id}/add-bulk$`));
  await expect(heading1(page, 'Add subscribers')).toBeVisible();

  // Only .csv files are read.
  const chooser = page.getByLabel('CSV file');
  await chooser.setInputFiles({ name: 'subscribers.txt', mimeType: 'text/plain', buffer: csv });
  await expect(page.getByRole('alert').filter({ hasText: 'File format not supported' })).toBeVisible();

  // The check waits until 'Upload complete' has been seen: it may otherwise answer within a frame.
  let releaseCheck = () => {};
  const checkHeld = new Promise<void>((resolve) => (releaseCheck = resolve));
  await page.route('**/graphql', async (route) => {
    const body = route.request().postData() ?? '';
    if (body.includes('"operationName":"CheckEmails"')) await checkHeld;
    await route.fallback();
  });
  const chosen = page.waitForEvent('filechooser');
  await press(page, chooser, 'Space', { back: true });
  await (await chosen).setFiles({ name: 'subscribers.csv', mimeType: 'text/csv', buffer: csv });
  await expect(page.getByRole('status').filter({ hasText: 'Upload complete' })).toBeVisible();
  await screenshot(page, 'subscriptions-bulk-upload-complete');
  releaseCheck();

  // The review: what the server found in the file.
  await expect(heading1(page, 'Review upload')).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });
  await expect(
    page.getByText(
      'A total of 50 email addresses were identified in the CSV file, of which 39 can be added as new subscribers to the channel.',
      { exact: true },
    ),
  ).toBeVisible();
  const tabs = page.getByRole('region', { name: 'Upload review' });
  for (const name of ['Subscriptions (39)', 'Existing (1)', 'No Insights account (5)', 'Unmatched (5)']) {
    await expect(tabs.getByRole('tab', { name, exact: true })).toBeVisible();
  }
  await expect(tabs.getByRole('tab', { name: 'Subscriptions (39)' })).toHaveAttribute('aria-selected', 'true');
  const toAdd = page.getByRole('table', { name: 'Users to be added' });
  await expect(rowOf(toAdd, signedIn[1].email)).toContainText(signedIn[1].name);
  await expect(rowOf(toAdd, existing.email)).toHaveCount(0);
  await expect(tabs.getByText('Showing 1-15 of 39')).toBeVisible();
  await screenshot(page, 'subscriptions-bulk-review');

  // The review's tabs: the arrows move between them, Enter opens one.
  const nextTab = async (name: string) => {
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(tabs.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
  };
  await tabTo(page, tabs.getByRole('tab', { name: 'Subscriptions (39)' }), { back: true });
  await nextTab('Existing (1)');
  await expect(rowOf(page.getByRole('table', { name: 'Users already subscribed' }), existing.email)).toContainText('Non-charge (Active)');
  await expect(page.getByRole('checkbox', { name: 'Overwrite subscribed users' })).not.toBeChecked();

  await nextTab('No Insights account (5)');
  const noAccount = page.getByRole('table', { name: 'Users without an Insights account' });
  for (const u of neverSignedIn) await expect(rowOf(noAccount, u.email)).toContainText(u.name);

  await nextTab('Unmatched (5)');
  const unmatched = page.getByRole('table', { name: 'Unmatched email addresses' });
  for (const email of unknown) await expect(unmatched.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await screenshot(page, 'subscriptions-bulk-review-unmatched');

  // Non-charge by default on a premium channel; a note for the history.
  await expect(page.getByRole('radiogroup', { name: 'Subscription type given' }).getByRole('radio', { name: 'Non-charge' })).toBeChecked();
  await typeInto(page, page.getByLabel('Notes (optional)'), `Bulk upload of run ${run}`);
  await press(page, page.getByRole('button', { name: 'Confirm and add subscribers' }));
  await expect(toast(page, '39 subscriber(s) added, 0 updated.')).toBeVisible();

  // Back in the stats: 40 non-charge subscribers, the added ones found by name.
  await expect(page).toHaveURL(new RegExp(`/${statsPath(s.bulk.id)}$`));
  await expect(view(page, 'All (40)')).toBeVisible();
  await view(page, 'Non-charge (40)').click();
  await expect(page.getByText('Showing 1-15 of 40')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search subscribers...' }).fill(signedIn[7].name);
  await expect(page.getByText('Showing 1-1 of 1')).toBeVisible();
  const added = rowOf(subscribers(page), signedIn[7].email);
  await expect(added).toContainText('Non-charge');
  await expect(added).toContainText('Active');
  await expect(added).toContainText('E2E Client Co');
  await screenshot(page, 'subscriptions-bulk-result');
  await page.getByRole('searchbox', { name: 'Search subscribers...' }).fill(neverSignedIn[0].name);
  await expect(subscribers(page)).toContainText('There are no items to show');
});

test('The Editor adds a subscriber as a paid clearing account, then edits them to a free non-client', async ({ browser }) => {
  const page = await pageAs(browser, s.editor);
  const user = s.clearingUser;
  const label = `${user.name} (${user.email})`;
  const expiryYear = new Date().getFullYear() + 1;

  await page.goto(statsPath(s.clearing.id));
  await expect(heading1(page, `${s.clearing.name}: subscribers`)).toBeVisible();
  await page.getByRole('link', { name: 'Add subscriber', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/publisher/premium-channels/subscribers/${s.clearing.id}/add$`));
  await expect(heading1(page, 'Add subscriber')).toBeVisible();
  const form = page.getByRole('form', { name: 'Add subscriber' });

  // The user search offers only users who have signed in and are not subscribed.
  await form.getByRole('combobox', { name: 'User' }).fill(`clearing-${run}`);
  const matches = page.getByRole('listbox', { name: 'Matching users' });
  // Each match is named by the user's name and, as its description, their email.
  const option = matches.getByRole('option', { name: `${user.name} ${user.email}`, exact: true });
  await expect(option).toBeVisible();
  await expect(matches.getByRole('option')).toHaveCount(1);
  await option.click();
  await expect(form.getByLabel('User', { exact: true })).toHaveValue(label);

  // Paid > Clearing account: the card is shown but cannot be chosen; the account number is required.
  await choose(form.getByRole('radiogroup', { name: 'Payment category' }), 'Paid');
  const subType = form.getByRole('radiogroup', { name: 'Subscription type' });
  await expect(subType.getByRole('radio', { name: 'Card' })).toBeDisabled();
  await expect(subType.getByRole('radio', { name: 'Billed externally' })).toBeVisible();
  await choose(subType, 'Clearing account');
  await expect(form.getByLabel('Bespoke monthly price (USD)')).toHaveAttribute('placeholder', '45.00');
  await form.getByLabel("Reason for activating this subscription on user's behalf").fill(`Clearing client since run ${run}`);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.getByLabel('Account number')).toHaveAccessibleDescription('This field is required');
  await screenshot(page, 'subscriptions-add-subscriber-account-required');

  await form.getByLabel('Account number').fill(`CLR-${run}`);
  await expect(form.getByLabel('Account number')).not.toHaveAccessibleDescription('This field is required');
  await form.getByLabel('Bespoke monthly price (USD)').fill('39.5');
  await form.getByLabel('Bespoke monthly price (USD)').blur();
  await expect(form.getByLabel('Bespoke monthly price (USD)')).toHaveValue('39.50');
  await form.getByLabel('Expiry date').fill(`31/12/${expiryYear}`);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(toast(page, `The subscriber ${user.name} has been added.`)).toBeVisible();

  // Back on the channel's subscriber stats, under Paid.
  await expect(page).toHaveURL(new RegExp(`/${statsPath(s.clearing.id)}$`));
  await view(page, 'Paid (1)').click();
  const paid = rowOf(subscribers(page), user.email);
  await expect(paid).toContainText('Paid - Clearing');
  await expect(paid).toContainText('Active');
  await expect(paid).toContainText(`31 Dec ${expiryYear}`);

  // Edit: the stored choices, then Free > Non-client.
  await paid.getByRole('link', { name: `Edit ${user.name}` }).click();
  await expect(page).toHaveURL(
    new RegExp(`/publisher/premium-channels/subscribers/${s.clearing.id}/edit/${encodeURIComponent(`e2e|${user.id}`)}$`),
  );
  await expect(heading1(page, 'Edit subscriber')).toBeVisible();
  const edit = page.getByRole('form', { name: 'Edit subscriber' });
  await expect(edit.getByLabel('User', { exact: true })).toHaveValue(label);
  await expect(edit.getByLabel('User', { exact: true })).toBeDisabled();
  const category = edit.getByRole('radiogroup', { name: 'Payment category' });
  const editType = edit.getByRole('radiogroup', { name: 'Subscription type' });
  await expect(category.getByRole('radio', { name: 'Paid' })).toBeChecked();
  await expect(editType.getByRole('radio', { name: 'Clearing account' })).toBeChecked();
  await expect(edit.getByLabel('Account number')).toHaveValue(`CLR-${run}`);
  await expect(edit.getByLabel('Bespoke monthly price (USD)')).toHaveValue('39.50');
  await expect(edit.getByLabel('Expiry date')).toHaveValue(`31/12/${expiryYear}`);

  // The history: who added it, by which route, from nothing to a clearing account.
  const history = page.getByRole('table', { name: 'Subscription history' });
  await expect(history.getByRole('row')).toHaveCount(2);
  const added = history.getByRole('row').nth(1);
  await expect(added).toContainText(s.editor.name);
  await expect(added).toContainText('Staff');
  await expect(added).toContainText('— → Clearing account (Active)');
  await expect(added).toContainText(`Clearing client since run ${run}`);
  await screenshot(page, 'subscriptions-edit-subscriber-history');

  // Another category resets the sub-type; leaving the paid family clears the account number.
  await choose(category, 'Free');
  await expect(editType.getByRole('radio', { name: 'Clearing client (rebated)' })).not.toBeChecked();
  await expect(editType.getByRole('radio', { name: 'Non-client' })).not.toBeChecked();
  await choose(editType, 'Non-client');
  await expect(edit.getByLabel('Account number')).toHaveCount(0);
  await expect(edit.getByLabel('Bespoke monthly price (USD)')).toHaveCount(0);
  await expect(edit.getByLabel('Expiry date')).toHaveValue('');
  await edit.getByLabel("Reason for activating this subscription on user's behalf").fill(`Moved to non-client in run ${run}`);
  await edit.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(page, `The subscriber ${user.name} has been updated.`)).toBeVisible();

  await expect(page).toHaveURL(new RegExp(`/${statsPath(s.clearing.id)}$`));
  await expect(view(page, 'Paid (0)')).toBeVisible();
  await view(page, 'Non-charge (1)').click();
  const nonCharge = rowOf(subscribers(page), user.email);
  await expect(nonCharge).toContainText('Non-charge');
  await expect(nonCharge).toContainText('Active');

  // The change is in the history, newest first.
  await nonCharge.getByRole('link', { name: `Edit ${user.name}` }).click();
  await expect(heading1(page, 'Edit subscriber')).toBeVisible();
  await expect(edit.getByRole('radiogroup', { name: 'Subscription type' }).getByRole('radio', { name: 'Non-client' })).toBeChecked();
  await expect(history.getByRole('row')).toHaveCount(3);
  const changed = history.getByRole('row').nth(1);
  await expect(changed).toContainText('Clearing account (Active) → Non-charge (Active)');
  await expect(changed).toContainText(`Moved to non-client in run ${run}`);
  await screenshot(page, 'subscriptions-edit-subscriber-history-changed');
});

// Issue 41: the reader's private Atom feed of all their subscriptions, read as a feed reader reads
// it (a plain GET, no sign-in), stops working once revoked.
test('A reader creates a feed link for all their subscriptions, a feed reader reads it, and revoking it ends it', async ({
  browser,
  request,
}) => {
  // Links left by an earlier run go first, so the list holds only the one made here.
  const { myFeedLinks } = await graphqlWithToken<{ myFeedLinks: { _id: string }[] }>(request, s.reader.token, '{ myFeedLinks { _id } }');
  for (const link of myFeedLinks) {
    await graphqlWithToken(request, s.reader.token, 'mutation ($id: ID!) { revokeFeedLink(id: $id) }', { id: link._id });
  }

  const page = await pageAs(browser, s.reader);
  await page.goto('subscriptions');
  await expect(heading1(page, 'Your subscriptions')).toBeVisible();
  const feeds = page.getByRole('region', { name: 'Feeds', exact: true });
  const links = feeds.getByRole('table', { name: 'Your feed links' });
  await expect(links).toContainText('No feed links yet');
  await expect(feeds.getByLabel('Follows')).toHaveValue('all');
  await feeds.getByRole('button', { name: 'Create feed link' }).click();

  // The address, shown this once.
  const field = feeds.getByRole('textbox', { name: 'Feed address' });
  await expect(field).toBeFocused();
  await expect(feeds.getByText('This address is shown only once. Copy it into your feed reader now.')).toBeVisible();
  const address = await field.inputValue();
  expect(address).toMatch(/\/feeds\/[^/]+\.atom$/);
  await expect(links.getByRole('row').nth(1)).toContainText('All my subscriptions');
  await expect(links.getByRole('row').nth(1)).toContainText('Never');
  await screenshot(page, 'subscriptions-feed-link-created');

  const feed = await page.request.get(address);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('<feed');

  await feeds.getByRole('button', { name: 'Done' }).click();
  await expect(field).toHaveCount(0);

  await links.getByRole('button', { name: /^Revoke the feed link for All my subscriptions/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke this feed link?' });
  await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(toast(page, 'The feed link has been revoked.')).toBeVisible();
  await expect(links).toContainText('No feed links yet');

  const revoked = await page.request.get(address);
  expect(revoked.status()).toBe(404);
});
