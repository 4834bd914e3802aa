//! The editor's small plugins (Lexical playground style: register in an effect, return the
//! unregister, render nothing).
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { CLEAR_HISTORY_COMMAND } from 'lexical';
import { useEffect, useRef } from 'react';
import { $exportHtml, $loadHtml } from './html';
import { registerLineHeightRendering } from './lineHeight';

/** The tag of the update that loads `initialHtml`: not a change to report. */
const LOAD_TAG = 'insights-load';

export interface HtmlPluginProps {
  initialHtml: string;
  resetKey?: string | number;
  onChange: (html: string) => void;
}

/**
 * HTML in and out: reloads `initialHtml` when `resetKey` changes (the first load is the composer's
 * initial state) and reports the HTML after each change of the content, not of the selection.
 */
export function HtmlPlugin({ initialHtml, resetKey, onChange }: HtmlPluginProps) {
  const [editor] = useLexicalComposerContext();
  const latest = useRef({ initialHtml, onChange });
  const lastHtml = useRef<string | null>(null);
  const loadedKey = useRef(resetKey);

  useEffect(() => {
    latest.current = { initialHtml, onChange };
  });

  useEffect(() => {
    // editor.read flushes the initial load first, so it is not reported as a change.
    lastHtml.current = editor.read(() => $exportHtml(editor));
    return editor.registerUpdateListener(({ dirtyElements, dirtyLeaves, tags }) => {
      if (tags.has(LOAD_TAG) || (dirtyElements.size === 0 && dirtyLeaves.size === 0)) return;
      const html = editor.read(() => $exportHtml(editor));
      if (html === lastHtml.current) return;
      lastHtml.current = html;
      latest.current.onChange(html);
    });
  }, [editor]);

  useEffect(() => {
    if (loadedKey.current === resetKey) return;
    loadedKey.current = resetKey;
    editor.update(() => $loadHtml(editor, latest.current.initialHtml), { tag: LOAD_TAG, discrete: true });
    lastHtml.current = editor.read(() => $exportHtml(editor));
    // Undo must not go back to the document that was replaced.
    editor.dispatchCommand(CLEAR_HISTORY_COMMAND, undefined);
  }, [editor, resetKey]);

  return null;
}

export function LineHeightPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerLineHeightRendering(editor), [editor]);
  return null;
}

/** `readOnly` can change after the editor was created. */
export function EditablePlugin({ editable }: { editable: boolean }) {
  const [editor] = useLexicalComposerContext();
  useEffect(() => editor.setEditable(editable), [editor, editable]);
  return null;
}
