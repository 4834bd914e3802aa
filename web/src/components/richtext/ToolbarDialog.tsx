//! The toolbar's small dialogs (link, embed, chart): a panel under the toolbar, not a modal, so the
//! text being linked stays in view. Its first field takes focus; Enter applies, Escape cancels.
//! No <form>: the editor usually sits inside the screen's own form, and forms cannot nest (Enter is
//! kept from submitting that outer form as well).
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../Button';

export interface ToolbarDialogProps {
  title: string;
  submitText: string;
  onSubmit: () => void;
  onCancel: () => void;
  /** More actions before Cancel (Remove link). */
  actions?: ReactNode;
  children: ReactNode;
}

export function ToolbarDialog({ title, submitText, onSubmit, onCancel, actions, children }: ToolbarDialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    ref.current?.querySelector<HTMLInputElement>('input:not([type=checkbox])')?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      onSubmit();
    }
  };

  return (
    <div ref={ref} role="dialog" aria-labelledby={titleId} className="insights-richtext-dialog" onKeyDown={onKeyDown}>
      <div id={titleId} className="insights-richtext-dialog-title">
        {title}
      </div>
      {children}
      <div className="insights-richtext-dialog-actions">
        {actions}
        <Button text="Cancel" onClick={onCancel} />
        <Button text={submitText} intent="primary" onClick={onSubmit} />
      </div>
    </div>
  );
}
