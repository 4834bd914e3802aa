//! A vertical navigation list (publisher sidebar).
import { Classes } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import './Sidebar.css';

export function Sidebar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <nav aria-label={label} className={`insights-sidebar ${Classes.ELEVATION_0}`}>
      <ul>{children}</ul>
    </nav>
  );
}

export function SidebarItem({ children }: { children: ReactNode }) {
  return <li>{children}</li>;
}
