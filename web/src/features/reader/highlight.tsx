//! Search highlights (contract: `SearchDocument.highlight`): escaped text with the matched words in
//! <mark>…</mark>. Rather than trusting it as HTML, it is split on the two tags and the text between
//! them is unescaped and rendered by React (which escapes it again): no markup from the server ever
//! reaches the DOM, whatever it holds.
import type { ReactNode } from 'react';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Undoes the server's HTML escaping (named entities above, and numeric ones). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

export interface HighlightPart {
  text: string;
  marked: boolean;
}

/** The highlight as plain-text parts, marked or not; an unbalanced tag counts as text. */
export function highlightParts(highlight: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let rest = highlight;
  while (rest.length > 0) {
    const open = rest.indexOf('<mark>');
    const close = open === -1 ? -1 : rest.indexOf('</mark>', open + 6);
    if (open === -1 || close === -1) {
      parts.push({ text: rest, marked: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), marked: false });
    parts.push({ text: rest.slice(open + 6, close), marked: true });
    rest = rest.slice(close + 7);
  }
  return parts.filter((p) => p.text !== '').map((p) => ({ ...p, text: unescapeHtml(p.text) }));
}

export function Highlight({ html }: { html: string }): ReactNode {
  return (
    <p className="insights-search-excerpt">
      {highlightParts(html).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </p>
  );
}
