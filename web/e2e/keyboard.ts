// Keyboard-only driving for the journeys of keyboard.spec.ts: no mouse, only Tab, Shift+Tab, Enter,
// Space, arrows and Escape. A control is reached by pressing Tab until it has focus, so a control
// the keyboard cannot reach fails the journey; each one reached must show its focus.
import { expect, type Locator, type Page } from '@playwright/test';

/** Tab presses before a control counts as unreachable (the longest page, the editor, needs ~60). */
const MAX_PRESSES = 150;

const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus());

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has focus, then checks that the focus is
 * visible on it (WCAG 2.4.7).
 */
export async function tabTo(page: Page, target: Locator, { backwards = false } = {}): Promise<void> {
  await expect(target).toBeAttached();
  for (let presses = 0; presses <= MAX_PRESSES; presses++) {
    if (await isFocused(target)) {
      await expectFocusShown(target);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached by ${MAX_PRESSES} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** Reaches `target` by Tab and presses `key` on it (Enter by default). */
export async function activate(page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter'): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Reaches a text field by Tab and types into it, replacing what it held. */
export async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * The focused control shows where the focus is: an outline or a shadow on it or, for a check box
 * or radio drawn by Blueprint, on its indicator.
 */
export async function expectFocusShown(target: Locator): Promise<void> {
  const shown = await target.evaluate((el) => {
    const visible = (e: Element) => {
      const style = getComputedStyle(e);
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    };
    const indicator = el.matches('input[type=checkbox], input[type=radio]')
      ? el.parentElement?.querySelector('.bp6-control-indicator')
      : null;
    return visible(el) || (!!indicator && visible(indicator));
  });
  expect(shown, `the focus shows on ${target}`).toBe(true);
}
