//! The publish confirmation (spec 2 §4): counts the channel's subscribers (getSubscribersCount),
//! words the dialog for its variant, offers the notify checkbox where the rules say so, and answers
//! with the `sendEmails` to send. Mounted when opened, so the checkbox always starts unticked.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { CheckboxField, ConfirmDialog } from '../../../components/admin';
import { formatError } from '../../../lib/errors';
import { ArticleEditorSubscribersCountDocument } from './__generated__/PublishDialog.generated';
import type { ArticleState } from './editorActions';
import { offersNotify, publishDialogText, sendEmailsFor, type PublishContext } from './publishRules';

export interface PublishDialogProps {
  /** The chosen channel; without one there is nobody to notify (and the server reports the gap). */
  channelId: string | null;
  state: ArticleState | null;
  wasPublishedPreviously: boolean;
  /** The custom (back-)date, if any. */
  publishDate: Date | null;
  onConfirm: (sendEmails: boolean) => void;
  onCancel: () => void;
}

export function PublishDialog({ channelId, state, wasPublishedPreviously, publishDate, onConfirm, onCancel }: PublishDialogProps) {
  const [notify, setNotify] = useState(false);
  const count = useQuery(ArticleEditorSubscribersCountDocument, {
    variables: { channelId: channelId ?? '' },
    skip: !channelId,
    fetchPolicy: 'network-only',
  });
  const counting = !!channelId && count.loading;
  const ctx: PublishContext = {
    state,
    wasPublishedPreviously,
    backdated: !!publishDate,
    subscribers: count.data?.getSubscribersCount ?? 0,
  };
  const text = publishDialogText(ctx, publishDate);

  return (
    <ConfirmDialog
      isOpen
      title={text.title}
      confirmText={text.confirm}
      icon="send-message"
      intent="primary"
      loading={counting}
      onConfirm={() => onConfirm(sendEmailsFor(ctx, notify))}
      onCancel={onCancel}
    >
      {counting ? (
        <p>Counting the channel&apos;s subscribers…</p>
      ) : (
        <>
          {count.error ? <p>The channel&apos;s subscribers could not be counted ({formatError(count.error)}).</p> : <p>{text.body}</p>}
          {offersNotify(ctx) && (
            <CheckboxField name="sendEmails" label={text.notifyLabel} value={notify} onChange={setNotify} onBlur={() => {}} />
          )}
        </>
      )}
    </ConfirmDialog>
  );
}

export const PUBLISH_DIALOG_QUERY = gql`
  query ArticleEditorSubscribersCount($channelId: ID!) {
    getSubscribersCount(channelId: $channelId)
  }
`;
