//! Paths and words of the browse pages (spec 3 §2 routes): topics, desks, contributors, tags and
//! archives. Article, channel and tag paths come from ../common/channelText.
export const FOR_YOU_PATH = '/for-you';
export const TOPICS_PATH = '/topics-page';
export const DESKS_PATH = '/desk';
export const CONTRIBUTORS_PATH = '/contributor';
export const TAGS_PATH = '/tag';
export const ARCHIVES_PATH = '/archives';

export const topicPath = (id: string) => `/browse/${id}`;
export const deskPath = (id: string) => `${DESKS_PATH}/${id}`;
export const contributorPath = (id: string) => `${CONTRIBUTORS_PATH}/${id}`;
export const archivePath = (dateId: string) => `${ARCHIVES_PATH}/${dateId}`;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export interface YearMonth {
  year: number;
  /** 1 to 12. */
  month: number;
}

/** 'November 2026'. */
export function monthName({ year, month }: YearMonth): string {
  return `${MONTHS[month - 1] ?? ''} ${year}`;
}

/** An archive's dateId ('2026-11', year-month) read back; null when it is not one. */
export function parseDateId(dateId: string | undefined): YearMonth | null {
  const match = /^(\d{4})-(\d{1,2})$/.exec(dateId ?? '');
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : null;
}

/**
 * The month as a searchArticles date filter: its first and last millisecond in UTC (the contract
 * does not say which zone ArchiveMonth counts in; UTC matches a server storing UTC timestamps).
 * The last millisecond, not the next month's first, is right whether dateTo is inclusive or not.
 */
export function monthRange({ year, month }: YearMonth): { dateFrom: string; dateTo: string } {
  const from = new Date(Date.UTC(year, month - 1, 1));
  const to = new Date(Date.UTC(year, month, 1) - 1);
  return { dateFrom: from.toISOString(), dateTo: to.toISOString() };
}
