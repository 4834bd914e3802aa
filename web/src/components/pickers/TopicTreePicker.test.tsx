import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../blueprint';
import { ConfigProvider } from '../../lib/config';
import { testConfig } from '../../testing/fixtures';
import { TopicTreePickerDocument } from './__generated__/TopicTreePicker.generated';
import { ancestorsOf, filterTopics, TopicTreePicker, toPickerTopics, type PickerTopic } from './TopicTreePicker';

const ID = {
  energy: '65a000000000000000000001',
  oil: '65a000000000000000000002',
  crude: '65a000000000000000000003',
  brent: '65a000000000000000000004',
  gas: '65a000000000000000000005',
  metals: '65a000000000000000000006',
};

interface Spec {
  _id: string;
  name: string;
  children?: Spec[];
}

/** Energy > (Oil > Crude > Brent, Gas), and Metals. */
const TREE: Spec[] = [
  {
    _id: ID.energy,
    name: 'Energy',
    children: [
      { _id: ID.oil, name: 'Oil', children: [{ _id: ID.crude, name: 'Crude', children: [{ _id: ID.brent, name: 'Brent' }] }] },
      { _id: ID.gas, name: 'Gas' },
    ],
  },
  { _id: ID.metals, name: 'Metals' },
];

/** A categoriesAsTree node, with `children` selected down to the fourth level like the query. */
function answerNode(spec: Spec, level: number): Record<string, unknown> {
  const node: Record<string, unknown> = { __typename: 'Category', _id: spec._id, name: spec.name };
  if (level < 5) node.children = (spec.children ?? []).map((c) => answerNode(c, level + 1));
  return node;
}

const treeMock = (roots: Spec[] = TREE): MockLink.MockedResponse => ({
  request: { query: TopicTreePickerDocument },
  result: { data: { categoriesAsTree: roots.map((r) => answerNode(r, 1)) } },
  maxUsageCount: Number.POSITIVE_INFINITY,
});

function Harness({ initial = [], onChange, disabled }: { initial?: string[]; onChange?: (ids: string[]) => void; disabled?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <TopicTreePicker
        value={value}
        disabled={disabled}
        onChange={(ids) => {
          onChange?.(ids);
          setValue(ids);
        }}
      />
    </form>
  );
}

function renderPicker(props: Parameters<typeof Harness>[0] = {}, { premiumChannels = true, mocks = [treeMock()] } = {}) {
  const config = testConfig();
  return render(
    <UiProvider>
      <ConfigProvider config={{ ...config, features: { ...config.features, premiumChannels } }}>
        <MockedProvider mocks={mocks}>
          <Harness {...props} />
        </MockedProvider>
      </ConfigProvider>
    </UiProvider>,
  );
}

/** A topic of the tree by its name (a closed one is named with the count chosen inside it). */
const item = (name: string) => screen.getByRole('treeitem', { name: new RegExp(`^${name}( \\d+ chosen inside)?$`) });
/** The names of the topics on screen, top to bottom (each item's own label, not its sub-topics'). */
const shown = () => screen.queryAllByRole('treeitem').map((i) => i.querySelector('span[id]')?.textContent);

describe('TopicTreePicker helpers', () => {
  const topics: PickerTopic[] = toPickerTopics(TREE);

  it('opens the branches above the chosen topics', () => {
    expect(ancestorsOf(topics, new Set([ID.brent]))).toEqual(new Set([ID.energy, ID.oil, ID.crude]));
    expect(ancestorsOf(topics, new Set([ID.metals]))).toEqual(new Set());
  });

  it('keeps matches under their parents and opens the way to them', () => {
    const { nodes, toOpen } = filterTopics(topics, 'CRU');
    expect(nodes).toEqual([
      { _id: ID.energy, name: 'Energy', children: [{ _id: ID.oil, name: 'Oil', children: [topics[0].children[0].children[0]] }] },
    ]);
    expect(toOpen).toEqual(new Set([ID.energy, ID.oil]));
    expect(filterTopics(topics, '  ').nodes).toEqual(topics);
    expect(filterTopics(topics, 'zinc').nodes).toEqual([]);
  });
});

describe('TopicTreePicker', () => {
  it('shows the roots, opens nested topics and checks them', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ onChange });
    const tree = await screen.findByRole('tree', { name: 'Topics' });
    expect(shown()).toEqual(['Energy', 'Metals']);
    expect(item('Energy')).toHaveAttribute('aria-expanded', 'false');
    expect(item('Metals')).not.toHaveAttribute('aria-expanded');

    // Opening a branch with the mouse on its arrow, then a deeper one.
    await u.click(item('Energy').querySelector('.insights-topic-toggle')!);
    expect(shown()).toEqual(['Energy', 'Oil', 'Gas', 'Metals']);
    await u.click(item('Oil').querySelector('.insights-topic-toggle')!);
    await u.click(item('Crude').querySelector('.insights-topic-toggle')!);
    expect(shown()).toEqual(['Energy', 'Oil', 'Crude', 'Brent', 'Gas', 'Metals']);
    expect(item('Brent')).toHaveAttribute('aria-level', '4');

    await u.click(within(tree).getByText('Brent'));
    expect(onChange).toHaveBeenLastCalledWith([ID.brent]);
    expect(item('Brent')).toHaveAttribute('aria-checked', 'true');
    await u.click(within(tree).getByText('Energy'));
    expect(onChange).toHaveBeenLastCalledWith([ID.brent, ID.energy]);
    // A parent is chosen on its own: its sub-topics stay as they were.
    expect(item('Gas')).toHaveAttribute('aria-checked', 'false');
    await u.click(within(tree).getByText('Brent'));
    expect(onChange).toHaveBeenLastCalledWith([ID.energy]);
    expect(screen.getByText('1 chosen')).toBeInTheDocument();
  });

  it('works with the keyboard: one tab stop, arrows to move and open, Space and Enter to check', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ onChange });
    await screen.findByRole('tree');

    await u.tab(); // the filter box
    await u.tab();
    expect(item('Energy')).toHaveFocus();
    await u.keyboard('{ArrowRight}');
    expect(item('Energy')).toHaveAttribute('aria-expanded', 'true');
    await u.keyboard('{ArrowRight}');
    expect(item('Oil')).toHaveFocus();
    await u.keyboard('{ArrowDown}');
    expect(item('Gas')).toHaveFocus();
    await u.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith([ID.gas]);
    await u.keyboard('{ArrowDown}{Enter}');
    expect(item('Metals')).toHaveFocus();
    expect(onChange).toHaveBeenLastCalledWith([ID.gas, ID.metals]);
    await u.keyboard('{ArrowUp}{ArrowLeft}');
    expect(item('Energy')).toHaveFocus();
    await u.keyboard('{ArrowLeft}');
    expect(item('Energy')).toHaveAttribute('aria-expanded', 'false');
    expect(shown()).toEqual(['Energy', 'Metals']);
    // The closed branch says that a topic inside it is chosen.
    expect(within(item('Energy')).getByText('1 chosen inside')).toBeInTheDocument();
    expect(item('Energy')).toHaveAccessibleName('Energy 1 chosen inside');
    await u.keyboard('{End}');
    expect(item('Metals')).toHaveFocus();
    await u.keyboard('{Home}');
    expect(item('Energy')).toHaveFocus();
    // Leaving the tree and coming back lands on the last focused topic.
    await u.tab();
    await u.tab({ shift: true });
    expect(item('Energy')).toHaveFocus();
    expect(screen.getAllByRole('treeitem').filter((i) => i.tabIndex === 0)).toHaveLength(1);
  });

  it('starts with the branches of the chosen topics open', async () => {
    renderPicker({ initial: [ID.crude] });
    await screen.findByRole('tree');
    expect(shown()).toEqual(['Energy', 'Oil', 'Crude', 'Gas', 'Metals']);
    expect(item('Crude')).toHaveAttribute('aria-checked', 'true');
    expect(item('Crude')).toHaveAttribute('tabindex', '0');
  });

  it('filters by name, keeping the parents of the matches', async () => {
    const u = userEvent.setup();
    renderPicker();
    await screen.findByRole('tree');
    await u.type(screen.getByRole('searchbox', { name: 'Filter topics' }), 'bre');
    expect(shown()).toEqual(['Energy', 'Oil', 'Crude', 'Brent']);
    await u.keyboard('{ArrowDown}');
    expect(item('Energy')).toHaveFocus();
    await u.clear(screen.getByRole('searchbox', { name: 'Filter topics' }));
    await u.type(screen.getByRole('searchbox', { name: 'Filter topics' }), 'zinc');
    expect(screen.getByText("No topics match 'zinc'.")).toBeInTheDocument();
    await u.clear(screen.getByRole('searchbox', { name: 'Filter topics' }));
    // The branches opened for the matches stay open.
    expect(shown()).toEqual(['Energy', 'Oil', 'Crude', 'Brent', 'Gas', 'Metals']);
  });

  it("says 'categories' when premium channels are off, and changes nothing when disabled", async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ initial: [ID.metals], onChange, disabled: true }, { premiumChannels: false });
    const tree = await screen.findByRole('tree', { name: 'Categories' });
    expect(tree).toHaveAttribute('aria-disabled', 'true');
    await u.click(within(tree).getByText('Energy'));
    act(() => item('Metals').focus());
    await u.keyboard(' ');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the error with a retry', async () => {
    renderPicker({}, { mocks: [{ request: { query: TopicTreePickerDocument }, error: new TypeError('Failed to fetch') }] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot connect to server');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
