//! The Lexical theme: the class names the editor puts on the content. They are exported with the
//! HTML, and the server keeps only classes starting with `editor-` (spec 2 sanitiser), so every
//! name here starts with it. Their look is in RichTextEditor.css (and the reader page's CSS).
import type { EditorThemeClasses } from 'lexical';

export const EDITOR_THEME: EditorThemeClasses = {
  ltr: 'editor-ltr',
  rtl: 'editor-rtl',
  paragraph: 'editor-paragraph',
  quote: 'editor-quote',
  heading: {
    h1: 'editor-h1',
    h2: 'editor-h2',
    h3: 'editor-h3',
    h4: 'editor-h4',
    h5: 'editor-h5',
    h6: 'editor-h6',
  },
  list: {
    ul: 'editor-list-ul',
    ol: 'editor-list-ol',
    listitem: 'editor-listitem',
    nested: { listitem: 'editor-nested-listitem' },
  },
  link: 'editor-link',
  text: {
    bold: 'editor-text-bold',
    italic: 'editor-text-italic',
    underline: 'editor-text-underline',
    strikethrough: 'editor-text-strikethrough',
    underlineStrikethrough: 'editor-text-underline-strikethrough',
    subscript: 'editor-text-subscript',
    superscript: 'editor-text-superscript',
    code: 'editor-text-code',
    highlight: 'editor-text-highlight',
  },
  image: 'editor-image',
  embedBlock: { base: 'editor-embed', focus: 'editor-embed-focus' },
  indent: 'editor-indent',
};
