import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  AddBillingAccountDocument,
  BillingAccountsDocument,
  RemoveBillingAccountDocument,
} from './__generated__/BillingAccounts.generated';
import { UserByIdDocument } from './__generated__/UserForm.generated';

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
  lastLogin: new Date(2026, 2, 5).toISOString(),
  memberSince: new Date(2025, 0, 9).toISOString(),
  displayAvatar: false,
  tableauAccess: false,
  canHaveProfilePicture: false,
  hasProfilePicture: false,
};

const account = (id: string, name: string | null, n: number) => ({ __typename: 'BillingAccount', _id: `ba${n}`, id, name });

/** A small server: the user's accounts, changed by the mutations. */
function server() {
  const state = { accounts: [account('ACC-1', 'Main account', 1)] };
  const mocks: MockLink.MockedResponse[] = [
    { request: { query: UserByIdDocument, variables: { id: READER_ID } }, result: { data: { findUserById: record } } },
    {
      request: { query: BillingAccountsDocument, variables: { userId: READER_ID } },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: () => ({ data: { billingAccounts: state.accounts } }),
    },
    {
      request: { query: AddBillingAccountDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { accountNumber: string; name: string | null }) => {
        if (state.accounts.some((a) => a.id === v.accountNumber))
          return {
            errors: [
              new GraphQLError('Invalid input', {
                extensions: { code: 'BAD_USER_INPUT', fields: { accountNumber: 'The user already has this account' } },
              }),
            ],
          };
        const added = account(v.accountNumber, v.name, state.accounts.length + 1);
        state.accounts = [...state.accounts, added];
        return { data: { addBillingAccount: added } };
      },
    },
    {
      request: { query: RemoveBillingAccountDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (v: { id: string }) => {
        state.accounts = state.accounts.filter((a) => a._id !== v.id);
        return { data: { removeBillingAccount: true } };
      },
    },
  ];
  return { state, mocks };
}

beforeAll(async () => {
  await import('./UserForm');
});

describe("A user's clearing accounts", () => {
  it('lists, adds and removes them for an Administrator', async () => {
    const { state, mocks } = server();
    renderApp({ path: PATH, user: testUser('Administrator'), mocks });
    const section = within(await screen.findByRole('region', { name: 'Clearing accounts' }));
    const list = within(await section.findByRole('list', { name: 'Clearing accounts' }));
    expect(list.getByText('ACC-1')).toBeInTheDocument();

    await userEvent.click(section.getByRole('button', { name: 'Add account' }));
    expect(section.getByText('This field is required')).toBeInTheDocument();
    await userEvent.type(section.getByLabelText('Account number'), 'ACC-2');
    await userEvent.type(section.getByLabelText('Account name (optional)'), 'Second{Enter}');
    await waitFor(() => expect(list.getByText('ACC-2')).toBeInTheDocument());
    expect(await screen.findByText('The clearing account ACC-2 has been added to Rita Reader.')).toBeInTheDocument();
    expect(section.getByLabelText('Account number')).toHaveValue('');

    await userEvent.type(section.getByLabelText('Account number'), 'ACC-1');
    await userEvent.click(section.getByRole('button', { name: 'Add account' }));
    expect(await section.findByText('The user already has this account')).toBeInTheDocument();

    await userEvent.click(section.getByRole('button', { name: 'Remove the clearing account ACC-1' }));
    await waitFor(() => expect(list.queryByText('ACC-1')).not.toBeInTheDocument());
    expect(state.accounts.map((a) => a.id)).toEqual(['ACC-2']);
  });

  it('is not shown to an Editor', async () => {
    const { mocks } = server();
    renderApp({ path: PATH, user: testUser('Editor'), mocks });
    expect(await screen.findByRole('heading', { name: 'Edit user', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Clearing accounts' })).not.toBeInTheDocument();
  });
});
