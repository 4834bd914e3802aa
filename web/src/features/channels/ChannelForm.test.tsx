import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  AddChannelDocument,
  ArchiveChannelDocument,
  ChannelByIdDocument,
  EditChannelDocument,
  type ChannelInput,
} from './__generated__/ChannelForm.generated';
import { ChannelListDocument } from './__generated__/ChannelList.generated';
import { ChannelOwnerCandidatesDocument, type ChannelOwnerCandidatesQueryVariables } from './__generated__/OwnerField.generated';
import { CHANNEL_IDS, channelRecord } from './testData';
import { stubObjectUrls } from '../../testing/objectUrls';

const ADD = '/publisher/premium-channels/add';
const EDIT = `/publisher/premium-channels/edit/${CHANNEL_IDS.oil}`;
const administrator = testUser('Administrator');
const editor = testUser('Editor');

const OWNERS = [
  { __typename: 'OwnerCandidate', _id: CHANNEL_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
  { __typename: 'OwnerCandidate', _id: CHANNEL_IDS.gasDesk, name: 'Gas desk', type: 'desk' },
  { __typename: 'OwnerCandidate', _id: CHANNEL_IDS.chris, name: 'Chris Contributor', type: 'contributor' },
];

/** A fake `channelOwnerCandidates`: the owners of the type whose name matches; records each search. */
function ownersMock(calls: ChannelOwnerCandidatesQueryVariables[] = []): MockLink.MockedResponse {
  return {
    request: { query: ChannelOwnerCandidatesDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const v = variables as ChannelOwnerCandidatesQueryVariables;
      calls.push(v);
      const q = v.searchQuery?.toLowerCase() ?? '';
      return { data: { channelOwnerCandidates: OWNERS.filter((o) => o.type === v.ownerType && o.name.toLowerCase().includes(q)) } };
    },
  };
}

/** The list the form returns to. */
const listMock: MockLink.MockedResponse = {
  request: { query: ChannelListDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { channels: { __typename: 'ChannelPage', total: 0, items: [] } } },
};

const byId = (record: ReturnType<typeof channelRecord>): MockLink.MockedResponse => ({
  request: { query: ChannelByIdDocument, variables: { id: record._id } },
  result: { data: { channel: record } },
});

const form = () => within(screen.getByRole('form'));
const field = (label: string) => screen.getByLabelText(label, { selector: 'input, textarea' });

// The route loads these lazily; loading them first keeps the first test within findBy's wait.
beforeAll(async () => {
  await import('./ChannelForm');
  await import('./ChannelList');
});

describe('ChannelForm', () => {
  it('shows the required messages once the user tries to add', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add channel' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Channels' })).toHaveAttribute(
      'href',
      '/publisher/premium-channels',
    );
    expect(field('Name')).not.toHaveAccessibleDescription();

    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(field('Name')).toHaveAccessibleDescription('This field is required');
    expect(field('GL account')).toHaveAccessibleDescription('This field is required');
    expect(field('Price (USD per month)')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveAccessibleDescription('This field should be chosen');
    expect(screen.getByRole('heading', { level: 1, name: 'Add channel' })).toBeInTheDocument();
  });

  it("says 'Invalid price format' for anything but digits with at most 2 decimals", async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const price = await screen.findByLabelText('Price (USD per month)');
    for (const bad of ['12.345', '-5', '+5', 'abc', '4,9']) {
      await user.clear(price);
      await user.type(price, bad);
      await user.tab();
      expect(price).toHaveAccessibleDescription('Invalid price format');
    }
    await user.clear(price);
    await user.type(price, '49.99');
    expect(price).not.toHaveAccessibleDescription();
  });

  it("lets the GL account go past 32 characters with 'Maximum 32 chars'", async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const gl = await screen.findByLabelText('GL account');
    await user.click(gl);
    await user.paste('G'.repeat(33));
    await user.tab();
    expect(gl).toHaveValue('G'.repeat(33));
    expect(gl).toHaveAccessibleDescription('Maximum 32 chars');
    await user.type(gl, '{Backspace}');
    expect(gl).not.toHaveAccessibleDescription();
  });

  it('keeps the default trial days whole, at most 7 digits and within the configured bounds', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const days = await screen.findByLabelText('Default trial days');
    expect(days).toHaveValue('14');
    await user.clear(days);
    await user.type(days, '0');
    await user.tab();
    expect(days).toHaveAccessibleDescription('Minimum value is 1');
    await user.clear(days);
    await user.type(days, '101');
    expect(days).toHaveAccessibleDescription('Maximum value is 100');
    await user.clear(days);
    await user.paste('1.5x123456789');
    expect(days).toHaveValue('1512345');
  });

  it('formats the price to 2 decimals on blur and stops typing at 100 characters', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const price = await screen.findByLabelText('Price (USD per month)');
    await user.type(price, '49.5');
    await user.tab();
    expect(price).toHaveValue('49.50');
    await user.clear(price);
    await user.type(price, '049');
    await user.tab();
    expect(price).toHaveValue('49.00');
    await user.clear(price);
    await user.paste('1'.repeat(105));
    expect((price as HTMLInputElement).value).toHaveLength(100);
  });

  it('asks a free channel to be open or closed, and has no price', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const type = await screen.findByRole('radiogroup', { name: 'Subscription type' });
    expect(within(type).getByRole('radio', { name: 'Premium' })).toBeChecked();
    expect(screen.queryByRole('radiogroup', { name: 'Free access' })).not.toBeInTheDocument();

    await user.click(within(type).getByRole('radio', { name: 'Free' }));
    expect(screen.queryByLabelText('Price (USD per month)')).not.toBeInTheDocument();
    const access = screen.getByRole('radiogroup', { name: 'Free access' });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(access).toHaveAccessibleDescription('This field should be chosen');
    // The GL account is required for premium channels only.
    expect(field('GL account')).not.toHaveAccessibleDescription();

    await user.click(within(access).getByRole('radio', { name: /^Closed/ }));
    expect(access).not.toHaveAccessibleDescription();
  });

  it('creates a premium channel owned by a desk, with the signed-in user as a fixed admin', async () => {
    const user = userEvent.setup();
    const searches: ChannelOwnerCandidatesQueryVariables[] = [];
    const item: ChannelInput = {
      name: 'Oil Weekly',
      description: 'Crude and refined',
      url: null,
      profileImage: null,
      coverImage: null,
      glAccount: 'GL-100',
      price: '49.50',
      type: 'premium',
      ownerType: 'desk',
      ownerId: CHANNEL_IDS.oilDesk,
      adminUsers: [administrator._id],
      defaultTrialDurationDays: 14,
      hideDisclaimer: true,
    };
    const add = vi.fn(() => ({ data: { addChannel: channelRecord({ adminUsers: [] }) } }));
    renderApp({
      path: ADD,
      user: administrator,
      mocks: [ownersMock(searches), { request: { query: AddChannelDocument, variables: { item } }, result: add }, listMock],
    });

    // The creator is an admin who cannot be removed.
    await screen.findByRole('heading', { level: 1, name: 'Add channel' });
    expect(form().getByText(administrator.name)).toBeInTheDocument();
    expect(form().queryByRole('button', { name: `Remove ${administrator.name}` })).not.toBeInTheDocument();

    await user.type(field('Name'), 'Oil Weekly');
    await user.type(field('Description'), 'Crude and refined');
    await user.type(field('GL account'), 'GL-100');
    await user.type(field('Price (USD per month)'), '49.5');

    // The owner: a desk found by name, searched after the debounce.
    expect(within(screen.getByRole('radiogroup', { name: 'Owner type' })).getByRole('radio', { name: 'Desk' })).toBeChecked();
    const owner = screen.getByRole('combobox', { name: 'Owner' });
    await user.type(owner, 'oil');
    expect(await screen.findByRole('listbox', { name: 'Matching desks' })).toBeInTheDocument();
    // Wait for the debounced search itself (not just the list), then for its results.
    await waitFor(() => expect(searches.at(-1)).toEqual({ ownerType: 'desk', searchQuery: 'oil', limit: 20 }), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Gas desk' })).not.toBeInTheDocument());
    expect(await screen.findByRole('option', { name: 'Oil desk' })).toBeInTheDocument();
    // Only the last search ran after the typing (the debounce), besides the one on opening.
    expect(searches.map((s) => s.searchQuery)).toEqual([null, 'oil']);
    await user.click(screen.getByRole('option', { name: 'Oil desk' }));
    expect(field('Owner')).toHaveValue('Oil desk');

    await user.click(screen.getByRole('checkbox', { name: 'Hide disclaimer' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('The Premium Channel Oil Weekly has been created')).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
  });

  it('picks the owner with the keyboard, and another owner type clears it', async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const owner = await screen.findByRole('combobox', { name: 'Owner' });
    await user.click(owner);
    await screen.findByRole('option', { name: 'Gas desk' });
    // The first match is active; ↓ moves to the next one and Enter picks it.
    expect(owner).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Oil desk' }).id);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field('Owner')).toHaveValue('Gas desk');

    await user.click(within(screen.getByRole('radiogroup', { name: 'Owner type' })).getByRole('radio', { name: 'Contributor' }));
    const search = screen.getByRole('combobox', { name: 'Owner' });
    expect(search).toHaveValue('');
    await user.type(search, 'chr');
    await user.click(await screen.findByRole('option', { name: 'Chris Contributor' }));
    expect(field('Owner')).toHaveValue('Chris Contributor');
  });

  it('edits a channel: type and owner are fixed, the counts are beside the form', async () => {
    const user = userEvent.setup();
    const record = channelRecord();
    const edit = vi.fn(() => ({ data: { editChannel: { ...record, description: 'Crude oil', version: 2 } } }));
    const item: ChannelInput = {
      _id: record._id,
      version: 1,
      name: 'Oil Weekly',
      description: 'Crude oil',
      url: 'https://example.com/oil',
      profileImage: null,
      coverImage: null,
      glAccount: 'GL-100',
      price: '49.00',
      type: 'premium',
      ownerType: 'desk',
      ownerId: CHANNEL_IDS.oilDesk,
      adminUsers: [CHANNEL_IDS.erin],
      defaultTrialDurationDays: 14,
      hideDisclaimer: false,
    };
    renderApp({
      path: EDIT,
      user: editor,
      mocks: [byId(record), ownersMock(), { request: { query: EditChannelDocument, variables: { item } }, result: edit }, listMock],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit channel' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Oil Weekly')).toHaveAttribute('aria-current', 'page');

    const type = screen.getByRole('radiogroup', { name: 'Subscription type' });
    expect(within(type).getByRole('radio', { name: 'Premium' })).toBeChecked();
    expect(within(type).getByRole('radio', { name: 'Premium' })).toBeDisabled();
    expect(within(type).getByRole('radio', { name: 'Free' })).toBeDisabled();
    expect(within(screen.getByRole('radiogroup', { name: 'Owner type' })).getByRole('radio', { name: 'Desk' })).toBeDisabled();
    expect(field('Owner')).toHaveValue('Oil desk');
    expect(field('Owner')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Change/ })).not.toBeInTheDocument();
    // Admins of an existing channel can all be removed.
    expect(screen.getByRole('button', { name: 'Remove Erin Editor' })).toBeInTheDocument();

    const summary = screen.getByRole('complementary', { name: 'Channel summary' });
    const counts = within(summary)
      .getAllByRole('term')
      .map((t) => `${t.textContent}: ${t.nextElementSibling?.textContent}`);
    expect(counts).toEqual(['Articles: 12', 'Archived articles: 4', 'Templates: 2', 'Active users: 3']);

    await user.clear(field('Description'));
    await user.type(field('Description'), 'Crude oil');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('The Premium Channel Oil Weekly has been updated')).toBeInTheDocument();
    expect(edit).toHaveBeenCalledTimes(1);
  });

  it('asks before archiving and shows the refusal while the channel has active subscribers', async () => {
    const user = userEvent.setup();
    const message = 'You cannot archive this channel because it has active subscribers.';
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [
        byId(channelRecord()),
        ownersMock(),
        {
          request: { query: ArchiveChannelDocument, variables: { id: CHANNEL_IDS.oil } },
          result: { errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] },
        },
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit channel' });
    await user.click(form().getByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Archive channel' });
    expect(dialog).toHaveTextContent('Archive the channel Oil Weekly? Its articles are archived too and its templates unlinked.');
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));

    expect(await form().findByRole('alert')).toHaveTextContent(message);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { level: 1, name: 'Edit channel' })).toBeInTheDocument();
  });

  it('archives after the confirmation and goes back to the list', async () => {
    const user = userEvent.setup();
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [
        byId(channelRecord()),
        ownersMock(),
        {
          request: { query: ArchiveChannelDocument, variables: { id: CHANNEL_IDS.oil } },
          result: { data: { archiveChannel: channelRecord({ state: 'archived', canEdit: false, version: 2 }) } },
        },
        listMock,
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit channel' });
    await user.click(form().getByRole('button', { name: 'Archive' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('The Premium Channel Oil Weekly has been archived')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
  });

  it('opens an archived channel read-only for an Administrator', async () => {
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [byId(channelRecord({ state: 'archived', canEdit: false })), ownersMock()],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit channel' });
    expect(screen.getByText('This channel is archived: it can no longer be changed.')).toBeInTheDocument();
    for (const label of ['Name', 'Description', 'URL', 'GL account', 'Price (USD per month)', 'Default trial days', 'Owner']) {
      expect(field(label)).toBeDisabled();
    }
    expect(screen.getByRole('checkbox', { name: 'Hide disclaimer' })).toBeDisabled();
    expect(screen.getByLabelText('Profile image')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Erin Editor' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('sends an Editor who may not edit the channel back to the list', async () => {
    renderApp({ path: EDIT, user: editor, mocks: [byId(channelRecord({ canEdit: false })), ownersMock(), listMock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
  });

  it('uploads png or jpg images of at most 2 MB and shows their preview', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        new Response(JSON.stringify({ link: '/uploads/abc.png', fileName: 'abc.png', contentType: 'image/png', size: 3 }), { status: 201 }),
      );
    stubObjectUrls();
    renderApp({ path: ADD, user: administrator, mocks: [ownersMock()] });
    const profile = await screen.findByLabelText('Profile image');
    expect(profile).toHaveAttribute('accept', '.png,.jpg,.jpeg,image/png,image/jpeg');

    await user.upload(profile, new File(['gif'], 'anim.gif', { type: 'image/gif' }));
    expect(await screen.findByText('File format not supported')).toBeInTheDocument();
    await user.upload(profile, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('File format not supported')).toBeInTheDocument();
    await user.upload(profile, new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The file is too large: the maximum size is 2 MB')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.upload(profile, new File(['png'], 'profile.png', { type: 'image/png' }));
    // Not linked from anything yet, so fetched with the token.
    await waitFor(() => expect(screen.getByRole('img', { name: 'Profile image preview' })).toHaveAttribute('src', 'blob:image'));
    expect(fetchMock.mock.calls[1][0]).toBe('/uploads/abc.png');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    fetchMock.mockRestore();
  });
});
