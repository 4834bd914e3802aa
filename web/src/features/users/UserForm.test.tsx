import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { EditUserDocument, UserByIdDocument } from './__generated__/UserForm.generated';
import { UserListDocument } from './__generated__/UserList.generated';
import { validateUser } from './UserForm';

/** A company-directory id: the path carries it URL-encoded. */
const CHRIS_ID = 'internal|chris/1';

function userRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'User',
    _id: CHRIS_ID,
    version: 4,
    email: 'chris.contributor@insights.example',
    name: 'Chris Contributor',
    company: 'Insights Research',
    phone: '+44 20 7946 0000',
    role: 'Contributor',
    position: 'Oil analyst',
    lastLogin: new Date(2026, 2, 5, 14, 5).toISOString(),
    memberSince: new Date(2025, 0, 9, 8, 30).toISOString(),
    displayAvatar: false,
    tableauAccess: false,
    canHaveProfilePicture: true,
    hasProfilePicture: false,
    ...overrides,
  };
}

const byId = (record: ReturnType<typeof userRecord>): MockLink.MockedResponse => ({
  request: { query: UserByIdDocument, variables: { id: record._id } },
  result: { data: { findUserById: record } },
});

const userList: MockLink.MockedResponse = {
  request: { query: UserListDocument, variables: () => true },
  result: { data: { getPaginatedUsers: { __typename: 'UserPage', total: 0, users: [] } } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const PATH = `/publisher/users/edit/${encodeURIComponent(CHRIS_ID)}`;
const admin = testUser('Administrator');
const editor = testUser('Editor');
const form = () => within(screen.getByRole('form'));

beforeAll(async () => {
  await import('./UserForm');
  await import('./UserList');
  // jsdom has no object URLs.
  URL.createObjectURL ??= () => '';
  URL.revokeObjectURL ??= () => {};
});

describe('validateUser', () => {
  it('allows a Function of at most 50 characters', () => {
    const values = { position: 'x'.repeat(50), displayAvatar: false, tableauAccess: false, profilePicture: null };
    expect(validateUser(values)).toEqual({});
    expect(validateUser({ ...values, position: 'x'.repeat(51) })).toEqual({ position: 'Maximum 50 characters' });
  });
});

describe('UserForm', () => {
  it('loads the user by the decoded id and shows the read-only facts', async () => {
    renderApp({ path: PATH, user: editor, mocks: [byId(userRecord())] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit user' })).toBeInTheDocument();
    const facts = screen.getAllByRole('term').map((t) => [t.textContent, t.nextElementSibling?.textContent]);
    expect(facts).toEqual([
      ['Email', 'chris.contributor@insights.example'],
      ['Role', 'Contributor'],
      ['Last signed in', '05 Mar 2026 14:05'],
      ['Member since', '09 Jan 2025 08:30'],
      ['Name', 'Chris Contributor'],
      ['Company', 'Insights Research'],
      ['Phone', '+44 20 7946 0000'],
    ]);
    expect(screen.getByLabelText('Function')).toHaveValue('Oil analyst');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'href',
      '/publisher/users',
    );
  });

  it('offers the contributor photo only to users who can have one', async () => {
    const first = renderApp({ path: PATH, user: editor, mocks: [byId(userRecord())] });
    expect(await screen.findByRole('checkbox', { name: 'Show contributor photo' })).toBeInTheDocument();
    expect(screen.getByLabelText('Contributor photo')).toHaveAttribute('type', 'file');
    first.unmount();

    renderApp({ path: PATH, user: editor, mocks: [byId(userRecord({ canHaveProfilePicture: false }))] });
    await screen.findByLabelText('Function');
    expect(screen.queryByRole('checkbox', { name: 'Show contributor photo' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Contributor photo')).not.toBeInTheDocument();
  });

  it('lets only an administrator change the tableau-chart access', async () => {
    const first = renderApp({ path: PATH, user: editor, mocks: [byId(userRecord())] });
    expect(await screen.findByRole('checkbox', { name: 'Tableau chart access' })).toBeDisabled();
    expect(screen.getByText('Only an administrator can change this.')).toBeInTheDocument();
    first.unmount();

    renderApp({ path: PATH, user: admin, mocks: [byId(userRecord())] });
    expect(await screen.findByRole('checkbox', { name: 'Tableau chart access' })).toBeEnabled();
  });

  it("stops the Function at 50 characters and says 'The user Chris Contributor has been updated.'", async () => {
    const user = userEvent.setup();
    const item = {
      _id: CHRIS_ID,
      version: 4,
      position: 'f'.repeat(50),
      displayAvatar: true,
      tableauAccess: true,
      profilePicture: null,
    };
    const edit = vi.fn(() => ({ data: { editUser: userRecord({ ...item, version: 5 }) } }));
    renderApp({
      path: PATH,
      user: admin,
      mocks: [byId(userRecord()), userList, { request: { query: EditUserDocument, variables: { item } }, result: edit }],
    });
    const fn = await screen.findByLabelText('Function');
    await user.clear(fn);
    await user.type(fn, 'f'.repeat(55));
    expect(fn).toHaveValue('f'.repeat(50));
    await user.click(screen.getByRole('checkbox', { name: 'Show contributor photo' }));
    await user.click(screen.getByRole('checkbox', { name: 'Tableau chart access' }));
    await user.click(form().getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('The user Chris Contributor has been updated.')).toBeInTheDocument();
    expect(edit).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
  }, 15_000);

  it('goes back to the list without a call when nothing changed', async () => {
    const user = userEvent.setup();
    const edit = vi.fn(() => ({ data: { editUser: userRecord() } }));
    renderApp({
      path: PATH,
      user: editor,
      mocks: [byId(userRecord()), userList, { request: { query: EditUserDocument, variables: () => true }, result: edit }],
    });
    await user.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(edit).not.toHaveBeenCalled();
  });

  it('shows the current photo fetched with the bearer token, and sends a new upload as profilePicture', async () => {
    const user = userEvent.setup({ applyAccept: false });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:current-photo');
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/upload'
        ? new Response(JSON.stringify({ link: '/uploads/new.png', fileName: 'new.png', contentType: 'image/png', size: 3 }), {
            status: 201,
          })
        : new Response(new Blob(['jpg'], { type: 'image/jpeg' }), { status: 200 }),
    );
    const item = {
      _id: CHRIS_ID,
      version: 4,
      position: 'Oil analyst',
      displayAvatar: true,
      tableauAccess: false,
      profilePicture: '/uploads/new.png',
    };
    const edit = vi.fn(() => ({ data: { editUser: userRecord({ ...item, hasProfilePicture: true, version: 5 }) } }));
    renderApp({
      path: PATH,
      user: editor,
      mocks: [
        byId(userRecord({ displayAvatar: true, hasProfilePicture: true })),
        userList,
        { request: { query: EditUserDocument, variables: { item } }, result: edit },
      ],
    });

    expect(await screen.findByRole('img', { name: 'Current photo of Chris Contributor' })).toHaveAttribute('src', 'blob:current-photo');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/contributor-profile-picture/internal%7Cchris%2F1');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');

    const photo = screen.getByLabelText('Contributor photo');
    await user.upload(photo, new File(['gif'], 'photo.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Choose a png, jpg or jpeg image')).toBeInTheDocument();
    await user.upload(photo, new File(['png'], 'photo.png', { type: 'image/png' }));
    // Not linked from anything yet, so fetched with the token too.
    await waitFor(() => expect(screen.getByRole('img', { name: 'Contributor photo preview' })).toHaveAttribute('src', 'blob:current-photo'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/uploads/new.png');
    expect(screen.queryByRole('img', { name: 'Current photo of Chris Contributor' })).not.toBeInTheDocument();

    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('The user Chris Contributor has been updated.')).toBeInTheDocument();
    await waitFor(() => expect(edit).toHaveBeenCalledTimes(1));
  });

  it('lets a contributor look at, but not change, another user', async () => {
    renderApp({ path: PATH, user: testUser('Contributor'), mocks: [byId(userRecord())] });
    expect(await screen.findByText('A contributor can change only their own profile.')).toBeInTheDocument();
    expect(screen.getByLabelText('Function')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Show contributor photo' })).toBeDisabled();
  });
});
