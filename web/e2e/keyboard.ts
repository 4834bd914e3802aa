// Keyboard-only journeys (WCAG 2.1.1 Keyboard, 2.4.3 Focus Order, 2.4.7 Focus Visible, 2.4.11
// Focus Not Obscured): the specs that use these move with Tab and Shift+Tab and act with Enter,
// Space, the arrows and Escape; they never click. Every control focus stops at on the way must
// show that it has focus and must not sit under the sticky header.
import { expect, type Locator, type Page } from '@playwright/test';

interface FocusStop {
  /** What has focus, for the failure message: its tag, role and name. */
  described: string;
  /** An outline or a ring shows the focus (on the control, or on the indicator Blueprint draws for a checkbox, radio or switch). */
  shown: boolean;
  /** Entirely under the sticky header. */
  hidden: boolean;
}

/** Where focus is now (null on the page itself). */
function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused === document.documentElement) return null;
    const ringed = (element: Element | null | undefined) => {
      if (!element) return false;
      const style = getComputedStyle(element);
      const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outlined || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    // Blueprint rings the box around some inputs instead: a tag input's, a checkbox's indicator.
    const indicator = focused.matches('input[type=checkbox], input[type=radio]')
      ? focused.closest('label')?.querySelector('.bp6-control-indicator')
      : focused.closest('.bp6-tag-input');
    const header = document.querySelector('.insights-header');
    const sticky = header && !header.contains(focused) && ['sticky', 'fixed'].includes(getComputedStyle(header).position);
    const rect = focused.getBoundingClientRect();
    const name = focused.getAttribute('aria-label') ?? (focused.textContent ?? '').trim().slice(0, 60);
    const role = focused.getAttribute('role') ?? focused.getAttribute('type') ?? '';
    return {
      described: `<${focused.tagName.toLowerCase()}${role ? ` ${role}` : ''}> "${name}" (outline: ${getComputedStyle(focused).outline}; box-shadow: ${getComputedStyle(focused).boxShadow})`,
      shown: ringed(focused) || ringed(indicator),
      hidden: !!sticky && rect.bottom <= header.getBoundingClientRect().bottom,
    };
  });
}

/** Whether focus is on `target` or inside it. */
const holdsFocus = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement));

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has focus, checking every stop on the way;
 * fails with the path focus took when `target` is not reached within `max` presses.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  const path: string[] = [];
  for (let presses = 0; presses <= max; presses++) {
    if (await holdsFocus(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(page);
    if (!stop) continue;
    path.push(stop.described);
    expect(stop.shown, `focus is visible on ${stop.described}`).toBe(true);
    expect(stop.hidden, `${stop.described} is not hidden under the sticky header`).toBe(false);
  }
  throw new Error(`not reached by ${back ? 'Shift+Tab' : 'Tab'} in ${max} presses; focus went: ${path.slice(-15).join(' → ')}`);
}

/** Tabs to `target` and presses `key` on it (Enter by default). */
export async function press(page: Page, target: Locator, key = 'Enter', options: { back?: boolean } = {}): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key);
}

/** Tabs to a text field and types `text` into it. */
export async function typeInto(page: Page, field: Locator, text: string, options: { back?: boolean } = {}): Promise<void> {
  await tabTo(page, field, options);
  await page.keyboard.type(text);
}
