//! A person found by name or email and a button that acts on them (issue 39): 'Add a reader' on the
//! staff firm page (readers in no firm yet) and 'Give a seat' (members of the firm without one).
//! The screen runs the search (`onSearch` gives the text while the list is open, null once closed)
//! and the action; a refused action shows its message under the picker.
import { useState, type ReactNode } from 'react';
import { SearchSelectField } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { EmailDescription } from '../../components/EmailDescription';
import './firms.css';

export interface Person {
  _id: string;
  name: string;
  email: string;
}

export interface PersonPickerProps<T> {
  label: string;
  name: string;
  /** The matches of the latest search. */
  items: readonly T[];
  /** The person an item stands for. */
  personOf: (item: T) => Person;
  /** Said beside a match, after the email (another firm's name). */
  extraDescription?: (item: T) => ReactNode;
  onSearch: (search: string | null) => void;
  loading: boolean;
  failed: boolean;
  listLabel: string;
  placeholder: string;
  noMatchesText: string;
  buttonText: string;
  /** Shown when the button is pressed before anyone is chosen. */
  chooseText: string;
  /** The action on the chosen item; resolves to a refusal to show under the picker, or null once done. */
  onPick: (item: T) => Promise<string | null>;
}

export function PersonPicker<T>({
  label,
  name,
  items,
  personOf,
  extraDescription,
  onSearch,
  loading,
  failed,
  listLabel,
  placeholder,
  noMatchesText,
  buttonText,
  chooseText,
  onPick,
}: PersonPickerProps<T>) {
  const [chosen, setChosen] = useState<T | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async () => {
    if (!chosen) {
      setRefusal(chooseText);
      return;
    }
    setRefusal(null);
    setBusy(true);
    try {
      const refused = await onPick(chosen);
      setRefusal(refused);
      if (!refused) setChosen(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="insights-firm-section">
      <div className="insights-firm-picker">
        <SearchSelectField<T>
          label={label}
          name={name}
          value={chosen}
          onChange={(item) => {
            setChosen(item);
            setRefusal(null);
          }}
          onBlur={() => {}}
          items={items}
          itemKey={(item) => personOf(item)._id}
          itemLabel={(item) => `${personOf(item).name} (${personOf(item).email})`}
          optionLabel={(item) => personOf(item).name}
          itemDescription={(item) => (
            <>
              <EmailDescription email={personOf(item).email} />
              {extraDescription?.(item)}
            </>
          )}
          onSearch={onSearch}
          loading={loading}
          failed={failed}
          listLabel={listLabel}
          placeholder={placeholder}
          noMatchesText={noMatchesText}
          icon="person"
        />
        <Button text={buttonText} intent="primary" loading={busy} onClick={() => void pick()} />
      </div>
      {refusal && (
        <Banner intent="danger" role="alert">
          {refusal}
        </Banner>
      )}
    </div>
  );
}
