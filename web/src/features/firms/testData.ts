//! Firms shaped like the server's answers (schema.graphql), for the firm screens' tests.

export const FIRM_IDS = {
  acme: '67f000000000000000000001',
  north: '67f000000000000000000002',
  oilChannel: '67c000000000000000000001',
  gasChannel: '67c000000000000000000002',
  ada: '67a000000000000000000001',
  bob: '67a000000000000000000002',
  cyd: '67a000000000000000000003',
  subOil: '67e000000000000000000001',
  subGas: '67e000000000000000000002',
} as const;

export const user = (_id: string, name: string) => ({
  __typename: 'UserSummary',
  _id,
  name,
  email: `${name.split(' ')[0].toLowerCase()}@acme-bank.example`,
});

export const ADA = user(FIRM_IDS.ada, 'Ada Analyst');
export const BOB = user(FIRM_IDS.bob, 'Bob Broker');
export const CYD = user(FIRM_IDS.cyd, 'Cyd Credit');

/** A firm subscription as the subscriptions table reads it (`FirmSubscriptionRow`). */
export function subscriptionRow(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'FirmSubscription',
    _id: FIRM_IDS.subOil,
    firmId: FIRM_IDS.acme,
    channelId: FIRM_IDS.oilChannel,
    channelName: 'Oil Weekly',
    seats: 2,
    seatsUsed: 1,
    startsAt: new Date(2026, 0, 5).toISOString(),
    cancelAt: '2026-12-31T23:59:59Z',
    subscriptionType: 'account',
    subscriptionState: 'active',
    isActive: true,
    isLive: true,
    typeLabel: 'Paid - Clearing',
    version: 3,
    ...overrides,
  };
}

/** A member of a firm (`FirmMember`). */
export function member(u: ReturnType<typeof user>, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'FirmMember',
    user: u,
    isAdmin: false,
    joinedBy: 'domain',
    joinedAt: new Date(2026, 0, 6).toISOString(),
    seatChannelIds: [],
    ...overrides,
  };
}
