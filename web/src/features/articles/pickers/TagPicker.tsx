//! Placeholder: the tags multi-select (search with the `tags` query) lands with the templates work.

export interface TagChoice {
  _id: string;
  name: string;
}

export interface TagPickerProps {
  value: readonly TagChoice[];
  onChange: (tags: TagChoice[]) => void;
  disabled?: boolean;
  id?: string;
}

export function TagPicker(_props: TagPickerProps) {
  return null;
}
