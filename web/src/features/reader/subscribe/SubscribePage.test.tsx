import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { SubscribeToFreeChannelDocument } from '../common/__generated__/ChannelCardActions.generated';
import { changedChannel, channel, READER_IDS, readerCard } from '../testData';
import { CheckoutPageDocument } from './__generated__/CheckoutPage.generated';
import { SubscribePageDocument } from './__generated__/SubscribePage.generated';

const ID = READER_IDS.oilChannel;
const PATH = `/subscribe/channel/${ID}`;

type PageChannel = ReturnType<typeof channel> & { state?: string };

function pageMock(c: PageChannel | null, errors?: GraphQLError[]): MockLink.MockedResponse {
  return {
    request: { query: SubscribePageDocument, variables: { id: ID } },
    result: errors ? { errors } : { data: { channel: { state: 'active', ...c } } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function open(mocks: MockLink.MockedResponse[], path = PATH, width?: number) {
  return renderApp({ path, user: testUser('Subscriber'), mocks, width });
}

const buttons = () => within(screen.getByRole('region', { name: /access/ }));

describe('Channel subscription page', () => {
  it('shows a premium channel: breadcrumb, price excluding tax, benefits, buy and trial', async () => {
    open([pageMock(channel())]);
    expect(await screen.findByRole('heading', { name: 'Subscribe to Oil Weekly', level: 1 })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'All channels' })).toHaveAttribute('href', '/channels');
    expect(crumbs.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(crumbs.getByText('Subscribe')).toHaveAttribute('aria-current', 'page');

    expect(screen.getByText('$49.00').closest('p')).toHaveTextContent('$49.00 per month, excluding tax');
    expect(within(screen.getByRole('list', { name: 'Benefits' })).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    expect(buttons().getByRole('link', { name: 'Buy Premium access' })).toHaveAttribute('href', `/subscribe/channel/confirm/${ID}`);
    expect(buttons().getByRole('link', { name: 'Request FREE trial now' })).toHaveAttribute(
      'href',
      `/subscribe/channel/confirm-trial/${ID}`,
    );
    expect(buttons().getByRole('link', { name: 'Register your interest' })).toHaveAttribute(
      'href',
      `/subscribe/channel/confirm-interest/${ID}`,
    );
    expect(screen.queryByText('Free trial requested')).not.toBeInTheDocument();
  });

  it('offers no trial once the server no longer does', async () => {
    open([pageMock(channel({ readerCard: readerCard({ action: 'Buy', ended: 'Expired' }) }))]);
    expect(await screen.findByRole('link', { name: 'Buy Premium access' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Request FREE trial now' })).not.toBeInTheDocument();
  });

  it('says a trial request is pending after ?trial', async () => {
    open([pageMock(channel({ readerCard: readerCard({ action: 'TrialPending' }) }))], `${PATH}?trial`);
    expect(await screen.findByText('Free trial requested')).toBeInTheDocument();
    expect(screen.getByText(/Your request for a free trial of Oil Weekly has been sent and is pending approval\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy Premium access' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Request FREE trial now' })).not.toBeInTheDocument();
  });

  it('shows a subscribed reader their access instead of the offer', async () => {
    open([pageMock(channel({ readerCard: readerCard({ action: 'Subscribed' }) }))]);
    expect(await screen.findByText('You are subscribed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Channel' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(screen.queryByRole('link', { name: 'Buy Premium access' })).not.toBeInTheDocument();
  });

  it('subscribes to a free open channel and shows the new state at once', async () => {
    const free = channel({ type: 'freeOpen', price: null, readerCard: readerCard({ action: 'SubscribeFree' }) });
    const subscribe: MockLink.MockedResponse = {
      request: { query: SubscribeToFreeChannelDocument, variables: { channelId: ID } },
      result: {
        data: {
          createOpenFreeChannelSubscription: {
            __typename: 'ChannelSubscription',
            channelId: ID,
            channel: changedChannel(free, readerCard({ action: 'Subscribed' })),
          },
        },
      },
    };
    open([pageMock(free), subscribe], PATH, 360);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe for free' }));
    expect(
      await screen.findByText('You are now subscribed to Oil Weekly. Change your subscriptions and email preferences at any time.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Subscribe for free' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Free access' })).getByText('Subscribed')).toBeInTheDocument();
    expect(screen.queryByText(/per month/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Buy Premium access' })).not.toBeInTheDocument();
  });

  it('offers an access request on a free closed channel', async () => {
    open([pageMock(channel({ type: 'freeClosed', price: null, readerCard: readerCard({ action: 'RequestAccess' }) }))]);
    expect(await screen.findByRole('button', { name: 'Request access' })).toBeEnabled();
    expect(screen.getByText(/the channel's team reviews each request/)).toBeInTheDocument();
  });

  it("shows 'Channel not found' for an id that is not an ObjectId and for NOT_FOUND", async () => {
    const { unmount } = open([], '/subscribe/channel/not-an-id');
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
    unmount();
    open([pageMock(null, [new GraphQLError('Channel not found', { extensions: { code: 'NOT_FOUND' } })])]);
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
  });

  it('leads Buy Premium access to the checkout', async () => {
    const checkout: MockLink.MockedResponse = {
      request: { query: CheckoutPageDocument, variables: { id: ID } },
      result: {
        data: {
          channel: { ...channel(), state: 'active' },
          stripeTaxCountries: [],
          isoCountries: [],
          myBillingAccounts: [],
        },
      },
    };
    open([pageMock(channel()), checkout]);
    await userEvent.click(await screen.findByRole('link', { name: 'Buy Premium access' }));
    expect(await screen.findByRole('list', { name: 'Checkout steps' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Step 1 of 3: Business and tax identification' })).toBeInTheDocument();
  });
});
