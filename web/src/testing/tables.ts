//! Reading a rendered table back in tests.
import { within } from '@testing-library/react';

/** The cells' text of a table's rows, header first. */
export function tableCells(table: HTMLElement): (string | null)[][] {
  return within(table)
    .getAllByRole('row')
    .map((r) => Array.from((r as HTMLTableRowElement).cells).map((c) => c.textContent));
}
