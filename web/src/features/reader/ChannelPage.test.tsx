import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { PAYMENT_FAILED_TEXT } from './common/subscriptionText';
import { articleId, card, cards, channel, READER_IDS, readerCard } from './testData';
import type { ChannelCardChannel } from './common/ChannelCard';
import { ChannelArticlesDocument, type ChannelArticlesQueryVariables } from './__generated__/ChannelArticles.generated';
import { ChannelPageScreenDocument } from './__generated__/ChannelPage.generated';
import { ChannelSidebarDocument } from './__generated__/ChannelSidebar.generated';
import { ChannelsScreenDocument } from './__generated__/Channels.generated';
import { SubscriptionResultPageDocument } from './subscribe/__generated__/SubscriptionResultPage.generated';

const ID = READER_IDS.oilChannel;
const PATH = `/browse/channel/${ID}`;

interface Status {
  expiredAlert?: boolean;
  paymentFailedAlert?: boolean;
  trial?: 'Pending' | 'Active' | 'Expired' | null;
}

/** The channel as the page's query answers it; `status` is the server's view of the reader's subscription. */
function pageChannel(overrides: Partial<ChannelCardChannel> & { state?: string } = {}, status?: Status) {
  return {
    ...channel({ coverImage: 'cover.png' }),
    state: 'active',
    ...overrides,
    userChannelSubscription: status
      ? {
          __typename: 'ChannelSubscription',
          channelId: ID,
          status: { __typename: 'SubscriptionStatus', expiredAlert: false, paymentFailedAlert: false, trial: null, ...status },
        }
      : null,
  };
}

function pageMock(data: Record<string, unknown> | null, errors?: GraphQLError[]): MockLink.MockedResponse {
  return {
    request: { query: ChannelPageScreenDocument, variables: { id: ID } },
    result: errors ? { errors } : { data },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

const screenData = (c = pageChannel(), charts = [card({ _id: articleId(90), title: 'Chart of the week' })]) => ({
  channel: c,
  getChartsArticles: charts,
});

function articlesMock(
  calls: ChannelArticlesQueryVariables[],
  answer: (v: ChannelArticlesQueryVariables) => { docs: ReturnType<typeof card>[]; next?: string },
) {
  return {
    request: { query: ChannelArticlesDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: ChannelArticlesQueryVariables) => {
      calls.push(variables);
      const { docs, next } = answer(variables);
      return {
        data: {
          searchArticles: {
            __typename: 'SearchArticlesResult',
            totalCount: 25,
            pageInfo: { __typename: 'PageInfo', endCursor: next ?? null, hasNextPage: !!next },
            documents: docs.map((article) => ({ __typename: 'SearchDocument', article })),
          },
        },
      };
    },
  } as MockLink.MockedResponse;
}

const sidebarMock: MockLink.MockedResponse = {
  request: { query: ChannelSidebarDocument, variables: { channelId: ID } },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: {
    data: {
      getStatsByChannel: {
        __typename: 'ChannelStats',
        channelId: ID,
        trendingArticles: [{ __typename: 'ArticleCard', _id: articleId(80), title: 'Most read', publishDate: card().publishDate }],
      },
      allChannels: Array.from({ length: 30 }, (_, i) => ({
        __typename: 'Channel',
        _id: i === 0 ? ID : `65c1${String(i).padStart(20, '0')}`,
        name: `Channel ${i}`,
      })),
    },
  },
};

function open(mocks: MockLink.MockedResponse[], path = PATH, width?: number) {
  return renderApp({ path, user: testUser('Subscriber'), mocks, width });
}

const defaultArticles = (calls: ChannelArticlesQueryVariables[] = []) => articlesMock(calls, () => ({ docs: cards(3) }));

describe('Channel page', () => {
  it('shows the cover, charts, latest articles and sidebar', async () => {
    open([pageMock(screenData()), defaultArticles(), sidebarMock]);
    expect(await screen.findByRole('heading', { name: 'Oil Weekly', level: 1 })).toBeInTheDocument();
    expect(document.title).toBe('Oil Weekly – Insights');
    expect(screen.getByText('Crude and products, every week.')).toBeInTheDocument();
    expect(screen.getByText('$49.00 per month excluding tax')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request FREE trial' })).toHaveAttribute('href', `/subscribe/channel/confirm-trial/${ID}`);
    expect(within(screen.getByRole('list', { name: 'Charts' })).getByRole('link', { name: 'Chart of the week' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Latest articles' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Latest articles' })).getAllByRole('article')).toHaveLength(3);
    const trending = await screen.findByRole('list', { name: 'Trending in this Channel' });
    expect(within(trending).getByRole('link', { name: 'Most read' })).toHaveAttribute('href', `/browse/article/${articleId(80)}`);
    // At most 25, without the channel itself.
    const others = within(screen.getByRole('list', { name: 'Other channels' })).getAllByRole('link');
    expect(others).toHaveLength(25);
    expect(others[0]).toHaveTextContent('Channel 1');
  });

  it("shows 'Channel not found' for an id that is not an ObjectId, without a call", async () => {
    open([], '/browse/channel/not-an-id');
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse channels' })).toHaveAttribute('href', '/channels');
  });

  it("shows 'Channel not found' for NOT_FOUND", async () => {
    open([pageMock(null, [new GraphQLError('Channel not found', { extensions: { code: 'NOT_FOUND' } })]), defaultArticles(), sidebarMock]);
    expect(await screen.findByRole('heading', { name: 'Channel not found', level: 1 })).toBeInTheDocument();
  });

  it('sends an archived channel to the channels list', async () => {
    const { router } = open([
      pageMock(screenData(pageChannel({ state: 'archived' }))),
      defaultArticles(),
      sidebarMock,
      { request: { query: ChannelsScreenDocument }, result: { data: { allChannels: [] } } },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/channels'));
    expect(await screen.findByRole('heading', { name: 'Find channels and subscribe' })).toBeInTheDocument();
  });

  it('filters the latest articles by chip and loads more by cursor', async () => {
    const calls: ChannelArticlesQueryVariables[] = [];
    const articles = articlesMock(calls, (v) => {
      if (v.after === 'cursor-1') return { docs: cards(2, 11) };
      if (v.params.premiumOnly) return { docs: [card({ _id: articleId(50), title: 'Premium only', isPremium: true })] };
      return { docs: cards(10), next: 'cursor-1' };
    });
    open([pageMock(screenData()), articles, sidebarMock]);
    const list = () => within(screen.getByRole('list', { name: 'Latest articles' }));
    await screen.findByRole('list', { name: 'Latest articles' });
    expect(list().getAllByRole('article')).toHaveLength(10);
    expect(calls[0]).toMatchObject({ params: { premiumChannelId: ID, premiumOnly: false, freeOnly: false }, first: 10 });

    await userEvent.click(screen.getByRole('button', { name: 'More articles' }));
    await waitFor(() => expect(list().getAllByRole('article')).toHaveLength(12));
    expect(calls.at(-1)).toMatchObject({ after: 'cursor-1' });
    expect(screen.queryByRole('button', { name: 'More articles' })).not.toBeInTheDocument();

    await userEvent.click(within(screen.getByRole('group', { name: 'Article access' })).getByRole('button', { name: 'Premium' }));
    expect(await screen.findByRole('link', { name: 'Premium only' })).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ params: { premiumOnly: true, freeOnly: false } });

    await userEvent.click(within(screen.getByRole('group', { name: 'Article access' })).getByRole('button', { name: 'Free' }));
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ params: { premiumOnly: false, freeOnly: true } }));
  });

  it('shows the payment failure alert when the server says so', async () => {
    const c = pageChannel({ readerCard: readerCard({ action: 'Subscribed', paymentFailed: true }) }, { paymentFailedAlert: true });
    open([pageMock(screenData(c)), defaultArticles(), sidebarMock]);
    const alert = (await screen.findByText(PAYMENT_FAILED_TEXT)).closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByRole('link', { name: 'Update payment details' })).toHaveAttribute('href', '/subscriptions');
  });

  it('shows no payment failure alert when the server says none (cancelled at period end)', async () => {
    const c = pageChannel({ readerCard: readerCard({ action: 'AccessUntil', endsAt: new Date(2099, 0, 1).toISOString() }) }, {});
    open([pageMock(screenData(c)), defaultArticles(), sidebarMock]);
    expect(await screen.findByText('Access until 01 Jan 2099')).toBeInTheDocument();
    expect(screen.queryByText(PAYMENT_FAILED_TEXT)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the expired trial alert and the buy offer', async () => {
    const c = pageChannel({ readerCard: readerCard({ action: 'Buy', ended: 'Expired' }) }, { expiredAlert: true, trial: 'Expired' });
    open([pageMock(screenData(c)), defaultArticles(), sidebarMock]);
    expect(await screen.findByText(/Your free trial of this channel has expired\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Subscribe again' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
    expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
  });

  it('keeps /browse/channel/:id/subscribed for the result page', async () => {
    open(
      [
        {
          request: { query: SubscriptionResultPageDocument, variables: { id: ID } },
          result: {
            data: { channel: { __typename: 'Channel', _id: ID, name: 'Oil Weekly', readerCard: readerCard({ action: 'Subscribed' }) } },
          },
        },
      ],
      `${PATH}/subscribed`,
    );
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed', level: 1 })).toBeInTheDocument();
  });

  it('shows an empty article list at phone width', async () => {
    open([pageMock(screenData(pageChannel(), [])), articlesMock([], () => ({ docs: [] })), sidebarMock], PATH, 360);
    expect(await screen.findByText('This channel has not published any articles yet')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Charts' })).not.toBeInTheDocument();
  });
});
