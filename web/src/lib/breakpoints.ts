//! Screen-width breakpoints. Blueprint has no named breakpoints, so the app fixes its own:
//! `large` = 1200 px (the publisher area and Publisher's Dashboard link need at least this),
//! `small` = 768 px (below it the header shows the mobile menu).
import { useSyncExternalStore } from 'react';

export const BREAKPOINTS = { small: 768, large: 1200 } as const;

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

const width = () => window.innerWidth;

export function useViewportWidth(): number {
  return useSyncExternalStore(subscribe, width, () => BREAKPOINTS.large);
}

/** At least the large breakpoint: the publisher area is available. */
export function useIsWide(): boolean {
  return useViewportWidth() >= BREAKPOINTS.large;
}

/** Below the small breakpoint: mobile header. */
export function useIsMobile(): boolean {
  return useViewportWidth() < BREAKPOINTS.small;
}
