//! The search page's view as it lives in the address (so a search can be linked and the back
//! button works): ?q=&topic=&channel=&desk=&contributor=&tag=&from=&to=&access=&mine, and the
//! `searchArticles` params it stands for. Ids that are not ObjectIds and malformed dates are ignored.
import { isObjectId } from './common/channelText';
import type { SearchScreenQueryVariables } from './__generated__/Search.generated';

/** Spec 3 §5: search text needs at least 2 characters. */
export const MIN_SEARCH_LENGTH = 2;
export const TOO_SHORT_TEXT = 'Please type at least 2 characters';

export type Access = 'all' | 'free' | 'premium';
export const ID_FILTERS = ['topic', 'channel', 'desk', 'contributor', 'tag'] as const;
export type IdFilter = (typeof ID_FILTERS)[number];

export interface SearchView extends Record<IdFilter, string | null> {
  q: string;
  /** 'YYYY-MM-DD' */
  from: string | null;
  to: string | null;
  access: Access;
  mine: boolean;
}

export const EMPTY_VIEW: SearchView = {
  q: '',
  topic: null,
  channel: null,
  desk: null,
  contributor: null,
  tag: null,
  from: null,
  to: null,
  access: 'all',
  mine: false,
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Text the search runs with: trimmed, and empty when shorter than the minimum. */
export function usableQuery(text: string): string {
  const q = text.trim();
  return q.length >= MIN_SEARCH_LENGTH ? q : '';
}

export function readSearchView(params: URLSearchParams): SearchView {
  const id = (key: IdFilter) => {
    const value = params.get(key);
    return isObjectId(value ?? undefined) ? value : null;
  };
  const day = (key: 'from' | 'to') => {
    const value = params.get(key);
    return value && DAY.test(value) ? value : null;
  };
  const access = params.get('access');
  return {
    q: (params.get('q') ?? '').trim(),
    topic: id('topic'),
    channel: id('channel'),
    desk: id('desk'),
    contributor: id('contributor'),
    tag: id('tag'),
    from: day('from'),
    to: day('to'),
    access: access === 'free' || access === 'premium' ? access : 'all',
    mine: params.has('mine') && params.get('mine') !== 'false',
  };
}

/** The address's query for a view; defaults are left out. */
export function writeSearchView(view: SearchView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  for (const key of ID_FILTERS) if (view[key]) params.set(key, view[key]);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.access !== 'all') params.set('access', view.access);
  if (view.mine) params.set('mine', 'true');
  return params;
}

export function hasFilters(view: SearchView): boolean {
  return ID_FILTERS.some((k) => view[k]) || !!view.from || !!view.to || view.access !== 'all' || view.mine;
}

/** A 'YYYY-MM-DD' day as a local time: its first moment, or its last for the end of a range. */
export function dayToIso(day: string | null, end = false): string | null {
  const m = day ? DAY.exec(day) : null;
  if (!m) return null;
  const date = end
    ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999)
    : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export type SearchParamsInput = NonNullable<SearchScreenQueryVariables['params']>;

export function searchArticlesParams(view: SearchView): SearchParamsInput {
  return {
    searchQuery: usableQuery(view.q) || null,
    categoryId: view.topic,
    premiumChannelId: view.channel,
    deskId: view.desk,
    contributorId: view.contributor,
    tagId: view.tag,
    dateFrom: dayToIso(view.from),
    dateTo: dayToIso(view.to, true),
    freeOnly: view.access === 'free',
    premiumOnly: view.access === 'premium',
    onlyMySubscriptions: view.mine,
  };
}
