//! The reader to add (spec 3 §5 'User search'): users found by name or email 500 ms after the last
//! keystroke, among those the server says can join the channel (`getPaginatedUsers` with
//! `subscribableToChannel`: signed in at least once, not subscribed, or with an expired trial).
//! A match shows the name, and the email as its description (cut to 30 characters, spec 3 §9).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { SearchSelectField, type FieldBinding } from '../../components/admin';
import { EmailDescription } from '../../components/EmailDescription';
import { SubscribableUsersDocument, type SubscribableUsersQuery } from './__generated__/UserSearchField.generated';

export type SubscribableUser = SubscribableUsersQuery['getPaginatedUsers']['users'][number];

/** How many matches the list offers. */
export const USER_SEARCH_LIMIT = 20;

export interface UserSearchFieldProps extends FieldBinding<SubscribableUser | null> {
  label: string;
  channelId: string;
  disabled?: boolean;
}

export function userLabel(user: Pick<SubscribableUser, 'name' | 'email'>): string {
  return `${user.name} (${user.email})`;
}

export function UserSearchField({ channelId, ...field }: UserSearchFieldProps) {
  const [search, setSearch] = useState<string | null>(null);
  const { data, previousData, loading, error } = useQuery(SubscribableUsersDocument, {
    variables: { channelId, searchQuery: search || null, limit: USER_SEARCH_LIMIT },
    skip: search === null,
  });
  return (
    <SearchSelectField
      {...field}
      items={(data ?? previousData)?.getPaginatedUsers.users ?? []}
      itemKey={(u) => u._id}
      itemLabel={userLabel}
      optionLabel={(u) => u.name}
      itemDescription={(u) => <EmailDescription email={u.email} />}
      onSearch={setSearch}
      loading={loading}
      failed={!!error}
      listLabel="Matching users"
      placeholder="Search users by name or email..."
      noMatchesText="No users found who can be added"
      icon="person"
    />
  );
}

export const USER_SEARCH_QUERY = gql`
  query SubscribableUsers($channelId: ID!, $searchQuery: String, $limit: Int!) {
    getPaginatedUsers(searchQuery: $searchQuery, subscribableToChannel: $channelId, limit: $limit) {
      users {
        _id
        name
        email
        company
      }
    }
  }
`;
