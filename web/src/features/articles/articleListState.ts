//! The article list's state kept in the URL (tab, search, sort, page, page size and the id filters),
//! so a reload, the back button or a link from another screen (a desk's articles:
//! `/publisher/articles?publishedBy=<deskId>`) opens the same view. The filter keys are the names of
//! `ArticleListParams`. Values equal to the defaults stay out of the URL.
import { useCallback, useMemo } from 'react';
import { useAdminSettings, type ListState } from '../../components/admin';
import { useScreenSearchParams } from '../../lib/useScreenSearchParams';
import type { ArticleListType, ArticleSortField } from './__generated__/ArticleList.generated';

export const ARTICLE_TABS: readonly { value: ArticleListType; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'all', label: 'All' },
  { value: 'my', label: 'My' },
  { value: 'published', label: 'Published' },
  { value: 'pending', label: 'Pending' },
  { value: 'archived', label: 'Archived' },
];

export const DEFAULT_TAB: ArticleListType = 'all';

/** The id filters of `ArticleListParams`, each a list of ids. */
export const FILTER_KEYS = ['categoryId', 'publishedBy', 'tagId', 'channel', 'promotionalContentId'] as const;

export type FilterKey = (typeof FILTER_KEYS)[number];

export type ArticleFilters = Record<FilterKey, readonly string[]>;

function mapFilters(idsOf: (key: FilterKey) => readonly string[]): ArticleFilters {
  const filters = {} as Record<FilterKey, readonly string[]>;
  for (const key of FILTER_KEYS) filters[key] = idsOf(key);
  return filters;
}

export const NO_FILTERS: ArticleFilters = mapFilters(() => []);

/** Column key → the server's sort field. 'created' has no column: it is the default order. */
export const SORT_FIELDS: Record<string, ArticleSortField> = {
  title: 'Title',
  publishedBy: 'PublishedBy',
  views: 'Views',
  publishDate: 'PublishDate',
  lastEdited: 'LastEdited',
  created: 'Created',
  premium: 'Premium',
};

/** Spec 2 §9: articles sort by created by default, newest first. */
export const DEFAULT_SORT = { key: 'created', direction: 'desc' } as const;

export interface ArticleListView {
  list: ListState;
  filters: ArticleFilters;
}

const uniq = (ids: readonly string[]) => [...new Set(ids.filter(Boolean))];

/** Reads the view from the URL; unknown or malformed values fall back to the defaults. */
export function readArticleListView(params: URLSearchParams, pageSizes: readonly number[], defaultPageSize: number): ArticleListView {
  const type = ARTICLE_TABS.find((t) => t.value === params.get('type'))?.value ?? DEFAULT_TAB;
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  const sortKey = params.get('sort');
  const direction = params.get('direction');
  const filters = mapFilters((key) => uniq(params.getAll(key)));
  return {
    list: {
      page: Number.isInteger(page) && page >= 1 ? page : 1,
      pageSize: pageSizes.includes(pageSize) ? pageSize : defaultPageSize,
      search: params.get('search') ?? '',
      filter: type,
      sort:
        sortKey && sortKey in SORT_FIELDS
          ? { key: sortKey, direction: direction === 'asc' ? 'asc' : 'desc' }
          : { key: DEFAULT_SORT.key, direction: DEFAULT_SORT.direction },
    },
    filters,
  };
}

/** The view as URL parameters, leaving out what equals the defaults. */
export function writeArticleListView({ list, filters }: ArticleListView, defaultPageSize: number): URLSearchParams {
  const params = new URLSearchParams();
  if (list.filter && list.filter !== DEFAULT_TAB) params.set('type', list.filter);
  if (list.search) params.set('search', list.search);
  const sort = list.sort ?? DEFAULT_SORT;
  if (sort.key !== DEFAULT_SORT.key || sort.direction !== DEFAULT_SORT.direction) {
    params.set('sort', sort.key);
    params.set('direction', sort.direction);
  }
  if (list.page > 1) params.set('page', String(list.page));
  if (list.pageSize !== defaultPageSize) params.set('pageSize', String(list.pageSize));
  for (const key of FILTER_KEYS) for (const id of filters[key]) params.append(key, id);
  return params;
}

/**
 * Like `useListState`, but kept in the URL, with the id filters beside it. Any change but a page
 * change goes back to page 1, so a narrower view never lands beyond its last page.
 */
export function useArticleListView() {
  const { pageSizes, defaultPageSize } = useAdminSettings();
  const [params, setParams] = useScreenSearchParams();
  const view = useMemo(() => readArticleListView(params, pageSizes, defaultPageSize), [params, pageSizes, defaultPageSize]);

  const update = useCallback(
    (next: (prev: ArticleListView) => ArticleListView) =>
      // Replace: the URL follows every keystroke of the search, which should not fill the history.
      setParams((prev) => writeArticleListView(next(readArticleListView(prev, pageSizes, defaultPageSize)), defaultPageSize), {
        replace: true,
      }),
    [setParams, pageSizes, defaultPageSize],
  );

  const changeList = useCallback(
    (change: Partial<ListState>) =>
      update((prev) => {
        const list = { ...prev.list, ...change };
        const others = (Object.keys(change) as (keyof ListState)[]).some(
          (k) => k !== 'page' && JSON.stringify(change[k]) !== JSON.stringify(prev.list[k]),
        );
        return { ...prev, list: others && change.page === undefined ? { ...list, page: 1 } : list };
      }),
    [update],
  );

  const setFilter = useCallback(
    (key: FilterKey, ids: readonly string[]) =>
      update((prev) => ({ list: { ...prev.list, page: 1 }, filters: { ...prev.filters, [key]: uniq(ids) } })),
    [update],
  );

  const clearFilters = useCallback(() => update((prev) => ({ list: { ...prev.list, page: 1 }, filters: NO_FILTERS })), [update]);

  return { ...view, changeList, setFilter, clearFilters };
}
