//! The frame of a block the editor shows but does not let you type in (an embed, a promotional
//! content block, a chart): a click selects it (Backspace or Delete then removes it, as Lexical's
//! rich text does for a selected node), and a Remove button does the same for keyboard users.
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { useLexicalEditable } from '@lexical/react/useLexicalEditable';
import { useLexicalNodeSelection } from '@lexical/react/useLexicalNodeSelection';
import { SmallCrossIcon } from '@blueprintjs/icons';
import { $getNodeByKey, CLICK_COMMAND, COMMAND_PRIORITY_LOW, type NodeKey } from 'lexical';
import { useEffect, useRef, type ReactNode } from 'react';

export interface BlockFrameProps {
  nodeKey: NodeKey;
  /** What the block is, for the Remove button's name ("Remove Vimeo video player"). */
  label: string;
  /** Inline blocks (images) sit in a line of text. */
  inline?: boolean;
  children: ReactNode;
}

export function BlockFrame({ nodeKey, label, inline = false, children }: BlockFrameProps) {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const [isSelected, setSelected, clearSelection] = useLexicalNodeSelection(nodeKey);
  const ref = useRef<HTMLSpanElement & HTMLDivElement>(null);

  useEffect(
    () =>
      editor.registerCommand(
        CLICK_COMMAND,
        (event) => {
          if (!(event.target instanceof Node) || !ref.current?.contains(event.target)) return false;
          if (!event.shiftKey) clearSelection();
          setSelected(true);
          return true;
        },
        COMMAND_PRIORITY_LOW,
      ),
    [editor, setSelected, clearSelection],
  );

  const remove = () => editor.update(() => $getNodeByKey(nodeKey)?.remove());
  const Tag = inline ? 'span' : 'div';
  return (
    <Tag ref={ref} className={`insights-richtext-block${inline ? ' is-inline' : ''}${isSelected ? ' is-selected' : ''}`}>
      {children}
      {editable && (
        <button
          type="button"
          className="insights-richtext-block-remove"
          aria-label={`Remove ${label}`}
          title={`Remove ${label}`}
          onClick={remove}
        >
          <SmallCrossIcon size={12} />
        </button>
      )}
    </Tag>
  );
}
