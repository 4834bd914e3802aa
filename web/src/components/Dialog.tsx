//! A modal dialog (Blueprint Dialog): a title, a body and optional footer actions. It never grows
//! wider than the screen, so it also works on a phone. Once open it takes focus itself, so that a
//! screen reader says its name (Blueprint leaves focus on a trap element outside it); Tab goes on
//! to its controls, and focus goes back where it was when it closes.
import { Classes, Dialog as BpDialog, type IconName } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface DialogProps {
  isOpen: boolean;
  title: string;
  icon?: IconName;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom right. */
  footer?: ReactNode;
  /** Width in px on wide screens (Blueprint's default is 500). */
  width?: number;
  className?: string;
}

export function Dialog({ isOpen, title, icon, onClose, children, footer, width = 500, className }: DialogProps) {
  return (
    <BpDialog
      isOpen={isOpen}
      title={title}
      icon={icon}
      onClose={onClose}
      className={className}
      style={{ width, maxWidth: 'calc(100vw - 24px)' }}
      onOpened={focusDialog}
    >
      <div className={Classes.DIALOG_BODY}>{children}</div>
      {footer && (
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>{footer}</div>
        </div>
      )}
    </BpDialog>
  );
}

/** Focuses the dialog box of an overlay that has just opened, unless focus is inside it already. */
export function focusDialog(container: HTMLElement): void {
  const dialog = container.querySelector<HTMLElement>(`.${Classes.DIALOG}`) ?? container.closest<HTMLElement>(`.${Classes.DIALOG}`);
  if (!dialog || dialog.contains(document.activeElement)) return;
  dialog.tabIndex = -1;
  dialog.focus({ preventScroll: true });
}
