//! A small read-only table (a record's history): a caption for its accessible name, column
//! headers and the rows as given, or a line saying there are none. Lists with paging, search or
//! sorting use components/admin AdminList instead.
import { HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface DataColumn<T> {
  key: string;
  title: string;
  render: (row: T) => ReactNode;
}

export interface DataTableProps<T> {
  /** Accessible name of the table. */
  label: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  emptyText?: string;
}

export function DataTable<T>({ label, columns, rows, rowKey, emptyText = 'There are no items to show' }: DataTableProps<T>) {
  return (
    <HTMLTable aria-label={label} compact striped className="insights-data-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col">
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length}>{emptyText}</td>
          </tr>
        ) : (
          rows.map((row, i) => (
            <tr key={rowKey(row, i)}>
              {columns.map((column) => (
                <td key={column.key}>{column.render(row)}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </HTMLTable>
  );
}
