//! Line heights (spec 2: Default, 1.2, 1.5, 2) on blocks: paragraphs, headings, quotes and list
//! items. The value is node state (so it is kept by undo, copy and paste) and becomes the block's
//! inline style `line-height: 1.5` in the editor and in the exported HTML; Default removes it.
//! Lexical 0.52 neither renders nor exports an element's own style, hence the three hooks below:
//! an update listener for the editor's DOM, and HTML export and import overrides.
import { ListItemNode } from '@lexical/list';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import {
  $findMatchingParent,
  $getRoot,
  $getState,
  $isElementNode,
  $isRangeSelection,
  $setState,
  createState,
  ParagraphNode,
  type BaseSelection,
  type DOMConversionMap,
  type DOMConversionProp,
  type DOMExportOutput,
  type DOMExportOutputMap,
  type ElementNode,
  type Klass,
  type LexicalEditor,
  type LexicalNode,
} from 'lexical';

export const LINE_HEIGHTS = ['1.2', '1.5', '2'] as const;
/** '' is Default: no inline style. */
export type LineHeight = '' | (typeof LINE_HEIGHTS)[number];

export function parseLineHeight(value: unknown): LineHeight {
  return (LINE_HEIGHTS as readonly unknown[]).includes(value) ? (value as LineHeight) : '';
}

export const lineHeightState = createState('lineHeight', { parse: parseLineHeight });

/** The blocks a line height applies to. */
const BLOCK_CLASSES: readonly Klass<ElementNode>[] = [ParagraphNode, HeadingNode, QuoteNode, ListItemNode];

export function $isLineHeightBlock(node: LexicalNode | null | undefined): node is ElementNode {
  return BLOCK_CLASSES.some((klass) => node instanceof klass);
}

export function $getLineHeight(node: LexicalNode): LineHeight {
  return $getState(node, lineHeightState);
}

/** The blocks the selection touches (the caret's block when it is collapsed). */
export function $selectedBlocks(selection: BaseSelection | null): ElementNode[] {
  if (!selection) return [];
  const nodes = $isRangeSelection(selection) ? [selection.anchor.getNode(), ...selection.getNodes()] : selection.getNodes();
  const blocks = new Map<string, ElementNode>();
  for (const node of nodes) {
    const block = $findMatchingParent(node, $isLineHeightBlock);
    if (block) blocks.set(block.getKey(), block);
  }
  return [...blocks.values()];
}

export function $setLineHeight(selection: BaseSelection | null, value: LineHeight): void {
  for (const block of $selectedBlocks(selection)) $setState(block, lineHeightState, value);
}

function styleElement(element: unknown, value: LineHeight): void {
  if (!(element instanceof HTMLElement)) return;
  if (value) element.style.lineHeight = value;
  else element.style.removeProperty('line-height');
  if (!element.getAttribute('style')) element.removeAttribute('style');
}

/**
 * Keeps the editor's DOM in step with the state: after each content update every block's element
 * gets its line height. A walk over the blocks (not a mutation listener) because Lexical recreates
 * children's elements without reporting them, e.g. when a list changes from bulleted to numbered.
 */
export function registerLineHeightRendering(editor: LexicalEditor): () => void {
  const $apply = (parent: ElementNode) => {
    for (const child of parent.getChildren()) {
      if (!$isElementNode(child) || child.isInline()) continue;
      if ($isLineHeightBlock(child)) {
        const element = editor.getElementByKey(child.getKey());
        const value = $getLineHeight(child);
        if (element && element.style.lineHeight !== value) styleElement(element, value);
      }
      $apply(child);
    }
  };
  return editor.registerUpdateListener(({ dirtyElements }) => {
    if (dirtyElements.size > 0) editor.read(() => $apply($getRoot()));
  });
}

/** HTML export: the block's own export plus its line height. */
export const LINE_HEIGHT_EXPORT: DOMExportOutputMap = new Map(
  BLOCK_CLASSES.map((klass) => [
    klass,
    (editor: LexicalEditor, node: LexicalNode): DOMExportOutput => {
      const output = node.exportDOM(editor);
      styleElement(output.element, $getLineHeight(node));
      return output;
    },
  ]),
);

/** Wraps a block's own HTML import of `tag` so that the element's line height comes along. */
function importWithLineHeight(klass: Klass<LexicalNode>, tag: string): DOMConversionProp<HTMLElement> {
  return (element) => {
    // Read when an import runs: Lexical installs `importDOM` on a class when an editor registers it.
    const original = klass.importDOM?.()?.[tag]?.(element);
    if (!original) return null;
    return {
      priority: original.priority,
      conversion: (el) => {
        const output = original.conversion(el);
        const value = parseLineHeight(el.style.lineHeight);
        if (output && value) {
          const nodes = Array.isArray(output.node) ? output.node : [output.node];
          for (const node of nodes) if ($isLineHeightBlock(node)) $setState(node, lineHeightState, value);
        }
        return output;
      },
    };
  };
}

export const LINE_HEIGHT_IMPORT: DOMConversionMap = {
  p: importWithLineHeight(ParagraphNode, 'p'),
  blockquote: importWithLineHeight(QuoteNode, 'blockquote'),
  li: importWithLineHeight(ListItemNode, 'li'),
  ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [tag, importWithLineHeight(HeadingNode, tag)])),
};
