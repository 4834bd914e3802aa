//! The document's title per screen ("WTI rises 2.3% on outages in Libya – Insights", WCAG 2.4.2),
//! and what a client-side navigation tells assistive technology: focus on the new page's heading
//! and its title announced (WCAG 2.4.3, 4.1.3).
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

export const APP_NAME = 'Insights';

export const documentTitle = (title: string) => (title ? `${title} – ${APP_NAME}` : APP_NAME);

/** Sets the document's title while the calling screen shows. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/** How long after a navigation the new page's heading is waited for (data still loading). */
const HEADING_WAIT_MS = 5000;

/**
 * After each change of path (not the first page), waits for the new page's h1, moves focus to it
 * unless the user has moved focus meanwhile, and returns the title to announce.
 */
export function useNavigationFocus(): string {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const focusedAtNavigation = document.activeElement;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tryFocus = () => {
      const heading = document.querySelector<HTMLElement>('main h1');
      const userMoved = document.activeElement !== focusedAtNavigation && document.activeElement !== document.body;
      if (userMoved) return;
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
        setAnnouncement(document.title);
      } else if (Date.now() - started < HEADING_WAIT_MS) {
        timer = setTimeout(tryFocus, 50);
      }
    };
    tryFocus();
    return () => clearTimeout(timer);
  }, [pathname]);

  return announcement;
}
