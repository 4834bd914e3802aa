//! A router link that looks like a Blueprint button (a list's add button, a row's edit icon). It
//! stays a real link, so it works with the keyboard, middle-click and getByRole('link').
import { Classes, Icon, type IconName, type Intent } from '@blueprintjs/core';
import { Link } from 'react-router';

export interface LinkButtonProps {
  /** A path inside the app. */
  to: string;
  /** The visible text; without it the link shows its icon alone and `label` names it. */
  text?: string;
  /** Accessible name (and tooltip); required when there is no visible text. */
  label?: string;
  icon?: IconName;
  intent?: Intent;
  variant?: 'solid' | 'minimal';
  size?: 'small' | 'medium';
}

export function LinkButton({ to, text, label, icon, intent = 'none', variant = 'solid', size = 'medium' }: LinkButtonProps) {
  const classes = [
    Classes.BUTTON,
    Classes.intentClass(intent),
    variant === 'minimal' && Classes.MINIMAL,
    size === 'small' && Classes.SMALL,
  ];
  return (
    <Link to={to} className={classes.filter(Boolean).join(' ')} aria-label={label} title={label}>
      {icon && <Icon icon={icon} aria-hidden />}
      {text && <span className={Classes.BUTTON_TEXT}>{text}</span>}
    </Link>
  );
}
