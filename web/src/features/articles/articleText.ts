//! Paths and cell texts shared by the article list and the stats page (spec 2 "Articles list",
//! "Article stats", spec 1 §9 date formats).
import { formatFullDateTime } from '../../lib/dates';
import type { ArticleState } from './__generated__/ArticleList.generated';

export const ARTICLES_PATH = '/publisher/articles';

export function articleEditPath(id: string): string {
  return `${ARTICLES_PATH}/edit/${id}`;
}

export function articleStatsPath(id: string): string {
  return `${ARTICLES_PATH}/stats/${id}`;
}

const STATE_LABELS: Record<ArticleState, string> = {
  Pending: 'Pending',
  ReadyForReview: 'Ready for review',
  Published: 'Published',
  Archived: 'Archived',
};

export function articleStateLabel(state: ArticleState): string {
  return STATE_LABELS[state];
}

const OFFSET_LABELS: Record<string, string> = { '3d': '3 days', '1w': '1 week', '1m': '1 month' };

export interface PremiumFields {
  isPremium: boolean;
  premiumExpiryOffset?: string | null;
  premiumExpiresAt?: string | null;
}

/**
 * The Premium cell: nothing for free articles, 'No expiry', or 'Expires 05 Jan 2024 14:30'. The
 * server computes the expiry only once the article is published (publishDate + offset), so a draft
 * with an offset says how long after publishing it will expire instead of claiming 'No expiry'.
 */
export function premiumText({ isPremium, premiumExpiryOffset, premiumExpiresAt }: PremiumFields): string {
  if (!isPremium) return '';
  if (premiumExpiresAt) return `Expires ${formatFullDateTime(premiumExpiresAt)}`;
  if (!premiumExpiryOffset) return 'No expiry';
  return `Expires ${OFFSET_LABELS[premiumExpiryOffset] ?? premiumExpiryOffset} after publishing`;
}

/** 'N view(s)', as the spec words the stats page's total. */
export function viewsText(count: number): string {
  return `${count} view(s)`;
}

/** 'N user(s)': the readers who viewed the article. */
export function usersText(count: number): string {
  return `${count} user(s)`;
}
