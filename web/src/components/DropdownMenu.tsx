//! A button that opens a menu (account menu, mobile menu). Menu items that go somewhere inside
//! the app are real links (`MenuLink`), so Enter and middle-click work. The menu button pattern:
//! the open menu takes focus on its first item, ↑/↓/Home/End move between the items, Escape closes
//! it and gives focus back to the button.
import { Button, Menu, MenuDivider, MenuItem, PopoverNext, type IconName } from '@blueprintjs/core';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router';

export interface DropdownMenuProps {
  /** What the menu is ('Account menu'): its accessible name, and the trigger's after the trigger's text. */
  label: string;
  text?: string;
  icon?: IconName;
  children: ReactNode;
}

/** The trigger's name: the label, with the visible text first when the label lacks it (WCAG 2.5.3). */
export const triggerName = (label: string, text?: string) =>
  !text || label.toLowerCase().includes(text.toLowerCase()) ? label : `${text} (${label})`;

export function DropdownMenu({ label, text, icon, children }: DropdownMenuProps) {
  return (
    // PopoverNext (floating-ui) is what Blueprint's MenuItem already uses, so the older
    // popper.js-based Popover stays out of the bundle.
    <PopoverNext
      content={
        <Menu aria-label={label} onKeyDown={moveBetweenItems}>
          {children}
        </Menu>
      }
      placement="bottom-end"
      arrow={false}
      shouldReturnFocusOnClose
      onOpened={focusFirstItem}
    >
      <Button variant="minimal" icon={icon} endIcon="caret-down" text={text} aria-label={triggerName(label, text)} aria-haspopup="menu" />
    </PopoverNext>
  );
}

const ITEMS = '[role="menuitem"]:not([aria-disabled="true"])';

function focusFirstItem(popover: HTMLElement): void {
  popover.querySelector<HTMLElement>(ITEMS)?.focus();
}

function moveBetweenItems(event: KeyboardEvent<HTMLElement>): void {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(ITEMS)];
  const at = items.findIndex((item) => item === document.activeElement);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
  if (to === undefined || items.length === 0) return;
  event.preventDefault();
  items[(to + items.length) % items.length].focus();
}

export interface MenuActionProps {
  text: string;
  icon?: IconName;
  onClick: () => void;
}

export function MenuAction({ text, icon, onClick }: MenuActionProps) {
  return <MenuItem text={text} icon={icon} onClick={onClick} />;
}

export interface MenuLinkProps {
  text: string;
  icon?: IconName;
  /** A path inside the app. */
  to: string;
}

export function MenuLink({ text, icon, to }: MenuLinkProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <MenuItem text={text} icon={icon} href={href} onClick={onClick} />;
}

export interface MenuExternalLinkProps {
  text: string;
  icon?: IconName;
  href: string;
  newTab?: boolean;
}

export function MenuExternalLink({ text, icon, href, newTab }: MenuExternalLinkProps) {
  return (
    <MenuItem text={text} icon={icon} href={href} target={newTab ? '_blank' : undefined} rel={newTab ? 'noopener noreferrer' : undefined} />
  );
}

export { MenuDivider };
