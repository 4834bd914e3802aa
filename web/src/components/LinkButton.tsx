//! A router link that looks like a Blueprint button (a list's add button). It stays a real link,
//! so it works with the keyboard, middle-click and getByRole('link').
import { Classes, Icon, type IconName, type Intent } from '@blueprintjs/core';
import { Link } from 'react-router';

export interface LinkButtonProps {
  /** A path inside the app. */
  to: string;
  text: string;
  icon?: IconName;
  intent?: Intent;
}

export function LinkButton({ to, text, icon, intent = 'none' }: LinkButtonProps) {
  return (
    <Link to={to} className={[Classes.BUTTON, Classes.intentClass(intent)].filter(Boolean).join(' ')}>
      {icon && <Icon icon={icon} aria-hidden />}
      <span className={Classes.BUTTON_TEXT}>{text}</span>
    </Link>
  );
}
