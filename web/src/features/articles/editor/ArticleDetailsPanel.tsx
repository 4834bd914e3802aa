//! The editor sidebar's panels (spec 2 "Article details fields"): channel and its publisher,
//! open-to-all, premium expiry, contributors, summary, custom publish date (publishers only), the
//! display flags (the chart section needs tableauAccess); and Taxonomies: topics and tags.
import { useId, type ReactNode } from 'react';
import { CheckboxField, SelectField, TextAreaField, UserPickerField, type FieldBinding } from '../../../components/admin';
import { Button } from '../../../components/Button';
import { TagPicker, type TagChoice } from '../../../components/pickers/TagPicker';
import { TopicTreePicker } from '../../../components/pickers/TopicTreePicker';
import { asExpiryOffset, EXPIRY_OFFSETS, SUMMARY_MAX, toLocalDateTime, type ArticleValues } from './articleValues';
import type { BindField } from './ArticleForm';
import { offersExpiryOffset, offersOpenToAll, type ChannelChoice } from './channelRules';

export const PUBLISH_DATE_HELP = 'Leave empty to publish now; a past date back-dates the article.';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="insights-article-editor-panel" aria-labelledby={id}>
      <h2 id={id} className="insights-article-editor-panel-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export interface ArticleDetailsPanelProps {
  values: ArticleValues;
  field: BindField;
  /** The channels to choose from (the article's own one included). */
  channels: readonly ChannelChoice[];
  onChannel: (channel: ChannelChoice | null) => void;
  onOpenToAll: (openToAll: boolean) => void;
  /** The custom publish date (users with publish rights). */
  showPublishDate: boolean;
  /** 'Display in chart section' (users with tableauAccess). */
  showChartSection: boolean;
  /**
   * Open-to-all and the premium expiry (the premium features flag). Off, the article's access
   * follows its channel and is only shown: the server keeps it.
   */
  premiumOptions: boolean;
}

export function ArticleDetailsPanel({
  values,
  field,
  channels,
  onChannel,
  onOpenToAll,
  showPublishDate,
  showChartSection,
  premiumOptions,
}: ArticleDetailsPanelProps) {
  const channelField = field('channel');
  const openToAll = field('openToAll');
  const expiry = field('premiumExpiryOffset');
  return (
    <Panel title="Article details">
      <SelectField
        label="Channel"
        name="channel"
        noneLabel="Choose a channel"
        options={channels.map((c) => ({ value: c._id, label: c.name }))}
        value={values.channel?._id ?? null}
        onChange={(id) => onChannel(channels.find((c) => c._id === id) ?? null)}
        onBlur={channelField.onBlur}
      />
      {values.channel && (
        <p className="insights-article-editor-publisher">Published by: {values.channel.owner?.name ?? 'the channel owner'}</p>
      )}
      {premiumOptions && offersOpenToAll(values.channel) && <CheckboxField label="Open to all" {...openToAll} onChange={onOpenToAll} />}
      {!premiumOptions && offersOpenToAll(values.channel) && <p className="insights-article-editor-publisher">{accessText(values)}</p>}
      {premiumOptions && offersExpiryOffset(values) && (
        <SelectField
          label="Premium expiry"
          noneLabel="No expiry"
          options={EXPIRY_OFFSETS}
          {...expiry}
          value={expiry.value}
          onChange={(value) => expiry.onChange(asExpiryOffset(value))}
        />
      )}
      <UserPickerField label="Contributors" placeholder="Search users..." {...field('contributors')} />
      <TextAreaField label="Summary" maxLength={SUMMARY_MAX} counter rows={4} {...field('summary')} />
      {showPublishDate && <PublishDateField {...field('publishDate')} />}
      <CheckboxField label="Show watermark" {...field('showWatermark')} />
      <CheckboxField label="Pin article" {...field('isPinned')} />
      {showChartSection && <CheckboxField label="Display in chart section" {...field('displayInChartSection')} />}
      <CheckboxField label="Timeless" {...field('isTimeless')} />
    </Panel>
  );
}

/** Who may read the article, when its premium terms are not the author's choice. */
export function accessText(values: Pick<ArticleValues, 'openToAll' | 'premiumExpiryOffset'>): string {
  if (values.openToAll) return 'Readers: open to all';
  const period = EXPIRY_OFFSETS.find((o) => o.value === values.premiumExpiryOffset);
  return period ? `Readers: the channel's subscribers for ${period.label}, then all` : "Readers: the channel's subscribers";
}

/** A date and time in the past (native datetime-local input: keyboard and screen-reader friendly). */
function PublishDateField({ name, value, onChange, onBlur, error }: FieldBinding<string>) {
  const id = useId();
  return (
    <div className={`insights-article-editor-field${error ? ' insights-article-editor-field-error' : ''}`}>
      <label htmlFor={id} className="insights-article-editor-label">
        Publish date
      </label>
      <div className="insights-article-editor-date">
        <input
          id={id}
          name={name}
          type="datetime-local"
          value={value}
          max={toLocalDateTime(new Date())}
          aria-invalid={!!error}
          aria-describedby={`${id}-help`}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
        />
        {value && <Button text="Clear" size="small" variant="minimal" label="Clear publish date" onClick={() => onChange('')} />}
      </div>
      <span id={`${id}-help`} className="insights-article-editor-help">
        {error ?? PUBLISH_DATE_HELP}
      </span>
    </div>
  );
}

export interface TaxonomiesPanelProps {
  categories: readonly string[];
  onCategories: (ids: string[]) => void;
  tags: readonly TagChoice[];
  onTags: (tags: TagChoice[]) => void;
  /** 'Topics' or 'Categories' (spec 1 §1: by the premiumChannels flag). */
  topics: string;
}

export function TaxonomiesPanel({ categories, onCategories, tags, onTags, topics }: TaxonomiesPanelProps) {
  const topicsId = useId();
  const tagsId = useId();
  return (
    <Panel title="Taxonomies">
      <div role="group" aria-labelledby={topicsId} className="insights-article-editor-field">
        <span id={topicsId} className="insights-article-editor-label">
          {topics}
        </span>
        <TopicTreePicker value={categories} onChange={onCategories} />
      </div>
      <div className="insights-article-editor-field">
        <label htmlFor={tagsId} className="insights-article-editor-label">
          Tags
        </label>
        <TagPicker id={tagsId} value={tags} onChange={onTags} />
      </div>
    </Panel>
  );
}
