//! The full article (spec 3 §2 'Article page', spec 2 §1): the server's sanitised html, with the
//! reader's email repeated over it when the article is watermarked, and copy, cut and the context
//! menu blocked when the article asks for it. Blocks of the html (`<div data-…-id>`: promotional
//! content, charts) are drawn by React into their own divs through portals, so nothing but the
//! server's sanitised html is ever set as html.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { prepareArticleHtml, type PageText } from './articleHtml';

/** How one kind of block of the html is drawn (a small registry: promotional content, charts…). */
export interface ArticleBlockRenderer {
  /** The data attribute that marks the block and holds its id ('data-promotional-content-id'). */
  attribute: string;
  /** What to draw in the block; null draws nothing (an expired promotional content). */
  render: (id: string) => ReactNode;
}

export interface ArticleBodyProps {
  html: string;
  /** The text of the watermark (the reader's email); none when null. */
  watermark?: string | null;
  blockCopy?: boolean;
  blocks?: readonly ArticleBlockRenderer[];
  /** The text of each PDF page the html shows as an image, offered beside it. */
  pageTexts?: readonly PageText[] | null;
}

const prevent = (event: SyntheticEvent) => event.preventDefault();
const NO_BLOCKS: readonly ArticleBlockRenderer[] = [];
const NO_PAGE_TEXTS: readonly PageText[] = [];

interface BlockTarget {
  element: Element;
  id: string;
  /** Index of its renderer in `blocks`. */
  renderer: number;
}

/**
 * The block divs of the html as it is in the page, found again whenever the html (or the kinds of
 * block) change. Each is emptied first: whatever the html held there is replaced by its renderer.
 */
function useBlockTargets(container: RefObject<HTMLElement | null>, html: string, blocks: readonly ArticleBlockRenderer[]) {
  const [targets, setTargets] = useState<readonly BlockTarget[]>([]);
  const attributes = blocks.map((b) => b.attribute).join('\n');
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const found: BlockTarget[] = [];
    attributes.split('\n').forEach((attribute, renderer) => {
      if (!attribute) return;
      for (const element of root.querySelectorAll(`[${attribute}]`)) {
        element.replaceChildren();
        found.push({ element, id: element.getAttribute(attribute) ?? '', renderer });
      }
    });
    setTargets(found);
  }, [container, html, attributes]);
  return targets;
}

export function ArticleBody({ html, watermark, blockCopy = false, blocks = NO_BLOCKS, pageTexts }: ArticleBodyProps) {
  const texts = pageTexts ?? NO_PAGE_TEXTS;
  const prepared = useMemo(() => prepareArticleHtml(html, window.location.origin, texts), [html, texts]);
  const htmlRef = useRef<HTMLDivElement>(null);
  const targets = useBlockTargets(htmlRef, prepared, blocks);
  const guards = blockCopy ? { onCopy: prevent, onCut: prevent, onContextMenu: prevent, onDragStart: prevent } : {};
  return (
    <div
      role="region"
      aria-label="Article body"
      className={['insights-article-body', blockCopy && 'insights-article-body-protected'].filter(Boolean).join(' ')}
      {...guards}
    >
      <div ref={htmlRef} className="insights-article-html" dangerouslySetInnerHTML={{ __html: prepared }} />
      {targets.map((t, i) => createPortal(blocks[t.renderer]?.render(t.id) ?? null, t.element, `${t.renderer}:${i}`))}
      {watermark && <Watermark text={watermark} />}
    </div>
  );
}

/** Size of one watermark tile in px (the CSS grid uses the same). */
const TILE = { width: 240, height: 150 };
/** Tiles before the body has been measured, and the most ever drawn. */
const DEFAULT_TILES = 24;
const MAX_TILES = 1500;

/**
 * The text repeated in a grid over the whole body, each copy rotated 45° (spec 2 §9). It lets
 * clicks through, cannot be selected, is hidden from screen readers and is printed.
 */
export function Watermark({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [tiles, setTiles] = useState(DEFAULT_TILES);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const { width, height } = element.getBoundingClientRect();
      if (width === 0 || height === 0) return;
      const count = Math.ceil(width / TILE.width) * Math.ceil(height / TILE.height);
      setTiles(Math.min(MAX_TILES, Math.max(1, count)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={ref} className="insights-watermark" aria-hidden="true">
      {Array.from({ length: tiles }, (_, i) => (
        <span key={i} className="insights-watermark-text">
          {text}
        </span>
      ))}
    </div>
  );
}
