//! The tags picker of the article editor and the template form (spec 2 §2 "Taxonomies"): the
//! chosen tags, each with a remove button, above a search box that looks tags up on the server
//! (`tags(params: {searchQuery})`, after the search debounce of 500 ms) and offers the matches not
//! chosen yet. The search box is the shared `SearchSelect` kept empty, so each pick adds a tag:
//! ↓/↑ move through the matches, Enter adds one (never submitting the form), Escape closes them.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { SearchSelect, useAdminSettings } from '../admin';
import { Button } from '../Button';
import { TagPickerSearchDocument } from './__generated__/TagPicker.generated';
import './pickers.css';

export interface TagChoice {
  _id: string;
  name: string;
}

export interface TagPickerProps {
  value: readonly TagChoice[];
  onChange: (tags: TagChoice[]) => void;
  disabled?: boolean;
  /** The search box's id, for a `<label htmlFor>`. */
  id?: string;
}

/** Matches offered at once. */
export const TAG_SUGGESTIONS = 15;

/** The smallest page size the server accepts that still leaves a full list once chosen tags are hidden. */
export function tagPageSize(pageSizes: readonly number[], chosen: number): number {
  const wanted = TAG_SUGGESTIONS + chosen;
  return pageSizes.find((size) => size >= wanted) ?? pageSizes[pageSizes.length - 1] ?? TAG_SUGGESTIONS;
}

export function TagPicker({ value, onChange, disabled = false, id }: TagPickerProps) {
  const { pageSizes } = useAdminSettings();
  // The debounced search text while the matches are open; null while closed (no query then).
  const [search, setSearch] = useState<string | null>(null);
  const chosen = new Set(value.map((t) => t._id));
  const { data, previousData, loading, error } = useQuery(TagPickerSearchDocument, {
    variables: { params: { searchQuery: search || null, pageSize: tagPageSize(pageSizes, value.length) } },
    skip: search === null || disabled,
  });
  const matches = ((data ?? previousData)?.tags.items ?? []).filter((t) => !chosen.has(t._id)).slice(0, TAG_SUGGESTIONS);

  const add = (tag: TagChoice | null) => {
    if (tag && !chosen.has(tag._id)) onChange([...value, { _id: tag._id, name: tag.name }]);
  };
  const remove = (tagId: string) => onChange(value.filter((t) => t._id !== tagId));

  return (
    <div className="insights-tag-picker">
      {value.length > 0 && (
        <ul aria-label="Chosen tags" className="insights-tag-chips">
          {value.map((tag) => (
            <li key={tag._id} className={`insights-tag-chip${disabled ? ' insights-tag-chip-disabled' : ''}`}>
              <span>{tag.name}</span>
              {!disabled && (
                <Button icon="small-cross" variant="minimal" size="small" label={`Remove ${tag.name}`} onClick={() => remove(tag._id)} />
              )}
            </li>
          ))}
        </ul>
      )}
      <SearchSelect<TagChoice>
        id={id}
        value={null}
        onChange={add}
        items={matches}
        itemKey={(t) => t._id}
        itemLabel={(t) => t.name}
        onSearch={setSearch}
        loading={loading}
        failed={!!error}
        listLabel="Matching tags"
        placeholder="Search tags..."
        noMatchesText="No matching tags"
        icon="tag"
        disabled={disabled}
      />
    </div>
  );
}

export const TAG_PICKER_QUERY = gql`
  query TagPickerSearch($params: TagListParams) {
    tags(params: $params) {
      items {
        _id
        name
      }
      total
    }
  }
`;
