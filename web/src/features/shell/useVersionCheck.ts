import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { browser } from '../../lib/browser';
import { useConfig } from '../../lib/config';
import { fetchServerVersion, VersionWatcher } from '../../lib/versionCheck';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** Runs the idle version check (spec 3 §4) while the signed-in app is open. */
export function useVersionCheck(): void {
  const config = useConfig();
  const location = useLocation();
  const path = useRef(location.pathname);
  useEffect(() => {
    path.current = location.pathname;
  }, [location.pathname]);

  useEffect(() => {
    const reload = () => browser.reload();
    const watcher = new VersionWatcher({
      loadedVersion: config.version,
      idleTimeoutMs: config.constants.idleTimeoutMs,
      pollMs: config.constants.versionPollMs,
      fetchVersion: () => fetchServerVersion(),
      getPath: () => path.current,
      reload,
      // The toaster is loaded only when needed: it is rarely shown and not part of the first load.
      notify: () =>
        void import('../../components/Toaster').then(({ showToast }) =>
          showToast({
            message: 'A new version of Insights is available. Save your work, then refresh the page.',
            timeout: 0,
            action: { text: 'Refresh', onClick: reload },
          }),
        ),
    });
    const onActivity = () => watcher.activity();
    watcher.start();
    ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true, capture: true }));
    return () => {
      watcher.stop();
      ACTIVITY_EVENTS.forEach((e) => window.removeEventListener(e, onActivity, { capture: true }));
    };
  }, [config]);
}
