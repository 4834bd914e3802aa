//! One record chosen by searching for it (a channel's owner): a search box whose matches open in a
//! list under it. The screen runs the query: it gets the search text (after the search debounce,
//! 500 ms) while the list is open, and null while it is closed, and passes the matches back.
//! Keyboard (ARIA combobox): ↓/↑ move through the matches (↓ also opens them), Enter picks one,
//! Escape closes them. Once chosen, the record shows in a read-only box with a 'Change' button.
//!
//!   const [search, setSearch] = useState<string | null>(null);
//!   const { data, loading } = useQuery(Doc, { variables: { searchQuery: search || null }, skip: search === null });
//!   <SearchSelectField label="Owner" items={data?.matches ?? []} loading={loading} onSearch={setSearch}
//!     itemKey={(o) => o._id} itemLabel={(o) => o.name} listLabel="Matching desks" {...form.field('owner')} />
import { Button, Classes, FormGroup, InputGroup, Spinner, type IconName } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useDebounced } from '../../lib/useDebounced';
import { useAdminSettings } from './settings';
import type { FieldBinding } from './useAdminForm';

export interface SearchSelectProps<T> {
  /** The text box's id, for a `<label htmlFor>`. */
  id?: string;
  name?: string;
  value: T | null;
  onChange: (item: T | null) => void;
  onBlur?: () => void;
  /** The matches of the latest search. */
  items: readonly T[];
  itemKey: (item: T) => string;
  /** The chosen record's text (and a match's, unless `optionLabel` says otherwise). */
  itemLabel: (item: T) => string;
  /** A match's text in the list, when it differs from `itemLabel`. */
  optionLabel?: (item: T) => string;
  /** A muted description beside a match's text (a user's email: `EmailDescription`). */
  itemDescription?: (item: T) => ReactNode;
  /** The debounced search text while the list is open; null once it closes (skip the query). */
  onSearch: (search: string | null) => void;
  loading?: boolean;
  /** The search failed. */
  failed?: boolean;
  /** Accessible name of the list of matches ('Matching desks'). */
  listLabel: string;
  placeholder?: string;
  noMatchesText?: string;
  icon?: IconName;
  disabled?: boolean;
  invalid?: boolean;
  /** Ids of the elements describing the field (its error message). */
  describedBy?: string;
}

export function SearchSelect<T>({
  id,
  name,
  value,
  onChange,
  onBlur,
  items,
  itemKey,
  itemLabel,
  optionLabel = itemLabel,
  itemDescription,
  onSearch,
  loading = false,
  failed = false,
  listLabel,
  placeholder,
  noMatchesText = 'No matches',
  icon,
  disabled = false,
  invalid = false,
  describedBy,
}: SearchSelectProps<T>) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const listId = `${inputId}-matches`;
  const optionId = (i: number) => `${inputId}-match-${i}`;
  const { searchDebounceMs } = useAdminSettings();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text.trim(), searchDebounceMs);
  const shown = open && !disabled && !value;
  const activeIndex = Math.min(active, items.length - 1);
  const searching = loading || text.trim() !== search;

  const report = useRef(onSearch);
  useEffect(() => {
    report.current = onSearch;
  });
  useEffect(() => report.current(shown ? search : null), [shown, search]);

  // After 'Change' the search box replaces the button: the focus moves into it.
  const input = useRef<HTMLInputElement>(null);
  const focusSearch = useRef(false);
  useEffect(() => {
    if (!value && focusSearch.current) {
      focusSearch.current = false;
      input.current?.focus();
    }
  }, [value]);

  if (value) {
    return (
      <InputGroup
        id={inputId}
        name={name}
        value={itemLabel(value)}
        readOnly
        disabled={disabled}
        leftIcon={icon}
        aria-describedby={describedBy}
        onBlur={onBlur}
        rightElement={
          disabled ? undefined : (
            <Button
              variant="minimal"
              text="Change"
              aria-label={`Change ${itemLabel(value)}`}
              onClick={() => {
                focusSearch.current = true;
                setOpen(true);
                setActive(0);
                onChange(null);
              }}
            />
          )
        }
      />
    );
  }

  const pick = (item: T) => {
    onChange(item);
    setText('');
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!shown) {
          setOpen(true);
          setActive(0);
        } else if (items.length > 0) setActive((activeIndex + 1) % items.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (shown && items.length > 0) setActive((activeIndex - 1 + items.length) % items.length);
        break;
      case 'Enter':
        // Enter picks a match; it never submits the form from the search box.
        event.preventDefault();
        if (shown && items[activeIndex]) pick(items[activeIndex]);
        break;
      case 'Escape':
        if (shown) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        }
        break;
    }
  };

  return (
    <div className="insights-search-select">
      <InputGroup
        id={inputId}
        inputRef={input}
        name={name}
        type="search"
        leftIcon={icon ?? 'search'}
        placeholder={placeholder}
        value={text}
        disabled={disabled}
        intent={invalid ? 'danger' : 'none'}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && items[activeIndex] ? optionId(activeIndex) : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onValueChange={(v) => {
          setText(v);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        rightElement={shown && searching ? <Spinner size={16} aria-label="Searching" /> : undefined}
      />
      {shown && (
        <div className={`insights-search-select-matches ${Classes.ELEVATION_2}`}>
          <ul id={listId} role="listbox" aria-label={listLabel} className={Classes.MENU}>
            {items.map((item, i) => (
              <li
                key={itemKey(item)}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                // Keep the focus in the search box, so its blur does not close the list first.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(item)}
              >
                <div className={`${Classes.MENU_ITEM}${i === activeIndex ? ` ${Classes.ACTIVE}` : ''}`}>
                  {itemDescription ? (
                    <>
                      <span className={`${Classes.TEXT_OVERFLOW_ELLIPSIS} ${Classes.FILL}`}>{optionLabel(item)}</span>{' '}
                      <span className={Classes.MENU_ITEM_LABEL}>{itemDescription(item)}</span>
                    </>
                  ) : (
                    optionLabel(item)
                  )}
                </div>
              </li>
            ))}
          </ul>
          {items.length === 0 && (
            <div role="status" className={`${Classes.MENU_ITEM} ${Classes.DISABLED}`}>
              {searching ? 'Searching...' : failed ? 'The search failed' : noMatchesText}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

export interface SearchSelectFieldProps<T>
  extends FieldBinding<T | null>, Omit<SearchSelectProps<T>, 'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'invalid' | 'describedBy'> {
  label: string;
}

/** The search select as an admin form field: label and error (once touched). */
export function SearchSelectField<T>({ label, name, value, onChange, onBlur, error, ...select }: SearchSelectFieldProps<T>) {
  const id = useId();
  return (
    <FormGroup label={label} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error && <span id={`${id}-error`}>{error}</span>}>
      <SearchSelect
        {...select}
        id={id}
        name={name}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        invalid={!!error}
        describedBy={error ? `${id}-error` : undefined}
      />
    </FormGroup>
  );
}
