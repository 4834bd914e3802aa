//! The article editor's form values (spec 2 §3, §5): how they start from an article, a template or
//! nothing, how they are checked, and how they become the `ArticleInput` the server takes.
import type { UserSummary } from '../../../components/admin';
import type { ArticleEditorFieldsFragment, ArticleEditorTemplateQuery } from './__generated__/ArticleEditor.generated';
import type { ArticleInput } from './__generated__/ArticleForm.generated';
import { expiryOffsetToSend, premiumFlag, type ChannelChoice } from './channelRules';

export const SUMMARY_MAX = 250;
export const REQUIRED = 'This field is required';
export const INVALID_PUBLISH_DATE = 'Invalid Publish Date';

/** Premium expiry offsets (spec 2 §9), added to the publish date by the server. */
export type ExpiryOffset = '3d' | '1w' | '1m';
export const EXPIRY_OFFSETS: readonly { value: ExpiryOffset; label: string }[] = [
  { value: '3d', label: '3 days' },
  { value: '1w', label: '1 week' },
  { value: '1m', label: '1 month' },
];

export interface NamedRef {
  _id: string;
  name: string;
}

export interface ArticleValues {
  title: string;
  html: string;
  channel: ChannelChoice | null;
  /** The article is free to read on a channel that is not freeOpen (isPremium is its inverse). */
  openToAll: boolean;
  premiumExpiryOffset: ExpiryOffset | null;
  contributors: UserSummary[];
  summary: string;
  /** A custom (back-)date as a datetime-local text, 'YYYY-MM-DDTHH:mm' in local time; '' for none. */
  publishDate: string;
  showWatermark: boolean;
  isPinned: boolean;
  displayInChartSection: boolean;
  isTimeless: boolean;
  /** Topic ids. */
  categories: string[];
  tags: NamedRef[];
  /** Kept as loaded: the body editor places promotional content, the form only carries the ids. */
  promotionalContentIds: string[];
}

export const EMPTY_VALUES: ArticleValues = {
  title: '',
  html: '',
  channel: null,
  openToAll: false,
  premiumExpiryOffset: null,
  contributors: [],
  summary: '',
  publishDate: '',
  showWatermark: false,
  isPinned: false,
  displayInChartSection: false,
  isTimeless: false,
  categories: [],
  tags: [],
  promotionalContentIds: [],
};

/** Spec 2 §5: newlines typed or pasted into the title become spaces. */
export function cleanTitle(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local text in local time ('2026-03-05T14:05'). */
export function toLocalDateTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local text as an instant; null when it is not a date and time. */
export function parseLocalDateTime(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(year, month - 1, day, hours, minutes, seconds);
  // Rejects 31 Feb and the like, which Date would roll over.
  if (date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

const users = (list: readonly UserSummary[]): UserSummary[] => list.map(({ _id, name, email }) => ({ _id, name, email }));
const refs = (list: readonly NamedRef[]): NamedRef[] => list.map(({ _id, name }) => ({ _id, name }));

/**
 * The values of a loaded article. Its channel is looked up among those the user may publish to
 * (for its owner); one outside that list is still shown, with the article's publisher as owner.
 */
export function valuesFromArticle(article: ArticleEditorFieldsFragment, channels: readonly ChannelChoice[]): ArticleValues {
  const channel = article.premiumChannel
    ? (channels.find((c) => c._id === article.premiumChannel?._id) ?? {
        _id: article.premiumChannel._id,
        name: article.premiumChannel.name,
        type: article.premiumChannel.type,
        owner: article.publishedBy ? { _id: article.publishedBy._id, name: article.publishedBy.name } : null,
      })
    : null;
  return {
    title: article.title,
    html: article.html,
    channel,
    openToAll: !!channel && channel.type !== 'freeOpen' && !article.isPremium,
    premiumExpiryOffset: asExpiryOffset(article.premiumExpiryOffset),
    contributors: users(article.contributors),
    summary: article.summary ?? '',
    // A published article shows its date; a draft starts without a custom one (publish means now).
    publishDate: article.state === 'Published' && article.publishDate ? toLocalDateTime(article.publishDate) : '',
    showWatermark: article.showWatermark,
    isPinned: article.isPinned,
    displayInChartSection: article.displayInChartSection,
    isTimeless: article.isTimeless,
    categories: article.categories.map((c) => c._id),
    tags: refs(article.tags),
    promotionalContentIds: [...article.promotionalContentIds],
  };
}

type TemplateRecord = ArticleEditorTemplateQuery['findTemplateById'];

/** A new article started from a template: its title for today, body, channel, contributors and taxonomies. */
export function valuesFromTemplate(template: TemplateRecord, channels: readonly ChannelChoice[]): ArticleValues {
  const channel = template.premiumChannel
    ? (channels.find((c) => c._id === template.premiumChannel?._id) ?? {
        _id: template.premiumChannel._id,
        name: template.premiumChannel.name,
        type: template.premiumChannel.type,
        owner: template.publishedBy ? { _id: template.publishedBy._id, name: template.publishedBy.name } : null,
      })
    : null;
  return {
    ...EMPTY_VALUES,
    title: cleanTitle(template.titleForToday),
    html: template.html,
    channel,
    contributors: users(template.contributors),
    categories: template.categories.map((c) => c._id),
    tags: refs(template.tags),
  };
}

export function asExpiryOffset(value: string | null | undefined): ExpiryOffset | null {
  return EXPIRY_OFFSETS.some((o) => o.value === value) ? (value as ExpiryOffset) : null;
}

export type ArticleErrors = Partial<Record<'title' | 'summary' | 'publishDate', string>>;

/** Spec 2 §5: a save needs only the title; the summary is at most 250; a custom date is never in the future. */
export function validateArticle(values: ArticleValues, now: Date = new Date()): ArticleErrors {
  const errors: ArticleErrors = {};
  if (!values.title.trim()) errors.title = REQUIRED;
  if (values.summary.length > SUMMARY_MAX) errors.summary = `Maximum ${SUMMARY_MAX} characters`;
  if (values.publishDate) {
    const date = parseLocalDateTime(values.publishDate);
    if (!date || date.getTime() > now.getTime()) errors.publishDate = INVALID_PUBLISH_DATE;
  }
  return errors;
}

export interface InputContext {
  /** Administrators and Editors may set a custom publish date (spec 2 §6). */
  canSetPublishDate: boolean;
  templateId?: string | null;
}

/** The values as `ArticleInput`, without `_id`, `version` and `sendEmails`. */
export function toArticleInput(values: ArticleValues, { canSetPublishDate, templateId }: InputContext): ArticleInput {
  const publishDate = values.publishDate ? parseLocalDateTime(values.publishDate) : null;
  const input: ArticleInput = {
    title: cleanTitle(values.title).trim(),
    html: values.html,
    summary: values.summary.trim() || null,
    premiumChannelId: values.channel?._id ?? null,
    contributors: values.contributors.map((u) => u._id),
    categories: [...values.categories],
    tags: values.tags.map((t) => t._id),
    promotionalContentIds: [...values.promotionalContentIds],
    isPremium: premiumFlag(values),
    premiumExpiryOffset: expiryOffsetToSend(values),
    showWatermark: values.showWatermark,
    displayInChartSection: values.displayInChartSection,
    isPinned: values.isPinned,
    isTimeless: values.isTimeless,
    templateId: templateId ?? null,
  };
  // Left out for other users: the server refuses the field from them, and leaving it out keeps the date.
  if (canSetPublishDate) input.publishDate = publishDate ? publishDate.toISOString() : null;
  return input;
}
