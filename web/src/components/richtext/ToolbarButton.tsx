//! A toolbar button drawn like Blueprint's minimal buttons. Our Button wrapper has no
//! `aria-pressed`, which the format toggles need. A mouse press does not take the focus from the
//! editor, so the selection stays visible; the keyboard reaches the button as usual.
import type { ReactNode } from 'react';

export interface ToolbarButtonProps {
  /** Accessible name and tooltip. */
  label: string;
  /** Shown in the tooltip: "Bold (Ctrl+B)". */
  shortcut?: string;
  icon: ReactNode;
  /** A toggle's state (aria-pressed); leave undefined for actions. */
  pressed?: boolean;
  disabled?: boolean;
  /** Shows a spinner and disables the button (an upload). */
  busy?: boolean;
  onClick: () => void;
}

export function ToolbarButton({ label, shortcut, icon, pressed, disabled, busy, onClick }: ToolbarButtonProps) {
  return (
    <button
      type="button"
      className="insights-richtext-button"
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={disabled || busy}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {busy ? <span className="insights-richtext-spinner" aria-hidden /> : icon}
    </button>
  );
}
