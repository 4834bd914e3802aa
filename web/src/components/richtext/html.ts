//! The editor's nodes and its HTML in and out (@lexical/html). What is exported must come back
//! unchanged from the server's sanitiser (src/articles/sanitize.rs), so the export is tidied to its
//! allow-list: theme classes only (`editor-…`), the allowed style properties, no ids or `data-*`
//! besides the two block ids, links with `rel="noopener noreferrer"` as the server writes them.
//! Tables are not editor nodes (spec: "tables are stripped"): on paste or load, a table's cells
//! become paragraphs.
import { $generateHtmlFromNodes, $generateNodesFromDOM } from '@lexical/html';
import { LinkNode } from '@lexical/link';
import { ListItemNode, ListNode } from '@lexical/list';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import {
  $createParagraphNode,
  $getRoot,
  $isDecoratorNode,
  $isElementNode,
  $isParagraphNode,
  type DOMConversionMap,
  type DOMConversionOutput,
  type HTMLConfig,
  type Klass,
  type LexicalEditor,
  type LexicalNode,
} from 'lexical';
import { ChartNode } from './ChartNode';
import { EmbedNode } from './EmbedNode';
import { ImageNode } from './ImageNode';
import { LINE_HEIGHT_EXPORT, LINE_HEIGHT_IMPORT } from './lineHeight';
import { PromotionalContentNode } from './PromotionalContentNode';

export const EDITOR_NODES: readonly Klass<LexicalNode>[] = [
  HeadingNode,
  QuoteNode,
  ListNode,
  ListItemNode,
  LinkNode,
  ImageNode,
  EmbedNode,
  PromotionalContentNode,
  ChartNode,
];

function $isBlock(node: LexicalNode): boolean {
  return ($isElementNode(node) || $isDecoratorNode(node)) && !node.isInline();
}

/** Blocks as they are; each run of inline nodes (text, links, images) in a paragraph. */
export function $wrapInlines(nodes: readonly LexicalNode[]): LexicalNode[] {
  const out: LexicalNode[] = [];
  let paragraph: ReturnType<typeof $createParagraphNode> | null = null;
  for (const node of nodes) {
    if ($isBlock(node)) {
      paragraph = null;
      out.push(node);
    } else {
      if (!paragraph) {
        paragraph = $createParagraphNode();
        out.push(paragraph);
      }
      paragraph.append(node);
    }
  }
  return out;
}

const LIFT_CHILDREN = { conversion: (): DOMConversionOutput => ({ node: null }), priority: 4 as const };
const CELL_TO_PARAGRAPHS = {
  conversion: (): DOMConversionOutput => ({ node: null, after: (children) => $wrapInlines(children) }),
  priority: 4 as const,
};
const DROP = { conversion: (): DOMConversionOutput => ({ node: null, after: () => [] }), priority: 4 as const };

/** Tables are taken apart: a cell (or caption) becomes paragraphs, the rest of the markup goes. */
export const TABLE_IMPORT: DOMConversionMap = {
  table: () => LIFT_CHILDREN,
  thead: () => LIFT_CHILDREN,
  tbody: () => LIFT_CHILDREN,
  tfoot: () => LIFT_CHILDREN,
  tr: () => LIFT_CHILDREN,
  td: () => CELL_TO_PARAGRAPHS,
  th: () => CELL_TO_PARAGRAPHS,
  caption: () => CELL_TO_PARAGRAPHS,
  colgroup: () => DROP,
  col: () => DROP,
};

export const EDITOR_HTML: HTMLConfig = {
  import: { ...LINE_HEIGHT_IMPORT, ...TABLE_IMPORT },
  export: LINE_HEIGHT_EXPORT,
};

/** Replaces the document with `html`. */
export function $loadHtml(editor: LexicalEditor, html: string): void {
  const dom = new DOMParser().parseFromString(html, 'text/html');
  const nodes = $wrapInlines($generateNodesFromDOM(editor, dom));
  const root = $getRoot();
  root.clear();
  if (nodes.length > 0) root.append(...nodes);
  else root.append($createParagraphNode());
}

/** An editor holding only an empty paragraph exports as '' (no body yet). */
function $isEmptyDocument(): boolean {
  const root = $getRoot();
  const first = root.getFirstChild();
  return root.getChildrenSize() === 0 || (root.getChildrenSize() === 1 && $isParagraphNode(first) && first.getChildrenSize() === 0);
}

/** The document as the HTML to store. */
export function $exportHtml(editor: LexicalEditor): string {
  return $isEmptyDocument() ? '' : tidyHtml($generateHtmlFromNodes(editor, null));
}

const GENERIC_ATTRIBUTES = new Set(['style', 'class', 'dir']);
const TAG_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'target', 'title', 'rel']),
  img: new Set(['src', 'alt', 'width', 'height']),
  iframe: new Set(['src', 'width', 'height', 'title', 'frameborder', 'loading', 'allow', 'allowfullscreen']),
  div: new Set(['data-promotional-content-id', 'data-chart-id']),
  ol: new Set(['start']),
  li: new Set(['value']),
};
const STYLE_PROPERTIES = new Set([
  'line-height',
  'font-size',
  'text-indent',
  'text-align',
  'font-weight',
  'font-style',
  'text-decoration',
  'white-space',
  'color',
  'background-color',
]);
const LINK_HREF = /^(https?:|mailto:|\/|#)/i;

function tidyStyle(style: string): string {
  return style
    .split(';')
    .map((declaration) => declaration.split(':').map((part) => part.trim()))
    .filter(([property, value]) => value && STYLE_PROPERTIES.has(property.toLowerCase()))
    .map(([property, value]) => `${property.toLowerCase()}: ${value};`)
    .join(' ');
}

function tidyElement(element: Element): void {
  const tag = element.localName;
  for (const { name } of [...element.attributes]) {
    if (!GENERIC_ATTRIBUTES.has(name) && !TAG_ATTRIBUTES[tag]?.has(name)) element.removeAttribute(name);
  }
  const classes = [...element.classList].filter((name) => name.startsWith('editor-'));
  if (classes.length > 0) element.setAttribute('class', classes.join(' '));
  else element.removeAttribute('class');
  const style = tidyStyle(element.getAttribute('style') ?? '');
  if (style) element.setAttribute('style', style);
  else element.removeAttribute('style');
  if (tag === 'a') {
    if (!LINK_HREF.test(element.getAttribute('href') ?? '')) element.removeAttribute('href');
    if (element.getAttribute('target') !== '_blank') element.removeAttribute('target');
    element.setAttribute('rel', 'noopener noreferrer');
  }
}

/** `html` limited to what the server's sanitiser keeps. */
export function tidyHtml(html: string): string {
  // A template's content is inert: nothing in it loads.
  const template = document.createElement('template');
  template.innerHTML = html;
  template.content.querySelectorAll('*').forEach(tidyElement);
  return template.innerHTML;
}
