// Runs Lighthouse on the reader's pages as a signed-in subscriber (lighthouse.sh starts the server).
// Playwright opens Debian's Chromium with a debugging port and signs in through the built-in
// provider; Lighthouse then drives the same browser, keeping its storage (the sign-in).
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require('@playwright/test');
const lighthouse = (await import(require.resolve('lighthouse'))).default;

const base = process.env.BENCH_URL;
const app = `${base}/insights/`;
const port = 9300 + Math.floor(Math.random() * 600);

const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'insights-lighthouse-')), {
  executablePath: process.env.CHROMIUM,
  headless: true,
  args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

try {
  // Sign in as the provider's ready subscriber.
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(app);
  await page.getByRole('button', { name: 'Sign in as Subscriber', exact: true }).click();
  await page.waitForURL(/\/for-you$/);
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith('oidc.user:')) return JSON.parse(localStorage.getItem(key)).access_token;
    }
    return null;
  });
  const graphql = async (query) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    const body = await response.json();
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const { premiumChannels } = await graphql('{ premiumChannels { _id name isCurrentUserSubscribed } }');
  const channel = premiumChannels.find((c) => !c.isCurrentUserSubscribed) ?? premiumChannels[0];
  const { searchArticles } = await graphql(
    `{ searchArticles(params: { premiumChannelId: "${channel._id}" }, first: 1) { documents { article { _id title } } } }`,
  );
  const article = searchArticles.documents[0].article;

  const pages = [
    ['For You', 'for-you'],
    [`Channel: ${channel.name}`, `browse/channel/${channel._id}`],
    [`Article: ${article.title.slice(0, 40)}`, `browse/article/${article._id}`],
    ["Search: 'copper'", 'search?q=copper'],
    [`Checkout: ${channel.name}`, `subscribe/channel/confirm/${channel._id}`],
  ];

  const rows = [];
  for (const [name, path] of pages) {
    const { lhr } = await lighthouse(
      `${app}${path}`,
      { port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['accessibility', 'performance'] },
      undefined,
    );
    const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
    const failed = Object.values(lhr.audits)
      .filter((a) => a.score === 0 && lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0))
      .map((a) => a.id);
    rows.push({
      name,
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      performance: Math.round(lhr.categories.performance.score * 100),
      lcp: audit('largest-contentful-paint') / 1000,
      cls: audit('cumulative-layout-shift'),
      tbt: audit('total-blocking-time'),
      failed,
    });
  }

  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad('page', 48)} ${pad('a11y', 5)} ${pad('perf', 5)} ${pad('LCP', 8)} ${pad('CLS', 7)} TBT`);
  for (const r of rows) {
    console.log(
      `${pad(r.name, 48)} ${pad(r.accessibility, 5)} ${pad(r.performance, 5)} ${pad(`${r.lcp.toFixed(2)} s`, 8)} ${pad(r.cls.toFixed(3), 7)} ${Math.round(r.tbt)} ms`,
    );
  }
  for (const r of rows) if (r.failed.length) console.log(`${r.name}: failed accessibility audits: ${r.failed.join(', ')}`);
} finally {
  await browser.close();
}
