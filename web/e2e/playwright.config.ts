// End-to-end tests: headless Chromium (Debian's, never a downloaded one) against a running
// `insights-cli serve` at E2E_BASE_URL (scripts/test.sh starts it on a free port).
import { defineConfig } from '@playwright/test';

const baseURL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: './artifacts/test-results',
  fullyParallel: false,
  // Two cores shared with the server: the specs run one browser at a time, which keeps their
  // timings stable; the accessibility checks, which only read, run two at a time.
  workers: 2,
  retries: 0,
  // A ceiling per test (the longest journeys set their own): on a slow 2-core machine a short
  // journey of a dozen steps, the topic tree's, takes about 30 s; a hang still fails at 10 s a step.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `${baseURL.replace(/\/$/, '')}/insights/`,
    viewport: { width: 1400, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: ['a11y.spec.ts', 'demo.setup.ts'], workers: 1 },
    // The accessibility check runs last, over the demo content loaded beside what the specs made:
    // the specs before it keep the database they were written for.
    { name: 'demo content', testMatch: 'demo.setup.ts', dependencies: ['chromium'], workers: 1 },
    {
      name: 'accessibility',
      use: { browserName: 'chromium' },
      testMatch: 'a11y.spec.ts',
      dependencies: ['demo content'],
      fullyParallel: true,
      workers: 2,
    },
  ],
});
