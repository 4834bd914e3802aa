//! View counting (spec 3 §7 addArticleViewStat): once per page view of an article, with the browser
//! session so that the server does not count a reload again, and the campaign when the link
//! carried one. A failure is logged; the reader is not told.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { formatError } from '../../../lib/errors';
import { logger } from '../../../lib/logger';
import { getSessionId } from '../../../lib/requestIds';
import { parseCampaign } from './campaign';
import { RecordArticleViewDocument } from './__generated__/useArticleView.generated';

export type ArticleViewType = 'article' | 'marketing-article';

/**
 * Records one view once `articleId` is set (after the article has loaded). Another article in the
 * same page is another view; a re-render or React's development double effects are not.
 */
export function useArticleView(articleId: string | null, type: ArticleViewType, campaignSegment: string | undefined): void {
  const [record] = useMutation(RecordArticleViewDocument);
  const recorded = useRef<string | null>(null);

  useEffect(() => {
    if (!articleId || recorded.current === articleId) return;
    recorded.current = articleId;
    const campaign = parseCampaign(campaignSegment);
    const item = {
      articleId,
      type,
      session: getSessionId(),
      ...(campaign ? { source: 'campaign', sourceId: campaign.id, sourceDetail: campaign.type } : {}),
    };
    record({ variables: { item } }).catch((error: unknown) => {
      logger.warn(`Article view not recorded: ${formatError(error)}`, { articleId, type });
    });
  }, [articleId, type, campaignSegment, record]);
}

export const RECORD_ARTICLE_VIEW_MUTATION = gql`
  mutation RecordArticleView($item: ArticleViewStatInput!) {
    addArticleViewStat(item: $item) {
      counted
      kind
    }
  }
`;
