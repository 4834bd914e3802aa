//! Articles, templates and the signed-in user's channels shaped like the server's answers
//! (schema.graphql, articles contract), for the editor's tests.
import type {
  ArticleEditorContextQuery,
  ArticleEditorFieldsFragment,
  ArticleEditorTemplateQuery,
} from './__generated__/ArticleEditor.generated';

export const IDS = {
  article: '66a000000000000000000001',
  template: '66b000000000000000000001',
  oil: '65d000000000000000000001',
  gas: '65d000000000000000000002',
  news: '65d000000000000000000003',
  metals: '65d000000000000000000004',
  oilDesk: '65e000000000000000000001',
  newsDesk: '65e000000000000000000002',
  metalsDesk: '65e000000000000000000003',
  chris: '65f000000000000000000001',
  erin: '65f000000000000000000002',
  energy: '65a000000000000000000001',
  brent: '65c000000000000000000001',
} as const;

export const CHRIS = { __typename: 'UserSummary', _id: IDS.chris, name: 'Chris Contributor', email: 'chris@insights.example' } as const;

type Me = ArticleEditorContextQuery['me'];
type PublishableChannel = Me['channelsToPublish'][number];

const channel = (
  _id: string,
  name: string,
  type: PublishableChannel['type'],
  owner: { _id: string; name: string; type: PublishableChannel['ownerType'] },
): PublishableChannel =>
  ({
    __typename: 'Channel',
    _id,
    name,
    type,
    ownerType: owner.type,
    ownerId: owner._id,
    owner: { __typename: 'ChannelOwner', ...owner },
  }) as PublishableChannel;

export const CHANNELS = {
  oil: channel(IDS.oil, 'Oil Weekly', 'premium', { _id: IDS.oilDesk, name: 'Oil desk', type: 'desk' }),
  gas: channel(IDS.gas, 'Gas Daily', 'freeClosed', { _id: IDS.chris, name: 'Chris Contributor', type: 'contributor' }),
  news: channel(IDS.news, 'Market News', 'freeOpen', { _id: IDS.newsDesk, name: 'News desk', type: 'desk' }),
};

export function meRecord(overrides: Record<string, unknown> = {}): Me {
  return {
    __typename: 'User',
    _id: '65a1b2c3d4e5f60718293a4b',
    role: 'Editor',
    tableauAccess: false,
    channelsToPublish: [CHANNELS.oil, CHANNELS.gas, CHANNELS.news],
    ...overrides,
  } as unknown as Me;
}

export function articleRecord(overrides: Record<string, unknown> = {}): ArticleEditorFieldsFragment & { __typename: 'Article' } {
  return {
    __typename: 'Article',
    _id: IDS.article,
    title: 'Brent outlook',
    html: '<p>Prices rise.</p>',
    summary: 'Where Brent goes next',
    state: 'Pending',
    version: 4,
    publishDate: null,
    wasPublishedPreviously: false,
    publishedBy: { __typename: 'ArticlePublisher', _id: IDS.oilDesk, name: 'Oil desk', type: 'desk' },
    premiumChannel: { __typename: 'ArticleChannel', _id: IDS.oil, name: 'Oil Weekly', type: 'premium', state: 'active' },
    contributors: [CHRIS],
    categories: [{ __typename: 'ArticleTopic', _id: IDS.energy, name: 'Energy' }],
    tags: [{ __typename: 'ArticleTag', _id: IDS.brent, name: 'Brent' }],
    promotionalContentIds: [],
    isPremium: true,
    premiumExpiryOffset: '1w',
    showWatermark: true,
    displayInChartSection: false,
    isPinned: false,
    isTimeless: false,
    templateId: null,
    canEdit: true,
    ...overrides,
  } as unknown as ArticleEditorFieldsFragment & { __typename: 'Article' };
}

type TemplateRecord = ArticleEditorTemplateQuery['findTemplateById'];

export function templateRecord(overrides: Record<string, unknown> = {}): TemplateRecord {
  return {
    __typename: 'Template',
    _id: IDS.template,
    titleForToday: 'Morning note 05 Mar 2026',
    html: '<p>Overnight moves</p>',
    contributors: [CHRIS],
    categories: [{ __typename: 'ArticleTopic', _id: IDS.energy, name: 'Energy' }],
    tags: [],
    publishedBy: { __typename: 'ArticlePublisher', _id: IDS.chris, name: 'Chris Contributor', type: 'contributor' },
    premiumChannel: { __typename: 'ArticleChannel', _id: IDS.gas, name: 'Gas Daily', type: 'freeClosed', state: 'active' },
    ...overrides,
  } as unknown as TemplateRecord;
}
