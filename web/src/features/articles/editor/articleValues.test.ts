import { describe, expect, it } from 'vitest';
import {
  cleanTitle,
  EMPTY_VALUES,
  INVALID_PUBLISH_DATE,
  parseLocalDateTime,
  REQUIRED,
  toArticleInput,
  toLocalDateTime,
  validateArticle,
  valuesFromArticle,
  valuesFromTemplate,
  type ArticleValues,
} from './articleValues';
import { toChannelChoice, type ChannelChoice } from './channelRules';
import { articleRecord, CHANNELS, CHRIS, IDS, templateRecord } from './testData';

const channels: ChannelChoice[] = [CHANNELS.oil, CHANNELS.gas, CHANNELS.news].map(toChannelChoice);
const chris = { _id: CHRIS._id, name: CHRIS.name, email: CHRIS.email };

describe('cleanTitle', () => {
  it('turns newlines into spaces', () => {
    expect(cleanTitle('Brent\noutlook\r\nfor\rQ3')).toBe('Brent outlook for Q3');
  });
});

describe('local date and time', () => {
  it('goes both ways in local time', () => {
    const date = new Date(2026, 2, 5, 14, 5);
    expect(toLocalDateTime(date)).toBe('2026-03-05T14:05');
    expect(parseLocalDateTime('2026-03-05T14:05')).toEqual(date);
  });

  it('refuses what is not a date and time', () => {
    expect(parseLocalDateTime('2026-02-31T10:00')).toBeNull();
    expect(parseLocalDateTime('yesterday')).toBeNull();
    expect(toLocalDateTime('nonsense')).toBe('');
  });
});

describe('validateArticle', () => {
  const now = new Date(2026, 2, 5, 12, 0);

  it('needs only a title that is not blank', () => {
    expect(validateArticle({ ...EMPTY_VALUES, title: '  ' }, now)).toEqual({ title: REQUIRED });
    expect(validateArticle({ ...EMPTY_VALUES, title: 'Brent' }, now)).toEqual({});
  });

  it("says 'Invalid Publish Date' for a future or unreadable date", () => {
    const base = { ...EMPTY_VALUES, title: 'Brent' };
    expect(validateArticle({ ...base, publishDate: '2026-03-05T12:01' }, now)).toEqual({ publishDate: INVALID_PUBLISH_DATE });
    expect(validateArticle({ ...base, publishDate: '2026-13-01T10:00' }, now)).toEqual({ publishDate: INVALID_PUBLISH_DATE });
    expect(validateArticle({ ...base, publishDate: '2026-03-01T10:00' }, now)).toEqual({});
  });

  it('keeps the summary at 250 characters', () => {
    expect(validateArticle({ ...EMPTY_VALUES, title: 'T', summary: 'x'.repeat(251) }, now)).toEqual({ summary: 'Maximum 250 characters' });
  });
});

describe('valuesFromArticle', () => {
  it("takes the article's fields, the channel with its owner, and open-to-all as the inverse of isPremium", () => {
    expect(valuesFromArticle(articleRecord(), channels)).toEqual({
      title: 'Brent outlook',
      html: '<p>Prices rise.</p>',
      channel: { _id: IDS.oil, name: 'Oil Weekly', type: 'premium', owner: { _id: IDS.oilDesk, name: 'Oil desk' } },
      openToAll: false,
      premiumExpiryOffset: '1w',
      contributors: [chris],
      summary: 'Where Brent goes next',
      publishDate: '',
      showWatermark: true,
      isPinned: false,
      displayInChartSection: false,
      isTimeless: false,
      categories: [IDS.energy],
      tags: [{ _id: IDS.brent, name: 'Brent' }],
      promotionalContentIds: [],
    });
    expect(valuesFromArticle(articleRecord({ isPremium: false }), channels).openToAll).toBe(true);
  });

  it('keeps a channel the user may not publish to, with the article publisher as owner', () => {
    const values = valuesFromArticle(
      articleRecord({
        premiumChannel: { _id: IDS.metals, name: 'Metals', type: 'premium', state: 'active' },
        publishedBy: { _id: IDS.metalsDesk, name: 'Metals desk', type: 'desk' },
      }),
      channels,
    );
    expect(values.channel).toEqual({
      _id: IDS.metals,
      name: 'Metals',
      type: 'premium',
      owner: { _id: IDS.metalsDesk, name: 'Metals desk' },
    });
  });

  it('shows the publish date of a published article only', () => {
    const publishDate = new Date(2026, 2, 1, 9, 30).toISOString();
    expect(valuesFromArticle(articleRecord({ state: 'Published', publishDate }), channels).publishDate).toBe('2026-03-01T09:30');
    expect(valuesFromArticle(articleRecord({ state: 'Archived', publishDate }), channels).publishDate).toBe('');
  });
});

describe('valuesFromTemplate', () => {
  it("starts from the template's title for today, body, channel, contributors and taxonomies", () => {
    expect(valuesFromTemplate(templateRecord(), channels)).toEqual({
      ...EMPTY_VALUES,
      title: 'Morning note 05 Mar 2026',
      html: '<p>Overnight moves</p>',
      channel: toChannelChoice(CHANNELS.gas),
      contributors: [chris],
      categories: [IDS.energy],
      tags: [],
    });
  });
});

describe('toArticleInput', () => {
  const values: ArticleValues = {
    ...valuesFromArticle(articleRecord(), channels),
    title: 'Brent\noutlook ',
    summary: '  ',
    publishDate: '2026-03-01T09:30',
  };

  it('sends the values, isPremium and the expiry offset by the channel rules', () => {
    expect(toArticleInput(values, { canSetPublishDate: true, templateId: IDS.template })).toEqual({
      title: 'Brent outlook',
      html: '<p>Prices rise.</p>',
      summary: null,
      premiumChannelId: IDS.oil,
      contributors: [IDS.chris],
      categories: [IDS.energy],
      tags: [IDS.brent],
      promotionalContentIds: [],
      isPremium: true,
      premiumExpiryOffset: '1w',
      publishDate: new Date(2026, 2, 1, 9, 30).toISOString(),
      showWatermark: true,
      displayInChartSection: false,
      isPinned: false,
      isTimeless: false,
      templateId: IDS.template,
    });
  });

  it('leaves the publish date out for users without publish rights', () => {
    expect(toArticleInput(values, { canSetPublishDate: false })).not.toHaveProperty('publishDate');
  });

  it('sends no premium flag or offset for a freeOpen channel', () => {
    const item = toArticleInput({ ...values, channel: toChannelChoice(CHANNELS.news) }, { canSetPublishDate: true });
    expect(item).toMatchObject({ premiumChannelId: IDS.news, isPremium: null, premiumExpiryOffset: null, templateId: null });
  });
});
