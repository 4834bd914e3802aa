//! State of an admin list (page, page size, search, filter, sort) and helpers for lists that page
//! and sort in the browser (the topic tree). Lists paged by the server pass the state as variables.
import { useCallback, useState } from 'react';
import { useAdminSettings } from './settings';

export type SortDirection = 'asc' | 'desc';

export interface ListSort {
  /** A column key. */
  key: string;
  direction: SortDirection;
}

export interface ListState {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The debounced search text ('' for none). */
  search: string;
  /** The chosen filter chip, or null for lists without filters. */
  filter: string | null;
  sort: ListSort | null;
}

export interface UseListStateOptions {
  /** Tree lists page their roots with the tree page size (100) by default. */
  tree?: boolean;
  filter?: string | null;
  sort?: ListSort | null;
}

/**
 * The list's state. Changing anything but the page goes back to page 1, so a narrower search or
 * a bigger page never lands beyond the last page.
 */
export function useListState({ tree = false, filter = null, sort = null }: UseListStateOptions = {}) {
  const settings = useAdminSettings();
  const [state, setState] = useState<ListState>(() => ({
    page: 1,
    pageSize: tree ? settings.treePageSize : settings.defaultPageSize,
    search: '',
    filter,
    sort,
  }));
  const change = useCallback((next: Partial<ListState>) => {
    setState((prev) => {
      const merged = { ...prev, ...next };
      const others = (Object.keys(next) as (keyof ListState)[]).some((k) => k !== 'page' && next[k] !== prev[k]);
      return others && next.page === undefined ? { ...merged, page: 1 } : merged;
    });
  }, []);
  return [state, change] as const;
}

/** The rows of the current page. */
export function pageRows<T>(rows: readonly T[], { page, pageSize }: Pick<ListState, 'page' | 'pageSize'>): T[] {
  return rows.slice((page - 1) * pageSize, page * pageSize);
}

type SortValue = string | number | null | undefined;

function compare(a: SortValue, b: SortValue): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : -1) : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

/** Sorts rows by a column's value (stable, case-insensitive for text). */
export function sortRows<T>(rows: readonly T[], sort: ListSort | null, valueOf: (row: T, key: string) => SortValue): T[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(valueOf(a, sort.key), valueOf(b, sort.key)));
}

/** Sorts every level of a tree the same way. */
export function sortTree<T extends { children: readonly T[] }>(
  nodes: readonly T[],
  sort: ListSort | null,
  valueOf: (row: T, key: string) => SortValue,
): T[] {
  return sortRows(nodes, sort, valueOf).map((node) => ({ ...node, children: sortTree(node.children, sort, valueOf) }));
}
