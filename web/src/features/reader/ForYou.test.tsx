import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { heldSubscriptions } from './ForYou';
import { card, cards, channel, READER_IDS, readerCard } from './testData';
import { ForYouRecommendedPageDocument, ForYouScreenDocument } from './__generated__/ForYou.generated';

const USER = testUser('Subscriber');
const FOLLOWED_TOPIC = '65d0000000000000000000f1';

const PREMIUM = [
  channel(),
  channel({ _id: READER_IDS.gasChannel, name: 'Gas Daily' }),
  channel({ _id: READER_IDS.metalsChannel, name: 'Metals Monthly' }),
  channel({ _id: READER_IDS.powerChannel, name: 'Power Weekly' }),
];
const FREE = [
  channel({ _id: READER_IDS.newsChannel, name: 'Energy News', type: 'freeOpen', price: null }),
  channel({ _id: READER_IDS.clubChannel, name: 'Analyst Club', type: 'freeClosed', price: null }),
];

const page = (articles: ReturnType<typeof card>[], hasMore = false) => ({ __typename: 'ReaderArticlePage', articles, hasMore });

function screenMock({ subscribed, follows = false }: { subscribed: boolean; follows?: boolean }): MockLink.MockedResponse {
  const oil = subscribed ? { ...PREMIUM[0], readerCard: readerCard({ action: 'Subscribed' }) } : PREMIUM[0];
  const subs = subscribed
    ? [
        { __typename: 'ChannelSubscription', channelId: READER_IDS.oilChannel, subscriptionState: 'active', isActive: true, channel: oil },
        // An ended subscription is not listed.
        {
          __typename: 'ChannelSubscription',
          channelId: READER_IDS.coalChannel,
          subscriptionState: 'expired',
          isActive: false,
          channel: channel({ _id: READER_IDS.coalChannel, name: 'Coal Notes' }),
        },
      ]
    : [];
  return {
    // The server picks 3 channels of each kind by the page view's seed.
    request: {
      query: ForYouScreenDocument,
      variables: ({ first, pick }) => first === 9 && pick.count === 3 && pick.seed >= 0 && pick.seed < 1,
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: {
        me: {
          __typename: 'User',
          _id: USER._id,
          channelSubscriptions: subs,
          followedCategories: follows ? [{ __typename: 'ArticleTopic', _id: FOLLOWED_TOPIC, name: 'Crude oil' }] : [],
          recommendedArticles: subscribed || follows ? cards(9) : [],
        },
        latestFree: page([card({ _id: '65d000000000000000000099', title: 'Free for all' })]),
        premiumChannels: PREMIUM.slice(1),
        freeChannels: FREE,
      },
    },
  };
}

const morePage: MockLink.MockedResponse = {
  request: { query: ForYouRecommendedPageDocument, variables: { take: 9, skip: 9 } },
  result: { data: { me: { __typename: 'User', _id: USER._id, recommendedArticles: cards(3, 10) } } },
};

function open(mocks: MockLink.MockedResponse[], width?: number) {
  return renderApp({ path: '/for-you', user: USER, mocks, width });
}

const section = (name: string) => within(screen.getByRole('region', { name }));

describe('For You', () => {
  it('shows articles and channels from the reader’s subscriptions', async () => {
    open([screenMock({ subscribed: true }), morePage]);
    expect(await screen.findByRole('heading', { name: 'All the latest market insights, tailored for you.', level: 1 })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'From your subscriptions' });
    expect(section('From your subscriptions').getAllByRole('article')).toHaveLength(9);

    const yours = section('Your channel subscriptions');
    expect(yours.getByRole('link', { name: 'Manage subscriptions' })).toHaveAttribute('href', '/subscriptions');
    expect(yours.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual(['Oil Weekly']);
    expect(yours.getByText('Subscribed')).toBeInTheDocument();

    expect(section('Latest free articles').getByRole('link', { name: 'Free for all' })).toBeInTheDocument();
    expect(screen.queryByText('You have no channel subscriptions yet')).not.toBeInTheDocument();

    const premium = section('Premium channels').getAllByRole('article');
    expect(premium.map((a) => within(a).getByRole('heading').textContent)).toEqual(['Gas Daily', 'Metals Monthly', 'Power Weekly']);
    expect(section('Premium channels').getByRole('link', { name: 'All premium channels' })).toHaveAttribute('href', '/channels?premium');
    expect(section('Free channels').getAllByRole('article')).toHaveLength(2);

    await userEvent.click(section('From your subscriptions').getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(section('From your subscriptions').getAllByRole('article')).toHaveLength(12));
    expect(section('From your subscriptions').queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('invites a reader without subscriptions to find channels', async () => {
    open([screenMock({ subscribed: false })], 360);
    expect(await screen.findByText('You have no channel subscriptions yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find channels and subscribe' })).toHaveAttribute('href', '/channels');
    expect(screen.queryByRole('region', { name: 'From your subscriptions' })).not.toBeInTheDocument();
  });

  it('recommends the articles of followed topics to a reader without subscriptions', async () => {
    open([screenMock({ subscribed: false, follows: true })]);
    await screen.findByRole('region', { name: 'From your subscriptions' });
    expect(section('From your subscriptions').getAllByRole('article')).toHaveLength(9);
    expect(screen.getByRole('link', { name: 'Find channels and subscribe' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your channel subscriptions' })).not.toBeInTheDocument();
    expect(section('Latest free articles').getAllByRole('article')).toHaveLength(1);
    expect(section('Premium channels').getAllByRole('article')).toHaveLength(3);
    expect(section('Premium channels').getAllByRole('link', { name: 'Request FREE trial' })).toHaveLength(3);
  });

  it('lists the topics the reader follows, each linking to its page, and the topics directory', async () => {
    open([screenMock({ subscribed: false, follows: true })]);
    const followed = within(await screen.findByRole('region', { name: 'Topics you follow' }));
    expect(within(followed.getByRole('list', { name: 'Topics you follow' })).getByRole('link', { name: 'Crude oil' })).toHaveAttribute(
      'href',
      `/browse/${FOLLOWED_TOPIC}`,
    );
    expect(followed.getByRole('link', { name: 'All topics' })).toHaveAttribute('href', '/topics-page');
  });

  it('invites a reader who follows no topic to the topics directory', async () => {
    open([screenMock({ subscribed: true })]);
    const followed = within(await screen.findByRole('region', { name: 'Topics you follow' }));
    expect(followed.getByText('You follow no topics yet. Follow topics to have their articles picked for you here.')).toBeInTheDocument();
    expect(followed.queryByRole('list')).not.toBeInTheDocument();
    expect(followed.getByRole('link', { name: 'All topics' })).toHaveAttribute('href', '/topics-page');
  });
});

describe('For You helpers', () => {
  it('lists held subscriptions only', () => {
    const sub = (subscriptionState: string, isActive: boolean) => ({ channelId: 'x', subscriptionState, isActive }) as never;
    expect(
      heldSubscriptions([
        sub('active', true),
        sub('pending', false),
        sub('paymentFailed', false),
        sub('expired', false),
        sub('active', false),
      ]),
    ).toHaveLength(3);
  });
});
