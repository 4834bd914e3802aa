//! The signed-in frame around every page: the skip link, the header (navigation, trial banner), the
//! routed screen, the footer, and the announcement of each new page.
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoadingBlock } from '../../components/LoadingScreen';
import { useConfig } from '../../lib/config';
import { useNavigationFocus } from '../../lib/pageTitle';
import { TopNav } from './TopNav';
import { TrialBanner } from './TrialBanner';
import { useVersionCheck } from './useVersionCheck';
import './AppShell.css';

export function AppShell() {
  useVersionCheck();
  const announcement = useNavigationFocus();
  return (
    <div className="insights-shell">
      <a className="insights-skip-link" href="#main">
        Skip to content
      </a>
      <header className="insights-header">
        <TopNav />
        <TrialBanner />
      </header>
      <main id="main" className="insights-main" tabIndex={-1}>
        <Suspense fallback={<LoadingBlock />}>
          <Outlet />
        </Suspense>
      </main>
      <AppFooter />
      {/* The new page's title after a client-side navigation, for screen readers. */}
      <div className="insights-visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}

function AppFooter() {
  const { supportEmail } = useConfig();
  return (
    <footer className="insights-footer">
      <p>
        Insights · Questions or an accessibility problem? <a href={`mailto:${supportEmail}`}>Contact support</a>
      </p>
    </footer>
  );
}
