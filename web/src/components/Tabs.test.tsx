import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable } from './DataTable';
import { Tabs } from './Tabs';

function Harness() {
  const [tab, setTab] = useState<'a' | 'b'>('a');
  return (
    <Tabs
      id="t"
      label="Review"
      selected={tab}
      onChange={setTab}
      tabs={[
        { id: 'a', title: 'First (2)', panel: <p>First panel</p> },
        { id: 'b', title: 'Second (0)', panel: <p>Second panel</p> },
      ]}
    />
  );
}

describe('Tabs', () => {
  it('shows the chosen tab and its panel only, and moves with the mouse and the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const region = screen.getByRole('region', { name: 'Review' });
    expect(within(region).getByRole('tab', { name: 'First (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('First panel');
    expect(screen.queryByText('Second panel')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Second (0)' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Second panel');
    expect(screen.queryByText('First panel')).not.toBeInTheDocument();

    screen.getByRole('tab', { name: 'Second (0)' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'First (2)' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('First panel');
  });
});

describe('DataTable', () => {
  it('shows the rows under their headers, or the empty text', () => {
    const columns = [
      { key: 'name', title: 'Name', render: (r: { name: string; n: number }) => r.name },
      { key: 'n', title: 'Count', render: (r: { name: string; n: number }) => String(r.n) },
    ];
    const { rerender } = render(<DataTable label="Things" columns={columns} rows={[{ name: 'A', n: 1 }]} rowKey={(r) => r.name} />);
    const table = screen.getByRole('table', { name: 'Things' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Count']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['A', '1']);
    rerender(<DataTable label="Things" columns={columns} rows={[]} rowKey={(r) => r.name} emptyText="Nothing yet" />);
    expect(within(screen.getByRole('table', { name: 'Things' })).getByRole('cell')).toHaveTextContent('Nothing yet');
  });
});
