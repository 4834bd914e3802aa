//! Copying a link for the user to paste elsewhere (share dialog, campaign links): the clipboard,
//! then 'Link copied to clipboard' (spec 2 §8), or a warning toast when the browser refuses.
import { logger } from '../lib/logger';
import { showToast } from './Toaster';

export const LINK_COPIED = 'Link copied to clipboard';

/** Copies `url`; `fallback` says where else the user can copy it from when the clipboard refuses. */
export async function copyLink(url: string, fallback: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    void showToast({ message: LINK_COPIED, intent: 'success' });
    return true;
  } catch (error) {
    logger.warn(`Copying a link failed: ${error instanceof Error ? error.message : String(error)}`);
    void showToast({ message: `The link could not be copied. ${fallback}`, intent: 'warning' });
    return false;
  }
}
