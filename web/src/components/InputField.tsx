//! A labelled single-line input outside the admin forms (reader search box, date filters): Blueprint's
//! FormGroup and InputGroup, with an optional message under it tied to the input (aria-describedby);
//! read-only, it shows a value to copy (a secret shown once).
import { FormGroup, InputGroup, type IconName } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';

export interface InputFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'search' | 'date';
  name?: string;
  placeholder?: string;
  icon?: IconName;
  /** Shown under the input (a hint or a validation message). */
  helperText?: ReactNode;
  intent?: 'none' | 'warning' | 'danger';
  className?: string;
  /** Shown to be read and copied, not typed in (a secret shown once): focusing it selects its text. */
  readOnly?: boolean;
  /** Takes focus when it appears. */
  autoFocus?: boolean;
}

export function InputField({
  label,
  value,
  onChange,
  type = 'text',
  name,
  placeholder,
  icon,
  helperText,
  intent = 'none',
  className,
  readOnly,
  autoFocus,
}: InputFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      className={className}
      intent={intent}
      helperText={helperText ? <span id={helpId}>{helperText}</span> : undefined}
    >
      <InputGroup
        id={id}
        type={type}
        name={name}
        value={value}
        placeholder={placeholder}
        leftIcon={icon}
        intent={intent}
        aria-describedby={helperText ? helpId : undefined}
        readOnly={readOnly}
        autoFocus={autoFocus}
        onFocus={readOnly ? (e) => e.currentTarget.select() : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </FormGroup>
  );
}
