//! A confirmation dialog (deletes, publishing, archiving): a title, what will happen, the confirm
//! and Cancel buttons. It takes focus when open, as `Dialog` does.
import { Button, Classes, Dialog, type IconName, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { focusDialog } from '../Dialog';

export interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmText?: string;
  /** The title's icon (default 'trash'). */
  icon?: IconName;
  /** The confirm button's intent: 'danger' (default) for what destroys, 'primary' for the rest. */
  intent?: Intent;
  /** The confirm button spins and Cancel is disabled while the action runs. */
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmText = 'Delete',
  icon = 'trash',
  intent = 'danger',
  loading = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      isOpen={isOpen}
      title={title}
      icon={icon}
      role="alertdialog"
      onClose={loading ? undefined : onCancel}
      canOutsideClickClose={!loading}
      onOpened={focusDialog}
    >
      <div className={Classes.DIALOG_BODY}>{children}</div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" disabled={loading} onClick={onCancel} />
          <Button text={confirmText} intent={intent} loading={loading} onClick={onConfirm} />
        </div>
      </div>
    </Dialog>
  );
}
