//! A channel as a reader sees it (spec 3 §4 'Channel card for a reader'): image, name linking to the
//! channel page, type, price and description, and the action for the reader's subscription state
//! (`channelCardState`): request a trial, subscribe, request access, a disabled pending button,
//! the trial's end with 'Buy now', 'Subscribed', or 'Access until {date}'.
import { gql } from '@apollo/client';
import { useId } from 'react';
import { Link } from 'react-router';
import { Badge, Card } from '../../../components/Card';
import { Button } from '../../../components/Button';
import { LinkButton } from '../../../components/LinkButton';
import { channelCardState, type ChannelCardState } from './channelCardState';
import { channelPath, channelTypeLabel, confirmTrialPath, imageUrl, priceText, subscribePath, SUBSCRIPTIONS_PATH } from './channelText';
import { formatDay } from './readerDates';
import type { ChannelCard_ChannelFragment } from './__generated__/ChannelCard.generated';
import '../reader.css';

export type ChannelCardChannel = ChannelCard_ChannelFragment;

export interface ChannelCardProps {
  channel: ChannelCardChannel;
  headingLevel?: 2 | 3 | 4;
  /** Hide the description (narrow sidebars). */
  compact?: boolean;
  now?: Date;
}

export function ChannelCard({ channel, headingLevel = 3, compact = false, now }: ChannelCardProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  const state = channelCardState(channel, now);
  const image = imageUrl(channel.profileImage);
  const price = channel.type === 'premium' ? priceText(channel.price) : '';
  return (
    <Card className="insights-reader-card insights-channel-card" labelledBy={titleId}>
      <div className="insights-channel-card-head">
        {image ? (
          <img className="insights-channel-card-image" src={image} alt="" />
        ) : (
          <span className="insights-channel-card-image" aria-hidden />
        )}
        <div className="insights-channel-card-name">
          <Heading id={titleId} className="insights-channel-card-title">
            <Link to={channelPath(channel._id)}>{channel.name}</Link>
          </Heading>
          <Badge
            text={channelTypeLabel(channel.type)}
            icon={channel.type === 'premium' ? 'star' : undefined}
            intent={channel.type === 'premium' ? 'primary' : 'success'}
          />
        </div>
      </div>
      {!compact && channel.description && <p className="insights-channel-card-description">{channel.description}</p>}
      {price && <p className="insights-channel-card-price">{price}</p>}
      <ChannelCardActions channelId={channel._id} channelName={channel.name} state={state} />
    </Card>
  );
}

/** The buttons and notes for one state; exported for the channel page's cover card. */
export function ChannelCardActions({ channelId, channelName, state }: { channelId: string; channelName: string; state: ChannelCardState }) {
  return <div className="insights-channel-card-actions">{actions(channelId, channelName, state)}</div>;
}

function endedNote(ended: 'expired' | 'canceled' | 'rejected' | null) {
  if (ended === 'expired') return <p className="insights-channel-card-note">Your subscription has expired.</p>;
  if (ended === 'rejected') return <p className="insights-channel-card-note">Your last request was not approved.</p>;
  return null;
}

function actions(id: string, name: string, state: ChannelCardState) {
  switch (state.kind) {
    case 'requestTrial':
      return (
        <>
          {endedNote(state.ended)}
          <LinkButton to={confirmTrialPath(id)} text="Request FREE trial" intent="primary" />
          <Link to={subscribePath(id)} className="insights-channel-card-pricing" aria-label={`View pricing for ${name}`}>
            View pricing
          </Link>
        </>
      );
    case 'subscribeFree':
      return (
        <>
          {endedNote(state.ended)}
          <LinkButton to={subscribePath(id)} text="Subscribe for free" intent="primary" />
        </>
      );
    case 'requestAccess':
      return (
        <>
          {endedNote(state.ended)}
          <LinkButton to={subscribePath(id)} text="Request access" intent="primary" />
        </>
      );
    case 'trialPending':
      return <Button text="Free trial requested" disabled />;
    case 'accessPending':
      return <Button text="Access request pending" disabled />;
    case 'pending':
      return <Button text="Subscription pending" disabled />;
    case 'trialActive':
      return (
        <>
          <p className="insights-channel-card-note">{state.endsAt ? `Trial ends ${formatDay(state.endsAt)}` : 'Free trial active'}</p>
          <LinkButton to={subscribePath(id)} text="Buy now" intent="primary" />
        </>
      );
    case 'accessUntil':
      return <p className="insights-channel-card-note insights-channel-card-subscribed">Access until {formatDay(state.until)}</p>;
    case 'subscribed':
      return (
        <>
          <p className="insights-channel-card-subscribed">
            <Badge text="Subscribed" icon="tick" intent="success" />
            {state.summariesOnly && <span className="insights-channel-card-note"> Summaries only</span>}
          </p>
          {state.paymentFailed && (
            <p className="insights-channel-card-note insights-channel-card-warning">
              Payment failed. <Link to={SUBSCRIPTIONS_PATH}>Update payment details</Link>
            </p>
          )}
        </>
      );
  }
}

export const CHANNEL_CARD_FRAGMENT = gql`
  fragment ChannelCard_channel on Channel {
    _id
    name
    description
    type
    price
    profileImage
    coverImage
    defaultTrialDurationDays
    isCurrentUserSubscribed
    userChannelSubscription {
      channelId
      subscriptionType
      subscriptionState
      cancelAt
      cancelAtPeriodEnd
      isActive
      isFullArticleContent
    }
  }
`;
