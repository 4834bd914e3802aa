import { describe, expect, it } from 'vitest';
import { channel, subscription } from '../testData';
import { channelCardState } from './channelCardState';

const NOW = new Date(2026, 2, 5, 12, 0);
const LATER = new Date(2026, 3, 1, 23, 59).toISOString();
const EARLIER = new Date(2026, 2, 1).toISOString();

describe('channelCardState', () => {
  it('offers a free trial on a premium channel without a subscription', () => {
    expect(channelCardState(channel({ type: 'premium' }), NOW)).toEqual({ kind: 'requestTrial', ended: null });
  });

  it('offers a free subscription on a free open channel', () => {
    expect(channelCardState(channel({ type: 'freeOpen', price: null }), NOW)).toEqual({ kind: 'subscribeFree', ended: null });
  });

  it('offers an access request on a free closed channel', () => {
    expect(channelCardState(channel({ type: 'freeClosed', price: null }), NOW)).toEqual({ kind: 'requestAccess', ended: null });
  });

  it('shows a pending trial request', () => {
    const sub = subscription({ subscriptionType: 'trial', subscriptionState: 'pending', isActive: false });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'trialPending' });
  });

  it('shows a pending free closed request', () => {
    const sub = subscription({ subscriptionType: 'free', subscriptionState: 'pending', isActive: false });
    expect(channelCardState(channel({ type: 'freeClosed', userChannelSubscription: sub }), NOW)).toEqual({ kind: 'accessPending' });
  });

  it('shows another pending subscription as pending', () => {
    const sub = subscription({ subscriptionType: 'external', subscriptionState: 'pending', isActive: false });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'pending' });
  });

  it('shows an active trial with its end date', () => {
    const sub = subscription({ subscriptionType: 'trial', cancelAt: LATER });
    expect(channelCardState(channel({ isCurrentUserSubscribed: true, userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'trialActive',
      endsAt: LATER,
    });
  });

  it.each(['stripe', 'account', 'external', 'nonCharge', 'free'] as const)('shows an active %s subscription as subscribed', (type) => {
    const sub = subscription({ subscriptionType: type });
    expect(channelCardState(channel({ isCurrentUserSubscribed: true, userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'subscribed',
      paymentFailed: false,
      summariesOnly: false,
    });
  });

  it('marks a subscription that gives summaries only', () => {
    const sub = subscription({ isFullArticleContent: false });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toMatchObject({ kind: 'subscribed', summariesOnly: true });
  });

  it('shows access until the end of the period after cancelling', () => {
    const sub = subscription({ cancelAtPeriodEnd: true, cancelAt: LATER });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'accessUntil', until: LATER });
  });

  it('keeps a subscription with a failed payment, with a warning', () => {
    const sub = subscription({ subscriptionState: 'paymentFailed', isActive: false });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'subscribed',
      paymentFailed: true,
      summariesOnly: false,
    });
  });

  it('shows no payment warning when a failed payment is cancelled at period end', () => {
    const sub = subscription({ subscriptionState: 'paymentFailed', isActive: false, cancelAtPeriodEnd: true, cancelAt: LATER });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'accessUntil', until: LATER });
  });

  it.each(['expired', 'canceled', 'rejected'] as const)('offers the subscribe button again after a %s subscription', (state) => {
    const sub = subscription({ subscriptionType: 'trial', subscriptionState: state, isActive: false });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'requestTrial', ended: state });
    expect(channelCardState(channel({ type: 'freeOpen', userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'subscribeFree',
      ended: state,
    });
    expect(channelCardState(channel({ type: 'freeClosed', userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'requestAccess',
      ended: state,
    });
  });

  it('treats an active subscription past its end as expired', () => {
    const sub = subscription({ subscriptionType: 'trial', cancelAt: EARLIER });
    expect(channelCardState(channel({ userChannelSubscription: sub }), NOW)).toEqual({ kind: 'requestTrial', ended: 'expired' });
  });

  it('treats an active subscription the server no longer counts as expired', () => {
    const sub = subscription({ isActive: false });
    expect(channelCardState(channel({ type: 'freeOpen', userChannelSubscription: sub }), NOW)).toEqual({
      kind: 'subscribeFree',
      ended: 'expired',
    });
  });

  it('trusts isCurrentUserSubscribed when there is no subscription record', () => {
    expect(channelCardState(channel({ isCurrentUserSubscribed: true }), NOW)).toMatchObject({ kind: 'subscribed' });
  });
});
