//! The channel owner field (spec 3 §2 "Channel form", §9): a desk or a contributor found by name
//! with `channelOwnerCandidates`, searched 500 ms after the last keystroke (the shared SearchSelect).
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { SearchSelectField, type FieldBinding } from '../../components/admin';
import { ChannelOwnerCandidatesDocument, type ChannelOwnerCandidatesQuery } from './__generated__/OwnerField.generated';

export type OwnerCandidate = ChannelOwnerCandidatesQuery['channelOwnerCandidates'][number];
export type OwnerType = OwnerCandidate['type'];

/** How many matches the list offers. */
export const OWNER_SEARCH_LIMIT = 20;

const WORDS: Record<OwnerType, string> = { desk: 'desks', contributor: 'contributors' };

export interface OwnerFieldProps extends FieldBinding<OwnerCandidate | null> {
  label: string;
  ownerType: OwnerType;
  disabled?: boolean;
}

export function OwnerField({ ownerType, ...field }: OwnerFieldProps) {
  const [search, setSearch] = useState<string | null>(null);
  const { data, previousData, loading, error } = useQuery(ChannelOwnerCandidatesDocument, {
    variables: { ownerType, searchQuery: search || null, limit: OWNER_SEARCH_LIMIT },
    skip: search === null,
  });
  // Matches of another owner type never show while the new ones load.
  const matches = ((data ?? previousData)?.channelOwnerCandidates ?? []).filter((o) => o.type === ownerType);
  return (
    <SearchSelectField
      {...field}
      items={matches}
      itemKey={(o) => o._id}
      itemLabel={(o) => o.name}
      onSearch={setSearch}
      loading={loading}
      failed={!!error}
      listLabel={`Matching ${WORDS[ownerType]}`}
      placeholder={`Search ${WORDS[ownerType]}...`}
      noMatchesText={`No ${WORDS[ownerType]} found`}
      icon={ownerType === 'desk' ? 'office' : 'person'}
    />
  );
}

export const OWNER_FIELD_QUERY = gql`
  query ChannelOwnerCandidates($ownerType: ChannelOwnerType!, $searchQuery: String, $limit: Int!) {
    channelOwnerCandidates(ownerType: $ownerType, searchQuery: $searchQuery, limit: $limit) {
      _id
      name
      type
    }
  }
`;
