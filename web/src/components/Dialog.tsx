//! A modal dialog (Blueprint Dialog): a title, a body and optional footer actions. It never grows
//! wider than the screen, so it also works on a phone.
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
