//! Copying text for the user to paste elsewhere: a link (share dialog, campaign links), with
//! 'Link copied to clipboard' (spec 2 §8), or a secret shown once (a feed address, an access
//! token); a warning toast when the browser refuses.
import { logger } from '../lib/logger';
import { showToast } from './Toaster';

export const LINK_COPIED = 'Link copied to clipboard';

/** What `copyText` says: `what` in the log ('a link'), and the toasts when copied and when refused. */
export interface CopyWords {
  what: string;
  copied: string;
  refused: string;
}

/** Copies `text` and says so; false when the browser refused. The text is never logged: it may be a secret. */
export async function copyText(text: string, { what, copied, refused }: CopyWords): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('The clipboard is not available');
    await navigator.clipboard.writeText(text);
    void showToast({ message: copied, intent: 'success' });
    return true;
  } catch (error) {
    logger.warn(`Copying ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    void showToast({ message: refused, intent: 'warning' });
    return false;
  }
}

/** Copies `url`; `fallback` says where else the user can copy it from when the clipboard refuses. */
export function copyLink(url: string, fallback: string): Promise<boolean> {
  return copyText(url, { what: 'a link', copied: LINK_COPIED, refused: `The link could not be copied. ${fallback}` });
}
