// Email notifications end to end against the real server and a real SMTP server (issue 12, spec 3
// §2 'Email notifications', 'Unsubscribe page', §7): scripts/test.sh starts maildev, points the
// server's INSIGHTS_SMTP_URL at it and gives its REST API to the specs (E2E_MAILDEV_URL).
//
// - The Editor publishes an article from the editor with the subscribers notified; the reader's
//   email arrives in maildev with the title as its subject and the article's link.
// - The reader follows an email's unsubscribe link signed out, picks a reason and is unsubscribed;
//   the channel's emails are off in the API and the reason is recorded.
// - The signed-in reader turns a channel's emails off, chooses a digest and flips the global switch
//   on /email-notifications; each change is still there after a reload.
//
// Everything is made for this run: a reader of its own (signed up through the built-in provider's
// "Another user" form), a desk with the Editor, a topic, and one free open channel per test, so the
// tests do not depend on each other or on other spec files.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import {
  addWithToken,
  APP_URL,
  BASE_URL,
  accessToken,
  graphqlData,
  graphqlWithToken,
  psql,
  readyUserSession,
  screenshot,
  type SignedInUser,
} from './support';
import { decodeHtml, MAILDEV_URL, unsubscribeLink, waitForEmail, type MaildevEmail } from './maildev';

/** Names unique to this run, so a rerun against the same database (or maildev) does not collide. */
const run = Date.now().toString(36);

const DESKTOP = { width: 1400, height: 900 };

interface Named {
  id: string;
  name: string;
}

interface Setup {
  editor: SignedInUser;
  reader: SignedInUser;
  topicId: string;
  /** Test (a): the Editor publishes here from the editor. */
  alerts: Named;
  /** Test (b): the reader unsubscribes from it through an email's link. */
  unsubscribe: Named;
  /** Test (c): the reader's settings page. */
  settings: Named;
  settingsDigest: Named;
}

let s: Setup;

/** What maildev's REST API gives for one email (GET /api/email). */

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  expect(MAILDEV_URL, 'E2E_MAILDEV_URL: scripts/test.sh (run_e2e) starts maildev and exports its address').not.toBe('');
  const [admin, editor] = await Promise.all((['Administrator', 'Editor'] as const).map((user) => readyUserSession(browser, user)));
  const reader = await signUpReader(browser, {
    email: `e2e-email-reader-${run}@client.example`,
    name: `E2E Email Reader ${run}`,
  });

  const api = await playwright.request.newContext();
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>): Promise<string> =>
    addWithToken(api, token, mutation, type, item);
  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Email Desk ${run}`,
    description: 'Publishes the articles of the email browser test',
    email: `e2e-email-desk-${run}@insights.example`,
    contributors: [editor.id],
  });
  const channel = async (label: string): Promise<Named> => {
    const name = `E2E Email ${label} ${run}`;
    const id = await add(admin.token, 'addChannel', 'ChannelInput', {
      name,
      description: `Free channel of the email test: ${label.toLowerCase()}`,
      type: 'freeOpen',
      ownerType: 'desk',
      ownerId: deskId,
      adminUsers: [editor.id],
    });
    return { id, name };
  };
  const alerts = await channel('Alerts');
  const unsubscribe = await channel('Unsubscribe');
  const settings = await channel('Settings');
  const settingsDigest = await channel('Digest');
  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', { name: `E2E Email Topic ${run}`, description: 'Email test' });

  // The reader subscribes to each channel as a reader does (the free open channels' subscribe call).
  for (const c of [alerts, unsubscribe, settings, settingsDigest]) {
    await graphqlWithToken(
      api,
      reader.token,
      'mutation ($item: OpenFreeSubscriptionInput!) { createOpenFreeChannelSubscription(item: $item) { channelId } }',
      {
        item: { channelId: c.id },
      },
    );
  }
  await api.dispose();
  s = { editor, reader, topicId, alerts, unsubscribe, settings, settingsDigest };
});

/**
 * Signs a reader of this run up through the built-in provider's "Another user" form (the server
 * records them at their first sign-in) and returns their id, token and signed-in storage state.
 */
async function signUpReader(browser: Browser, user: { email: string; name: string }): Promise<SignedInUser> {
  const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP });
  try {
    const page = await context.newPage();
    await page.goto('for-you');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Name', { exact: true }).fill(user.name);
    // A company makes the profile complete: no detour to the external profile page.
    await page.getByLabel('Company', { exact: true }).fill('E2E Client Co');
    await page.getByLabel('Scopes').fill('insights:content-reader');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    const { me } = await graphqlData<{ me: { _id: string; name: string; email: string } }>(page, '{ me { _id name email } }');
    return { id: me._id, name: me.name, email: me.email, token: await accessToken(page), state: await context.storageState() };
  } finally {
    await context.close();
  }
}

/** Contexts opened by the test, closed after it. */
const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

/** A page signed in as `user` (their stored session), or signed out without one. */
async function newPage(browser: Browser, user?: SignedInUser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: APP_URL,
    storageState: user?.state ?? { cookies: [], origins: [] },
    viewport: DESKTOP,
  });
  contexts.push(context);
  return context.newPage();
}

/**
 * Runs `action` and waits for the GraphQL answer of `operation` it causes (the settings page saves
 * as the reader changes it), failing on an error: a reload right after could cancel the request.
 */
async function whileSaving(page: Page, operation: string, action: () => Promise<void>): Promise<void> {
  const answer = page.waitForResponse(
    (r) => r.url().endsWith('/graphql') && (r.request().postDataJSON() as { operationName?: string } | null)?.operationName === operation,
  );
  await action();
  const body = (await (await answer).json()) as { errors?: unknown };
  expect(body.errors, `${operation} answers without errors`).toBeUndefined();
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const toast = (page: Page, text: string) => page.locator('.bp6-toast').getByText(text, { exact: true });

/**
 * A header of an email as sent, from its raw source (maildev's parsed `headers` keep only a few):
 * folded lines joined, the name compared without case.
 */
async function header(request: APIRequestContext, email: MaildevEmail, name: string): Promise<string> {
  const response = await request.get(`${MAILDEV_URL}/api/email/${email.id}/source`);
  expect(response.ok()).toBeTruthy();
  const head = (await response.text()).split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

interface SubscriptionEmails {
  me: {
    emailNotificationSettings: { channelNotifications: boolean; timeZone: string };
    channelSubscriptions: { channelId: string; emailNotifications: boolean; emailFrequency: string }[];
  };
}

async function readerEmailSettings(request: APIRequestContext) {
  const { me } = await graphqlWithToken<SubscriptionEmails>(
    request,
    s.reader.token,
    '{ me { emailNotificationSettings { channelNotifications timeZone } channelSubscriptions { channelId emailNotifications emailFrequency } } }',
  );
  const of = (channel: Named) => me.channelSubscriptions.find((c) => c.channelId === channel.id);
  return { global: me.emailNotificationSettings, of };
}

test('The Editor publishes with the subscribers notified and the reader’s email arrives in maildev', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const title = `E2E Email Alert ${run}`;
  const summary = 'Refinery margins widen as autumn maintenance ends.';
  // The Editor's draft, made through the API; it is published from the editor below.
  const { addArticle } = await graphqlWithToken<{ addArticle: { _id: string } }>(
    request,
    s.editor.token,
    'mutation ($item: ArticleInput!) { addArticle(item: $item) { _id } }',
    {
      item: {
        title,
        summary,
        html: '<p>Margins widened for the third week as units came back from maintenance.</p>',
        premiumChannelId: s.alerts.id,
        categories: [s.topicId],
        contributors: [s.editor.id],
      },
    },
  );
  const articleId = addArticle._id;

  const page = await newPage(browser, s.editor);
  await page.goto(`publisher/articles/edit/${articleId}`);
  await expect(heading1(page, 'Edit article')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await page.getByRole('group', { name: 'Article actions' }).getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Publish article' });
  // A fresh article notifies its channel's subscribers: the reader is the only one.
  await expect(dialog).toContainText('Publish this article now? 1 subscriber will be notified.');
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(toast(page, 'Article published')).toBeVisible();

  const email = await waitForEmail(request, s.reader.email, title);
  expect(email.to.map((t) => t.address.toLowerCase())).toEqual([s.reader.email.toLowerCase()]);
  expect(email.text).toContain(summary);
  expect(email.html).toContain(summary);
  // Every notification can be unsubscribed from in one click (RFC 8058) and from its footer.
  const token = new URL(unsubscribeLink(email)).searchParams.get('data');
  expect(await header(request, email, 'List-Unsubscribe')).toBe(`<${BASE_URL}/unsubscribe?data=${token}>`);
  expect(await header(request, email, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

  // The reader may read the free article in full: the email links to its page in the app.
  const articleLink = `${BASE_URL}/insights/browse/article/${articleId}`;
  expect(email.text, 'the text part links to the article page').toContain(articleLink);
  expect(decodeHtml(email.html)).toContain(`href="${articleLink}"`);
  const readerPage = await newPage(browser, s.reader);
  await readerPage.goto(articleLink);
  await expect(readerPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('The reader follows an email’s unsubscribe link signed out, gives a reason and is unsubscribed', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const title = `E2E Email Unsubscribe ${run}`;
  // Published through the API (a fresh publish always notifies): this test needs only the email.
  await addWithToken(request, s.editor.token, 'publishAdd', 'ArticleInput', {
    title,
    summary: 'Gas storage is full ahead of winter.',
    html: '<p>Storage sites reached their targets a month early.</p>',
    premiumChannelId: s.unsubscribe.id,
    categories: [s.topicId],
    contributors: [s.editor.id],
  });
  const email = await waitForEmail(request, s.reader.email, title);
  const link = unsubscribeLink(email);
  expect((await readerEmailSettings(request)).of(s.unsubscribe)?.emailNotifications).toBe(true);

  // A browser nobody has signed in to: the page works without a sign-in.
  const page = await newPage(browser);
  await page.goto(link);
  await expect(heading1(page, `Unsubscribe ${s.reader.email}`)).toBeVisible();
  await expect(page.getByText(s.unsubscribe.name, { exact: true })).toBeVisible();
  await expect(page.getByText(`Stop emails about new articles in ${s.unsubscribe.name} to this address?`)).toBeVisible();
  const reasons = page.getByRole('radiogroup', { name: 'Why are you unsubscribing?' });
  await expect(reasons.getByRole('radio')).toHaveCount(4);
  await screenshot(page, 'unsubscribe-not-sent');
  await reasons.getByText('The content is not relevant to me', { exact: true }).click();
  await expect(reasons.getByRole('radio', { name: 'The content is not relevant to me' })).toBeChecked();
  await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();

  await expect(heading1(page, 'You are unsubscribed')).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(
    `${s.reader.email} will no longer get emails about new articles in ${s.unsubscribe.name}.`,
  );
  await expect(page.getByRole('link', { name: 'Manage email notifications' })).toHaveAttribute('href', '/insights/email-notifications');
  await expect(page).toHaveURL(/\/insights\/unsubscribe\?data=/);
  await screenshot(page, 'unsubscribe-done');

  // The channel's emails are off, the others and the global switch untouched; the reason is kept.
  const after = await readerEmailSettings(request);
  expect(after.of(s.unsubscribe)?.emailNotifications).toBe(false);
  expect(after.of(s.alerts)?.emailNotifications).toBe(true);
  expect(after.global.channelNotifications).toBe(true);
  expect(
    psql(`select reason from email_unsubscribe where user_id = :'user' and channel_id = :'channel';`, {
      user: s.reader.id,
      channel: s.unsubscribe.id,
    }),
  ).toBe('not_relevant');

  // The same link again: nothing left to turn off.
  await page.reload();
  await expect(page.getByRole('status')).toHaveText('You are already unsubscribed.');
  await expect(page.getByRole('button', { name: 'Unsubscribe', exact: true })).toHaveCount(0);

  // A changed link is refused with the server's message.
  await page.goto(link.replace(/data=./, (m) => (m.endsWith('A') ? 'data=B' : 'data=A')));
  await expect(heading1(page, 'This link cannot be used')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('This unsubscribe link is not valid.');
});

test('The reader turns a channel’s emails off, picks a digest and flips the global switch; all persist', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const page = await newPage(browser, s.reader);
  // Through the account menu, as a reader finds it.
  await page.goto('for-you');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Manage email notifications' }).click();
  await expect(page).toHaveURL(/\/insights\/email-notifications$/);
  await expect(heading1(page, 'Email notifications')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to your subscriptions' })).toBeVisible();

  const channels = page.getByRole('list', { name: 'Your channels' });
  const settings = channels.getByRole('checkbox', { name: s.settings.name, exact: true });
  const digest = page.getByRole('combobox', { name: `Email frequency for ${s.settingsDigest.name}` });
  const global = page.getByRole('switch', { name: 'Email me about new articles in my channels' });
  const saved = page.getByText('All changes saved.');
  await expect(global).toBeChecked();
  await expect(settings).toBeChecked();
  await expect(digest).toHaveValue('immediate');

  // Blueprint draws the box over the input: click the label, as a user does.
  await whileSaving(page, 'SetChannelEmails', () => channels.getByText(s.settings.name, { exact: true }).click());
  await expect(settings).not.toBeChecked();
  await expect(saved).toBeVisible();
  await whileSaving(page, 'ChangeEmailFrequency', async () => {
    await digest.selectOption({ label: 'Daily digest' });
  });
  await expect(saved).toBeVisible();
  await screenshot(page, 'email-notifications');

  await page.reload();
  await expect(heading1(page, 'Email notifications')).toBeVisible();
  await expect(settings).not.toBeChecked();
  await expect(digest).toHaveValue('daily');
  await expect(channels.getByRole('checkbox', { name: s.alerts.name, exact: true })).toBeChecked();
  const stored = await readerEmailSettings(request);
  expect(stored.of(s.settings)).toMatchObject({ emailNotifications: false, emailFrequency: 'immediate' });
  expect(stored.of(s.settingsDigest)).toMatchObject({ emailNotifications: true, emailFrequency: 'daily' });

  // The global switch, saved once it stops changing (500 ms): off greys the channels.
  const flip = () => page.getByText('Email me about new articles in my channels', { exact: true }).click();
  await whileSaving(page, 'SetEmailSettings', async () => {
    await flip();
    await expect(global).not.toBeChecked();
    await expect(channels.getByRole('checkbox', { name: s.alerts.name, exact: true })).toBeDisabled();
  });
  await page.reload();
  await expect(global).not.toBeChecked();
  await expect(channels.getByRole('checkbox', { name: s.alerts.name, exact: true })).toBeDisabled();
  expect((await readerEmailSettings(request)).global.channelNotifications).toBe(false);

  // And on again, so the reader's other emails keep coming.
  await whileSaving(page, 'SetEmailSettings', flip);
  await expect(global).toBeChecked();
  expect((await readerEmailSettings(request)).global.channelNotifications).toBe(true);
});
