//! `useSearchParams` for a screen that writes its view into the address after a pause (a
//! debounced search box). A write that comes late must not land on the next screen. When the user
//! follows a link meanwhile, the router is already on the next screen, but the old one stays drawn
//! while the next screen's code loads (React keeps it during the transition), and its timer still
//! fires. react-router would put the old screen's `?…` on the next screen's address (an article's
//! stats opened from the list got the list's `?type=…&search=…`). Such a write is dropped.
import { useCallback, useContext } from 'react';
import { UNSAFE_DataRouterContext, useHref, useLocation, useSearchParams, type SetURLSearchParams } from 'react-router';

export function useScreenSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setParams] = useSearchParams();
  // The screen's path as the router keeps it (with the app's base path: /insights/…).
  const pathname = useHref(useLocation().pathname);
  // The router's own state is current; the location this screen was drawn with may not be.
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const set = useCallback<SetURLSearchParams>(
    (next, options) => {
      const target = router ? (router.state.navigation.location ?? router.state.location) : null;
      if (target && target.pathname !== pathname) return;
      setParams(next, options);
    },
    [router, pathname, setParams],
  );
  return [params, set];
}
