import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { accessToken, feedLink, LAST_USED_AT, revokeMocks, type SecretsState } from '../../testing/secrets';
import { tableCells } from '../../testing/tables';
import { BillingAccountsDocument } from './__generated__/BillingAccounts.generated';
import { UserByIdDocument } from './__generated__/UserForm.generated';
import { UserSecretsDocument } from './__generated__/UserSecrets.generated';

const READER_ID = '65c0000000000000000000aa';
const PATH = `/publisher/users/edit/${READER_ID}`;

const record = {
  __typename: 'User',
  _id: READER_ID,
  version: 1,
  email: 'rita.reader@client.example',
  name: 'Rita Reader',
  company: 'Client Co',
  phone: null,
  role: 'Subscriber',
  position: null,
  lastLogin: new Date(2026, 2, 5, 14, 5).toISOString(),
  memberSince: new Date(2025, 0, 9).toISOString(),
  displayAvatar: false,
  tableauAccess: false,
  canHaveProfilePicture: false,
  hasProfilePicture: false,
};

/** A small server: the user's links and tokens, changed by the revocations. */
function server(
  links = [
    feedLink(1, { kind: 'all' }, LAST_USED_AT),
    feedLink(2, { kind: 'channel', id: '65c000000000000000000012', name: 'Metals Pro' }),
  ],
  tokens = [accessToken(1, 'Scripts')],
) {
  const state: SecretsState = { links, tokens, revoked: [] };
  const mocks: MockLink.MockedResponse[] = [
    { request: { query: UserByIdDocument, variables: { id: READER_ID } }, result: { data: { findUserById: record } } },
    {
      request: { query: BillingAccountsDocument, variables: { userId: READER_ID } },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: { data: { billingAccounts: [] } },
    },
    {
      request: { query: UserSecretsDocument, variables: { userId: READER_ID } },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => ({ data: { userFeedLinks: state.links, userAccessTokens: state.tokens } }),
    },
    ...revokeMocks(state),
  ];
  return { state, mocks };
}

const section = () => within(screen.getByRole('region', { name: 'Feed links and access tokens' }));

beforeAll(async () => {
  await import('./UserForm');
});

describe("A user's feed links and access tokens", () => {
  it('counts and lists them for an Administrator, without secrets', async () => {
    const { mocks } = server();
    renderApp({ path: PATH, user: testUser('Administrator'), mocks });
    await screen.findByRole('region', { name: 'Feed links and access tokens' });
    expect(section().getByRole('heading', { level: 2, name: 'Feed links and access tokens' })).toBeInTheDocument();
    expect(await section().findByText('2 feed links, 1 access token')).toBeInTheDocument();
    expect(tableCells(section().getByRole('table', { name: 'Feed links' }))).toEqual([
      ['Follows', 'Created', 'Last used', 'Actions'],
      ['All my subscriptions', '05 Mar 2026 14:05', '06 Mar 2026 09:30', 'Revoke'],
      ['Channel: Metals Pro', '05 Mar 2026 14:05', 'Never', 'Revoke'],
    ]);
    expect(tableCells(section().getByRole('table', { name: 'Access tokens' }))).toEqual([
      ['Name', 'Created', 'Last used', 'Actions'],
      ['Scripts', '05 Mar 2026 14:05', 'Never', 'Revoke'],
    ]);
    expect(section().queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('revokes a feed link and an access token after a confirmation', async () => {
    const user = userEvent.setup();
    const { state, mocks } = server();
    renderApp({ path: PATH, user: testUser('Administrator'), mocks });
    await screen.findByRole('region', { name: 'Feed links and access tokens' });
    await section().findByText('2 feed links, 1 access token');

    const revokeLink = () =>
      section().getByRole('button', { name: 'Revoke the feed link for Channel: Metals Pro, created 05 Mar 2026 14:05' });
    await user.click(revokeLink());
    let dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this feed link?' }));
    expect(dialog.getByText(/Rita Reader's feed link for Channel: Metals Pro stops working at once/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.revoked).toEqual([]);

    await user.click(revokeLink());
    dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this feed link?' }));
    await user.click(dialog.getByRole('button', { name: 'Revoke' }));
    expect(await section().findByText('1 feed link, 1 access token')).toBeInTheDocument();
    expect(state.revoked).toEqual(['fl2']);
    expect(section().queryByText('Channel: Metals Pro')).not.toBeInTheDocument();
    expect(await screen.findByText('The feed link of Rita Reader for Channel: Metals Pro has been revoked.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await user.click(section().getByRole('button', { name: 'Revoke the access token Scripts' }));
    dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke this access token?' }));
    await user.click(dialog.getByRole('button', { name: 'Revoke' }));
    expect(await section().findByText('1 feed link, 0 access tokens')).toBeInTheDocument();
    expect(state.revoked).toEqual(['fl2', 'at1']);
    expect(section().getByText('No access tokens')).toBeInTheDocument();
  });

  it("says 'None' when the user has neither", async () => {
    const { mocks } = server([], []);
    renderApp({ path: PATH, user: testUser('Administrator'), mocks });
    await screen.findByRole('region', { name: 'Feed links and access tokens' });
    expect(await section().findByText('None')).toBeInTheDocument();
    expect(section().queryByRole('table')).not.toBeInTheDocument();
  });

  it('is not shown to an Editor', async () => {
    const { mocks } = server();
    renderApp({ path: PATH, user: testUser('Editor'), mocks });
    expect(await screen.findByRole('heading', { name: 'Edit user', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Feed links and access tokens' })).not.toBeInTheDocument();
  });
});
