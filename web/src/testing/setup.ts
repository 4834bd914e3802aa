import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { act } from 'react';
import { afterEach } from 'vitest';
import { unmountToaster } from '../components/Toaster';
import { logger } from '../lib/logger';

// findBy* waits up to 5 s (default 1 s): the whole suite runs in parallel on a 2-core machine, where
// a lazily loaded screen or the first toast can take over a second to appear.
configure({ asyncUtilTimeout: 5000 });

// The app's logger never POSTs /log here: its batch timer fires 2 s after a warning, into whatever
// fetch mock a later test has installed (a stray '/log' call broke the editor's upload tests).
logger.configure({ send: async () => {} });

afterEach(() => {
  cleanup();
  // The toaster lives outside the rendered tree: its hide timers would fire after the file's DOM is gone.
  act(() => unmountToaster());
  window.localStorage.clear();
  window.sessionStorage.clear();
});
