//! Reader test data shaped like the server's answers (schema.graphql 'Reader contract'), and a
//! render helper for components that need only a router and Blueprint.
import { MockedProvider } from '@apollo/client/testing/react';
import type { MockLink } from '@apollo/client/testing';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { UiProvider } from '../../components/blueprint';
import { ConfigProvider } from '../../lib/config';
import { testConfig } from '../../testing/fixtures';
import type { ArticleCardArticle } from './common/ArticleCard';
import type { ChannelCardChannel } from './common/ChannelCard';

/** Ids in the ObjectId format the server uses. */
export const READER_IDS = {
  oilChannel: '65c000000000000000000001',
  gasChannel: '65c000000000000000000002',
  newsChannel: '65c000000000000000000003',
  clubChannel: '65c000000000000000000004',
  metalsChannel: '65c000000000000000000005',
  powerChannel: '65c000000000000000000006',
  coalChannel: '65c000000000000000000007',
  oilDesk: '65c000000000000000000010',
  chris: '65c000000000000000000011',
  energy: '65c000000000000000000020',
  lng: '65c000000000000000000030',
} as const;

export function articleId(n: number): string {
  return `65d${String(n).padStart(21, '0')}`;
}

/** 5 Mar 2026 14:05, local time. */
export const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();

export function card(overrides: Partial<ArticleCardArticle> = {}): ArticleCardArticle {
  return {
    __typename: 'ArticleCard',
    _id: articleId(1),
    title: 'Oil outlook',
    summary: 'Prices in the next quarter.',
    publishDate: MARCH_5,
    firstPublishedAt: MARCH_5,
    updatedAt: null,
    publishedBy: { __typename: 'ArticlePublisher', _id: READER_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    premiumChannel: { __typename: 'ArticleChannel', _id: READER_IDS.oilChannel, name: 'Oil Weekly', type: 'premium' },
    isPremium: false,
    isPremiumActive: false,
    canSeeFullVersion: true,
    isLocked: false,
    isPinned: false,
    tags: [],
    categories: [],
    ...overrides,
  } as ArticleCardArticle;
}

/** `n` cards with distinct ids and titles 'Article {start}'…. */
export function cards(n: number, start = 1, overrides: Partial<ArticleCardArticle> = {}): ArticleCardArticle[] {
  return Array.from({ length: n }, (_, i) => card({ _id: articleId(start + i), title: `Article ${start + i}`, ...overrides }));
}

type ReaderCard = ChannelCardChannel['readerCard'];

/** The server's card for a channel (`Channel.readerCard`): by default a premium channel's trial offer. */
export function readerCard(overrides: Partial<ReaderCard> = {}): ReaderCard {
  return {
    __typename: 'ReaderChannelCard',
    action: 'RequestTrial',
    ended: null,
    endsAt: null,
    paymentFailed: false,
    summariesOnly: false,
    providedBy: null,
    ...overrides,
  } as ReaderCard;
}

/** The card a channel of `type` offers a reader who never subscribed. */
export function offerCard(type: ChannelCardChannel['type']): ReaderCard {
  return readerCard({ action: type === 'premium' ? 'RequestTrial' : type === 'freeOpen' ? 'SubscribeFree' : 'RequestAccess' });
}

export function channel(overrides: Partial<ChannelCardChannel> = {}): ChannelCardChannel {
  const type = overrides.type ?? 'premium';
  return {
    __typename: 'Channel',
    _id: READER_IDS.oilChannel,
    name: 'Oil Weekly',
    description: 'Crude and products, every week.',
    type,
    price: '49.00',
    profileImage: null,
    coverImage: null,
    defaultTrialDurationDays: 14,
    readerCard: offerCard(type),
    ...overrides,
  } as ChannelCardChannel;
}

/**
 * A channel as a subscription change answers it (`ChannelAfterChange_channel`): its new card, and
 * the server's status of the reader's subscription for the alerts (none by default).
 */
export function changedChannel(c: Pick<ChannelCardChannel, '_id' | 'name'>, card: ReaderCard) {
  return {
    __typename: 'Channel',
    _id: c._id,
    name: c.name,
    readerCard: card,
    userChannelSubscription: null,
  };
}

/** Renders `ui` at `/` inside a memory router with Blueprint, the test configuration and an Apollo mock link. */
export function renderInRouter(ui: ReactNode, mocks: MockLink.MockedResponse[] = []) {
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: ['/'] });
  return render(
    <UiProvider>
      <ConfigProvider config={testConfig()}>
        <MockedProvider mocks={mocks}>
          <RouterProvider router={router} />
        </MockedProvider>
      </ConfigProvider>
    </UiProvider>,
  );
}
