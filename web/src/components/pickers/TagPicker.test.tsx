import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../blueprint';
import { SPEC_ADMIN_SETTINGS } from '../admin';
import { TagPickerSearchDocument, type TagPickerSearchQueryVariables } from './__generated__/TagPicker.generated';
import { TagPicker, tagPageSize, type TagChoice } from './TagPicker';

const tag = (n: number, name: string): TagChoice => ({ _id: `65b00000000000000000000${n}`, name });
const OIL = tag(1, 'Oil');
const OIL_SANDS = tag(2, 'Oil sands');
const OPEC = tag(3, 'OPEC');
const COPPER = tag(4, 'Copper');
const TAGS = [COPPER, OIL, OIL_SANDS, OPEC];

type Params = NonNullable<TagPickerSearchQueryVariables['params']>;

/** A fake `tags(params)`: name matches, sorted by name, one page; records each call. */
function tagsMock(calls: Params[]): MockLink.MockedResponse {
  return {
    request: { query: TagPickerSearchDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = (variables.params ?? {}) as Params;
      calls.push(params);
      const q = params.searchQuery?.toLowerCase() ?? '';
      const rows = TAGS.filter((t) => t.name.toLowerCase().includes(q));
      return {
        data: {
          tags: {
            __typename: 'TagPage',
            total: rows.length,
            items: rows.slice(0, params.pageSize ?? 15).map((t) => ({ __typename: 'Tag', ...t })),
          },
        },
      };
    },
  };
}

function Harness({
  initial = [],
  onChange,
  disabled,
}: {
  initial?: TagChoice[];
  onChange?: (tags: TagChoice[]) => void;
  disabled?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <label htmlFor="tags">Tags</label>
      <TagPicker
        id="tags"
        value={value}
        disabled={disabled}
        onChange={(tags) => {
          onChange?.(tags);
          setValue(tags);
        }}
      />
    </form>
  );
}

function renderPicker(props: Parameters<typeof Harness>[0] = {}, calls: Params[] = []) {
  return render(
    <UiProvider>
      <MockedProvider mocks={[tagsMock(calls)]}>
        <Harness {...props} />
      </MockedProvider>
    </UiProvider>,
  );
}

const box = () => screen.getByRole('combobox', { name: 'Tags' });
const matches = () =>
  within(screen.getByRole('listbox', { name: 'Matching tags' }))
    .queryAllByRole('option')
    .map((o) => o.textContent);
const chips = () =>
  within(screen.getByRole('list', { name: 'Chosen tags' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('tagPageSize', () => {
  it('asks for a page big enough to leave 15 matches besides the chosen tags', () => {
    expect(tagPageSize(SPEC_ADMIN_SETTINGS.pageSizes, 0)).toBe(15);
    expect(tagPageSize(SPEC_ADMIN_SETTINGS.pageSizes, 1)).toBe(30);
    expect(tagPageSize(SPEC_ADMIN_SETTINGS.pageSizes, 90)).toBe(200);
    expect(tagPageSize(SPEC_ADMIN_SETTINGS.pageSizes, 500)).toBe(200);
  });
});

describe('TagPicker', () => {
  it('searches once typing pauses (500 ms) and adds a tag with the arrows and Enter, without submitting', async () => {
    const u = userEvent.setup();
    const calls: Params[] = [];
    const onChange = vi.fn();
    const { container } = renderPicker({ onChange }, calls);
    const submit = vi.fn();
    container.querySelector('form')!.addEventListener('submit', submit);

    const typed = Date.now();
    await u.type(box(), 'oil');
    await waitFor(() => expect(matches()).toEqual(['Oil', 'Oil sands']));
    // One search for the whole word, after the pause, not one per keystroke.
    expect(calls.filter((c) => c.searchQuery)).toEqual([{ searchQuery: 'oil', pageSize: 15 }]);
    expect(Date.now() - typed).toBeGreaterThanOrEqual(500);

    await u.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([OIL_SANDS]);
    expect(submit).not.toHaveBeenCalled();
    expect(box()).toHaveValue('');
    expect(chips()).toEqual(['Oil sands']);

    // A chosen tag is not offered again.
    await u.type(box(), 'o');
    await waitFor(() => expect(matches()).toEqual(['Copper', 'Oil', 'OPEC']));
    await u.keyboard('{ArrowUp}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([OIL_SANDS, OPEC]);
    expect(chips()).toEqual(['Oil sands', 'OPEC']);
  });

  it('opens the first tags with the arrow key and adds one with a click', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ initial: [COPPER], onChange });
    await u.click(box());
    await u.keyboard('{Escape}{ArrowDown}');
    await waitFor(() => expect(matches()).toEqual(['Oil', 'Oil sands', 'OPEC']));
    await u.click(screen.getByRole('option', { name: 'OPEC' }));
    expect(onChange).toHaveBeenLastCalledWith([COPPER, OPEC]);
  });

  it('says so when no tag matches', async () => {
    const u = userEvent.setup();
    renderPicker();
    await u.type(box(), 'zinc');
    expect(await screen.findByText('No matching tags')).toBeInTheDocument();
  });

  it('removes a chosen tag with its button', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ initial: [OIL, OPEC], onChange });
    await u.click(screen.getByRole('button', { name: 'Remove Oil' }));
    expect(onChange).toHaveBeenLastCalledWith([OPEC]);
    expect(chips()).toEqual(['OPEC']);
  });

  it('shows the tags but changes nothing when disabled', () => {
    renderPicker({ initial: [OIL], disabled: true });
    expect(chips()).toEqual(['Oil']);
    expect(box()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Remove Oil' })).not.toBeInTheDocument();
  });
});
