//! The publisher area's frame: the sidebar and the section's screen, on wide screens only.
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AdminSettingsProvider } from '../../components/admin/settings';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/LoadingScreen';
import { NavButton } from '../../components/NavButton';
import { Sidebar, SidebarItem } from '../../components/Sidebar';
import { BREAKPOINTS, useIsWide } from '../../lib/breakpoints';
import { useConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { publisherSidebarItems } from './sidebar';
import './PublisherLayout.css';

export const RESIZE_TITLE = 'Please resize your browser';

export default function PublisherLayout() {
  const wide = useIsWide();
  const user = useSession();
  const { features, constants } = useConfig();

  // Below the breakpoint the section's screen is hidden, not unmounted: a moment of a narrow
  // window (a resize, a full-page capture) must not lose what the user was doing in it.
  return (
    <>
      {!wide && (
        <EmptyState
          icon="mobile-phone"
          title={RESIZE_TITLE}
          description={
            <p>The publisher area cannot work on small devices. Use a screen or window at least {BREAKPOINTS.large} pixels wide.</p>
          }
        />
      )}
      <div className="insights-publisher" hidden={!wide}>
        <Sidebar label="Publisher">
          {publisherSidebarItems(user.role, features).map((item) => (
            <SidebarItem key={item.to}>
              <NavButton to={item.to} text={item.text} icon={item.icon} fill />
            </SidebarItem>
          ))}
        </Sidebar>
        <div className="insights-publisher-content">
          {/* The shared admin lists and forms take their page sizes and delays from the server's config. */}
          <AdminSettingsProvider settings={constants}>
            <Suspense fallback={<LoadingBlock />}>
              <Outlet />
            </Suspense>
          </AdminSettingsProvider>
        </div>
      </div>
    </>
  );
}
