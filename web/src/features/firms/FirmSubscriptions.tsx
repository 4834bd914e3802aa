//! A firm's subscriptions (issue 39), on the staff firm page and on 'My firm': channel, type,
//! seats used / seats ('unlimited'), start, end and state, and per subscription 'Seats', which
//! opens its seat holders under the table (`FirmSeatsPanel`). Staff who change firms also get
//! 'Edit' (the subscription form) and 'End now' (after a confirmation: its seats are freed).
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/admin';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { LinkButton } from '../../components/LinkButton';
import { showToast } from '../../components/Toaster';
import { formatDate, formatUtcDay } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { CancelFirmSubscriptionDocument, type FirmSubscriptionRowFragment } from './__generated__/FirmSubscriptions.generated';
import { FirmSeatsPanel } from './FirmSeats';
import { editFirmSubscriptionPath, seatsText, subscriptionStateText } from './firmText';
import { TableScroll } from './TableScroll';
import './firms.css';

export type FirmSubscriptionRow = FirmSubscriptionRowFragment;

export interface FirmSubscriptionsProps {
  firmId: string;
  subscriptions: readonly FirmSubscriptionRow[];
  /** Staff who change firms: Edit and End now. */
  canManage: boolean;
  /** Give and take seats (staff who change firms, the firm's administrator). */
  canChangeSeats: boolean;
  /** After a change (the screen reads the firm again). */
  onChanged: () => void;
  /** The seats panel's heading level (under the section's heading). */
  seatsHeadingLevel?: 3 | 4;
}

export function FirmSubscriptions({
  firmId,
  subscriptions,
  canManage,
  canChangeSeats,
  onChanged,
  seatsHeadingLevel = 3,
}: FirmSubscriptionsProps) {
  const panelId = useId();
  const [open, setOpen] = useState<string | null>(null);
  const [ending, setEnding] = useState<FirmSubscriptionRow | null>(null);
  const [cancel, cancelling] = useMutation(CancelFirmSubscriptionDocument);
  const opened = subscriptions.find((s) => s.channelId === open) ?? null;

  const endNow = async () => {
    if (!ending) return;
    try {
      await cancel({ variables: { firmId, channelId: ending.channelId, version: ending.version } });
      void showToast({ message: `The subscription to ${ending.channelName} has ended.`, intent: 'success' });
      onChanged();
    } catch (e) {
      void showToast({ message: formatError(e), intent: 'danger' });
    } finally {
      setEnding(null);
    }
  };

  const columns = [
    { key: 'channel', title: 'Channel', render: (s: FirmSubscriptionRow) => s.channelName },
    { key: 'type', title: 'Type', render: (s: FirmSubscriptionRow) => s.typeLabel },
    { key: 'seats', title: 'Seats used / seats', render: (s: FirmSubscriptionRow) => seatsText(s.seatsUsed, s.seats) },
    { key: 'starts', title: 'Starts', render: (s: FirmSubscriptionRow) => formatDate(new Date(s.startsAt)) },
    { key: 'ends', title: 'Ends', render: (s: FirmSubscriptionRow) => (s.cancelAt ? formatUtcDay(s.cancelAt) : 'No end date') },
    { key: 'state', title: 'State', render: (s: FirmSubscriptionRow) => subscriptionStateText(s) },
    {
      key: 'actions',
      title: 'Actions',
      render: (s: FirmSubscriptionRow) => (
        <span className="insights-firm-row-actions">
          <Button
            text="Seats"
            size="small"
            icon={open === s.channelId ? 'chevron-up' : 'chevron-down'}
            label={`Seats of ${s.channelName}`}
            expanded={open === s.channelId}
            controls={panelId}
            onClick={() => setOpen(open === s.channelId ? null : s.channelId)}
          />
          {canManage && (
            <LinkButton
              to={editFirmSubscriptionPath(firmId, s.channelId)}
              text="Edit"
              size="small"
              label={`Edit the subscription to ${s.channelName}`}
            />
          )}
          {canManage && s.isLive && (
            <Button
              text="End now"
              size="small"
              intent="danger"
              variant="outlined"
              label={`End now: the subscription to ${s.channelName}`}
              onClick={() => setEnding(s)}
            />
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <TableScroll label="Firm subscriptions" focusable={false}>
        <DataTable
          label="Subscriptions"
          columns={columns}
          rows={subscriptions}
          rowKey={(s) => s._id}
          emptyText="The firm has no subscriptions yet"
        />
      </TableScroll>
      <div id={panelId}>
        {opened && (
          <FirmSeatsPanel
            key={opened.channelId}
            firmId={firmId}
            channelId={opened.channelId}
            channelName={opened.channelName}
            canChange={canChangeSeats}
            onChanged={onChanged}
            headingLevel={seatsHeadingLevel}
          />
        )}
      </div>
      <ConfirmDialog
        isOpen={ending !== null}
        title="End the subscription now"
        icon="disable"
        confirmText="End now"
        loading={cancelling.loading}
        onConfirm={() => void endNow()}
        onCancel={() => setEnding(null)}
      >
        <p>
          End the subscription to {ending?.channelName} now? Its seats are freed at once: {ending?.seatsUsed ?? 0} reader(s) lose access to
          the channel&apos;s premium articles.
        </p>
      </ConfirmDialog>
    </>
  );
}

export const FIRM_SUBSCRIPTIONS_OPERATIONS = gql`
  fragment FirmSubscriptionRow on FirmSubscription {
    _id
    firmId
    channelId
    channelName
    seats
    seatsUsed
    startsAt
    cancelAt
    subscriptionType
    subscriptionState
    isActive
    isLive
    typeLabel
    version
  }

  mutation CancelFirmSubscription($firmId: ID!, $channelId: ID!, $version: Int!) {
    cancelFirmSubscription(firmId: $firmId, channelId: $channelId, version: $version) {
      ...FirmSubscriptionRow
    }
  }
`;
