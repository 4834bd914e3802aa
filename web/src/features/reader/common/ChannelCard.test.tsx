import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { channel, READER_IDS, renderInRouter, subscription } from '../testData';
import { ChannelCard, type ChannelCardChannel } from './ChannelCard';

const ID = READER_IDS.oilChannel;
const NOW = new Date(2026, 2, 5, 12, 0);
const LATER = new Date(2026, 3, 1, 23, 59).toISOString();

function renderCard(c: ChannelCardChannel) {
  renderInRouter(<ChannelCard channel={c} now={NOW} />);
  return within(screen.getByRole('article', { name: c.name }));
}

describe('ChannelCard', () => {
  it('links the name to the channel page and shows the price of a premium channel', () => {
    const card = renderCard(channel());
    expect(card.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(card.getByText('$49.00 per month excluding tax')).toBeInTheDocument();
    expect(card.getByText('Premium')).toBeInTheDocument();
  });

  it('offers a free trial and the pricing on a premium channel without a subscription', () => {
    const card = renderCard(channel());
    expect(card.getByRole('link', { name: 'Request FREE trial' })).toHaveAttribute('href', `/subscribe/channel/confirm-trial/${ID}`);
    expect(card.getByRole('link', { name: 'View pricing for Oil Weekly' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it('offers a free subscription on a free open channel', () => {
    const card = renderCard(channel({ type: 'freeOpen', price: null }));
    expect(card.getByRole('link', { name: 'Subscribe for free' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
    expect(card.getByText('Free')).toBeInTheDocument();
    expect(card.queryByText(/per month/)).not.toBeInTheDocument();
  });

  it('offers an access request on a free closed channel', () => {
    const card = renderCard(channel({ type: 'freeClosed', price: null }));
    expect(card.getByRole('link', { name: 'Request access' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it('disables the button while a free closed request is pending', () => {
    const sub = subscription({ subscriptionType: 'free', subscriptionState: 'pending', isActive: false });
    const card = renderCard(channel({ type: 'freeClosed', userChannelSubscription: sub }));
    expect(card.getByRole('button', { name: 'Access request pending' })).toBeDisabled();
  });

  it('disables the button while a trial request is pending', () => {
    const sub = subscription({ subscriptionType: 'trial', subscriptionState: 'pending', isActive: false });
    const card = renderCard(channel({ userChannelSubscription: sub }));
    expect(card.getByRole('button', { name: 'Free trial requested' })).toBeDisabled();
    expect(card.queryByRole('link', { name: 'Request FREE trial' })).not.toBeInTheDocument();
  });

  it('shows the end of an active trial and Buy now', () => {
    const sub = subscription({ subscriptionType: 'trial', cancelAt: LATER });
    const card = renderCard(channel({ isCurrentUserSubscribed: true, userChannelSubscription: sub }));
    expect(card.getByText('Trial ends 01 Apr 2026')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it('shows an active paid subscription as subscribed', () => {
    const card = renderCard(channel({ isCurrentUserSubscribed: true, userChannelSubscription: subscription() }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
    expect(card.queryByRole('link', { name: /trial|subscribe|buy/i })).not.toBeInTheDocument();
  });

  it('shows an active free subscription as subscribed', () => {
    const sub = subscription({ subscriptionType: 'free' });
    const card = renderCard(channel({ type: 'freeOpen', price: null, isCurrentUserSubscribed: true, userChannelSubscription: sub }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
  });

  it('shows access until the end of the period after cancelling', () => {
    const sub = subscription({ cancelAtPeriodEnd: true, cancelAt: LATER });
    const card = renderCard(channel({ isCurrentUserSubscribed: true, userChannelSubscription: sub }));
    expect(card.getByText('Access until 01 Apr 2026')).toBeInTheDocument();
  });

  it('warns about a failed payment', () => {
    const sub = subscription({ subscriptionState: 'paymentFailed', isActive: false });
    const card = renderCard(channel({ userChannelSubscription: sub }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Update payment details' })).toHaveAttribute('href', '/subscriptions');
  });

  it.each(['expired', 'canceled', 'rejected'] as const)('offers subscribing again after a %s subscription', (state) => {
    const sub = subscription({ subscriptionType: 'free', subscriptionState: state, isActive: false });
    const card = renderCard(channel({ type: 'freeOpen', price: null, userChannelSubscription: sub }));
    expect(card.getByRole('link', { name: 'Subscribe for free' })).toBeInTheDocument();
  });

  it('offers the trial again after an expired premium subscription, saying it expired', () => {
    const sub = subscription({ subscriptionState: 'expired', isActive: false });
    const card = renderCard(channel({ userChannelSubscription: sub }));
    expect(card.getByText('Your subscription has expired.')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Request FREE trial' })).toBeInTheDocument();
  });
});
