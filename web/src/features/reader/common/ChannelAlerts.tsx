//! The alerts about the reader's subscription on a channel's page (spec 3 §4 'Subscription state
//! helper', §8 alerts): an expired subscription, a failed payment. Whether each shows is the
//! server's call (`ChannelSubscription.status`), not re-derived here.
import { gql } from '@apollo/client';
import { Link } from 'react-router';
import { Banner } from '../../../components/Banner';
import { subscribePath, SUBSCRIPTIONS_PATH } from './channelText';
import { PAYMENT_FAILED_TEXT } from './subscriptionText';
import type { ChannelAlerts_ChannelFragment } from './__generated__/ChannelAlerts.generated';
import '../reader.css';

export function ChannelAlerts({ channel }: { channel: ChannelAlerts_ChannelFragment }) {
  const status = channel.userChannelSubscription?.status;
  if (!status || (!status.expiredAlert && !status.paymentFailedAlert)) return null;
  return (
    <div className="insights-channel-alerts">
      {status.expiredAlert && (
        <Banner intent="warning" role="alert">
          {status.trial === 'Expired' ? 'Your free trial of this channel has expired.' : 'Your subscription to this channel has expired.'}{' '}
          <Link to={subscribePath(channel._id)}>Subscribe again</Link>
        </Banner>
      )}
      {status.paymentFailedAlert && (
        <Banner intent="danger" role="alert">
          {PAYMENT_FAILED_TEXT} <Link to={SUBSCRIPTIONS_PATH}>Update payment details</Link>
        </Banner>
      )}
    </div>
  );
}

export const CHANNEL_ALERTS_FRAGMENT = gql`
  fragment ChannelAlerts_channel on Channel {
    _id
    userChannelSubscription {
      channelId
      status {
        expiredAlert
        paymentFailedAlert
        trial
      }
    }
  }
`;
