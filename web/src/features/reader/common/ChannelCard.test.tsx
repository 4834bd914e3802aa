import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { changedChannel, channel, READER_IDS, readerCard, renderInRouter } from '../testData';
import { ChannelCard, type ChannelCardChannel } from './ChannelCard';
import { RequestChannelAccessDocument, SubscribeToFreeChannelDocument } from './__generated__/ChannelCardActions.generated';

const ID = READER_IDS.oilChannel;
const LATER = new Date(2026, 3, 1, 23, 59).toISOString();

function renderCard(c: ChannelCardChannel, mocks: MockLink.MockedResponse[] = []) {
  renderInRouter(<ChannelCard channel={c} />, mocks);
  return within(screen.getByRole('article', { name: c.name }));
}

describe('ChannelCard', () => {
  it('links the name to the channel page and shows the price of a premium channel', () => {
    const card = renderCard(channel());
    expect(card.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(card.getByText('$49.00 per month excluding tax')).toBeInTheDocument();
    expect(card.getByText('Premium')).toBeInTheDocument();
  });

  it('RequestTrial: offers a free trial through the confirm page, and the pricing', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'RequestTrial' }) }));
    expect(card.getByRole('link', { name: 'Request FREE trial' })).toHaveAttribute('href', `/subscribe/channel/confirm-trial/${ID}`);
    expect(card.getByRole('link', { name: 'View pricing for Oil Weekly' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
    expect(card.queryByText(/expired|not approved/)).not.toBeInTheDocument();
  });

  it('Buy: offers buying after a trial, saying the trial expired', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'Buy', ended: 'Expired' }) }));
    expect(card.getByText('Your subscription has expired.')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
    expect(card.queryByRole('link', { name: 'Request FREE trial' })).not.toBeInTheDocument();
  });

  it('SubscribeFree: subscribes at once and says so', async () => {
    const free = channel({ type: 'freeOpen', price: null, readerCard: readerCard({ action: 'SubscribeFree' }) });
    let calls = 0;
    const mock: MockLink.MockedResponse = {
      request: { query: SubscribeToFreeChannelDocument, variables: { channelId: ID } },
      result: () => {
        calls += 1;
        const answer = changedChannel(free, readerCard({ action: 'Subscribed' }));
        return { data: { createOpenFreeChannelSubscription: { __typename: 'ChannelSubscription', channelId: ID, channel: answer } } };
      },
    };
    const card = renderCard(free, [mock]);
    expect(card.getByText('Free')).toBeInTheDocument();
    expect(card.queryByText(/per month/)).not.toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Subscribe for free' }));
    expect(
      await screen.findByText('You are now subscribed to Oil Weekly. Change your subscriptions and email preferences at any time.'),
    ).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('RequestAccess: asks for access and shows the server message when refused', async () => {
    const closed = channel({ type: 'freeClosed', price: null, readerCard: readerCard({ action: 'RequestAccess', ended: 'Rejected' }) });
    const mock: MockLink.MockedResponse = {
      request: { query: RequestChannelAccessDocument, variables: { channelId: ID } },
      result: {
        errors: [new GraphQLError('This channel is archived and can no longer be changed.', { extensions: { code: 'CONFLICT' } })],
      },
    };
    const card = renderCard(closed, [mock]);
    expect(card.getByText('Your last request was not approved.')).toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('CONFLICT::This channel is archived and can no longer be changed.')).toBeInTheDocument();
  });

  it('shows no note after a cancelled subscription', () => {
    const card = renderCard(channel({ type: 'freeOpen', readerCard: readerCard({ action: 'SubscribeFree', ended: 'Canceled' }) }));
    expect(card.getByRole('button', { name: 'Subscribe for free' })).toBeEnabled();
    expect(card.queryByText(/expired|not approved/)).not.toBeInTheDocument();
  });

  it.each([
    ['TrialPending', 'Free trial requested'],
    ['AccessPending', 'Access request pending'],
    ['Pending', 'Subscription pending'],
  ] as const)('%s: disables the button', (action, text) => {
    const card = renderCard(channel({ readerCard: readerCard({ action }) }));
    expect(card.getByRole('button', { name: text })).toBeDisabled();
    expect(card.queryByRole('link', { name: /trial|buy/i })).not.toBeInTheDocument();
  });

  it('TrialActive: shows the end of the trial and Buy now', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'TrialActive', endsAt: LATER }) }));
    expect(card.getByText('Trial ends 01 Apr 2026')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it('AccessUntil: shows the last day of access', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'AccessUntil', endsAt: LATER }) }));
    expect(card.getByText('Access until 01 Apr 2026')).toBeInTheDocument();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
    expect(card.queryByRole('link', { name: /trial|buy/i })).not.toBeInTheDocument();
  });

  it('Subscribed: shows the badge and no subscribe action', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'Subscribed' }) }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
    expect(card.queryByText('Summaries only')).not.toBeInTheDocument();
    expect(card.queryByRole('link', { name: /trial|subscribe|buy|payment/i })).not.toBeInTheDocument();
  });

  it('Subscribed: warns about a failed payment and marks summaries only', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'Subscribed', paymentFailed: true, summariesOnly: true }) }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
    expect(card.getByText('Summaries only')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Update payment details' })).toHaveAttribute('href', '/subscriptions');
  });

  it("Subscribed through a firm's seat: says which firm provides it, with nothing to buy or cancel", () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'Subscribed', providedBy: 'Acme Bank', endsAt: LATER }) }));
    expect(card.getByText('Subscribed')).toBeInTheDocument();
    expect(card.getByText('Provided by Acme Bank')).toBeInTheDocument();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
    expect(card.queryByRole('link', { name: /trial|subscribe|buy|cancel|pricing/i })).not.toBeInTheDocument();
  });

  it('Subscribed on their own: no firm named', () => {
    const card = renderCard(channel({ readerCard: readerCard({ action: 'Subscribed' }) }));
    expect(card.queryByText(/Provided by/)).not.toBeInTheDocument();
  });
});
