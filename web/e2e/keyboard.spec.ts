// The keyboard journeys of WCAG 2.2 AA (issue 38): a reader and a member of staff do their work
// with Tab, Shift+Tab, Enter, Space, the arrows and Escape alone (keyboard.ts), every stop showing
// its focus clear of the sticky header. What the journeys make is theirs: a reader signed up for
// this run, channels, a topic and articles of this run, made through the API first.
//
// - The reader signs in, skips to the content, searches, opens the article, shares it (the dialog
//   takes focus and gives it back), prints it, subscribes to a free channel, buys a premium one
//   with the test card in the Stripe double's card fields, turns a channel's emails off, and
//   unsubscribes from another with the link of the email that then arrives.
// - The Editor writes an article in the editor (the toolbar's link, image and PDF pages inserted),
//   fills its settings and publishes it; the article page offers each PDF page's text.
// The staff's other journeys are keyboard-only in their own specs: approving a trial request and
// the bulk add (subscriptions.spec.ts), "Move to…" in the topic tree (taxonomy.spec.ts).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { press, tabTo, typeInto } from './keyboard';
import { unsubscribeLink, waitForEmail } from './maildev';
import { addWithToken, APP_URL, PNG_1X1, psql, readyUserSession, type SignedInUser } from './support';

const run = Date.now().toString(36);
const DESKTOP = { width: 1400, height: 900 };
/** A word only the journey's article holds. */
const WORD = `windlass${run}`;

interface Named {
  id: string;
  name: string;
}

interface Setup {
  editor: SignedInUser;
  topicId: string;
  open: Named;
  premium: Named;
  article: Named;
}

let s: Setup;

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const [admin, editor] = await Promise.all((['Administrator', 'Editor'] as const).map((user) => readyUserSession(browser, user)));
  const api = await playwright.request.newContext();
  const add = (token: string, mutation: string, type: string, item: Record<string, unknown>) =>
    addWithToken(api, token, mutation, type, item);
  const deskId = await add(admin.token, 'addDesk', 'DeskInput', {
    name: `E2E Keyboard Desk ${run}`,
    description: 'Owns the channels of the keyboard journeys',
    email: `e2e-keyboard-${run}@example.com`,
    contributors: [editor.id],
  });
  const channel = async (name: string, type: string): Promise<Named> => ({
    name,
    id: await add(admin.token, 'addChannel', 'ChannelInput', {
      name,
      description: 'Freight analysis for the keyboard journeys',
      type,
      ownerType: 'desk',
      ownerId: deskId,
      adminUsers: [editor.id],
      glAccount: 'GL-E2E-KEYBOARD',
      price: '49.50',
    }),
  });
  const open = await channel(`E2E Keyboard Open ${run}`, 'freeOpen');
  const premium = await channel(`E2E Keyboard Premium ${run}`, 'premium');
  const topicId = await add(admin.token, 'addCategory', 'CategoryInput', { name: `E2E Keyboard Freight ${run}`, description: 'Freight' });
  const title = `E2E keyboard freight note ${run}`;
  const articleId = await add(editor.token, 'publishAdd', 'ArticleInput', {
    title,
    summary: 'Anchor handling rates, for everyone.',
    html: `<p>The ${WORD} market tightened as rigs came back.</p>`,
    premiumChannelId: open.id,
    categories: [topicId],
    contributors: [editor.id],
  });
  await api.dispose();
  s = { editor, topicId, open, premium, article: { id: articleId, name: title } };
});

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const isFocused = (target: Locator) => target.evaluate((element) => element.contains(document.activeElement));

/** Presses `key` until `target` has focus (a menu's items, a radio group's radios). */
async function arrowTo(page: Page, target: Locator, key = 'ArrowDown', max = 10): Promise<void> {
  for (let presses = 0; presses < max && !(await isFocused(target)); presses++) await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

/** Tabs to a native select and picks the option starting with `label` by typing it. */
async function chooseByTyping(page: Page, select: Locator, label: string, value: RegExp): Promise<void> {
  await tabTo(page, select);
  await page.keyboard.type(label);
  await expect(select).toHaveValue(value);
}

test('A reader does everything by keyboard: sign in, search, read, share, print, subscribe, buy, email settings, unsubscribe', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP });
  const page = await context.newPage();
  // The print dialog is the browser's: the journey checks that Print asks for it.
  await page.addInitScript(() => {
    const window = globalThis as unknown as { print: () => void; printed: number };
    window.printed = 0;
    window.print = () => {
      window.printed += 1;
    };
  });
  const email = `e2e-keyboard-${run}@reader.example`;

  // Signs up on the provider's page.
  await page.goto('');
  await typeInto(page, page.getByRole('textbox', { name: 'Email' }), email);
  await typeInto(page, page.getByRole('textbox', { name: 'Name' }), `E2E Keyboard Reader ${run}`);
  await typeInto(page, page.getByRole('textbox', { name: 'Company' }), 'Keyboard Trading Ltd');
  await page.keyboard.press('Enter');
  const accountMenu = page.getByRole('button', { name: /\(Account menu\)$/ });
  await expect(accountMenu).toBeVisible();

  // The skip link takes focus past the header to the content.
  await press(page, page.getByRole('link', { name: 'Skip to content' }), 'Enter', { back: true });
  await expect(page.locator('#main')).toBeFocused();

  // Search, from the header: focus lands on the new page's heading.
  await press(page, page.getByRole('link', { name: 'Search', exact: true }), 'Enter', { back: true });
  await expect(heading1(page, 'Search and explore')).toBeFocused();
  await typeInto(page, page.getByRole('searchbox', { name: 'Search articles' }), WORD);
  await expect(page.getByRole('status').filter({ hasText: `1 article found for '${WORD}'` })).toBeVisible();
  await press(page, page.getByRole('region', { name: 'Search results' }).getByRole('link', { name: s.article.name }));
  await expect(heading1(page, s.article.name)).toBeFocused();
  await expect(page).toHaveTitle(`${s.article.name} – Insights`);

  // Share: the dialog takes focus, Copy link works, Escape closes it and focus comes back.
  const share = page.getByRole('button', { name: 'Share', exact: true });
  await press(page, share);
  const dialog = page.getByRole('dialog', { name: 'Share this article' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => isFocused(dialog), { message: 'the dialog takes focus' }).toBe(true);
  await press(page, dialog.getByRole('button', { name: 'Copy link' }));
  await expect(page.getByText('Link copied to clipboard', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(share).toBeFocused();

  // Print.
  await press(page, page.getByRole('button', { name: 'Print', exact: true }), 'Enter', { back: true });
  expect(await page.evaluate(() => (globalThis as unknown as { printed: number }).printed)).toBe(1);

  // Subscribes to the free channel from the channels page.
  await press(page, page.getByRole('link', { name: 'Channels', exact: true }), 'Enter', { back: true });
  await expect(heading1(page, 'Find channels and subscribe')).toBeFocused();
  const card = (channel: Named) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: channel.name, exact: true }) });
  await press(page, card(s.open).getByRole('button', { name: 'Subscribe for free' }));
  await expect(card(s.open).getByText('Subscribed', { exact: true })).toBeVisible();

  // Buys the premium channel with the test card.
  const pricing = card(s.premium).getByRole('link', { name: `View pricing for ${s.premium.name}` });
  await press(page, pricing.or(card(s.premium).getByRole('link', { name: 'Buy now' })));
  await press(page, page.getByRole('link', { name: 'Buy Premium access' }));
  await expect(page.getByRole('heading', { level: 2, name: 'Step 1 of 3: Business and tax identification' })).toBeVisible();
  await typeInto(page, page.getByLabel('Business name'), 'Keyboard Trading Ltd');
  await chooseByTyping(page, page.getByLabel('Tax ID type'), 'United Kingdom of Great Britain and Northern Ireland VAT', /^gb_vat\|/);
  await typeInto(page, page.getByLabel('Tax ID', { exact: true }), 'GB123456789');
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 3: Billing information' })).toBeVisible();
  await typeInto(page, page.getByLabel('Address line 1'), '1 King Street');
  await typeInto(page, page.getByLabel('City'), 'London');
  await typeInto(page, page.getByLabel('Postcode'), 'EC2V 8AU');
  await chooseByTyping(page, page.getByLabel('Country'), 'United Kingdom of Great Britain', /^GB$/);
  const terms = page.getByRole('checkbox', { name: /I accept the Terms of Service for Premium Content/ });
  await press(page, terms, 'Space');
  await expect(terms).toBeChecked();
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 3: Payment' })).toBeVisible();
  const byCard = page.getByRole('radiogroup', { name: 'Payment type' }).getByRole('radio', { name: 'Card' });
  await press(page, byCard, 'Space');
  await expect(byCard).toBeChecked();
  await typeInto(page, page.getByLabel('Card number'), '4242 4242 4242 4242');
  await typeInto(page, page.getByLabel('Expiration'), '12/34');
  await typeInto(page, page.getByLabel('CVC'), '123');
  await typeInto(page, page.getByLabel('Postal code'), 'EC2V 8AU');
  await press(page, page.getByRole('button', { name: 'Pay and subscribe' }));
  await expect(page).toHaveURL(new RegExp(`/browse/channel/${s.premium.id}/subscribed$`), { timeout: 20_000 });
  await expect(heading1(page, 'Subscription confirmed')).toBeVisible();

  // Turns the premium channel's emails off, through the account menu.
  await press(page, accountMenu, 'Enter', { back: true });
  // The menu takes focus on its first item once it has opened (after its transition).
  await expect(page.getByRole('menu', { name: 'Account menu' }).getByRole('menuitem').first()).toBeFocused();
  await arrowTo(page, page.getByRole('menuitem', { name: 'Manage email notifications' }));
  await page.keyboard.press('Enter');
  await expect(heading1(page, 'Email notifications')).toBeFocused();
  const channels = page.getByRole('list', { name: 'Your channels' });
  const premiumEmails = channels.getByRole('checkbox', { name: s.premium.name, exact: true });
  // The paid subscription is active once Stripe's webhook has told the server.
  await expect(async () => {
    await page.reload();
    await expect(premiumEmails).toBeChecked({ timeout: 2000 });
  }).toPass({ timeout: 20_000, intervals: [500, 1000, 2000] });
  await press(page, premiumEmails, 'Space');
  await expect(premiumEmails).not.toBeChecked();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  await page.reload();
  await expect(premiumEmails).not.toBeChecked();
  await expect(channels.getByRole('checkbox', { name: s.open.name, exact: true })).toBeChecked();

  // An article in the free channel: its email arrives, and its unsubscribe link works by keyboard.
  const title = `E2E keyboard email ${run}`;
  await addWithToken(request, s.editor.token, 'publishAdd', 'ArticleInput', {
    title,
    summary: 'Supply boats are scarce.',
    html: '<p>Supply boats are scarce in the North Sea.</p>',
    premiumChannelId: s.open.id,
    categories: [s.topicId],
    contributors: [s.editor.id],
  });
  await page.goto(unsubscribeLink(await waitForEmail(request, email, title)));
  const reasons = page.getByRole('radiogroup', { name: 'Why are you unsubscribing?' });
  await tabTo(page, reasons.getByRole('radio').first());
  const notRelevant = reasons.getByRole('radio', { name: 'The content is not relevant to me' });
  await arrowTo(page, notRelevant);
  await expect(notRelevant).toBeChecked();
  await press(page, page.getByRole('button', { name: 'Unsubscribe', exact: true }));
  await expect(heading1(page, 'You are unsubscribed')).toBeVisible();
  await context.close();
});

/** A PDF of one A6 page per list of lines, set in Helvetica (pdftotext reads them back). */
function pdfWithText(pages: string[][]): Buffer {
  const n = pages.length;
  const font = 3 + 2 * n;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${n} >>`,
    ...pages.map(
      (_, i) =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${3 + n + i} 0 R >>`,
    ),
    ...pages.map((lines) => {
      const stream = `BT /F1 14 Tf 20 380 Td ${lines.map((line) => `(${line}) Tj 0 -30 Td`).join(' ')} ET`;
      return `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    }),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

test('The Editor writes and publishes an article by keyboard: a link, an image and PDF pages from the toolbar', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: APP_URL, viewport: DESKTOP, storageState: s.editor.state });
  const page = await context.newPage();
  const title = `E2E keyboard written ${run}`;
  await page.goto('publisher/articles/add');
  await expect(heading1(page, 'New article')).toBeVisible();
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const body = page.getByRole('textbox', { name: 'Article body' });
  const settings = page.getByRole('complementary', { name: 'Article settings' });

  await typeInto(page, page.getByRole('textbox', { name: 'Title', exact: true }), title);
  await typeInto(page, body, 'Tanker rates rose for a third week. ');

  // A link, from the toolbar (Shift+Tab back from the text to it).
  await press(page, toolbar.getByRole('button', { name: 'Link', exact: true }), 'Enter', { back: true });
  const linkDialog = page.getByRole('dialog', { name: 'Insert link' });
  await typeInto(page, linkDialog.getByRole('textbox', { name: 'Address' }), 'https://www.example.com/tankers');
  await typeInto(page, linkDialog.getByRole('textbox', { name: 'Text' }), 'the tanker index');
  await press(page, linkDialog.getByRole('button', { name: 'Insert link' }));
  await expect(body.getByRole('link', { name: 'the tanker index' })).toHaveAttribute('href', 'https://www.example.com/tankers');

  // An image: Enter on the button opens the file chooser; its description is asked before it goes in.
  let chooser = page.waitForEvent('filechooser');
  await press(page, toolbar.getByRole('button', { name: 'Insert image', exact: true }), 'Enter', { back: true });
  await (await chooser).setFiles({ name: 'rates.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
  const imageDialog = page.getByRole('dialog', { name: 'Insert image rates.png' });
  await typeInto(page, imageDialog.getByRole('textbox', { name: 'Alternative text' }), 'Tanker rates, weekly');
  await press(page, imageDialog.getByRole('button', { name: 'Insert image' }));
  await expect(body.getByRole('img', { name: 'Tanker rates, weekly' })).toBeVisible();

  // PDF pages: one image per page, named by file and page.
  chooser = page.waitForEvent('filechooser');
  await press(page, toolbar.getByRole('button', { name: 'Insert PDF pages', exact: true }), 'Enter', { back: true });
  const pdf = pdfWithText([['Tanker outlook', `Fixtures of run ${run}`], ['Rates by route']]);
  await (await chooser).setFiles({ name: 'tankers.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(body.getByRole('img', { name: 'Page 2 of 2, tankers.pdf' })).toBeVisible({ timeout: 20_000 });

  // The settings: channel, contributor, summary, topic.
  const channel = settings.getByRole('combobox', { name: 'Channel', exact: true });
  await tabTo(page, channel);
  await page.keyboard.type(s.open.name);
  await expect(channel).toHaveValue(s.open.id);
  await typeInto(page, settings.getByRole('combobox', { name: 'Contributors' }), s.editor.name);
  // The first suggestion is the active one (the focus stays in the text box); Enter picks it.
  const suggestion = page.getByRole('listbox', { name: 'Suggested users' }).getByRole('option', { name: new RegExp(s.editor.name) });
  await expect(suggestion.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(settings.getByRole('button', { name: `Remove ${s.editor.name}` })).toBeVisible();
  await typeInto(page, settings.getByRole('textbox', { name: 'Summary' }), 'Rates rose for a third week.');
  const topicName = `E2E Keyboard Freight ${run}`;
  await typeInto(page, settings.getByRole('searchbox', { name: 'Filter topics' }), topicName);
  await page.keyboard.press('ArrowDown');
  const topic = settings.getByRole('treeitem', { name: topicName, exact: true });
  await expect(topic).toBeFocused();
  await page.keyboard.press('Space');
  await expect(topic).toHaveAttribute('aria-checked', 'true');

  // Publish, confirmed in the dialog.
  await press(page, page.getByRole('group', { name: 'Article actions' }).getByRole('button', { name: 'Publish' }));
  const confirm = page.getByRole('alertdialog', { name: 'Publish article' });
  await press(page, confirm.getByRole('button', { name: 'Publish', exact: true }));
  await expect(page.locator('.bp6-toast').getByText('Article published', { exact: true })).toBeVisible();

  // The article page: under each PDF page, its text, opened by keyboard.
  const id = psql(`select article_id from article where title = :'title'`, { title });
  await page.goto(`browse/article/${id}`);
  await expect(heading1(page, title)).toBeVisible();
  const articleBody = page.getByRole('region', { name: 'Article body' });
  await expect(articleBody.getByRole('link', { name: 'the tanker index' })).toBeVisible();
  const pageText = articleBody.getByText('Text of PDF page 1', { exact: true });
  await press(page, pageText);
  await expect(articleBody.getByText(`Fixtures of run ${run}`)).toBeVisible();
  await expect(articleBody.getByText('Text of PDF page 2', { exact: true })).toBeVisible();
  await context.close();
});
