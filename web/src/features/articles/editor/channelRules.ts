//! The channel rules of the article editor (spec 2 §4): a new channel resets open-to-all, the
//! expiry offset and the contributors and brings its owner as the publisher; open-to-all clears the
//! expiry offset; the premium flag goes to the server only for channels that are not freeOpen.
//! The publisher itself is set by the server from the channel: the form only shows it.
import type { ArticleValues, ExpiryOffset } from './articleValues';

export type ChannelType = 'premium' | 'freeOpen' | 'freeClosed';

/** A channel as the editor offers it: the owner is who publishes the article. */
export interface ChannelChoice {
  _id: string;
  name: string;
  type: ChannelType;
  owner: { _id: string; name: string } | null;
}

/** A channel of `me.channelsToPublish`. */
export interface PublishableChannel {
  _id: string;
  name: string;
  type: ChannelType;
  owner: { _id: string; name: string };
}

export function toChannelChoice(channel: PublishableChannel): ChannelChoice {
  return { _id: channel._id, name: channel.name, type: channel.type, owner: { _id: channel.owner._id, name: channel.owner.name } };
}

/**
 * The channels the select offers: those the user may publish to, plus the article's own channel
 * when it is not among them (an Administrator's or an older article), so it is never lost.
 */
export function channelOptions(publishable: readonly ChannelChoice[], current: ChannelChoice | null): ChannelChoice[] {
  if (!current || publishable.some((c) => c._id === current._id)) return [...publishable];
  return [...publishable, current];
}

/** Another channel: open-to-all, the expiry offset and the contributors start again. */
export function changeChannel(values: ArticleValues, channel: ChannelChoice | null): ArticleValues {
  if ((channel?._id ?? null) === (values.channel?._id ?? null)) return values;
  return { ...values, channel, openToAll: false, premiumExpiryOffset: null, contributors: [] };
}

/** Open-to-all on or off: the expiry offset is cleared either way. */
export function changeOpenToAll(values: ArticleValues, openToAll: boolean): ArticleValues {
  return { ...values, openToAll, premiumExpiryOffset: null };
}

/** The open-to-all checkbox is offered for channels that are not freeOpen. */
export function offersOpenToAll(channel: ChannelChoice | null): boolean {
  return !!channel && channel.type !== 'freeOpen';
}

/** The expiry offset is offered for a premium channel's article that is not open to all. */
export function offersExpiryOffset(values: Pick<ArticleValues, 'channel' | 'openToAll'>): boolean {
  return values.channel?.type === 'premium' && !values.openToAll;
}

/** `isPremium` to send: the inverse of open-to-all for channels that are not freeOpen, otherwise null. */
export function premiumFlag(values: Pick<ArticleValues, 'channel' | 'openToAll'>): boolean | null {
  return offersOpenToAll(values.channel) ? !values.openToAll : null;
}

/** `premiumExpiryOffset` to send: only where the select is offered. */
export function expiryOffsetToSend(values: Pick<ArticleValues, 'channel' | 'openToAll' | 'premiumExpiryOffset'>): ExpiryOffset | null {
  return offersExpiryOffset(values) ? values.premiumExpiryOffset : null;
}
