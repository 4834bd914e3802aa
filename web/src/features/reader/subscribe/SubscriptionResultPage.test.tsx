import type { MockLink } from '@apollo/client/testing';
import { screen } from '@testing-library/react';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { READER_IDS, readerCard } from '../testData';
import { subscriptionResult } from './SubscriptionResultPage';
import { SubscriptionResultPageDocument } from './__generated__/SubscriptionResultPage.generated';

const ID = READER_IDS.oilChannel;

function pageMock(errors?: GraphQLError[]): MockLink.MockedResponse {
  const channel = { __typename: 'Channel', _id: ID, name: 'Oil Weekly', readerCard: readerCard({ action: 'Subscribed' }) };
  return {
    request: { query: SubscriptionResultPageDocument, variables: { id: ID } },
    result: errors ? { errors } : { data: { channel } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function open(status: string, mocks = [pageMock()], id: string = ID) {
  return renderApp({ path: `/browse/channel/${id}/${status}`, user: testUser('Subscriber'), mocks });
}

describe('Subscription result page', () => {
  it('confirms a subscription with View Channel', async () => {
    open('subscribed');
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed', level: 1 })).toBeInTheDocument();
    expect(
      screen.getByText('You are now subscribed to Oil Weekly. Change your subscriptions and email preferences at any time.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Channel' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(screen.queryByRole('link', { name: 'Browse Insights' })).not.toBeInTheDocument();
  });

  it('confirms an invoice request with View Channel', async () => {
    open('paying-invoice-requested');
    expect(await screen.findByRole('heading', { name: 'Invoice requested', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Your request to pay for Oil Weekly by invoice has been received\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Channel' })).toHaveAttribute('href', `/browse/channel/${ID}`);
  });

  it.each(['unsubscribed', 'canceled', 'anything'])('treats %s as unsubscribed, with Browse Insights', async (status) => {
    open(status);
    expect(await screen.findByRole('heading', { name: 'Unsubscribed', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('You are not subscribed to Oil Weekly')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Insights' })).toHaveAttribute('href', '/channels');
    expect(screen.queryByRole('link', { name: 'View Channel' })).not.toBeInTheDocument();
  });

  it("shows 'Channel not found' for a bad id and for NOT_FOUND", async () => {
    const { unmount } = open('subscribed', [], 'nope');
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
    unmount();
    open('subscribed', [pageMock([new GraphQLError('Channel not found', { extensions: { code: 'NOT_FOUND' } })])]);
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
  });

  it('reads the status', () => {
    expect(subscriptionResult('subscribed')).toBe('subscribed');
    expect(subscriptionResult('paying-invoice-requested')).toBe('paying-invoice-requested');
    expect(subscriptionResult('Subscribed')).toBe('unsubscribed');
    expect(subscriptionResult(undefined)).toBe('unsubscribed');
  });
});
