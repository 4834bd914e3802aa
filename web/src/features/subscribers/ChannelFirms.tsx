//! A premium channel's firms (issue 39), the 'Firms' tab of its subscriber stats: every client
//! firm's subscription to the channel (`channelFirmSubscriptions`, staff who manage the channel),
//! with the firm (a link to its staff page), seats held ('Unlimited' without a limit) and used, the
//! type, the state, the start and the end.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { Banner } from '../../components/Banner';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatDate, formatUtcDay } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { ChannelFirmSubscriptionsDocument, type ChannelFirmSubscriptionsQuery } from './__generated__/ChannelFirms.generated';
import { firmPagePath, STATE_LABELS } from './subscriberText';

type FirmSubscription = ChannelFirmSubscriptionsQuery['channelFirmSubscriptions'][number];

export const NO_FIRMS_TEXT = 'No firm subscribes to this channel';

const COLUMNS = [
  { key: 'firm', title: 'Firm', render: (s: FirmSubscription) => <Link to={firmPagePath(s.firmId)}>{s.firmName}</Link> },
  { key: 'seats', title: 'Seats held', render: (s: FirmSubscription) => s.seats ?? 'Unlimited' },
  { key: 'seatsUsed', title: 'Seats used', render: (s: FirmSubscription) => s.seatsUsed },
  { key: 'type', title: 'Type', render: (s: FirmSubscription) => s.typeLabel },
  { key: 'state', title: 'State', render: (s: FirmSubscription) => STATE_LABELS[s.subscriptionState] },
  { key: 'starts', title: 'Starts', render: (s: FirmSubscription) => formatDate(new Date(s.startsAt)) },
  { key: 'ends', title: 'Ends', render: (s: FirmSubscription) => (s.cancelAt ? formatUtcDay(s.cancelAt) : 'No end date') },
];

export function ChannelFirms({ channelId }: { channelId: string }) {
  const { data, loading, error } = useQuery(ChannelFirmSubscriptionsDocument, {
    variables: { channelId },
    fetchPolicy: 'cache-and-network',
  });
  const subscriptions = data?.channelFirmSubscriptions;
  if (error && !subscriptions) {
    return (
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    );
  }
  if (loading && !subscriptions) return <LoadingBlock label="Loading the firms" />;
  if (!subscriptions) return null;
  if (subscriptions.length === 0) {
    return (
      <EmptyState
        icon="office"
        title={NO_FIRMS_TEXT}
        description={<p>Add a subscription to this channel from a firm&apos;s page under Firms.</p>}
      />
    );
  }
  return <DataTable label="Firms" columns={COLUMNS} rows={subscriptions} rowKey={(s) => s._id} />;
}

export const CHANNEL_FIRMS_QUERY = gql`
  query ChannelFirmSubscriptions($channelId: ID!) {
    channelFirmSubscriptions(channelId: $channelId) {
      _id
      firmId
      firmName
      seats
      seatsUsed
      typeLabel
      subscriptionState
      startsAt
      cancelAt
    }
  }
`;
