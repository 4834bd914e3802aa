//! A secret the server returns once, from its creation only (issue 41: a feed link's address, an
//! access token): shown in a read-only field with Copy until Done, never again.
import { useId, useRef, type ReactNode } from 'react';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { InputField } from '../../components/InputField';
import { copyText } from '../../components/copyLink';
import './secrets.css';

/** The toast once Copy has put the secret on the clipboard. */
export const COPIED_TEXT = 'Copied to the clipboard';

/** The props of `ShownOnce`. */
export interface ShownOnceProps {
  title: string;
  /** The read-only field's label. */
  label: string;
  value: string;
  /** Under the field, read with it: the value is not shown again. */
  sentence: string;
  /** What the secret is for, above the field. */
  detail?: ReactNode;
  onDone: () => void;
}

/**
 * A secret the server returns this once: in a read-only field that takes focus (its text
 * selected), with Copy, until Done. When the browser refuses the clipboard, the field is selected
 * again for the reader to copy it themselves.
 */
export function ShownOnce({ title, label, value, sentence, detail, onDone }: ShownOnceProps) {
  const headingId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const copy = async () => {
    const copied = await copyText(value, {
      what: 'a secret shown once',
      copied: COPIED_TEXT,
      refused: 'It could not be copied. Select it and copy it yourself (Ctrl+C or ⌘C).',
    });
    if (!copied) boxRef.current?.querySelector('input')?.focus();
  };
  return (
    <div className="insights-secrets-once" ref={boxRef} role="region" aria-labelledby={headingId}>
      <Banner intent="success">
        <h3 id={headingId} className="insights-secrets-once-title">
          {title}
        </h3>
        {detail}
        <InputField label={label} value={value} onChange={() => {}} readOnly autoFocus helperText={sentence} />
        <div className="insights-secrets-once-actions">
          <Button text="Copy" icon="duplicate" label={`Copy the ${label.toLowerCase()}`} onClick={() => void copy()} />
          <Button text="Done" intent="primary" onClick={onDone} />
        </div>
      </Banner>
    </div>
  );
}
