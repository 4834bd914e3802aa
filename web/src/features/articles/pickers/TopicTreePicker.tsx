//! Placeholder: the topics tree picker (checkboxes over categoriesAsTree) lands with the templates work.

export interface TopicTreePickerProps {
  /** Chosen topic ids. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
  invalid?: boolean;
}

export function TopicTreePicker(_props: TopicTreePickerProps) {
  return null;
}
