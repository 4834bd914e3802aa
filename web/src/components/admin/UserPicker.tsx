//! A multi-select of staff users (desk contributors, channel admin users): the chosen users are
//! tags, typing searches `staffUsers` after the search debounce (500 ms) and offers matches in a
//! list under the field, each with its email as the description (cut to 30 characters). Keyboard: ↓/↑ move through the suggestions (↓ also opens them), Enter
//! picks one, Escape closes them, ←/→ walk the tags and Backspace/Delete remove them. Users in
//! `fixedIds` are shown but cannot be removed (a channel's creator).
//!
//!   <UserPicker id="admins" selected={admins} onChange={setAdmins} fixedIds={[creatorId]} />
//!   <UserPickerField label="Contributors" {...form.field('contributors')} />   (in admin forms)
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Classes, FormGroup, Icon, PopoverNext, TagInput, type TagProps } from '@blueprintjs/core';
import { useId, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { EmailDescription } from '../EmailDescription';
import { StaffUsersDocument } from './__generated__/UserPicker.generated';
import { useDebounced } from '../../lib/useDebounced';
import { useAdminSettings } from './settings';
import type { FieldBinding } from './useAdminForm';

/** A user as other records show them (GraphQL `UserSummary`). */
export interface UserSummary {
  _id: string;
  name: string;
  email: string;
}

export interface UserPickerProps {
  selected: UserSummary[];
  onChange: (users: UserSummary[]) => void;
  /** Shown but not removable. */
  fixedIds?: string[];
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  /** The text input's id, for a `<label htmlFor>`. */
  id?: string;
  /** Users never suggested (besides the selected ones). */
  excludeIds?: readonly string[];
  /** Ids of the elements describing the field (its error message). */
  describedBy?: string;
}

/** Suggestions shown at once. */
export const USER_SUGGESTIONS = 20;

export function UserPicker({
  selected,
  onChange,
  fixedIds = [],
  placeholder,
  disabled = false,
  invalid = false,
  id,
  excludeIds = [],
  describedBy,
}: UserPickerProps) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const listId = `${inputId}-suggestions`;
  const { searchDebounceMs } = useAdminSettings();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text.trim(), searchDebounceMs);

  const hidden = new Set([...selected.map((u) => u._id), ...excludeIds]);
  // Ask for enough users that hiding the chosen and excluded ones still leaves a full list.
  const limit = Math.min(100, USER_SUGGESTIONS + hidden.size);
  const { data, previousData, loading } = useQuery(StaffUsersDocument, {
    variables: { searchQuery: search || null, limit },
    skip: !open || disabled,
  });
  const suggestions = ((data ?? previousData)?.staffUsers ?? []).filter((u) => !hidden.has(u._id)).slice(0, USER_SUGGESTIONS);
  const searching = loading || text.trim() !== search;
  const shown = open && !disabled;
  const activeIndex = Math.min(active, suggestions.length - 1);
  const isFixed = (user: UserSummary) => fixedIds.includes(user._id);

  const openList = () => {
    setOpen(true);
    setActive(0);
  };

  const pick = (user: UserSummary) => {
    onChange([...selected, { _id: user._id, name: user.name, email: user.email }]);
    setText('');
    setActive(0);
  };

  const remove = (index: number) => {
    const user = selected[index];
    if (!user || isFixed(user)) return;
    onChange(selected.filter((_, i) => i !== index));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!shown) openList();
        else if (suggestions.length > 0) setActive((activeIndex + 1) % suggestions.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (shown && suggestions.length > 0) setActive((activeIndex - 1 + suggestions.length) % suggestions.length);
        break;
      case 'Enter':
        // Enter picks a suggestion; it never submits the form while the user is searching.
        if (shown && suggestions[activeIndex]) {
          event.preventDefault();
          pick(suggestions[activeIndex]);
        } else if (text.trim()) {
          event.preventDefault();
        }
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

  const tagProps = (_value: ReactNode, index: number): TagProps => {
    const user = selected[index];
    if (!user) return {};
    if (disabled || isFixed(user)) return { onRemove: undefined, htmlTitle: user.email };
    // Our own remove button: Blueprint's is named 'Remove tag' whatever the tag.
    return {
      onRemove: undefined,
      htmlTitle: user.email,
      endIcon: (
        <button type="button" className={Classes.TAG_REMOVE} aria-label={`Remove ${user.name}`} onClick={() => remove(index)}>
          <Icon icon="small-cross" />
        </button>
      ),
    };
  };

  const optionId = (i: number) => `${inputId}-option-${i}`;
  const content = (
    <div className="insights-user-picker-suggestions">
      <ul role="listbox" id={listId} aria-label="Suggested users" className={Classes.MENU}>
        {suggestions.map((user, i) => (
          <li
            key={user._id}
            id={optionId(i)}
            role="option"
            aria-selected={i === activeIndex}
            // Keep the focus in the text box, so typing and the keyboard go on working.
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => pick(user)}
          >
            <div className={`${Classes.MENU_ITEM}${i === activeIndex ? ` ${Classes.ACTIVE}` : ''}`}>
              <span className={`${Classes.TEXT_OVERFLOW_ELLIPSIS} ${Classes.FILL}`}>{user.name}</span>{' '}
              <span className={Classes.MENU_ITEM_LABEL}>
                <EmailDescription email={user.email} />
              </span>
            </div>
          </li>
        ))}
      </ul>
      {suggestions.length === 0 && (
        <div role="status" className={`${Classes.MENU_ITEM} ${Classes.DISABLED}`}>
          {searching ? 'Searching...' : 'No matching users'}
        </div>
      )}
    </div>
  );

  return (
    <PopoverNext
      isOpen={shown}
      onInteraction={(next) => !next && setOpen(false)}
      content={content}
      placement="bottom-start"
      arrow={false}
      matchTargetWidth
      autoFocus={false}
      enforceFocus={false}
      shouldReturnFocusOnClose={false}
      renderTarget={({ ref }) => (
        // The target's own click handlers are left out: the text box opens and closes the list.
        <div ref={ref} className="insights-user-picker">
          <TagInput
            values={selected.map((u) => u.name)}
            tagProps={tagProps}
            onRemove={(_value, index) => remove(index)}
            // Users are picked from the suggestions only: typed text is a search, never a tag.
            onAdd={() => false}
            separator={false}
            addOnPaste={false}
            inputValue={text}
            onInputChange={(e) => {
              setText(e.currentTarget.value);
              openList();
            }}
            onKeyDown={onKeyDown}
            placeholder={placeholder}
            disabled={disabled}
            intent={invalid ? 'danger' : 'none'}
            fill
            inputProps={{
              id: inputId,
              role: 'combobox',
              autoComplete: 'off',
              'aria-autocomplete': 'list',
              'aria-expanded': shown,
              'aria-controls': listId,
              'aria-activedescendant': shown && suggestions[activeIndex] ? optionId(activeIndex) : undefined,
              'aria-invalid': invalid,
              'aria-describedby': describedBy,
              onClick: () => !shown && openList(),
              onBlur: () => setOpen(false),
            }}
          />
        </div>
      )}
    />
  );
}

export interface UserPickerFieldProps extends FieldBinding<UserSummary[]> {
  label: string;
  fixedIds?: string[];
  placeholder?: string;
  disabled?: boolean;
  excludeIds?: readonly string[];
  help?: ReactNode;
}

/** The picker as an admin form field: label, error (once touched) and the touched state on leaving it. */
export function UserPickerField({ label, value, onChange, onBlur, error, help, ...picker }: UserPickerFieldProps) {
  const id = useId();
  const leave = (e: FocusEvent<HTMLDivElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onBlur();
  };
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span id={`${id}-error`}>{error}</span> : help}
    >
      <div onBlur={leave}>
        <UserPicker
          id={id}
          selected={value}
          onChange={onChange}
          invalid={!!error}
          describedBy={error ? `${id}-error` : undefined}
          fixedIds={picker.fixedIds}
          placeholder={picker.placeholder}
          disabled={picker.disabled}
          excludeIds={picker.excludeIds}
        />
      </div>
    </FormGroup>
  );
}

export const STAFF_USERS_QUERY = gql`
  query StaffUsers($searchQuery: String, $limit: Int!) {
    staffUsers(searchQuery: $searchQuery, limit: $limit) {
      _id
      name
      email
    }
  }
`;
