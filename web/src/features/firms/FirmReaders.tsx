//! A firm's readers (issue 39), on the staff firm page and on 'My firm': a page at a time from the
//! server (`Firm.readers(params)`), searched by name or email, with Name, Email, Joined by,
//! Administrator, Seats (the channels their seats give) and, for staff who change firms, the
//! administrator checkbox (`setFirmAdmin`), Remove (after a confirmation: their seats of the firm
//! end) and 'Add a reader' (a reader found by name or email, `addFirmMember`). A reader belongs
//! to at most one firm: the server refuses one of another firm with its message.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { AdminList, ConfirmDialog, useListState, type AdminColumn } from '../../components/admin';
import { Button } from '../../components/Button';
import { CheckboxControl } from '../../components/Controls';
import { showToast } from '../../components/Toaster';
import { fieldErrors, formatError } from '../../lib/errors';
import {
  AddFirmMemberDocument,
  FirmReaderCandidatesDocument,
  FirmReadersDocument,
  RemoveFirmMemberDocument,
  SetFirmAdminDocument,
  type FirmReaderCandidatesQuery,
  type FirmReadersQuery,
} from './__generated__/FirmReaders.generated';
import { JOINED_BY_LABELS, seatChannelNames } from './firmText';
import { PersonPicker } from './PersonPicker';
import { TableScroll } from './TableScroll';
import './firms.css';

type Member = FirmReadersQuery['findFirmById']['readers']['readers'][number];
type Candidate = FirmReaderCandidatesQuery['getPaginatedUsers']['users'][number];

/** Readers offered by 'Add a reader' at once. */
export const READER_CANDIDATES = 20;

export interface FirmReadersProps {
  firmId: string;
  firmName: string;
  /** The firm's subscriptions, to name the channels of the members' seats. */
  subscriptions: readonly { channelId: string; channelName: string }[];
  /** Staff who change firms: add and remove readers, make them administrators. */
  canManage: boolean;
  /** After a change of the members (the screen reads its counts again). */
  onChanged: () => void;
}

export function FirmReaders({ firmId, firmName, subscriptions, canManage, onChanged }: FirmReadersProps) {
  const [state, change] = useListState();
  const { data, previousData, loading, error, refetch } = useQuery(FirmReadersDocument, {
    variables: { id: firmId, params: { page: state.page, pageSize: state.pageSize, search: state.search.trim() || null } },
    fetchPolicy: 'cache-and-network',
  });
  const shown = (data ?? previousData)?.findFirmById.readers;
  const [setAdmin] = useMutation(SetFirmAdminDocument);
  const [removeMember, removing] = useMutation(RemoveFirmMemberDocument);
  const [toRemove, setToRemove] = useState<Member | null>(null);

  const changed = () => {
    void refetch();
    onChanged();
  };

  const toggleAdmin = async (member: Member, isAdmin: boolean) => {
    try {
      await setAdmin({ variables: { firmId, userId: member.user._id, isAdmin } });
      const message = isAdmin
        ? `${member.user.name} is now an administrator of ${firmName}.`
        : `${member.user.name} is no longer an administrator of ${firmName}.`;
      void showToast({ message, intent: 'success' });
      changed();
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    }
  };

  const remove = async () => {
    if (!toRemove) return;
    try {
      await removeMember({ variables: { firmId, userId: toRemove.user._id } });
      void showToast({ message: `${toRemove.user.name} has been removed from ${firmName}.`, intent: 'success' });
      changed();
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    } finally {
      setToRemove(null);
    }
  };

  const columns: AdminColumn<Member>[] = [
    { key: 'name', title: 'Name', render: (m) => m.user.name },
    { key: 'email', title: 'Email', render: (m) => m.user.email },
    { key: 'joinedBy', title: 'Joined by', render: (m) => JOINED_BY_LABELS[m.joinedBy] },
    {
      key: 'admin',
      title: 'Administrator',
      render: (m) =>
        canManage ? (
          <CheckboxControl
            label={<span className="insights-visually-hidden">{m.user.name} is an administrator of the firm</span>}
            checked={m.isAdmin}
            onChange={(checked) => void toggleAdmin(m, checked)}
          />
        ) : m.isAdmin ? (
          'Yes'
        ) : (
          'No'
        ),
    },
    {
      key: 'seats',
      title: 'Seats',
      render: (m) => (m.seatChannelIds.length > 0 ? seatChannelNames(m.seatChannelIds, subscriptions).join(', ') : 'None'),
    },
  ];
  if (canManage) {
    columns.push({
      key: 'remove',
      title: 'Remove',
      render: (m) => (
        <Button
          text="Remove"
          size="small"
          intent="danger"
          variant="outlined"
          label={`Remove ${m.user.name} from the firm`}
          onClick={() => setToRemove(m)}
        />
      ),
    });
  }

  return (
    <>
      {canManage && <AddReader firmId={firmId} firmName={firmName} onAdded={changed} />}
      <TableScroll label="Firm readers" focusable={false}>
        <AdminList
          label="Readers"
          columns={columns}
          rows={shown?.readers ?? []}
          total={shown?.total ?? 0}
          rowKey={(m) => m.user._id}
          state={state}
          onStateChange={change}
          loading={loading}
          error={shown ? undefined : error}
          onRetry={() => void refetch()}
          search={{ placeholder: 'Search readers...' }}
        />
      </TableScroll>
      <ConfirmDialog
        isOpen={toRemove !== null}
        title="Remove reader"
        confirmText="Remove"
        loading={removing.loading}
        onConfirm={() => void remove()}
        onCancel={() => setToRemove(null)}
      >
        <p>
          Remove {toRemove?.user.name} from {firmName}? Their seats of the firm end at once.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** 'Add a reader': a reader (Subscriber) found by name or email, made a member by staff. */
function AddReader({ firmId, firmName, onAdded }: { firmId: string; firmName: string; onAdded: () => void }) {
  const [search, setSearch] = useState<string | null>(null);
  const { data, previousData, loading, error } = useQuery(FirmReaderCandidatesDocument, {
    variables: { searchQuery: search || null, limit: READER_CANDIDATES },
    skip: search === null,
  });
  // This firm's members are members already; another firm's are shown with it (the server refuses them).
  const candidates = ((data ?? previousData)?.getPaginatedUsers.users ?? []).filter((u) => u.firm?._id !== firmId);
  const [addMember] = useMutation(AddFirmMemberDocument);

  const add = async (chosen: Candidate) => {
    try {
      await addMember({ variables: { firmId, userId: chosen._id } });
      void showToast({ message: `${chosen.name} has been added to ${firmName}.`, intent: 'success' });
      onAdded();
      return null;
    } catch (e) {
      return fieldErrors(e).userId ?? formatError(e);
    }
  };

  return (
    <PersonPicker<Candidate>
      label="Add a reader"
      name="reader"
      items={candidates}
      personOf={(u) => u}
      extraDescription={(u) => u.firm && ` · ${u.firm.name}`}
      onSearch={setSearch}
      loading={loading}
      failed={!!error}
      listLabel="Matching readers"
      placeholder="Search readers by name or email..."
      noMatchesText="No readers found"
      buttonText="Add reader"
      chooseText="Choose a reader"
      onPick={add}
    />
  );
}

export const FIRM_READERS_OPERATIONS = gql`
  query FirmReaders($id: ID!, $params: FirmReaderParams) {
    findFirmById(id: $id) {
      _id
      readers(params: $params) {
        total
        readers {
          user {
            _id
            name
            email
          }
          isAdmin
          joinedBy
          joinedAt
          seatChannelIds
        }
      }
    }
  }

  query FirmReaderCandidates($searchQuery: String, $limit: Int!) {
    getPaginatedUsers(type: Subscriber, searchQuery: $searchQuery, limit: $limit) {
      users {
        _id
        name
        email
        firm {
          _id
          name
        }
      }
    }
  }

  mutation AddFirmMember($firmId: ID!, $userId: ID!) {
    addFirmMember(firmId: $firmId, userId: $userId) {
      _id
      readerCount
    }
  }

  mutation RemoveFirmMember($firmId: ID!, $userId: ID!) {
    removeFirmMember(firmId: $firmId, userId: $userId) {
      _id
      readerCount
    }
  }

  mutation SetFirmAdmin($firmId: ID!, $userId: ID!, $isAdmin: Boolean!) {
    setFirmAdmin(firmId: $firmId, userId: $userId, isAdmin: $isAdmin) {
      _id
    }
  }
`;
