//! A router link that looks like a Blueprint minimal button (top navigation, sidebars).
//! It stays a real link (`<a href>`), so it works with the keyboard, middle-click and getByRole('link').
import { Classes, Icon, type IconName } from '@blueprintjs/core';
import { NavLink } from 'react-router';

export interface NavButtonProps {
  /** A path inside the app. */
  to: string;
  text?: string;
  /** Accessible name; required for icon-only links. */
  label?: string;
  icon?: IconName;
  /** Match the path exactly instead of as a prefix. */
  end?: boolean;
  /** Full width, text at the start (sidebars). */
  fill?: boolean;
}

export function NavButton({ to, text, label, icon, end, fill }: NavButtonProps) {
  return (
    <NavLink
      to={to}
      end={end}
      aria-label={label}
      title={label}
      className={({ isActive }) =>
        [Classes.BUTTON, Classes.MINIMAL, fill && Classes.FILL, fill && Classes.alignmentClass('start'), isActive && Classes.ACTIVE]
          .filter(Boolean)
          .join(' ')
      }
    >
      {icon && <Icon icon={icon} aria-hidden />}
      {text && <span className={Classes.BUTTON_TEXT}>{text}</span>}
    </NavLink>
  );
}
