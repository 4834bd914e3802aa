// WCAG 2.2 AA, checked by axe-core in the browser (axe.ts): every route of the app (e2e/routes.ts,
// held to the router by src/app/router.test.ts) over the demo content, at a desktop width and at
// 390 px. Open states (dialogs, menus, errors shown) are checked where the other specs open them.
import { expect, test, type Browser, type Page, type ViewportSize } from '@playwright/test';
import { expectAccessible } from './axe';
import { CHECKED_ROUTES, type RouteIds, type RouteUser } from './routes';
import { addFreeSubscription, APP_URL, psql, signedInStatePath, signInAs } from './support';

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1400, height: 900 } },
  { name: '390 px', viewport: { width: 390, height: 844 } },
];

/** One value of the database, or a clear failure naming what the demo content lacks. */
function one(what: string, sql: string): string {
  const value = psql(sql).split('\n')[0];
  if (!value) throw new Error(`the database has no ${what} (is the demo content loaded?)`);
  return value;
}

function routeIds(): RouteIds {
  const premiumChannel = one(
    'premium channel with subscribers',
    `select c.channel_id from channel c where c.type = 'premium' and c.state = 'active'
       and exists (select 1 from channel_subscription s where s.channel_id = c.channel_id)
     order by c.name limit 1`,
  );
  // The demo firm the ready firm administrator administers (Northbridge Capital), with its subscriptions.
  const firm = one(
    'client firm administered by the ready firm administrator',
    `select m.firm_id from firm_member m join users u on u.user_id = m.user_id
     where u.email = 'fiona.firmadmin@northbridge.example' and m.is_admin
       and exists (select 1 from firm_subscription s where s.firm_id = m.firm_id)`,
  );
  const published = (type: string) =>
    `select a.article_id from article a join channel c on c.channel_id = a.premium_channel_id
     where a.state = 'Published' and c.type = '${type}' order by a.created_at desc limit 1`;
  return {
    premiumArticle: one('published premium article', published('premium')),
    freeArticle: one('published free article', published('freeOpen')),
    draftArticle: one('article in Pending', `select article_id from article where state = 'Pending' order by created_at limit 1`),
    template: one('template', `select template_id from template order by created_at limit 1`),
    promotionalContent: one('promotional content', `select promotional_content_id from promotional_content order by created_at limit 1`),
    promotionPage: one('promotion page', `select promotion_page_id from promotion_page order by created_at limit 1`),
    tag: one('tag', `select tag_id from tag order by name limit 1`),
    desk: one('desk', `select desk_id from desk order by name limit 1`),
    user: one('editor', `select user_id from users where role = 'Editor' order by name limit 1`),
    contributor: one(
      'contributor with published articles',
      `select u.user_id from users u join article_contributor ac on ac.user_id = u.user_id
       join article a on a.article_id = ac.article_id and a.state = 'Published'
       where u.role = 'Contributor' order by u.name limit 1`,
    ),
    premiumChannel,
    subscriber: one('subscriber', `select user_id from channel_subscription where channel_id = '${premiumChannel}' limit 1`),
    topic: one('top-level topic', `select category_id from category where parent_id is null order by name limit 1`),
    firm,
    firmChannel: one(
      'subscription of that firm',
      `select channel_id from firm_subscription where firm_id = '${firm}' order by channel_id limit 1`,
    ),
  };
}

/** Waits until the page has loaded what it shows: no request in flight, no loading spinner. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await expect(page.locator('[role="status"] .bp6-spinner')).toHaveCount(0);
}

/**
 * /callback shows its 'Signing you in' screen only while a sign-in completes (opened alone, it
 * leaves for the landing page): the check signs in and holds the server's answer meanwhile.
 */
async function signingIn(page: Page): Promise<void> {
  await page.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('updateUserFromToken')) return; // never answered
    await route.continue();
  });
  await signInAs(page, 'Subscriber');
  await expect(page).toHaveURL(/\/insights\/callback\?/);
  await expect(page.getByRole('status')).toBeVisible();
}

/** How far the page is wider than the window, in CSS px (0 or less: no sideways scrolling). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The `storageState` of a new context signed in as `user` (saved by demo.setup.ts), or signed out. */
const stateOf = (user: RouteUser) => (user === 'signed out' ? { cookies: [], origins: [] } : signedInStatePath(user));

/** Runs `body` on a page of a new context as `user`, closed afterwards. */
async function asUser(browser: Browser, user: RouteUser, viewport: ViewportSize, body: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ baseURL: APP_URL, viewport, storageState: stateOf(user) });
  try {
    await body(await context.newPage());
  } finally {
    await context.close();
  }
}

let ids: RouteIds;
test.beforeAll(() => {
  ids = routeIds();
});

for (const { name: width, viewport } of WIDTHS) {
  for (const route of CHECKED_ROUTES) {
    test(`${route.pattern} at ${width}, as ${route.as}: no WCAG 2.2 AA violations`, async ({ browser }) => {
      await asUser(browser, route.as, viewport, async (page) => {
        if (route.pattern === '/callback') {
          await signingIn(page);
        } else {
          await page.goto(route.url(ids));
          await settled(page);
        }
        // The page itself, not the refusal a user of another role would get.
        await expect(page.getByText(/^Access Denied:/)).toHaveCount(0);
        // 2.4.2 Page titled: the page's own title before the app's name.
        if (route.pattern !== '/callback') await expect(page).toHaveTitle(/. – Insights$/);
        await expectAccessible(page, route.pattern);
        if (viewport.width < 400) {
          // 1.4.10 Reflow: at 320 px wide (a 1280 px window at 400 % zoom) nothing scrolls sideways.
          await page.setViewportSize({ width: 320, height: 640 });
          await expect.poll(() => sidewaysOverflow(page), `${route.pattern} scrolls sideways at 320 px`).toBeLessThanOrEqual(0);
        }
      });
    });
  }
}

// Open states the other specs do not reach: the menus, and the editor's toolbar menus.
test('the account menu and the editor toolbar menus, open: no WCAG 2.2 AA violations', async ({ browser }) => {
  await asUser(browser, 'Editor', WIDTHS[0].viewport, async (page) => {
    await page.goto('publisher/articles/add');
    await settled(page);
    await page.getByRole('button', { name: /\(Account menu\)$/ }).click();
    await expect(page.getByRole('menu', { name: 'Account menu' })).toBeVisible();
    await expectAccessible(page, 'the account menu, open');
    await page.keyboard.press('Escape');

    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    await page.getByRole('textbox', { name: 'Article body' }).click();
    await toolbar.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Insert link' })).toBeVisible();
    await expectAccessible(page, 'editor: the link dialog');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Insert promotional content' }).click();
    await expect(page.getByRole('menu', { name: 'Insert promotional content' })).toBeVisible();
    await expectAccessible(page, 'editor: the promotional content menu');
  });
});

test('the phone menu, open: no WCAG 2.2 AA violations', async ({ browser }) => {
  await asUser(browser, 'Subscriber', WIDTHS[1].viewport, async (page) => {
    await page.goto('for-you');
    await settled(page);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(page.getByRole('menu', { name: 'Menu' })).toBeVisible();
    await expectAccessible(page, 'the phone menu, open');
  });
});

/** An `rgb()`/`rgba()` colour as [r, g, b, a]. */
function parseColor(css: string): [number, number, number, number] {
  const [r, g, b, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b, a];
}

/** The WCAG contrast ratio of two opaque colours. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = ([r, g, b]: readonly number[]) => {
    const [lr, lg, lb] = [r, g, b].map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

test("an article's text keeps a contrast of 4.5:1 where the watermark lies over it", async ({ browser }) => {
  await asUser(browser, 'Subscriber', WIDTHS[0].viewport, async (page) => {
    // A watermarked article the ready subscriber may read (demo articles are watermarked only in premium channels).
    const [article, channel] = one(
      'published watermarked article',
      `select article_id || '|' || premium_channel_id from article where state = 'Published' and show_watermark order by created_at desc limit 1`,
    ).split('|');
    addFreeSubscription(channel, one('ready subscriber', `select user_id from users where email = 'sam.subscriber@client.example'`));
    await page.goto(`browse/article/${article}`);
    await settled(page);
    const body = page.getByRole('region', { name: 'Article body' });
    await expect(body.locator('.insights-watermark-text').first()).toBeAttached();
    const colors = await body.evaluate((el) => {
      const style = (selector: string) => getComputedStyle(el.querySelector(selector)!);
      let background = 'rgb(255, 255, 255)';
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
          background = c;
          break;
        }
      }
      return { text: style('.insights-article-html p').color, watermark: style('.insights-watermark-text').color, background };
    });
    // The watermark's colour laid over the page's background: the darkest the text's background gets.
    const [br, bg, bb] = parseColor(colors.background);
    const [wr, wg, wb, wa] = parseColor(colors.watermark);
    const under = [wr * wa + br * (1 - wa), wg * wa + bg * (1 - wa), wb * wa + bb * (1 - wa)];
    expect(contrast(parseColor(colors.text), under)).toBeGreaterThanOrEqual(4.5);
  });
});
