//! The signed-in frame around every page: header, trial banner and the routed screen.
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoadingBlock } from '../../components/LoadingScreen';
import { TopNav } from './TopNav';
import { TrialBanner } from './TrialBanner';
import { useVersionCheck } from './useVersionCheck';
import './AppShell.css';

export function AppShell() {
  useVersionCheck();
  return (
    <div className="insights-shell">
      <a className="insights-skip-link" href="#main">
        Skip to content
      </a>
      <TopNav />
      <TrialBanner />
      <main id="main" className="insights-main" tabIndex={-1}>
        <Suspense fallback={<LoadingBlock />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
