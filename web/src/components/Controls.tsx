//! Settings controls outside the admin forms (the reader's email settings, the unsubscribe page):
//! a switch, a checkbox, radio buttons and a select, each with its label and an optional
//! description tied to it (aria-describedby). Every change takes effect at once; the admin forms
//! use components/admin/fields.tsx instead (values bound to a form, errors once touched).
import { Checkbox, FormGroup, HTMLSelect, Radio, RadioGroup, Switch } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';

export interface ToggleControlProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Shown under the control and read with it. */
  description?: ReactNode;
  /** Larger control (a page's main switch). */
  large?: boolean;
  className?: string;
}

/** An On/Off switch: a checkbox with the switch role, so screen readers say 'on' and 'off'. */
export function SwitchControl({ label, checked, onChange, disabled, description, large, className }: ToggleControlProps) {
  const id = useId();
  return (
    <div className={className}>
      <Switch
        role="switch"
        labelElement={label}
        checked={checked}
        disabled={disabled}
        size={large ? 'large' : 'medium'}
        aria-describedby={description ? `${id}-description` : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      {description && (
        <div id={`${id}-description`} className="insights-control-description">
          {description}
        </div>
      )}
    </div>
  );
}

/** A checkbox with its label. */
export function CheckboxControl({ label, checked, onChange, disabled, description, large, className }: ToggleControlProps) {
  const id = useId();
  return (
    <div className={className}>
      <Checkbox
        labelElement={label}
        checked={checked}
        disabled={disabled}
        size={large ? 'large' : 'medium'}
        aria-describedby={description ? `${id}-description` : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      {description && (
        <div id={`${id}-description`} className="insights-control-description">
          {description}
        </div>
      )}
    </div>
  );
}

export interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
}

export interface RadioControlProps<T extends string> {
  /** The group's label (its accessible name). */
  label: string;
  options: readonly ChoiceOption<T>[];
  /** null: nothing chosen yet. */
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
  /** Side by side instead of one under the other. */
  inline?: boolean;
  /** A message under the group (a missing choice), read with it. */
  error?: string;
}

/** Radio buttons in a labelled radiogroup; the arrow keys move between them. */
export function RadioControl<T extends string>({ label, options, value, onChange, disabled, inline, error }: RadioControlProps<T>) {
  const id = useId();
  return (
    <FormGroup intent={error ? 'danger' : 'none'} helperText={error && <span id={`${id}-error`}>{error}</span>}>
      <RadioGroup
        label={label}
        name={`radio-${id}`}
        selectedValue={value ?? undefined}
        disabled={disabled}
        inline={inline}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.value as T)}
      >
        {options.map((o) => (
          <Radio key={o.value} value={o.value} label={o.label} disabled={o.disabled} />
        ))}
      </RadioGroup>
    </FormGroup>
  );
}

export interface SelectControlProps<T extends string> {
  /** The visible label. */
  label: string;
  /** An accessible name when the visible label alone is ambiguous ('Frequency' in a list of channels). */
  accessibleName?: string;
  options: readonly ChoiceOption<T>[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  /** Shown under the select and read with it. */
  description?: ReactNode;
  error?: string;
  /** Label and select on one line. */
  inline?: boolean;
  className?: string;
}

/** A native select with its label: keyboard- and screen-reader-friendly, fine for long lists (time zones). */
export function SelectControl<T extends string>({
  label,
  accessibleName,
  options,
  value,
  onChange,
  disabled,
  description,
  error,
  inline,
  className,
}: SelectControlProps<T>) {
  const id = useId();
  const describedBy = [error && `${id}-error`, description && `${id}-description`].filter(Boolean).join(' ') || undefined;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      inline={inline}
      className={className}
      intent={error ? 'danger' : 'none'}
      helperText={
        error || description ? (
          <>
            {error && <span id={`${id}-error`}>{error} </span>}
            {description && <span id={`${id}-description`}>{description}</span>}
          </>
        ) : undefined
      }
    >
      <HTMLSelect
        id={id}
        value={value}
        disabled={disabled}
        aria-label={accessibleName}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.currentTarget.value as T)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
