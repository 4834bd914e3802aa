//! The full article (spec 3 §2 'Article page', spec 2 §1): the server's sanitised html, with the
//! reader's email repeated over it when the article is watermarked, and copy, cut and the context
//! menu blocked when the article asks for it.
import { useLayoutEffect, useMemo, useRef, useState, type SyntheticEvent } from 'react';
import { prepareArticleHtml } from './articleHtml';

export interface ArticleBodyProps {
  html: string;
  /** The text of the watermark (the reader's email); none when null. */
  watermark?: string | null;
  blockCopy?: boolean;
}

const prevent = (event: SyntheticEvent) => event.preventDefault();

export function ArticleBody({ html, watermark, blockCopy = false }: ArticleBodyProps) {
  const prepared = useMemo(() => prepareArticleHtml(html), [html]);
  const guards = blockCopy ? { onCopy: prevent, onCut: prevent, onContextMenu: prevent, onDragStart: prevent } : {};
  return (
    <div
      role="region"
      aria-label="Article body"
      className={['insights-article-body', blockCopy && 'insights-article-body-protected'].filter(Boolean).join(' ')}
      {...guards}
    >
      <div className="insights-article-html" dangerouslySetInnerHTML={{ __html: prepared }} />
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
