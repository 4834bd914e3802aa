// The browser half of scripts/bench/article_images.sh: signs in as the ready Subscriber on the
// built-in provider's page, then opens $ARTICLE_URL in fresh contexts (cold HTTP cache) and prints
// the time from navigation to the first body image loaded, and to the page's load event.
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/web/`);
const { chromium } = require('playwright-core');

const url = process.env.ARTICLE_URL;
const runs = Number(process.env.RUNS ?? 7);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const signIn = await browser.newContext();
const page = await signIn.newPage();
await page.goto(url);
await page.getByRole('button', { name: 'Sign in as Subscriber', exact: true }).click();
await page.locator('article img[src*="/uploads/"], main img[src*="/uploads/"]').first().waitFor({ timeout: 30_000 });
const storage = await signIn.storageState();
await signIn.close();

const firstImage = [];
const loaded = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ storageState: storage });
  const tab = await context.newPage();
  await tab.goto(url, { waitUntil: 'load' });
  const image = tab.locator('main img[src*="/uploads/"]').first();
  await image.waitFor({ timeout: 30_000 });
  await tab.waitForFunction((img) => img.complete && img.naturalWidth > 0, await image.elementHandle());
  const timing = await tab.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/uploads/'));
    const nav = performance.getEntriesByType('navigation')[0];
    return { image: entry ? entry.responseEnd : NaN, load: nav.loadEventEnd };
  });
  firstImage.push(timing.image);
  loaded.push(timing.load);
  await context.close();
}
await browser.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`Chromium, ${runs} cold visits: first body image loaded at ${ms(median(firstImage))} median (${firstImage.map(ms).join(', ')}); load event ${ms(median(loaded))} median`);
