//! The subscription result page at /browse/channel/:channelId/:status (spec 3 §2 'Subscription
//! result page'), where the checkout sends the reader: 'subscribed' and 'paying-invoice-requested'
//! say so with 'View Channel'; any other status reads as unsubscribed, with 'Browse Insights'.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { ChannelNotFound, isChannelNotFound } from '../common/ChannelNotFound';
import { channelPath, CHANNELS_PATH, isObjectId } from '../common/channelText';
import { subscribedText } from '../common/subscriptionText';
import { SubscriptionResultPageDocument } from './__generated__/SubscriptionResultPage.generated';

export type SubscriptionResult = 'subscribed' | 'paying-invoice-requested' | 'unsubscribed';

export function subscriptionResult(status: string | undefined): SubscriptionResult {
  return status === 'subscribed' || status === 'paying-invoice-requested' ? status : 'unsubscribed';
}

export default function SubscriptionResultPage() {
  const { channelId, status } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return <ResultScreen key={channelId} id={channelId} result={subscriptionResult(status)} />;
}

function ResultScreen({ id, result }: { id: string; result: SubscriptionResult }) {
  // The name only words the message: the result stands even if the channel cannot be read now.
  // From the server, with the card: after a checkout the cached card of this channel is stale.
  const { data, loading, error } = useQuery(SubscriptionResultPageDocument, { variables: { id }, fetchPolicy: 'network-only' });
  if (isChannelNotFound(error)) return <ChannelNotFound />;
  if (loading && !data) return <LoadingBlock label="Loading the channel" />;
  const name = data?.channel.name ?? 'the channel';
  const view = <LinkButton to={channelPath(id)} text="View Channel" intent="primary" />;

  switch (result) {
    case 'subscribed':
      return (
        <Page title="Subscription confirmed">
          <EmptyState icon="tick-circle" title={`Welcome to ${name}`} description={<p>{subscribedText(name)}</p>} action={view} />
        </Page>
      );
    case 'paying-invoice-requested':
      return (
        <Page title="Invoice requested">
          <EmptyState
            icon="envelope"
            title="Thank you for your request"
            description={
              <p>
                Your request to pay for {name} by invoice has been received. Your Premium access starts once the invoice has been set up,
                and we will email you.
              </p>
            }
            action={view}
          />
        </Page>
      );
    case 'unsubscribed':
      return (
        <Page title="Unsubscribed">
          <EmptyState
            icon="info-sign"
            title={`You are not subscribed to ${name}`}
            description={<p>Find other channels to follow, or subscribe again at any time.</p>}
            action={<LinkButton to={CHANNELS_PATH} text="Browse Insights" intent="primary" />}
          />
        </Page>
      );
  }
}

export const SUBSCRIPTION_RESULT_PAGE_QUERY = gql`
  query SubscriptionResultPage($id: ID!) {
    channel(id: $id) {
      _id
      name
      ...ChannelCardActions_channel
    }
  }
`;
