// axe-core in the browser: WCAG 2.0, 2.1 and 2.2 at levels A and AA, on the page as it is now (a
// route, or an open state of one: a dialog, a menu, errors shown). Each check appends what it found
// to artifacts/a11y-violations.jsonl, for the figures per route and rule.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { ARTIFACTS } from './support';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Violation {
  id: string;
  impact: string;
  /** The elements found, as axe's selectors. */
  nodes: string[];
}

/**
 * Left out of the checks: the article's watermark, the reader's email repeated faintly over the
 * text. It is incidental text (WCAG 1.4.3's exception: its faintness is its purpose, and it is
 * hidden from assistive technology); what must hold is the contrast of the article's text where
 * the watermark lies over it, which a11y.spec.ts measures.
 */
const NOT_CHECKED = ['.insights-watermark'];

export async function wcagViolations(page: Page): Promise<Violation[]> {
  // A dialog or toast still fading in has its colours mid-way: axe would measure them then. (Only
  // animations that end: a spinner turns for ever.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).exclude(NOT_CHECKED).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** What a failure shows: the rule, its impact and the first elements it found. */
const described = (found: Violation[]) => found.map((f) => `${f.id} (${f.impact}): ${f.nodes.slice(0, 4).join(' | ')}`);

/** Checks the page as it is now, records the result under `check`, and fails on any violation. */
export async function expectAccessible(page: Page, check: string): Promise<void> {
  const found = await wcagViolations(page);
  const width = page.viewportSize()?.width ?? 0;
  mkdirSync(ARTIFACTS, { recursive: true });
  appendFileSync(`${ARTIFACTS}a11y-violations.jsonl`, `${JSON.stringify({ check, width, found })}\n`);
  expect(described(found), `WCAG 2.2 AA violations: ${check} at ${width} px`).toEqual([]);
}
