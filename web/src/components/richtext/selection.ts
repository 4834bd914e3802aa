//! Selection helpers for actions started outside the editable area (toolbar buttons, dialogs,
//! uploads that finish later): they act on the selection the user left in the editor.
import { $getNodeByKey, $getRoot, $getSelection, $isRangeSelection, $setSelection, type BaseSelection, type LexicalNode } from 'lexical';

function $isAlive(selection: BaseSelection): boolean {
  if ($isRangeSelection(selection)) {
    return [selection.anchor.key, selection.focus.key].every((key) => $getNodeByKey(key)?.isAttached() ?? false);
  }
  return selection.getNodes().every((node) => node.isAttached());
}

/**
 * The editor's selection; if there is none, `saved` (when its nodes still exist), or else the end
 * of the document.
 */
export function $selectionOr(saved: BaseSelection | null): BaseSelection {
  const current = $getSelection();
  if (current) return current;
  if (saved && $isAlive(saved)) {
    const restored = saved.clone();
    $setSelection(restored);
    return restored;
  }
  $getRoot().selectEnd();
  return $getSelection() as BaseSelection;
}

/** The types of the selected nodes and of all their ancestors (for the placement rules). */
export function $selectionNodeTypes(selection: BaseSelection): Set<string> {
  const nodes: LexicalNode[] = $isRangeSelection(selection)
    ? [selection.anchor.getNode(), selection.focus.getNode(), ...selection.getNodes()]
    : selection.getNodes();
  const types = new Set<string>();
  for (const node of nodes) {
    for (let current: LexicalNode | null = node; current; current = current.getParent()) types.add(current.getType());
  }
  return types;
}
