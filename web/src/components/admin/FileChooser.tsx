//! Choosing one file to read in the browser (the bulk subscriber CSV): a labelled native file
//! input drawn as a button, and a message under it (the screen's 'Upload complete' or its error).
//! The screen checks and reads the file; nothing is uploaded here.
import { Classes, FormGroup, Spinner } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';
import './admin.css';

export interface FileChooserProps {
  label: string;
  /** The file chooser's filter ('.csv,text/csv'). */
  accept?: string;
  buttonText?: string;
  onChoose: (file: File) => void;
  /** A refusal or failure, shown in red. */
  error?: string | null;
  /** A status under the button ('Upload complete'). */
  message?: ReactNode;
  busy?: boolean;
  disabled?: boolean;
}

export function FileChooser({
  label,
  accept,
  buttonText = 'Choose file',
  onChoose,
  error,
  message,
  busy = false,
  disabled = false,
}: FileChooserProps) {
  const id = useId();
  const note = error || message;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={
        note ? (
          <span id={`${id}-note`} role={error ? 'alert' : 'status'}>
            {note}
          </span>
        ) : undefined
      }
    >
      <div className="insights-admin-image-controls">
        {/* The native input is kept (keyboard, screen readers, drag and drop) but drawn as a button. */}
        <input
          id={id}
          type="file"
          accept={accept}
          className="insights-admin-file"
          disabled={disabled || busy}
          aria-invalid={!!error}
          aria-describedby={note ? `${id}-note` : undefined}
          onChange={(e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            // Cleared, so that choosing the same file again reads it again.
            input.value = '';
            if (file) onChoose(file);
          }}
        />
        <label htmlFor={id} className={`${Classes.BUTTON} ${Classes.SMALL}`} aria-hidden>
          {buttonText}
        </label>
        {busy && <Spinner size={16} aria-label="Reading the file" />}
      </div>
    </FormGroup>
  );
}
