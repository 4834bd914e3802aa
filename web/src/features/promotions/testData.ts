//! Promotional content and promotion pages shaped like the server's answers, for the screens' tests.
export const CONTENT_IDS = {
  spring: '66e000000000000000000001',
  webinar: '66e000000000000000000002',
  summit: '66e000000000000000000003',
} as const;

export const PAGE_IDS = {
  webinar: '66f000000000000000000001',
  summit: '66f000000000000000000002',
} as const;

/** A row of `promotionalContent(params)`. */
export function contentRow(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'PromotionalContent',
    _id: CONTENT_IDS.spring,
    name: 'Spring offer',
    description: 'Three months of premium research for the price of two.',
    categoriesCount: 2,
    articlesCount: 5,
    expiryDate: '2099-06-30T23:59:59Z',
    expired: false,
    impressions: 200,
    clicks: 25,
    clickThroughRate: 0.125,
    ...overrides,
  };
}

/** `findPromotionalContentById` as the form reads it. */
export function contentRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'PromotionalContent',
    _id: CONTENT_IDS.webinar,
    name: 'Energy webinar',
    description: 'Join our analysts live.',
    articleImage: 'article.png',
    sidebarImage: null,
    destination: 'CustomLandingPage',
    link: null,
    promotionPageId: PAGE_IDS.webinar,
    promotionPage: { __typename: 'PromotionPage', _id: PAGE_IDS.webinar, name: 'Webinar sign-up' },
    expiryDate: '2099-06-30T23:59:59Z',
    expired: false,
    version: 4,
    categoriesCount: 1,
    articlesCount: 3,
    ...overrides,
  };
}

/** `findPromotionPageById` as the page form reads it. */
export function pageRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'PromotionPage',
    _id: PAGE_IDS.webinar,
    name: 'Webinar sign-up',
    html: '<p>Hear our analysts on the gas market.</p>',
    teamsChannel: 'events@insights.example',
    pageSummary: 'A live webinar on the gas market.',
    socialSharingImageUrl: 'social.png',
    successTitle: 'Thank you',
    successMessage: 'We will send you the invitation.',
    version: 2,
    inUse: false,
    promotionalContent: [] as { __typename: string; _id: string; name: string }[],
    ...overrides,
  };
}
