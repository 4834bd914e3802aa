//! The action part of a reader's channel card (spec 3 §4 'Channel card for a reader'). The server's
//! state machine decides what the card offers (`Channel.readerCard`); this component only maps
//! each action to its buttons: request a trial (through the confirm-trial page), buy, subscribe to
//! a free open channel, request access to a free closed one, a disabled button while a request is
//! pending, the trial's end with 'Buy now', 'Access until {date}' or 'Subscribed' ('Provided by
//! {firm}' when a seat of the reader's firm gives the channel: nothing to buy or cancel).
//!
//! The two requests made from the card itself answer with the channel's new card, which Apollo
//! writes over the cached channel, so every card of that channel on screen changes at once.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { Link } from 'react-router';
import { Badge } from '../../../components/Card';
import { Button } from '../../../components/Button';
import { LinkButton } from '../../../components/LinkButton';
import { showToast } from '../../../components/Toaster';
import { formatError } from '../../../lib/errors';
import { confirmTrialPath, subscribePath, SUBSCRIPTIONS_PATH } from './channelText';
import { formatDay } from './readerDates';
import { accessRequestedText, providedByText, subscribedText } from './subscriptionText';
import {
  RequestChannelAccessDocument,
  SubscribeToFreeChannelDocument,
  type ChannelCardActions_ChannelFragment,
} from './__generated__/ChannelCardActions.generated';
import '../reader.css';

export type ChannelCardActionsChannel = ChannelCardActions_ChannelFragment;
export type ReaderCard = ChannelCardActionsChannel['readerCard'];

export function ChannelCardActions({ channel }: { channel: ChannelCardActionsChannel }) {
  return <div className="insights-channel-card-actions">{actions(channel)}</div>;
}

/** Why the offer is back, when the reader's last subscription ended. */
function EndedNote({ ended }: { ended: ReaderCard['ended'] }) {
  if (ended === 'Expired') return <p className="insights-channel-card-note">Your subscription has expired.</p>;
  if (ended === 'Rejected') return <p className="insights-channel-card-note">Your last request was not approved.</p>;
  return null;
}

function actions(channel: ChannelCardActionsChannel) {
  const { _id: id, name, readerCard: card } = channel;
  switch (card.action) {
    case 'RequestTrial':
      return (
        <>
          <EndedNote ended={card.ended} />
          <LinkButton to={confirmTrialPath(id)} text="Request FREE trial" intent="primary" />
          <Link to={subscribePath(id)} className="insights-channel-card-pricing" aria-label={`View pricing for ${name}`}>
            View pricing
          </Link>
        </>
      );
    case 'Buy':
      return (
        <>
          <EndedNote ended={card.ended} />
          <LinkButton to={subscribePath(id)} text="Buy now" intent="primary" />
        </>
      );
    case 'SubscribeFree':
      return (
        <>
          <EndedNote ended={card.ended} />
          <SubscribeFreeButton channelId={id} name={name} />
        </>
      );
    case 'RequestAccess':
      return (
        <>
          <EndedNote ended={card.ended} />
          <RequestAccessButton channelId={id} name={name} />
        </>
      );
    case 'TrialPending':
      return <Button text="Free trial requested" disabled />;
    case 'AccessPending':
      return <Button text="Access request pending" disabled />;
    case 'Pending':
      return <Button text="Subscription pending" disabled />;
    case 'TrialActive':
      return (
        <>
          <p className="insights-channel-card-note">{card.endsAt ? `Trial ends ${formatDay(card.endsAt)}` : 'Free trial active'}</p>
          <LinkButton to={subscribePath(id)} text="Buy now" intent="primary" />
        </>
      );
    case 'AccessUntil':
      return (
        <p className="insights-channel-card-note insights-channel-card-subscribed">
          {card.endsAt ? `Access until ${formatDay(card.endsAt)}` : 'Subscription cancelled'}
        </p>
      );
    case 'Subscribed':
      return (
        <>
          <p className="insights-channel-card-subscribed">
            <Badge text="Subscribed" icon="tick" intent="success" />
            {card.summariesOnly && <span className="insights-channel-card-note"> Summaries only</span>}
          </p>
          {card.providedBy && <p className="insights-channel-card-note">{providedByText(card.providedBy)}</p>}
          {card.paymentFailed && (
            <p className="insights-channel-card-note insights-channel-card-warning">
              Payment failed. <Link to={SUBSCRIPTIONS_PATH}>Update payment details</Link>
            </p>
          )}
        </>
      );
  }
}

/** Free open channels: active at once. */
function SubscribeFreeButton({ channelId, name }: { channelId: string; name: string }) {
  const [subscribe, { loading }] = useMutation(SubscribeToFreeChannelDocument);
  const click = async () => {
    try {
      await subscribe({ variables: { channelId } });
      void showToast({ message: subscribedText(name), intent: 'success' });
    } catch (error) {
      void showToast({ message: formatError(error), intent: 'danger' });
    }
  };
  return <Button text="Subscribe for free" intent="primary" loading={loading} onClick={() => void click()} />;
}

/** Free closed channels: pending until staff approve it. */
function RequestAccessButton({ channelId, name }: { channelId: string; name: string }) {
  const [request, { loading }] = useMutation(RequestChannelAccessDocument);
  const click = async () => {
    try {
      await request({ variables: { channelId } });
      void showToast({ message: accessRequestedText(name), intent: 'success' });
    } catch (error) {
      void showToast({ message: formatError(error), intent: 'danger' });
    }
  };
  return <Button text="Request access" intent="primary" loading={loading} onClick={() => void click()} />;
}

export const CHANNEL_CARD_ACTIONS_FRAGMENT = gql`
  fragment ChannelCardActions_channel on Channel {
    _id
    name
    readerCard {
      action
      ended
      endsAt
      paymentFailed
      summariesOnly
      providedBy
    }
  }
`;

/**
 * What a subscription change answers with: the channel's new card and alerts (spec: 'refetch the
 * affected channel'), written over the cached channel by id.
 */
export const CHANNEL_AFTER_CHANGE_FRAGMENT = gql`
  fragment ChannelAfterChange_channel on Channel {
    _id
    ...ChannelCardActions_channel
    ...ChannelAlerts_channel
  }
`;

export const SUBSCRIBE_TO_FREE_CHANNEL_MUTATION = gql`
  mutation SubscribeToFreeChannel($channelId: ID!) {
    createOpenFreeChannelSubscription(item: { channelId: $channelId }) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;

export const REQUEST_CHANNEL_ACCESS_MUTATION = gql`
  mutation RequestChannelAccess($channelId: ID!) {
    requestFreeClosedSubscription(channelId: $channelId) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;
