//! The article body editor (Lexical). Placeholder until the Lexical editor lands: the props below
//! are the contract the article editor screen and the template form use.

export interface RichTextEditorProps {
  /** The HTML to start from (sanitised by the server). Read once on mount and whenever `resetKey` changes. */
  initialHtml: string;
  /** Changing it reloads the editor from `initialHtml` (e.g. after 'Resume editing' or a refetch). */
  resetKey?: string | number;
  /** Called with the body's HTML after each change (not debounced). */
  onChange: (html: string) => void;
  /** Offers the Tableau chart button (the user has tableauAccess). */
  chartsEnabled?: boolean;
  /** Promotional content the editor can insert as a block. */
  promotionalContent?: readonly { _id: string; name: string }[];
  readOnly?: boolean;
  /** Accessible name of the editable area. */
  ariaLabel?: string;
}

export function RichTextEditor({ initialHtml, onChange, readOnly, ariaLabel = 'Article body' }: RichTextEditorProps) {
  return (
    <textarea
      aria-label={ariaLabel}
      defaultValue={initialHtml}
      readOnly={readOnly}
      style={{ minHeight: 600, width: '100%' }}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
