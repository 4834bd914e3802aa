//! Channels, subscribers and check results shaped like the server's answers (web/schema.graphql),
//! for the subscriber screen tests.
import type { MockLink } from '@apollo/client/testing';
import type { ChannelSubscribersQuery } from './__generated__/SubscriberStats.generated';
import type { SubscriberFormRecordFragment } from './__generated__/SubscriberForm.generated';
import { SubscriberStatsHeaderDocument, ChannelSubscribersDocument } from './__generated__/SubscriberStats.generated';
import type { SubscriberChannel } from './subscriberChannel';

export const IDS = {
  oil: '65d000000000000000000001',
  gas: '65d000000000000000000002',
  metals: '65d000000000000000000003',
  ada: '66a000000000000000000001',
  bob: '66a000000000000000000002',
  cy: '66a000000000000000000003',
  erin: '65f000000000000000000002',
} as const;

/** The signed-in Editor who administers Oil Weekly (testUser's id). */
export const EDITOR_ID = '65a1b2c3d4e5f60718293a4b';

export function subscriberChannel(overrides: Record<string, unknown> = {}): SubscriberChannel & { __typename: 'Channel' } {
  return {
    __typename: 'Channel',
    _id: IDS.oil,
    name: 'Oil Weekly',
    type: 'premium',
    state: 'active',
    price: '49.00',
    defaultTrialDurationDays: 21,
    adminUsers: [{ __typename: 'UserSummary', _id: EDITOR_ID, name: 'Test Editor', email: 'test@example.com' }],
    ...overrides,
  } as unknown as SubscriberChannel & { __typename: 'Channel' };
}

type ListUser = ChannelSubscribersQuery['channelSubscribedUsers']['users'][number];

export function listUser(overrides: Record<string, unknown> = {}, subscription: Record<string, unknown> = {}): ListUser {
  const { status, ...rest } = subscription as { status?: Record<string, unknown> };
  return {
    __typename: 'SubscribedUser',
    _id: IDS.ada,
    channelId: IDS.oil,
    insightsUserId: 'auth0|ada',
    name: 'Ada Reader',
    email: 'ada@example.com',
    company: 'Acme',
    firmName: null,
    holdsFirmSeat: false,
    articleViewsByChannel: 3,
    channelSubscription: {
      __typename: 'ChannelSubscription',
      subscriptionType: 'trial',
      createdAt: '2026-03-05T10:00:00Z',
      cancelAt: '2026-03-19T23:59:59Z',
      ...rest,
      status: { __typename: 'SubscriptionStatus', effectiveState: 'active', typeLabel: 'Trial', ...status },
    },
    ...overrides,
  } as ListUser;
}

export function formRecord(
  overrides: Record<string, unknown> = {},
  subscription: Record<string, unknown> = {},
): SubscriberFormRecordFragment {
  const { status, ...rest } = subscription as { status?: Record<string, unknown> };
  return {
    __typename: 'SubscribedUser',
    _id: IDS.ada,
    channelId: IDS.oil,
    insightsUserId: 'auth0|ada/1',
    name: 'Ada Reader',
    email: 'ada@example.com',
    company: 'Acme',
    channelSubscription: {
      __typename: 'ChannelSubscription',
      subscriptionType: 'account',
      subscriptionState: 'active',
      cancelAt: '2030-12-31T23:59:59Z',
      accountNumber: 'ACC-1',
      billingMethod: null,
      pricePerMonth: '40.00',
      rebate: false,
      trialDuration: null,
      notes: 'Sales deal',
      isFullArticleContent: true,
      ...rest,
      status: {
        __typename: 'SubscriptionStatus',
        effectiveState: 'active',
        trial: null,
        typeLabel: 'Paid - Clearing',
        paymentCategory: 'Paid',
        ...status,
      },
    },
    ...overrides,
  } as SubscriberFormRecordFragment;
}

/** The subscriber stats a save returns to: the header and an empty list, as often as asked. */
export function statsMocks(channel = subscriberChannel()): MockLink.MockedResponse[] {
  return [
    {
      request: { query: SubscriberStatsHeaderDocument, variables: { channelId: channel._id } },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: { data: { channel, subscriberViewCounts: [] } },
    },
    {
      request: { query: ChannelSubscribersDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: { data: { channelSubscribedUsers: { __typename: 'SubscribedUserPage', total: 0, users: [] } } },
    },
  ];
}
