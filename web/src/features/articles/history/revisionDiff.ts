//! What changed between two revisions of an article: each field compared (lists as added and
//! removed items), and the body as the words that changed in its text (jsdiff), so a reviewer
//! reads the change rather than the markup.
import { diffArrays, diffWordsWithSpace } from 'diff';

/** A run of text: kept, added or removed. */
export interface DiffPart {
  text: string;
  change: 'same' | 'added' | 'removed';
}

/** The blocks that start a new line when an article's HTML is read as text. */
const BLOCKS = new Set([
  'P',
  'DIV',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'LI',
  'BLOCKQUOTE',
  'PRE',
  'TR',
  'FIGCAPTION',
  'FIGURE',
  'TABLE',
  'UL',
  'OL',
]);

/** An article body as readers read it: its text, a line per block, table cells apart. */
export function bodyText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      out.push(node.textContent ?? '');
      return;
    }
    if (!(node instanceof Element)) return;
    if (node.tagName === 'BR') out.push('\n');
    if (node.tagName === 'IMG') out.push(`[image${node.getAttribute('alt') ? `: ${node.getAttribute('alt')}` : ''}]`);
    const block = BLOCKS.has(node.tagName);
    if (block) out.push('\n');
    node.childNodes.forEach(walk);
    if (node.tagName === 'TD' || node.tagName === 'TH') out.push('\t');
    if (block) out.push('\n');
  };
  doc.body.childNodes.forEach(walk);
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The words that changed from `before` to `after`. */
export function textDiff(before: string, after: string): DiffPart[] {
  return diffWordsWithSpace(before, after).map((part) => ({
    text: part.value,
    change: part.added ? 'added' : part.removed ? 'removed' : 'same',
  }));
}

/** Items of a list (topics, tags, contributors) kept, added and removed. */
export function listDiff(before: readonly string[], after: readonly string[]): DiffPart[] {
  return diffArrays([...before].sort(), [...after].sort()).flatMap((part) =>
    part.value.map((text) => ({ text, change: part.added ? ('added' as const) : part.removed ? ('removed' as const) : ('same' as const) })),
  );
}

export function hasChanges(parts: readonly DiffPart[]): boolean {
  return parts.some((part) => part.change !== 'same');
}
