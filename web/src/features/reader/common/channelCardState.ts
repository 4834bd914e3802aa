//! What a reader's channel card offers (spec 3 §4 'Channel card for a reader', 'Subscription state
//! helper'): one pure function from the channel and the reader's subscription to one state. The
//! server's own state machine arrives in a later issue; this function is the one place to swap.
import type { ChannelKind } from './channelText';

type SubscriptionType = 'stripe' | 'account' | 'external' | 'nonCharge' | 'trial' | 'free';
type SubscriptionState = 'active' | 'canceled' | 'rejected' | 'expired' | 'pending' | 'paymentFailed';

/** The fields the derivation reads (a structural subset of `ChannelCard_channel`). */
export interface ChannelForState {
  type: ChannelKind;
  isCurrentUserSubscribed: boolean;
  userChannelSubscription?: {
    subscriptionType: SubscriptionType;
    subscriptionState: SubscriptionState;
    cancelAt?: string | null;
    cancelAtPeriodEnd: boolean;
    isActive: boolean;
    isFullArticleContent: boolean;
  } | null;
}

/** A subscription that ended: the subscribe offer comes back. */
export type EndedState = 'expired' | 'canceled' | 'rejected';

export type ChannelCardState =
  /** Premium, nothing held: 'Request FREE trial' and the pricing link. */
  | { kind: 'requestTrial'; ended: EndedState | null }
  /** Free open: 'Subscribe for free'. */
  | { kind: 'subscribeFree'; ended: EndedState | null }
  /** Free closed: 'Request access'. */
  | { kind: 'requestAccess'; ended: EndedState | null }
  /** A trial request waits for staff: the button is disabled. */
  | { kind: 'trialPending' }
  /** A free-closed request waits for staff: 'Access request pending', disabled. */
  | { kind: 'accessPending' }
  /** Any other subscription waiting to start (an invoice requested). */
  | { kind: 'pending' }
  /** 'Trial ends {date}' and 'Buy now'. */
  | { kind: 'trialActive'; endsAt: string | null }
  /** Cancelled at the end of the billing period: 'Access until {date}'. */
  | { kind: 'accessUntil'; until: string }
  /** 'Subscribed'; a failed payment adds a warning (not when cancelling at period end). */
  | { kind: 'subscribed'; paymentFailed: boolean; summariesOnly: boolean };

export type ChannelCardStateKind = ChannelCardState['kind'];

function offer(type: ChannelKind, ended: EndedState | null): ChannelCardState {
  switch (type) {
    case 'premium':
      return { kind: 'requestTrial', ended };
    case 'freeOpen':
      return { kind: 'subscribeFree', ended };
    case 'freeClosed':
      return { kind: 'requestAccess', ended };
  }
}

export function channelCardState(channel: ChannelForState, now: Date = new Date()): ChannelCardState {
  const sub = channel.userChannelSubscription ?? null;
  if (!sub) {
    // No subscription record but the server says subscribed: trust the server.
    return channel.isCurrentUserSubscribed ? { kind: 'subscribed', paymentFailed: false, summariesOnly: false } : offer(channel.type, null);
  }
  const cancelAt = sub.cancelAt ? new Date(sub.cancelAt) : null;
  const pastCancelAt = !!cancelAt && !Number.isNaN(cancelAt.getTime()) && cancelAt.getTime() <= now.getTime();

  switch (sub.subscriptionState) {
    case 'pending':
      if (sub.subscriptionType === 'trial') return { kind: 'trialPending' };
      if (channel.type === 'freeClosed' || sub.subscriptionType === 'free') return { kind: 'accessPending' };
      return { kind: 'pending' };
    case 'expired':
    case 'canceled':
    case 'rejected':
      return offer(channel.type, sub.subscriptionState);
    case 'active':
    case 'paymentFailed': {
      // Active means giving access now: the server's isActive, and not past cancelAt here either
      // (a page left open past the end date).
      const gives = sub.subscriptionState === 'paymentFailed' ? !pastCancelAt : sub.isActive && !pastCancelAt;
      if (!gives) return offer(channel.type, 'expired');
      if (sub.subscriptionType === 'trial') return { kind: 'trialActive', endsAt: sub.cancelAt ?? null };
      if (sub.cancelAtPeriodEnd && sub.cancelAt) return { kind: 'accessUntil', until: sub.cancelAt };
      return { kind: 'subscribed', paymentFailed: sub.subscriptionState === 'paymentFailed', summariesOnly: !sub.isFullArticleContent };
    }
  }
}
