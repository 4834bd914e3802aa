import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { StaffUsersDocument, type StaffUsersQueryVariables } from '../../components/admin/__generated__/UserPicker.generated';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { AddDeskDocument, DeleteDeskDocument, DeskByIdDocument, DeskMembershipDocument } from './__generated__/DeskForm.generated';
import { DeskListDocument } from './__generated__/DeskList.generated';
import { validateDesk, type DeskValues } from './DeskForm';

const ENERGY = '66d000000000000000000001';
const METALS = '66d000000000000000000002';

const summary = (_id: string, name: string) => ({
  __typename: 'UserSummary',
  _id,
  name,
  email: `${name.split(' ')[0].toLowerCase()}@insights.example`,
});
const CHRIS = summary('u-chris', 'Chris Contributor');
const ERIN = summary('u-erin', 'Erin Editor');
const OLGA = summary('u-olga', 'Olga Oil');
const STAFF = [CHRIS, ERIN, OLGA];

function deskRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Desk',
    _id: ENERGY,
    name: 'Energy Desk',
    description: 'Oil, gas and power',
    email: 'energy@insights.example',
    version: 3,
    canEdit: true,
    contributors: [CHRIS],
    channels: [],
    ...overrides,
  };
}

/** Olga is on the Metals desk already. */
const membership: MockLink.MockedResponse = {
  request: { query: DeskMembershipDocument },
  result: {
    data: {
      desks: [
        { __typename: 'Desk', _id: ENERGY, contributors: [{ __typename: 'UserSummary', _id: CHRIS._id }] },
        { __typename: 'Desk', _id: METALS, contributors: [{ __typename: 'UserSummary', _id: OLGA._id }] },
      ],
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const staff: MockLink.MockedResponse = {
  request: { query: StaffUsersDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: (variables: Record<string, unknown>) => {
    const q = (variables as StaffUsersQueryVariables).searchQuery?.toLowerCase() ?? '';
    return { data: { staffUsers: STAFF.filter((u) => u.name.toLowerCase().includes(q)) } };
  },
};

/** A row of the list the form returns to. */
const listRow = (_id: string, name: string, memberId: string) => ({
  __typename: 'Desk',
  _id,
  name,
  email: null,
  articleCount: 0,
  views: 0,
  canEdit: true,
  contributors: [{ __typename: 'UserSummary', _id: memberId }],
});

/** The same desks as `membership`. */
const deskList: MockLink.MockedResponse = {
  request: { query: DeskListDocument },
  result: { data: { desks: [listRow(ENERGY, 'Energy Desk', CHRIS._id), listRow(METALS, 'Metals Desk', OLGA._id)] } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const byId = (record: ReturnType<typeof deskRecord>): MockLink.MockedResponse => ({
  request: { query: DeskByIdDocument, variables: { id: record._id } },
  result: { data: { findDeskById: record } },
});

const editor = testUser('Editor');
const form = () => within(screen.getByRole('form'));
const picker = () => screen.getByRole('combobox', { name: 'Contributors' });
const suggestions = () =>
  within(screen.getByRole('listbox', { name: 'Suggested users' }))
    .queryAllByRole('option')
    .map((o) => o.firstElementChild?.firstElementChild?.textContent);

beforeAll(async () => {
  await import('./DeskForm');
  await import('./DeskList');
});

describe('validateDesk', () => {
  const valid: DeskValues = { name: 'Energy', contributors: [CHRIS], email: '', description: '' };

  it('accepts a named desk with a contributor and no email', () => {
    expect(validateDesk(valid)).toEqual({});
  });

  it('requires a name of at most 50 characters and a contributor', () => {
    expect(validateDesk({ ...valid, name: '  ', contributors: [] })).toEqual({
      name: 'This field is required',
      contributors: 'This field should be chosen',
    });
    expect(validateDesk({ ...valid, name: 'x'.repeat(50) })).toEqual({});
    expect(validateDesk({ ...valid, name: 'x'.repeat(51) })).toEqual({ name: 'Maximum 50 characters' });
  });

  it('wants a valid contact email of at most 50 characters', () => {
    expect(validateDesk({ ...valid, email: 'desk@insights' })).toEqual({ email: 'Email should be valid' });
    expect(validateDesk({ ...valid, email: 'desk at insights.example' })).toEqual({ email: 'Email should be valid' });
    expect(validateDesk({ ...valid, email: `${'d'.repeat(33)}@insights.example` })).toEqual({});
    expect(validateDesk({ ...valid, email: `${'d'.repeat(34)}@insights.example` })).toEqual({ email: 'Maximum 50 characters' });
  });
});

describe('DeskForm', () => {
  it('shows the rules once fields are touched, stops typing at 50 and sends nothing while invalid', async () => {
    const user = userEvent.setup();
    const add = vi.fn(() => ({ data: { addDesk: deskRecord() } }));
    renderApp({
      path: '/publisher/desks/add',
      user: editor,
      mocks: [membership, staff, { request: { query: AddDeskDocument, variables: () => true }, result: add }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add desk' })).toBeInTheDocument();

    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('This field is required');
    await user.type(screen.getByLabelText('Name'), 'x'.repeat(55));
    expect(screen.getByLabelText('Name')).toHaveValue('x'.repeat(50));

    await user.type(screen.getByLabelText('Contact email'), 'not-an-email');
    await user.tab();
    expect(screen.getByLabelText('Contact email')).toHaveAccessibleDescription('Email should be valid');
    await user.clear(screen.getByLabelText('Contact email'));
    await user.type(screen.getByLabelText('Contact email'), 'e'.repeat(60));
    expect(screen.getByLabelText('Contact email')).toHaveValue('e'.repeat(50));

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(picker()).toHaveAccessibleDescription('This field should be chosen');
    expect(add).not.toHaveBeenCalled();
  }, 15_000);

  it("adds a desk with its contributors and says 'The desk Power Desk has been added.'", async () => {
    const user = userEvent.setup();
    const item = {
      name: 'Power Desk',
      contributors: [ERIN._id, CHRIS._id],
      email: 'power@insights.example',
      description: null,
    };
    const add = vi.fn(() => ({ data: { addDesk: deskRecord({ _id: '66d000000000000000000009', name: 'Power Desk' }) } }));
    renderApp({
      path: '/publisher/desks/add',
      user: editor,
      mocks: [membership, staff, deskList, { request: { query: AddDeskDocument, variables: { item } }, result: add }],
    });
    await user.type(await screen.findByLabelText('Name'), 'Power Desk');
    await user.type(picker(), 'erin');
    await waitFor(() => expect(suggestions()).toEqual(['Erin Editor']));
    await user.keyboard('{Enter}');
    // Chris is on the Energy desk: only 'Show all users' offers him.
    await user.click(screen.getByRole('checkbox', { name: 'Show all users' }));
    await user.type(picker(), 'chris');
    await waitFor(() => expect(suggestions()).toEqual(['Chris Contributor']));
    await user.keyboard('{Enter}');
    await user.type(screen.getByLabelText('Contact email'), 'power@insights.example');
    await user.click(form().getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('The desk Power Desk has been added.')).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Desks' })).toBeInTheDocument();
  }, 15_000);

  it("suggests staff on other desks only with 'Show all users'", async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/desks/add', user: editor, mocks: [membership, staff] });
    const showAll = await screen.findByRole('checkbox', { name: 'Show all users' });
    expect(showAll).not.toBeChecked();

    await user.click(picker());
    await user.keyboard('{ArrowDown}');
    // Chris is on the Energy desk and Olga on the Metals desk.
    await waitFor(() => expect(suggestions()).toEqual(['Erin Editor']));
    await user.click(showAll);
    await user.click(picker());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(suggestions()).toEqual(['Chris Contributor', 'Erin Editor', 'Olga Oil']));
  });

  it('edits a desk: its own members do not count as on another desk, and an unchanged edit goes back', async () => {
    const user = userEvent.setup();
    renderApp({ path: `/publisher/desks/edit/${ENERGY}`, user: editor, mocks: [byId(deskRecord()), membership, staff, deskList] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit desk' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Energy Desk');
    expect(screen.getByLabelText('Contact email')).toHaveValue('energy@insights.example');
    expect(screen.getByLabelText('Description')).toHaveValue('Oil, gas and power');
    expect(screen.getByText('Chris Contributor')).toBeInTheDocument();

    await user.click(picker());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(suggestions()).toEqual(['Erin Editor']));
    await user.keyboard('{Escape}');

    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Desks' })).toBeInTheDocument();
  });

  it("asks before deleting, names the desk's channels and shows the server's refusal", async () => {
    const user = userEvent.setup();
    const record = deskRecord({ channels: [{ __typename: 'ChannelOwner', _id: '66e000000000000000000001', name: 'Oil Daily' }] });
    const message = 'You cannot delete this desk because it owns channels.';
    renderApp({
      path: `/publisher/desks/edit/${ENERGY}`,
      user: editor,
      mocks: [
        byId(record),
        membership,
        staff,
        {
          request: { query: DeleteDeskDocument, variables: { id: ENERGY } },
          result: { errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] },
        },
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit desk' });
    await user.click(form().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete desk' });
    expect(dialog).toHaveTextContent('Delete the desk Energy Desk?');
    expect(dialog).toHaveTextContent('It owns the channel Oil Daily: a desk that owns channels cannot be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await form().findByRole('alert')).toHaveTextContent(`BAD_USER_INPUT::${message}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Edit desk' })).toBeInTheDocument();
  });

  it('says the desk is read only for staff who may not edit it', async () => {
    renderApp({ path: `/publisher/desks/edit/${ENERGY}`, user: editor, mocks: [byId(deskRecord({ canEdit: false })), membership] });
    expect(await screen.findByText('Only an administrator or a member of this desk can change it.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(picker()).toBeDisabled();
    expect(form().queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
