//! A channel as a reader sees it (spec 3 §4 'Channel card for a reader'): image, name linking to the
//! channel page, type, price and description, and the action the server's state machine offers
//! for the reader's subscription (`ChannelCardActions`, from `Channel.readerCard`).
import { gql } from '@apollo/client';
import { useId } from 'react';
import { Link } from 'react-router';
import { Badge, Card } from '../../../components/Card';
import { ChannelCardActions } from './ChannelCardActions';
import { channelPath, channelTypeLabel, imageUrl, priceText } from './channelText';
import type { ChannelCard_ChannelFragment } from './__generated__/ChannelCard.generated';
import '../reader.css';

export type ChannelCardChannel = ChannelCard_ChannelFragment;

export interface ChannelCardProps {
  channel: ChannelCardChannel;
  headingLevel?: 2 | 3 | 4;
  /** Hide the description (narrow sidebars). */
  compact?: boolean;
}

export function ChannelCard({ channel, headingLevel = 3, compact = false }: ChannelCardProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
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
      <ChannelCardActions channel={channel} />
    </Card>
  );
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
    ...ChannelCardActions_channel
  }
`;
