//! The shared admin list (spec 1 §2 "Shared list behaviour", §9): a table with sortable column
//! headers, a search box (debounced), filter chips, page-size choices and the 'Showing 1-15 of N'
//! line, plus loading, error and empty states. Rows of 40 px. It only displays: the screen owns the
//! data, holds the state with `useListState` and turns it into query variables (server-side
//! paging) or uses `pageRows`/`sortRows` (client-side). With `tree`, rows are roots whose
//! children open under them (the topic tree).
//!
//!   const [state, change] = useListState({ sort: { key: 'name', direction: 'asc' } });
//!   const { data, loading, error, refetch } = useQuery(Doc, { variables: toVariables(state) });
//!   <AdminList label="Tags" columns={columns} rows={data?.tags.items ?? []} total={data?.tags.total ?? 0}
//!     rowKey={(t) => t._id} state={state} onStateChange={change} loading={loading} error={error} onRetry={refetch} />
import { Button, Classes, HTMLSelect, HTMLTable, Icon, InputGroup, Spinner } from '@blueprintjs/core';
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { formatError } from '../../lib/errors';
import { Banner } from '../Banner';
import type { ListState } from './listState';
import { useAdminSettings } from './settings';
import './admin.css';

export const EMPTY_LIST_TEXT = 'There are no items to show';

export interface AdminColumn<T> {
  key: string;
  title: string;
  render: (row: T) => ReactNode;
  /** The header becomes a sort button; the screen sorts (server or `sortRows`). */
  sortable?: boolean;
  /** Right-aligned (counts). */
  numeric?: boolean;
  width?: number | string;
}

export interface AdminListFilter {
  value: string;
  label: string;
}

/** A further chip group of the toolbar (a type filter), whose value the screen holds. */
export interface AdminListChipGroup {
  /** The group's accessible name ('Channel type'). */
  label: string;
  value: string;
  options: readonly AdminListFilter[];
  onChange: (value: string) => void;
}

export interface AdminListTree<T> {
  children: (row: T) => readonly T[];
  /** Used in the expand button's name: 'Expand Energy'. */
  name: (row: T) => string;
}

/** Rows that open to show more under them (an audit event's changes). */
export interface AdminListDetails<T> {
  render: (row: T) => ReactNode;
  /** Used in the toggle's name: 'Show details of 5 Mar 2026 14:05 editTag'. */
  name: (row: T) => string;
}

export interface AdminListProps<T> {
  /** Accessible name of the table. */
  label: string;
  columns: readonly AdminColumn<T>[];
  /** The rows of the current page. */
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Rows (roots for a tree) over all pages. */
  total: number;
  state: ListState;
  onStateChange: (change: Partial<ListState>) => void;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  search?: { placeholder: string };
  filters?: readonly AdminListFilter[];
  /** Chip groups after `filters`; the screen goes back to page 1 when one changes. */
  moreFilters?: readonly AdminListChipGroup[];
  /** Shown at the end of the toolbar (the add button). */
  actions?: ReactNode;
  tree?: AdminListTree<T>;
  /** A toggle in each row's first cell opens `render(row)` under the row, across the columns. */
  details?: AdminListDetails<T>;
}

export function rangeText(state: Pick<ListState, 'page' | 'pageSize'>, total: number): string {
  const from = Math.min((state.page - 1) * state.pageSize + 1, total);
  const to = Math.min(state.page * state.pageSize, total);
  return `Showing ${from}-${to} of ${total}`;
}

export function AdminList<T>(props: AdminListProps<T>) {
  const { label, columns, rows, total, state, onStateChange, loading = false, error, onRetry, search, filters, actions } = props;
  const { moreFilters } = props;
  const { pageSizes } = useAdminSettings();
  const lastPage = Math.max(1, Math.ceil(total / state.pageSize));
  const hasRows = rows.length > 0;
  const showBody = !error && (hasRows || !loading);

  return (
    <div className="insights-admin-list">
      {(search || filters || moreFilters || actions) && (
        <div className="insights-admin-toolbar">
          {search && (
            <SearchBox placeholder={search.placeholder} value={state.search} onSearch={(text) => onStateChange({ search: text })} />
          )}
          {filters && (
            <Chips label="Filter" options={filters} value={state.filter} onChange={(value) => onStateChange({ filter: value })} />
          )}
          {moreFilters?.map((group) => (
            <Chips key={group.label} label={group.label} options={group.options} value={group.value} onChange={group.onChange} />
          ))}
          <div className="insights-admin-toolbar-end">{actions}</div>
        </div>
      )}

      {error ? (
        <Banner intent="danger" role="alert">
          <p>{formatError(error)}</p>
          {onRetry && <Button text="Retry" size="small" onClick={() => onRetry()} />}
        </Banner>
      ) : (
        <HTMLTable aria-label={label} aria-busy={loading} interactive striped className="insights-admin-table">
          <thead>
            <tr>
              {columns.map((column) => (
                <HeaderCell key={column.key} column={column} state={state} onStateChange={onStateChange} />
              ))}
            </tr>
          </thead>
          <tbody>
            {!showBody && (
              <tr>
                <td colSpan={columns.length}>
                  <div role="status" aria-live="polite" className="insights-admin-loading">
                    <Spinner size={20} aria-label="Loading" />
                  </div>
                </td>
              </tr>
            )}
            {showBody && !hasRows && (
              <tr>
                <td colSpan={columns.length} className="insights-admin-empty">
                  {EMPTY_LIST_TEXT}
                </td>
              </tr>
            )}
            {showBody && <Rows rows={rows} columns={columns} rowKey={props.rowKey} tree={props.tree} details={props.details} depth={0} />}
          </tbody>
        </HTMLTable>
      )}

      <div className="insights-admin-footer">
        <label className={Classes.INLINE}>
          <span>Page size</span>{' '}
          <HTMLSelect
            value={state.pageSize}
            aria-label="Page size"
            onChange={(e) => onStateChange({ pageSize: Number(e.currentTarget.value) })}
            options={pageSizes.map((n) => ({ value: n, label: String(n) }))}
          />
        </label>
        {!error && showBody && total > 0 && <span className="insights-admin-range">{rangeText(state, total)}</span>}
        {loading && hasRows && <Spinner size={16} aria-label="Loading" />}
        <span className="insights-admin-pager">
          <Button
            icon="chevron-left"
            variant="minimal"
            aria-label="Previous page"
            title="Previous page"
            disabled={state.page <= 1}
            onClick={() => onStateChange({ page: state.page - 1 })}
          />
          <Button
            icon="chevron-right"
            variant="minimal"
            aria-label="Next page"
            title="Next page"
            disabled={state.page >= lastPage}
            onClick={() => onStateChange({ page: state.page + 1 })}
          />
        </span>
      </div>
    </div>
  );
}

/** Filter chips: the chosen one is pressed. */
function Chips({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly AdminListFilter[];
  value: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <div role="group" aria-label={label} className="insights-admin-chips">
      {options.map((f) => (
        <Button
          key={f.value}
          text={f.label}
          size="small"
          variant={value === f.value ? 'solid' : 'outlined'}
          intent={value === f.value ? 'primary' : 'none'}
          className={Classes.ROUND}
          aria-pressed={value === f.value}
          onClick={() => onChange(f.value)}
        />
      ))}
    </div>
  );
}

function HeaderCell<T>({
  column,
  state,
  onStateChange,
}: {
  column: AdminColumn<T>;
  state: ListState;
  onStateChange: (change: Partial<ListState>) => void;
}) {
  const sorted = state.sort?.key === column.key ? state.sort.direction : null;
  const style = { width: column.width, textAlign: column.numeric ? ('right' as const) : undefined };
  if (!column.sortable) {
    return (
      <th scope="col" style={style}>
        {column.title}
      </th>
    );
  }
  const next = sorted === 'asc' ? 'desc' : 'asc';
  return (
    <th scope="col" style={style} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
      <button type="button" className="insights-admin-sort" onClick={() => onStateChange({ sort: { key: column.key, direction: next } })}>
        {column.title}
        <Icon icon={sorted === 'asc' ? 'caret-up' : sorted === 'desc' ? 'caret-down' : 'double-caret-vertical'} size={12} aria-hidden />
      </button>
    </th>
  );
}

interface RowsProps<T> extends Pick<AdminListProps<T>, 'rows' | 'columns' | 'rowKey' | 'tree' | 'details'> {
  depth: number;
}

function Rows<T>({ rows, columns, rowKey, tree, details, depth }: RowsProps<T>) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return rows.map((row) => {
    const key = rowKey(row);
    const children = tree?.children(row) ?? [];
    const expanded = open.has(key);
    return (
      <Fragment key={key}>
        <tr>
          {columns.map((column, i) => (
            <td key={column.key} style={{ textAlign: column.numeric ? 'right' : undefined }}>
              {tree && i === 0 ? (
                <span className="insights-admin-tree-cell" style={{ paddingLeft: depth * 20 }}>
                  {children.length > 0 ? (
                    <Button
                      size="small"
                      variant="minimal"
                      icon={expanded ? 'chevron-down' : 'chevron-right'}
                      aria-label={`${expanded ? 'Collapse' : 'Expand'} ${tree.name(row)}`}
                      aria-expanded={expanded}
                      onClick={() => toggle(key)}
                    />
                  ) : (
                    <span className="insights-admin-tree-spacer" />
                  )}
                  {column.render(row)}
                </span>
              ) : details && i === 0 ? (
                <span className="insights-admin-tree-cell">
                  <Button
                    size="small"
                    variant="minimal"
                    icon={expanded ? 'chevron-down' : 'chevron-right'}
                    aria-label={`${expanded ? 'Hide' : 'Show'} details of ${details.name(row)}`}
                    aria-expanded={expanded}
                    aria-controls={expanded ? `details-${key}` : undefined}
                    onClick={() => toggle(key)}
                  />
                  {column.render(row)}
                </span>
              ) : (
                column.render(row)
              )}
            </td>
          ))}
        </tr>
        {tree && expanded && <Rows rows={children} columns={columns} rowKey={rowKey} tree={tree} depth={depth + 1} />}
        {details && expanded && (
          <tr id={`details-${key}`} className="insights-admin-details">
            <td colSpan={columns.length}>{details.render(row)}</td>
          </tr>
        )}
      </Fragment>
    );
  });
}

/** The search box: reports its text after the debounce delay (spec 1 §9: 500 ms). */
function SearchBox({ placeholder, value, onSearch }: { placeholder: string; value: string; onSearch: (text: string) => void }) {
  const { searchDebounceMs } = useAdminSettings();
  const [text, setText] = useState(value);
  const report = useRef(onSearch);
  useEffect(() => {
    report.current = onSearch;
  });
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => report.current(text), searchDebounceMs);
    return () => clearTimeout(timer);
  }, [text, value, searchDebounceMs]);
  return (
    <InputGroup
      type="search"
      leftIcon="search"
      placeholder={placeholder}
      aria-label={placeholder}
      value={text}
      onValueChange={(v) => setText(v)}
      className="insights-admin-search"
    />
  );
}
