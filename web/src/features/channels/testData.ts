//! Channels shaped like the server's answers (contract issue4.graphql), for the channel screen tests.
import type { ChannelFormFieldsFragment } from './__generated__/ChannelForm.generated';
import type { ChannelListQuery } from './__generated__/ChannelList.generated';

type ListChannel = ChannelListQuery['channels']['items'][number];

/** Ids in the ObjectId format the server uses. */
export const CHANNEL_IDS = {
  oil: '65d000000000000000000001',
  gas: '65d000000000000000000002',
  metals: '65d000000000000000000003',
  oilDesk: '65e000000000000000000001',
  gasDesk: '65e000000000000000000002',
  chris: '65f000000000000000000001',
  erin: '65f000000000000000000002',
} as const;

/** Overrides may carry `__typename`s, as the server's answers do. */
export function listChannel(overrides: Record<string, unknown> = {}): ListChannel & { __typename: 'Channel' } {
  return {
    __typename: 'Channel',
    _id: CHANNEL_IDS.oil,
    name: 'Oil Weekly',
    type: 'premium',
    ownerType: 'desk',
    ownerId: CHANNEL_IDS.oilDesk,
    owner: { __typename: 'ChannelOwner', _id: CHANNEL_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    price: '49.00',
    articleCount: 12,
    channelActiveUsersCount: 3,
    createdAt: '2026-03-05T10:00:00Z',
    state: 'active',
    canEdit: true,
    ...overrides,
  } as unknown as ListChannel & { __typename: 'Channel' };
}

export function channelRecord(overrides: Record<string, unknown> = {}): ChannelFormFieldsFragment & { __typename: 'Channel' } {
  return {
    __typename: 'Channel',
    _id: CHANNEL_IDS.oil,
    name: 'Oil Weekly',
    description: 'Crude and refined',
    url: 'https://example.com/oil',
    profileImage: null,
    coverImage: null,
    glAccount: 'GL-100',
    price: '49.00',
    type: 'premium',
    ownerType: 'desk',
    ownerId: CHANNEL_IDS.oilDesk,
    owner: { __typename: 'ChannelOwner', _id: CHANNEL_IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    adminUsers: [{ __typename: 'UserSummary', _id: CHANNEL_IDS.erin, name: 'Erin Editor', email: 'erin.editor@insights.example' }],
    defaultTrialDurationDays: 14,
    hideDisclaimer: false,
    state: 'active',
    articleCount: 12,
    archivedArticleCount: 4,
    templateCount: 2,
    channelActiveUsersCount: 3,
    version: 1,
    canEdit: true,
    ...overrides,
  } as unknown as ChannelFormFieldsFragment & { __typename: 'Channel' };
}
