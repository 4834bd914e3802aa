//! The article's promotional content in the sidebar (spec 2 §1, §9): its sidebar image linking to
//! its page, and an impression logged once per page view when it first becomes visible.
import { useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router';
import { logger } from '../../../lib/logger';
import { uploadedImageUrl } from '../../../lib/upload';

export interface PromotionalContentProps {
  content: { _id: string; name: string; link?: string | null; sidebarImage?: string | null };
  articleId: string;
}

/** Share of the element that must be on screen to count as seen. */
const VISIBLE_RATIO = 0.5;

/**
 * Calls `onSeen` once, when the element first shows on screen. Without IntersectionObserver (old
 * browsers, tests) it counts as seen when it mounts. A new `key` is a new page view.
 */
export function useSeenOnce(ref: RefObject<Element | null>, key: string, onSeen: () => void): void {
  const seen = useRef<string | null>(null);
  const callback = useRef(onSeen);
  useEffect(() => {
    callback.current = onSeen;
  });

  useEffect(() => {
    const element = ref.current;
    if (!element || seen.current === key) return;
    const fire = () => {
      if (seen.current === key) return;
      seen.current = key;
      callback.current();
    };
    if (typeof IntersectionObserver === 'undefined') {
      fire();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          fire();
          observer.disconnect();
        }
      },
      { threshold: VISIBLE_RATIO },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, key]);
}

/** A link inside the app ('/promotion/…') stays in the app; any other opens in a new tab. */
function isInternal(link: string): boolean {
  return link.startsWith('/') && !link.startsWith('//');
}

export function PromotionalContent({ content, articleId }: PromotionalContentProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The impressions API arrives with the promotional content stats; until then the impression is
  // recorded in the client log, where it carries the same ids the API will take.
  useSeenOnce(ref, `${articleId}:${content._id}`, () =>
    logger.info('Promotional content impression', { promotionalContentId: content._id, articleId }),
  );

  const image = content.sidebarImage ? (
    <img className="insights-article-promo-image" src={uploadedImageUrl(content.sidebarImage)} alt={content.name} />
  ) : (
    <span className="insights-article-promo-name">{content.name}</span>
  );
  const link = content.link;
  return (
    <div ref={ref} className="insights-article-promo">
      {!link ? (
        image
      ) : isInternal(link) ? (
        <Link to={link}>{image}</Link>
      ) : (
        <a href={link} target="_blank" rel="noopener noreferrer">
          {image}
        </a>
      )}
    </div>
  );
}
