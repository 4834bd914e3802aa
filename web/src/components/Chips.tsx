//! A row of filter chips where exactly one is chosen ('All channels' / 'Premium' / 'Free'): round
//! toggle buttons in a labelled group, the chosen one pressed (aria-pressed).
import { Button, Classes } from '@blueprintjs/core';

export interface ChipOption<T extends string> {
  value: T;
  label: string;
}

export interface ChipGroupProps<T extends string> {
  /** The group's accessible name. */
  label: string;
  options: readonly ChipOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

export function ChipGroup<T extends string>({ label, options, value, onChange }: ChipGroupProps<T>) {
  return (
    <div role="group" aria-label={label} className="insights-chip-group" style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      {options.map((o) => (
        <Button
          key={o.value}
          text={o.label}
          size="small"
          variant={value === o.value ? 'solid' : 'outlined'}
          intent={value === o.value ? 'primary' : 'none'}
          className={Classes.ROUND}
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
        />
      ))}
    </div>
  );
}
