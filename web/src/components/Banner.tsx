//! An inline message (Blueprint Callout): trial banner, alerts.
import { Callout, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface BannerProps {
  intent?: Intent;
  title?: string;
  children: ReactNode;
  /** 'status' for information, 'alert' for errors that need attention. */
  role?: 'status' | 'alert';
}

export function Banner({ intent = 'primary', title, children, role = 'status' }: BannerProps) {
  return (
    <Callout intent={intent} title={title} role={role} icon={intent === 'primary' ? 'info-sign' : undefined}>
      {children}
    </Callout>
  );
}
