//! The header bar (Blueprint Navbar).
import { Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export function TopBar({ children }: { children: ReactNode }) {
  return (
    <Navbar fixedToTop={false} aria-label="Main" role="navigation">
      {children}
    </Navbar>
  );
}

export function TopBarGroup({ align, children }: { align: 'left' | 'right'; children: ReactNode }) {
  return <NavbarGroup align={align === 'left' ? 'start' : 'end'}>{children}</NavbarGroup>;
}

export function TopBarHeading({ children }: { children: ReactNode }) {
  return <NavbarHeading>{children}</NavbarHeading>;
}

export const TopBarDivider = NavbarDivider;
