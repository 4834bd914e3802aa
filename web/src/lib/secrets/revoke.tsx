//! Revoking a feed link or an access token (issue 41), the reader's own or, for an Administrator,
//! a user's: Revoke asks first in a confirmation dialog saying what stops working; once confirmed,
//! the revocation is sent (the lists read again), a toast says it is done, and a refusal goes to
//! the section's alert.
import { gql, type InternalRefetchQueriesInclude } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { showToast } from '../../components/Toaster';
import { formatError } from '../errors';
import { useTopicWording } from '../topicWording';
import { RevokeAccessTokenDocument, RevokeFeedLinkDocument } from './__generated__/revoke.generated';
import { feedScopeText } from './feedScope';
import type { AccessTokenRow, FeedLinkRow } from './SecretsTables';

/**
 * The options of `useFeedLinkRevocation` and `useAccessTokenRevocation`. The wording gets the row
 * in words: what a feed link follows ('Channel: Metals Pro') or an access token's name.
 */
export interface RevocationOptions {
  /** The queries read again once a row is revoked (the list it was in). */
  refetchQueries: InternalRefetchQueriesInclude;
  /** What stops working, in the dialog before 'This cannot be undone.' */
  consequence: (what: string) => string;
  /** The toast once it is revoked. */
  revokedText: (what: string) => string;
  /** The section's alert: cleared as a revocation is sent, its error when it fails. */
  setAlert: (alert: string | null) => void;
}

/** A revocation waiting for its confirmation: `ask` opens the dialog, rendered where `dialog` is. */
export interface Revocation<T> {
  ask: (row: T) => void;
  dialog: ReactElement;
}

/** Revoke on a feed link: 'Revoke this feed link?', then `revokeFeedLink`. */
export function useFeedLinkRevocation(options: RevocationOptions): Revocation<FeedLinkRow> {
  const words = useTopicWording();
  const [revoke] = useMutation(RevokeFeedLinkDocument, { refetchQueries: options.refetchQueries, awaitRefetchQueries: true });
  return useRevocation<FeedLinkRow>({
    ...options,
    title: 'Revoke this feed link?',
    describe: (link) => feedScopeText(link.scope, words),
    revoke: (link) => revoke({ variables: { id: link._id } }),
  });
}

/** Revoke on an access token: 'Revoke this access token?', then `revokeAccessToken`. */
export function useAccessTokenRevocation(options: RevocationOptions): Revocation<AccessTokenRow> {
  const [revoke] = useMutation(RevokeAccessTokenDocument, { refetchQueries: options.refetchQueries, awaitRefetchQueries: true });
  return useRevocation<AccessTokenRow>({
    ...options,
    title: 'Revoke this access token?',
    describe: (token) => token.name,
    revoke: (token) => revoke({ variables: { id: token._id } }),
  });
}

interface RevocationSteps<T> extends RevocationOptions {
  /** The dialog's title. */
  title: string;
  /** The row in words, for `consequence` and `revokedText`. */
  describe: (row: T) => string;
  /** Sends the revocation. */
  revoke: (row: T) => Promise<unknown>;
}

/** The confirmation and what follows it, for either kind. */
function useRevocation<T>({ title, describe, consequence, revokedText, revoke, setAlert }: RevocationSteps<T>): Revocation<T> {
  const [row, setRow] = useState<T | null>(null);
  const [sending, setSending] = useState(false);

  const confirm = async () => {
    if (row === null) return;
    setAlert(null);
    setSending(true);
    try {
      await revoke(row);
      void showToast({ message: revokedText(describe(row)), intent: 'success' });
    } catch (e) {
      setAlert(formatError(e));
    }
    setSending(false);
    setRow(null);
  };

  const dialog = (
    <ConfirmDialog
      isOpen={row !== null}
      title={title}
      icon="disable"
      confirmText="Revoke"
      loading={sending}
      onConfirm={() => void confirm()}
      onCancel={() => setRow(null)}
    >
      <p>{row !== null && `${consequence(describe(row))} This cannot be undone.`}</p>
    </ConfirmDialog>
  );
  return { ask: setRow, dialog };
}

export const REVOKE_OPERATIONS = gql`
  mutation RevokeFeedLink($id: ID!) {
    revokeFeedLink(id: $id)
  }

  mutation RevokeAccessToken($id: ID!) {
    revokeAccessToken(id: $id)
  }
`;
