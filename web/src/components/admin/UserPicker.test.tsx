import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../blueprint';
import { StaffUsersDocument, type StaffUsersQueryVariables } from './__generated__/UserPicker.generated';
import { UserPicker, type UserSummary } from './UserPicker';

const user = (_id: string, name: string): UserSummary => ({ _id, name, email: `${name.split(' ')[0].toLowerCase()}@insights.example` });

const ALEX = user('u1', 'Alex Admin');
const CHRIS = user('u2', 'Chris Contributor');
const CHRISTA = user('u3', 'Christa Writer');
const ERIN = user('u4', 'Erin Editor');
const LONG_EMAIL = 'maximilian.lengthy-surname@research.insights.example';
const MAX = { _id: 'u5', name: 'Max Lengthy', email: LONG_EMAIL };
const STAFF = [ALEX, CHRIS, CHRISTA, ERIN, MAX];

/** A fake `staffUsers`: name or email matches, at most `limit`; records each call. */
function staffMock(calls: StaffUsersQueryVariables[]): MockLink.MockedResponse {
  return {
    request: { query: StaffUsersDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const vars = variables as StaffUsersQueryVariables;
      calls.push(vars);
      const q = vars.searchQuery?.toLowerCase() ?? '';
      const rows = STAFF.filter((u) => `${u.name} ${u.email}`.toLowerCase().includes(q)).slice(0, vars.limit);
      return { data: { staffUsers: rows.map((u) => ({ __typename: 'UserSummary', ...u })) } };
    },
  };
}

interface HarnessProps {
  initial?: UserSummary[];
  fixedIds?: string[];
  excludeIds?: string[];
  onChange?: (users: UserSummary[]) => void;
  onSubmit?: () => void;
  calls?: StaffUsersQueryVariables[];
}

/** The picker in a form, holding its selection the way a screen does. */
function Harness({ initial = [], fixedIds, excludeIds, onChange, onSubmit }: Omit<HarnessProps, 'calls'>) {
  const [selected, setSelected] = useState(initial);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <label htmlFor="people">People</label>
      <UserPicker
        id="people"
        selected={selected}
        fixedIds={fixedIds}
        excludeIds={excludeIds}
        placeholder="Search staff..."
        onChange={(users) => {
          onChange?.(users);
          setSelected(users);
        }}
      />
    </form>
  );
}

function renderPicker({ calls = [], ...props }: HarnessProps = {}) {
  return render(
    <UiProvider>
      <MockedProvider mocks={[staffMock(calls)]}>
        <Harness {...props} />
      </MockedProvider>
    </UiProvider>,
  );
}

const box = () => screen.getByRole('combobox', { name: 'People' });
const options = () => within(screen.getByRole('listbox', { name: 'Suggested users' })).queryAllByRole('option');
const optionNames = () => options().map((o) => o.firstElementChild?.firstElementChild?.textContent);

describe('UserPicker', () => {
  it('searches after the debounce, moves with the arrows and picks with Enter without submitting the form', async () => {
    const u = userEvent.setup();
    const calls: StaffUsersQueryVariables[] = [];
    const onChange = vi.fn();
    const onSubmit = vi.fn();
    renderPicker({ calls, onChange, onSubmit });
    expect(box()).toHaveAttribute('placeholder', 'Search staff...');
    expect(box()).toHaveAttribute('aria-expanded', 'false');

    await u.type(box(), 'chr');
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(optionNames()).toEqual(['Chris Contributor', 'Christa Writer']));
    // One search for the whole word, not one per keystroke.
    expect(calls.filter((c) => c.searchQuery)).toEqual([{ searchQuery: 'chr', limit: 20 }]);

    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[0].id);
    await u.keyboard('{ArrowDown}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[1].id);
    await u.keyboard('{Enter}');

    expect(onChange).toHaveBeenLastCalledWith([CHRISTA]);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(box()).toHaveValue('');
    expect(screen.getByText('Christa Writer')).toBeInTheDocument();
    // A chosen user is not offered again.
    await waitFor(() => expect(optionNames()).not.toContain('Christa Writer'));
  });

  it('opens with the arrow key, picks with a click and never offers chosen or excluded users', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ initial: [ALEX], excludeIds: [ERIN._id], onChange });

    await u.click(box());
    await u.keyboard('{Escape}');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    await u.keyboard('{ArrowDown}');
    await waitFor(() => expect(optionNames()).toEqual(['Chris Contributor', 'Christa Writer', 'Max Lengthy']));
    await u.click(screen.getByRole('option', { name: /Chris Contributor/ }));
    expect(onChange).toHaveBeenLastCalledWith([ALEX, CHRIS]);
    expect(box()).toHaveFocus();
  });

  it("shows at most 30 characters of a suggestion's email, the whole one in its tooltip and for screen readers", async () => {
    const u = userEvent.setup();
    renderPicker();
    await u.type(box(), 'max');
    const option = await screen.findByRole('option', { name: `Max Lengthy ${LONG_EMAIL}` });
    const description = within(option).getByTitle(LONG_EMAIL);
    expect(within(description).getByText('maximilian.lengthy-surname@res…')).toHaveAttribute('aria-hidden', 'true');

    // A short email shows whole.
    await u.clear(box());
    await u.type(box(), 'chris');
    expect(
      within(await screen.findByRole('option', { name: /^Chris Contributor/ })).getByTitle('chris@insights.example'),
    ).toHaveTextContent(/^chris@insights\.example$/);
  });

  it('says so when nobody matches', async () => {
    const u = userEvent.setup();
    renderPicker();
    await u.type(box(), 'zed');
    expect(await screen.findByText('No matching users')).toBeInTheDocument();
  });

  it('removes users with their button or Backspace, but never a fixed one', async () => {
    const u = userEvent.setup();
    const onChange = vi.fn();
    renderPicker({ initial: [ALEX, CHRIS, ERIN], fixedIds: [ALEX._id], onChange });

    expect(screen.queryByRole('button', { name: 'Remove Alex Admin' })).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Remove Chris Contributor' }));
    expect(onChange).toHaveBeenLastCalledWith([ALEX, ERIN]);

    // Backspace in the empty box marks the last tag, a second one removes it.
    await u.click(box());
    await u.keyboard('{Backspace}{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith([ALEX]);
    await u.keyboard('{Backspace}{Backspace}');
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Alex Admin')).toBeInTheDocument();
  });

  it('does nothing when disabled', async () => {
    const u = userEvent.setup();
    render(
      <UiProvider>
        <MockedProvider mocks={[]}>
          <div>
            <label htmlFor="people">People</label>
            <UserPicker id="people" selected={[CHRIS]} onChange={() => {}} disabled invalid />
          </div>
        </MockedProvider>
      </UiProvider>,
    );
    expect(box()).toBeDisabled();
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('button', { name: 'Remove Chris Contributor' })).not.toBeInTheDocument();
    await u.click(screen.getByText('Chris Contributor'));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
