//! Templates shaped like the server's answers (the templates contract in schema.graphql), for the template screen tests.

/** Ids in the ObjectId format the server uses. */
export const TEMPLATE_IDS = {
  morning: '66a000000000000000000001',
  weekly: '66a000000000000000000002',
  metals: '66a000000000000000000003',
  oilChannel: '65d000000000000000000001',
  gasChannel: '65d000000000000000000002',
  archivedChannel: '65d000000000000000000003',
  oilDesk: '65e000000000000000000001',
  energy: '65a000000000000000000001',
  oil: '65a000000000000000000002',
  opec: '65b000000000000000000001',
  chris: '65f000000000000000000001',
  erin: '65f000000000000000000002',
} as const;

export const topic = (_id: string, name: string) => ({ __typename: 'ArticleTopic', _id, name });
export const channel = (_id: string, name: string, state = 'active') => ({
  __typename: 'ArticleChannel',
  _id,
  name,
  type: 'premium',
  state,
});
export const person = (_id: string, name: string) => ({
  __typename: 'UserSummary',
  _id,
  name,
  email: `${name.split(' ')[0].toLowerCase()}@insights.example`,
});
export const OIL_DESK = { __typename: 'ArticlePublisher', _id: TEMPLATE_IDS.oilDesk, name: 'Oil desk', type: 'desk' };
