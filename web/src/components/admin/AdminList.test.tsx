import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminList, type AdminColumn } from './AdminList';
import { pageRows, sortRows, useListState, type ListState } from './listState';
import { AdminSettingsProvider, SPEC_ADMIN_SETTINGS } from './settings';

interface Item {
  id: string;
  name: string;
  count: number;
  children: Item[];
}

const items = (n: number): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: `i${i + 1}`, name: `Item ${String(i + 1).padStart(3, '0')}`, count: n - i, children: [] }));

const columns: AdminColumn<Item>[] = [
  { key: 'name', title: 'Name', sortable: true, render: (r) => r.name },
  { key: 'count', title: 'Count', sortable: true, numeric: true, render: (r) => r.count },
  { key: 'note', title: 'Note', render: () => '' },
];

const valueOf = (row: Item, key: string) => (key === 'count' ? row.count : row.name);

interface HarnessProps {
  rows?: Item[];
  tree?: boolean;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  onChange?: (state: ListState) => void;
  search?: boolean;
  filters?: boolean;
}

/** A client-side list, the way a screen wires one. */
function Harness({ rows = [], tree, loading, error, onRetry, onChange, search, filters }: HarnessProps) {
  const [state, change] = useListState({ tree, filter: filters ? 'All' : null });
  onChange?.(state);
  const sorted = sortRows(rows, state.sort, valueOf);
  return (
    <AdminList
      label="Things"
      columns={columns}
      rows={pageRows(sorted, state)}
      total={rows.length}
      rowKey={(r) => r.id}
      state={state}
      onStateChange={change}
      loading={loading}
      error={error}
      onRetry={onRetry}
      search={search ? { placeholder: 'Search things...' } : undefined}
      filters={
        filters
          ? [
              { value: 'All', label: 'All' },
              { value: 'Empty', label: 'Empty things' },
            ]
          : undefined
      }
      tree={tree ? { children: (r) => r.children, name: (r) => r.name } : undefined}
    />
  );
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Things' }))
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1);

afterEach(() => {
  vi.useRealTimers();
});

describe('AdminList', () => {
  it('offers the page sizes 15, 30, 50, 100, 200 and shows 15 rows by default', () => {
    render(<Harness rows={items(40)} />);
    const size = screen.getByRole('combobox', { name: 'Page size' });
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['15', '30', '50', '100', '200']);
    expect(size).toHaveValue('15');
    expect(bodyRows()).toHaveLength(15);
    expect(screen.getByText('Showing 1-15 of 40')).toBeInTheDocument();
  });

  it('starts tree lists at 100 rows a page', () => {
    render(<Harness rows={items(120)} tree />);
    expect(screen.getByRole('combobox', { name: 'Page size' })).toHaveValue('100');
    expect(screen.getByText('Showing 1-100 of 120')).toBeInTheDocument();
  });

  it('takes the page sizes from the settings provider', () => {
    render(
      <AdminSettingsProvider settings={{ ...SPEC_ADMIN_SETTINGS, pageSizes: [10, 20], defaultPageSize: 10 }}>
        <Harness rows={items(25)} />
      </AdminSettingsProvider>,
    );
    expect(screen.getByText('Showing 1-10 of 25')).toBeInTheDocument();
  });

  it('pages forwards and back, and a new page size goes back to page 1', async () => {
    const user = userEvent.setup();
    render(<Harness rows={items(40)} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('Showing 16-30 of 40')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('Showing 31-40 of 40')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '30');
    expect(screen.getByText('Showing 1-30 of 40')).toBeInTheDocument();
  });

  it("says 'There are no items to show' for an empty list, without a range line", () => {
    render(<Harness rows={[]} />);
    expect(screen.getByText('There are no items to show')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument();
  });

  it('sorts by a column header, ascending then descending, and leaves other columns unsortable', async () => {
    const user = userEvent.setup();
    let state: ListState | undefined;
    render(<Harness rows={items(3)} onChange={(s) => (state = s)} />);
    const count = screen.getByRole('columnheader', { name: 'Count' });
    expect(count).toHaveAttribute('aria-sort', 'none');

    await user.click(within(count).getByRole('button', { name: 'Count' }));
    expect(state?.sort).toEqual({ key: 'count', direction: 'asc' });
    expect(count).toHaveAttribute('aria-sort', 'ascending');
    expect(bodyRows()[0]).toHaveTextContent('Item 003');

    await user.click(within(count).getByRole('button', { name: 'Count' }));
    expect(state?.sort).toEqual({ key: 'count', direction: 'desc' });
    expect(count).toHaveAttribute('aria-sort', 'descending');
    expect(bodyRows()[0]).toHaveTextContent('Item 001');

    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).not.toBeInTheDocument();
  });

  it('reports the search text 500 ms after the last keystroke, once', () => {
    vi.useFakeTimers();
    const searches: string[] = [];
    render(<Harness rows={items(3)} search onChange={(s) => searches.push(s.search)} />);
    const box = screen.getByRole('searchbox', { name: 'Search things...' });

    // Keystrokes 300 ms apart: each one restarts the wait.
    for (const text of ['o', 'oi', 'oil']) {
      fireEvent.change(box, { target: { value: text } });
      act(() => vi.advanceTimersByTime(300));
    }
    expect(searches.at(-1)).toBe('');
    act(() => vi.advanceTimersByTime(199));
    expect(searches.at(-1)).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(searches.at(-1)).toBe('oil');
    expect(new Set(searches)).toEqual(new Set(['', 'oil']));
  });

  it('switches filter chips, marking the chosen one and going back to page 1', async () => {
    const user = userEvent.setup();
    let state: ListState | undefined;
    render(<Harness rows={items(40)} filters onChange={(s) => (state = s)} />);
    const chips = screen.getByRole('group', { name: 'Filter' });
    expect(within(chips).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(state?.page).toBe(2);
    await user.click(within(chips).getByRole('button', { name: 'Empty things' }));
    expect(state).toMatchObject({ filter: 'Empty', page: 1 });
    expect(within(chips).getByRole('button', { name: 'Empty things' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(chips).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows a loading state instead of the empty text while the first page loads', () => {
    render(<Harness rows={[]} loading />);
    expect(screen.getByRole('status')).toContainElement(screen.getByLabelText('Loading'));
    expect(screen.queryByText('There are no items to show')).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Things' })).toHaveAttribute('aria-busy', 'true');
  });

  it("shows the server's error with a retry button", async () => {
    const onRetry = vi.fn();
    const error = new CombinedGraphQLErrors({ data: null, errors: [{ message: 'Not allowed', extensions: { code: 'FORBIDDEN' } }] });
    render(<Harness rows={[]} error={error} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('FORBIDDEN::Not allowed');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('opens and closes tree rows', async () => {
    const user = userEvent.setup();
    const leaf: Item = { id: 'c', name: 'Crude', count: 1, children: [] };
    const rows: Item[] = [{ id: 'e', name: 'Energy', count: 3, children: [{ id: 'o', name: 'Oil', count: 2, children: [leaf] }] }];
    render(<Harness rows={rows} tree />);
    expect(bodyRows()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Expand Energy' }));
    expect(screen.getByRole('button', { name: 'Collapse Energy' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Expand Oil' }));
    expect(bodyRows().map((r) => r.cells[0].textContent)).toEqual(['Energy', 'Oil', 'Crude']);
    expect(screen.queryByRole('button', { name: /Crude/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Collapse Energy' }));
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByText('Showing 1-1 of 1')).toBeInTheDocument();
  });
});
