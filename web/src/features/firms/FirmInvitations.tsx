//! A firm's invitations not yet taken up (issue 39), on 'My firm' under 'Invite a colleague' and on
//! the staff firm page's Readers tab: the address, when and by whom it was sent, and 'Withdraw'
//! (`withdrawFirmInvitation`: the colleague no longer joins at their first sign-in). Sending an
//! invitation refetches this list (`FirmInvitationsDocument` in the invite's `refetchQueries`).
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { Banner } from '../../components/Banner';
import { DataTable } from '../../components/DataTable';
import { LoadingBlock } from '../../components/LoadingScreen';
import { showToast } from '../../components/Toaster';
import { formatDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import {
  FirmInvitationsDocument,
  WithdrawFirmInvitationDocument,
  type FirmInvitationsQuery,
} from './__generated__/FirmInvitations.generated';
import { actionColumn } from './actionColumn';
import { TableScroll } from './TableScroll';
import './firms.css';

type Invitation = FirmInvitationsQuery['findFirmById']['pendingInvitations'][number];

export const NO_INVITATIONS_TEXT = 'No pending invitations';

export interface FirmInvitationsProps {
  firmId: string;
  /** Withdraw invitations (the firm's administrators, staff who change firms). */
  canWithdraw: boolean;
}

export function FirmInvitations({ firmId, canWithdraw }: FirmInvitationsProps) {
  const headingId = useId();
  const { data, previousData, loading, error, refetch } = useQuery(FirmInvitationsDocument, {
    variables: { id: firmId },
    fetchPolicy: 'cache-and-network',
  });
  const invitations = (data ?? previousData)?.findFirmById.pendingInvitations;
  const [withdrawInvitation] = useMutation(WithdrawFirmInvitationDocument);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);

  const withdraw = async (invitation: Invitation) => {
    setWithdrawing(invitation.email);
    try {
      await withdrawInvitation({ variables: { firmId, email: invitation.email } });
      void showToast({ message: `The invitation to ${invitation.email} has been withdrawn.`, intent: 'success' });
      await refetch().catch(() => undefined);
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    } finally {
      setWithdrawing(null);
    }
  };

  const columns = [
    { key: 'email', title: 'Email', render: (i: Invitation) => i.email },
    { key: 'invitedAt', title: 'Invited', render: (i: Invitation) => formatDateTime(i.invitedAt) },
    // The sender's account may be gone since.
    { key: 'invitedBy', title: 'Invited by', render: (i: Invitation) => i.invitedByName ?? '' },
    ...(canWithdraw
      ? [
          actionColumn<Invitation>({
            text: 'Withdraw',
            label: (i) => `Withdraw the invitation to ${i.email}`,
            busy: (i) => withdrawing === i.email,
            onClick: (i) => void withdraw(i),
          }),
        ]
      : []),
  ];

  return (
    <section className="insights-firm-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Pending invitations</h3>
      {error && !invitations && (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      )}
      {loading && !invitations && <LoadingBlock label="Loading the invitations" />}
      {invitations && (
        <TableScroll label="Pending invitations" focusable={!canWithdraw}>
          <DataTable
            label="Pending invitations"
            columns={columns}
            rows={invitations}
            rowKey={(i) => i.email}
            emptyText={NO_INVITATIONS_TEXT}
          />
        </TableScroll>
      )}
    </section>
  );
}

export const FIRM_INVITATIONS_OPERATIONS = gql`
  query FirmInvitations($id: ID!) {
    findFirmById(id: $id) {
      _id
      pendingInvitations {
        email
        invitedAt
        invitedByName
      }
    }
  }

  mutation WithdrawFirmInvitation($firmId: ID!, $email: String!) {
    withdrawFirmInvitation(firmId: $firmId, email: $email)
  }
`;
