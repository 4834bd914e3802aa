//! Promotional content on the article pages (spec 2 §1, §9; issue 14): the sidebar's content (its
//! sidebar image and name, in a section titled 'Promotion') and the cards of the promotional content blocks an editor put in the html (article
//! image, name, description). Each links to the content's target: an app path ('/promotion/…')
//! stays in the app, anything else opens in a new tab. An impression is logged once per page view
//! when the content first shows on screen, a click when it is followed; neither ever delays the
//! reader or shows them an error.
import { gql } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router';
import { uploadedImageUrl } from '../../../lib/upload';
import type { ArticleBlockRenderer } from './ArticleBody';
import {
  LogPromotionalContentClickDocument,
  LogPromotionalContentImpressionDocument,
  type EmbeddedPromotion_CardFragment,
} from './__generated__/PromotionalContent.generated';

export interface PromotionalContentProps {
  /** The randomised content: its `link` is the content's target. */
  content: { _id: string; name: string; link?: string | null; sidebarImage?: string | null };
  articleId: string;
}

export type EmbeddedPromotion = EmbeddedPromotion_CardFragment;

/** The html attribute of a promotional content block (server-sanitised to a 24-hex id). */
export const PROMOTIONAL_CONTENT_ATTRIBUTE = 'data-promotional-content-id';

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

/**
 * Logs impressions and clicks. Fire-and-forget through the client itself (not a mutation hook), so
 * a click that leaves the page still reaches the server; a failure is already logged by the error
 * link and the server answers false for unknown or expired content, so nothing is shown.
 */
export function usePromotionTracking() {
  const client = useApolloClient();
  const impression = useCallback(
    (id: string) => void client.mutate({ mutation: LogPromotionalContentImpressionDocument, variables: { id } }).catch(() => undefined),
    [client],
  );
  const click = useCallback(
    (id: string) => void client.mutate({ mutation: LogPromotionalContentClickDocument, variables: { id } }).catch(() => undefined),
    [client],
  );
  return { impression, click };
}

/** A path inside the app ('/promotion/…'); '//host' is another site. */
export function isAppPath(target: string): boolean {
  return target.startsWith('/') && !target.startsWith('//');
}

/** The content's link to its target, logging the click as the browser follows it. */
function PromotionLink({ target, onClick, children }: { target?: string | null; onClick: () => void; children: ReactNode }) {
  if (!target) return <>{children}</>;
  if (isAppPath(target))
    return (
      <Link to={target} onClick={onClick} className="insights-promo-link">
        {children}
      </Link>
    );
  return (
    <a href={target} target="_blank" rel="noopener noreferrer" onClick={onClick} className="insights-promo-link">
      {children}
    </a>
  );
}

/** Impressions once per page view (the article) and clicks of one content. */
function useContentTracking(ref: RefObject<Element | null>, contentId: string, articleId: string) {
  const tracking = usePromotionTracking();
  useSeenOnce(ref, `${articleId}:${contentId}`, () => tracking.impression(contentId));
  return () => tracking.click(contentId);
}

/**
 * The sidebar's promotional content: its sidebar image and its name, linking to its target. The
 * name is the link's text, so the image beside it has an empty alt (WCAG H2: one link, named
 * once, rather than the name read twice).
 */
export function PromotionalContent({ content, articleId }: PromotionalContentProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onClick = useContentTracking(ref, content._id, articleId);
  return (
    <div ref={ref} className="insights-article-promo">
      <PromotionLink target={content.link} onClick={onClick}>
        {content.sidebarImage && <img className="insights-article-promo-image" src={uploadedImageUrl(content.sidebarImage)} alt="" />}
        <span className="insights-article-promo-name">{content.name}</span>
      </PromotionLink>
    </div>
  );
}

/** A promotional content block of the article html: a card with its article image, name and description. */
export function PromotionalContentCard({ content, articleId }: { content: EmbeddedPromotion; articleId: string }) {
  const ref = useRef<HTMLElement>(null);
  const onClick = useContentTracking(ref, content._id, articleId);
  return (
    <aside ref={ref} className="insights-promo-card" aria-label={`Promotion: ${content.name}`}>
      <PromotionLink target={content.target} onClick={onClick}>
        {content.articleImage && <img className="insights-promo-card-image" src={uploadedImageUrl(content.articleImage)} alt="" />}
        <span className="insights-promo-card-text">
          <strong className="insights-promo-card-name">{content.name}</strong>
          {content.description && <span className="insights-promo-card-description">{content.description}</span>}
        </span>
      </PromotionLink>
    </aside>
  );
}

/**
 * The block renderer of promotional content for ArticleBody: the card of a listed content; nothing
 * for an id the server left out (expired or deleted content).
 */
export function usePromotionalContentBlock(contents: readonly EmbeddedPromotion[], articleId: string): ArticleBlockRenderer {
  return useMemo(() => {
    const byId = new Map(contents.map((c) => [c._id, c]));
    return {
      attribute: PROMOTIONAL_CONTENT_ATTRIBUTE,
      render: (id) => {
        const content = byId.get(id);
        return content ? <PromotionalContentCard content={content} articleId={articleId} /> : null;
      },
    };
  }, [contents, articleId]);
}

export const EMBEDDED_PROMOTION_FRAGMENT = gql`
  fragment EmbeddedPromotion_card on PromotionalContentCard {
    _id
    name
    description
    articleImage
    target
  }
`;

export const LOG_PROMOTIONAL_CONTENT_IMPRESSION = gql`
  mutation LogPromotionalContentImpression($id: ID!) {
    logPromotionalContentImpression(promotionalContentId: $id)
  }
`;

export const LOG_PROMOTIONAL_CONTENT_CLICK = gql`
  mutation LogPromotionalContentClick($id: ID!) {
    logPromotionalContentClick(promotionalContentId: $id)
  }
`;
