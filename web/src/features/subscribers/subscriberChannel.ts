//! The channel every subscriber screen loads first (spec 3 §2, §6): its name for the breadcrumb,
//! its type (premium channels have payment categories), its price and trial days for the form,
//! and who may manage its subscribers. Each screen's query spreads `SubscriberChannel`.
import { gql } from '@apollo/client';
import type { SessionUser } from '../../lib/session';
import type { SubscriberChannelFragment } from './__generated__/subscriberChannel.generated';

export type SubscriberChannel = SubscriberChannelFragment;

/**
 * What the signed-in user may do with a channel's subscribers: an Administrator any channel, an
 * Editor those they administer ('forbidden' otherwise: the screen goes back to the list; the
 * server answers FORBIDDEN too); an archived channel is read-only.
 */
export function channelAccess(
  channel: Pick<SubscriberChannel, 'state' | 'adminUsers'>,
  me: Pick<SessionUser, '_id' | 'role'>,
): 'manage' | 'archived' | 'forbidden' {
  const allowed = me.role === 'Administrator' || channel.adminUsers.some((u) => u._id === me._id);
  if (!allowed) return 'forbidden';
  return channel.state === 'archived' ? 'archived' : 'manage';
}

export const SUBSCRIBER_CHANNEL_FRAGMENT = gql`
  fragment SubscriberChannel on Channel {
    _id
    name
    type
    state
    price
    defaultTrialDurationDays
    adminUsers {
      _id
      name
      email
    }
  }
`;
