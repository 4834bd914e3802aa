// Every route of the app's router (src/app/router.tsx) with the page the accessibility check opens
// for it (a11y.spec.ts) and who opens it. src/app/router.test.ts compares this list with the
// router's: a route added without its check here fails that test. No Playwright or Node imports,
// so the web unit tests can read it too.

/** Ids of the demo content (and of what the check adds beside it) that the routes' pages show. */
export interface RouteIds {
  /** A published article of a premium channel. */
  premiumArticle: string;
  /** A published article of a free channel. */
  freeArticle: string;
  /** An article in Pending (the editor). */
  draftArticle: string;
  template: string;
  promotionalContent: string;
  promotionPage: string;
  tag: string;
  desk: string;
  /** A staff user (the users list's edit page). */
  user: string;
  /** A contributor with published articles. */
  contributor: string;
  /** A premium channel, with at least one subscriber. */
  premiumChannel: string;
  /** One subscriber of `premiumChannel`. */
  subscriber: string;
  /** A top-level topic. */
  topic: string;
  /** The demo client firm the ready firm administrator administers (Northbridge Capital). */
  firm: string;
  /** A channel `firm` holds a subscription to. */
  firmChannel: string;
}

/** Who opens a route's page: one of the provider's ready users whose role may see it, or nobody signed in. */
export type RouteUser = 'Administrator' | 'Editor' | 'Subscriber' | 'Firm administrator' | 'signed out';

export interface CheckedRoute {
  /** The router's path pattern, from the root: '/browse/article/:id/:campaignIdAndType?'. */
  pattern: string;
  /** The page opened for it, relative to the app's base. */
  url: (ids: RouteIds) => string;
  as: RouteUser;
}

const staff = (pattern: string, url: CheckedRoute['url']): CheckedRoute => ({ pattern, url, as: 'Administrator' });
const reader = (pattern: string, url: CheckedRoute['url']): CheckedRoute => ({ pattern, url, as: 'Subscriber' });
/** Screens an Administrator may not open (adding articles, templates): an Editor's. */
const editor = (pattern: string, url: CheckedRoute['url']): CheckedRoute => ({ pattern, url, as: 'Editor' });
/** A client firm's page for its administrators ('My firm'): the demo's firm administrator. */
const firmAdmin = (pattern: string, url: CheckedRoute['url']): CheckedRoute => ({ pattern, url, as: 'Firm administrator' });

/** The taxonomy screens, at /publisher/topics and /publisher/categories alike. */
const taxonomy = (section: 'topics' | 'categories'): CheckedRoute[] => [
  staff(`/publisher/${section}`, () => `publisher/${section}`),
  staff(`/publisher/${section}/add`, () => `publisher/${section}/add`),
  staff(`/publisher/${section}/edit/:id`, (ids) => `publisher/${section}/edit/${ids.topic}`),
  staff(`/publisher/${section}/subscriber-stats/:id`, (ids) => `publisher/${section}/subscriber-stats/${ids.topic}`),
];

export const CHECKED_ROUTES: CheckedRoute[] = [
  { pattern: '/callback', url: () => 'callback', as: 'signed out' },
  { pattern: '/loggedout', url: () => 'loggedout', as: 'signed out' },
  { pattern: '/unsubscribe', url: () => 'unsubscribe', as: 'signed out' },
  reader('/browse/marketing-article/:id/:campaignIdAndType?', (ids) => `browse/marketing-article/${ids.freeArticle}`),
  reader('/', () => ''),
  staff('/publisher', () => 'publisher'),
  staff('/publisher/articles', () => 'publisher/articles'),
  editor('/publisher/articles/add', () => 'publisher/articles/add'),
  staff('/publisher/articles/edit/:id', (ids) => `publisher/articles/edit/${ids.draftArticle}`),
  editor('/publisher/articles/add-from-template', () => 'publisher/articles/add-from-template'),
  editor('/publisher/articles/add-from-template/:templateId', (ids) => `publisher/articles/add-from-template/${ids.template}`),
  staff('/publisher/articles/stats/:id', (ids) => `publisher/articles/stats/${ids.premiumArticle}`),
  staff('/publisher/articles/history/:id', (ids) => `publisher/articles/history/${ids.premiumArticle}`),
  staff('/publisher/templates', () => 'publisher/templates'),
  editor('/publisher/templates/add', () => 'publisher/templates/add'),
  editor('/publisher/templates/edit/:id', (ids) => `publisher/templates/edit/${ids.template}`),
  staff('/publisher/promotional-content', () => 'publisher/promotional-content'),
  staff('/publisher/promotional-content/add', () => 'publisher/promotional-content/add'),
  staff('/publisher/promotional-content/edit/:id', (ids) => `publisher/promotional-content/edit/${ids.promotionalContent}`),
  staff('/publisher/promotional-page', () => 'publisher/promotional-page'),
  staff('/publisher/promotional-page/add', () => 'publisher/promotional-page/add'),
  staff('/publisher/promotional-page/edit/:id', (ids) => `publisher/promotional-page/edit/${ids.promotionPage}`),
  staff('/publisher/interests', () => 'publisher/interests'),
  staff('/publisher/chat-questions', () => 'publisher/chat-questions'),
  staff('/publisher/audit', () => 'publisher/audit'),
  staff('/publisher/trial-policy', () => 'publisher/trial-policy'),
  staff('/publisher/disclosures', () => 'publisher/disclosures'),
  staff('/publisher/tags', () => 'publisher/tags'),
  staff('/publisher/tags/add', () => 'publisher/tags/add'),
  staff('/publisher/tags/edit/:id', (ids) => `publisher/tags/edit/${ids.tag}`),
  staff('/publisher/users', () => 'publisher/users'),
  staff('/publisher/users/edit/:id', (ids) => `publisher/users/edit/${ids.user}`),
  staff('/publisher/desks', () => 'publisher/desks'),
  staff('/publisher/desks/add', () => 'publisher/desks/add'),
  staff('/publisher/desks/edit/:id', (ids) => `publisher/desks/edit/${ids.desk}`),
  staff('/publisher/firms', () => 'publisher/firms'),
  staff('/publisher/firms/add', () => 'publisher/firms/add'),
  staff('/publisher/firms/edit/:id', (ids) => `publisher/firms/edit/${ids.firm}`),
  staff('/publisher/firms/:id', (ids) => `publisher/firms/${ids.firm}`),
  staff('/publisher/firms/:id/subscriptions/add', (ids) => `publisher/firms/${ids.firm}/subscriptions/add`),
  staff('/publisher/firms/:id/subscriptions/edit/:channelId', (ids) => `publisher/firms/${ids.firm}/subscriptions/edit/${ids.firmChannel}`),
  staff('/publisher/premium-channels', () => 'publisher/premium-channels'),
  staff('/publisher/premium-channels/add', () => 'publisher/premium-channels/add'),
  staff('/publisher/premium-channels/edit/:id', (ids) => `publisher/premium-channels/edit/${ids.premiumChannel}`),
  staff('/publisher/premium-channels/subscriber-stats', () => 'publisher/premium-channels/subscriber-stats'),
  staff('/publisher/premium-channels/subscriber-stats/:id', (ids) => `publisher/premium-channels/subscriber-stats/${ids.premiumChannel}`),
  staff('/publisher/premium-channels/subscribers', () => 'publisher/premium-channels/subscribers'),
  staff('/publisher/premium-channels/subscribers/:id/add', (ids) => `publisher/premium-channels/subscribers/${ids.premiumChannel}/add`),
  staff(
    '/publisher/premium-channels/subscribers/:id/edit/:productUserId',
    (ids) => `publisher/premium-channels/subscribers/${ids.premiumChannel}/edit/${ids.subscriber}`,
  ),
  staff(
    '/publisher/premium-channels/subscribers/:id/add-bulk',
    (ids) => `publisher/premium-channels/subscribers/${ids.premiumChannel}/add-bulk`,
  ),
  ...taxonomy('topics'),
  ...taxonomy('categories'),
  reader('/for-you', () => 'for-you'),
  reader('/channels', () => 'channels'),
  reader('/subscriptions', () => 'subscriptions'),
  reader('/search', () => 'search?q=copper'),
  reader('/email-notifications', () => 'email-notifications'),
  firmAdmin('/my-firm', () => 'my-firm'),
  reader('/browse/channel', () => 'browse/channel'),
  reader('/browse/channel/:channelId', (ids) => `browse/channel/${ids.premiumChannel}`),
  reader('/browse/channel/:channelId/:status', (ids) => `browse/channel/${ids.premiumChannel}/subscribed`),
  reader('/subscribe/channel/:channelId', (ids) => `subscribe/channel/${ids.premiumChannel}`),
  reader('/subscribe/channel/confirm/:channelId', (ids) => `subscribe/channel/confirm/${ids.premiumChannel}`),
  reader('/subscribe/channel/confirm-trial/:channelId', (ids) => `subscribe/channel/confirm-trial/${ids.premiumChannel}`),
  reader('/subscribe/channel/confirm-interest/:channelId', (ids) => `subscribe/channel/confirm-interest/${ids.premiumChannel}`),
  reader('/browse', () => 'browse'),
  reader('/topics', () => 'topics'),
  reader('/browse/article/:id/:campaignIdAndType?', (ids) => `browse/article/${ids.premiumArticle}`),
  reader('/browse/:categoryId', (ids) => `browse/${ids.topic}`),
  reader('/topics-page', () => 'topics-page'),
  reader('/desk', () => 'desk'),
  reader('/desk/:id', (ids) => `desk/${ids.desk}`),
  reader('/contributor', () => 'contributor'),
  reader('/contributor/:id', (ids) => `contributor/${ids.contributor}`),
  reader('/tag', () => 'tag'),
  reader('/tag/:id', (ids) => `tag/${ids.tag}`),
  reader('/archives', () => 'archives'),
  reader('/archives/:dateId', () => `archives/${new Date().toISOString().slice(0, 7)}`),
  reader('/promotion/:id', (ids) => `promotion/${ids.promotionPage}`),
  reader('/*', () => 'no-such-page'),
];
