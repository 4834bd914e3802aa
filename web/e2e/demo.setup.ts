// Set-up of the accessibility check, which runs after the other specs (playwright.config.ts): the
// demo content (`insights-cli seed demo --force`) loaded into the server's database beside what
// the specs made, and the sign-in of the users it opens pages as, saved for every worker.
import { test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, psql, readyUserSession, signedInStatePath } from './support';

test('the demo content is loaded', () => {
  test.setTimeout(180_000);
  const bin = process.env.E2E_BIN;
  const database = process.env.E2E_DATABASE_URL;
  if (!bin || !database) throw new Error('E2E_BIN and E2E_DATABASE_URL are not set: scripts/test.sh (run_e2e) exports them');
  // From the project root, as the server runs: the demo's images go to its upload directory.
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const output = execFileSync(bin, ['seed', 'demo', '--force'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database },
    encoding: 'utf8',
  });
  console.log(output.trim().split('\n').at(-1));
});

test('what the demo content lacks is added: a template', () => {
  // No API call: templates are for the channels of the author's desks, and the ready users have none.
  psql(
    `insert into template (template_id, title, html, premium_channel_id)
     select substr(md5('a11y-template'), 1, 24), 'Weekly outlook {{today}}', '<p>Summary of the week.</p>', channel_id
     from channel where type = 'premium' and state = 'active' order by name limit 1
     on conflict do nothing`,
  );
});

test('the users the check opens pages as are signed in', async ({ browser }) => {
  mkdirSync(`${ARTIFACTS}signed-in`, { recursive: true });
  // The firm administrator is the demo's (Fiona Firmadmin, of the demo firm Northbridge Capital): 'My firm'.
  for (const user of ['Administrator', 'Editor', 'Subscriber', 'Firm administrator'] as const) {
    const path = signedInStatePath(user);
    writeFileSync(path, JSON.stringify((await readyUserSession(browser, user)).state));
  }
});
