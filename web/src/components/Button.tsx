//! Buttons. Pass `text` (or `label` for icon-only buttons) so every button has an accessible name.
import { AnchorButton as BpAnchorButton, Button as BpButton, type IconName, type Intent } from '@blueprintjs/core';
import type { MouseEventHandler, ReactNode } from 'react';

interface SharedProps {
  text?: ReactNode;
  /** Accessible name; required when there is no visible text. */
  label?: string;
  icon?: IconName;
  endIcon?: IconName;
  intent?: Intent;
  variant?: 'solid' | 'minimal' | 'outlined';
  size?: 'small' | 'medium' | 'large';
  disabled?: boolean;
  className?: string;
}

export interface ButtonProps extends SharedProps {
  onClick?: MouseEventHandler<HTMLElement>;
  type?: 'button' | 'submit' | 'reset';
  loading?: boolean;
  /** A button that shows and hides a part of the page: whether it is shown, and that part's id. */
  expanded?: boolean;
  controls?: string;
}

export function Button({ label, type = 'button', expanded, controls, ...props }: ButtonProps) {
  return <BpButton {...props} type={type} aria-label={label} title={label} aria-expanded={expanded} aria-controls={controls} />;
}

export interface AnchorButtonProps extends SharedProps {
  href: string;
  target?: string;
  rel?: string;
}

/** A link that looks like a button: it navigates, so it keeps the link role (Blueprint's default is 'button'). */
export function AnchorButton({ label, ...props }: AnchorButtonProps) {
  return <BpAnchorButton {...props} role="link" aria-label={label} title={label} />;
}

export type { IconName, Intent };

/** Buttons side by side with a gap. */
export function ButtonRow({ children }: { children: ReactNode }) {
  return <div style={{ display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>{children}</div>;
}
