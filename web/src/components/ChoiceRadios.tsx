//! Radio buttons for a choice whose options may be unavailable with a reason (the checkout's
//! payment types, spec 3 §5: the clearing account option disabled with a tooltip to contact sales).
//! The reason is a tooltip on hover and also a line under the option tied to it
//! (aria-describedby), so keyboard and screen-reader users get it too. Arrow keys move between the
//! options; the group's error sits under it and is read with it.
import { FormGroup, Radio, RadioGroup, Tooltip } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';

export interface RadioChoice<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
  /** Why the option is unavailable (or a hint): a tooltip and a line under it. */
  hint?: string;
}

export interface ChoiceRadiosProps<T extends string> {
  label: string;
  options: readonly RadioChoice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
  error?: string;
  /** Under the options (a panel for the chosen one). */
  children?: ReactNode;
}

export function ChoiceRadios<T extends string>({ label, options, value, onChange, disabled, error, children }: ChoiceRadiosProps<T>) {
  const id = useId();
  return (
    <FormGroup intent={error ? 'danger' : 'none'} helperText={error && <span id={`${id}-error`}>{error}</span>}>
      <RadioGroup
        label={label}
        name={`choice-${id}`}
        selectedValue={value ?? undefined}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.value as T)}
      >
        {options.map((o) => {
          const hintId = `${id}-${o.value}-hint`;
          const radio = (
            // Wrapped radios do not get the group's props (Blueprint passes them to direct children only).
            <Radio
              value={o.value}
              label={o.label}
              name={`choice-${id}`}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              disabled={disabled || o.disabled}
              aria-describedby={o.hint ? hintId : undefined}
              className="insights-choice-radio"
            />
          );
          return (
            <div key={o.value} className="insights-choice">
              {o.hint ? (
                <Tooltip content={o.hint} placement="right">
                  {radio}
                </Tooltip>
              ) : (
                radio
              )}
              {o.hint && (
                <div id={hintId} className="insights-control-description">
                  {o.hint}
                </div>
              )}
            </div>
          );
        })}
      </RadioGroup>
      {children}
    </FormGroup>
  );
}
