//! Add and edit a template (spec 2 §2 "Templates", §4, §5, §6): 'Template details' (title, which
//! may hold {{today}}, and the body), 'Article details' (channel, contributors) and 'Taxonomies'
//! (topics tree, tags): what an article started from the template begins with. Title and channel
//! are required ('This field is required.'). An existing template shows its dates beside the
//! form and can be deleted after a confirmation. The channels offered are those the viewer may
//! publish to (`me.channelsToPublish`), plus the template's own if it is no longer among them.
import { gql, type Reference } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, type ReactNode } from 'react';
import { useParams } from 'react-router';
import {
  AdminForm,
  SelectField,
  TextField,
  useAdminForm,
  useRecordQuery,
  UserPickerField,
  type FieldErrors,
  type SelectOption,
  type UserSummary,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { useConfig } from '../../lib/config';
import { formatDate } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { RichTextEditor } from '../../components/richtext/RichTextEditor';
import { TagPicker, type TagChoice } from '../../components/pickers/TagPicker';
import { TopicTreePicker } from '../../components/pickers/TopicTreePicker';
import {
  AddTemplateDocument,
  DeleteTemplateDocument,
  EditTemplateDocument,
  TemplateByIdDocument,
  TemplateFormChannelsDocument,
  type TemplateFormFieldsFragment,
  type TemplateInput,
} from './__generated__/TemplateForm.generated';
import { TEMPLATES_PATH, topicsWord, usedText } from './templateText';
import './templates.css';

/** Spec 2 §5: the template's required fields say it with a full stop. */
export const REQUIRED = 'This field is required.';
/** Spec 2 §2: the placeholder an article started from the template replaces with the day's date. */
export const TODAY_PLACEHOLDER = '{{today}}';

export interface TemplateValues extends Record<string, unknown> {
  title: string;
  html: string;
  /** Named like the input field, so the server's field errors land on it. */
  premiumChannelId: string | null;
  contributors: UserSummary[];
  /** Topic ids. */
  categories: string[];
  tags: TagChoice[];
}

const EMPTY: TemplateValues = { title: '', html: '', premiumChannelId: null, contributors: [], categories: [], tags: [] };

const toValues = (t: TemplateFormFieldsFragment): TemplateValues => ({
  title: t.title,
  html: t.html,
  premiumChannelId: t.premiumChannel?._id ?? null,
  contributors: t.contributors.map(({ _id, name, email }) => ({ _id, name, email })),
  categories: t.categories.map((c) => c._id),
  tags: t.tags.map(({ _id, name }) => ({ _id, name })),
});

export function validateTemplate(v: TemplateValues): FieldErrors<TemplateValues> {
  const errors: FieldErrors<TemplateValues> = {};
  if (!v.title.trim()) errors.title = REQUIRED;
  if (!v.premiumChannelId) errors.premiumChannelId = REQUIRED;
  return errors;
}

/** The form's values as `TemplateInput` (without `_id` and `version`). */
export function toTemplateInput(v: TemplateValues): TemplateInput {
  return {
    title: v.title.trim(),
    html: v.html,
    premiumChannelId: v.premiumChannelId,
    contributors: v.contributors.map((u) => u._id),
    categories: v.categories,
    tags: v.tags.map((t) => t._id),
  };
}

/** The route screen: edit/{_id} loads the template first; add starts empty. */
export default function TemplateFormScreen() {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(TemplateByIdDocument, id);
  if (!id) return <TemplateForm record={null} />;
  if (data) return <TemplateForm record={data.findTemplateById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit template">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

/** The channel choices: those the viewer may publish to, and the template's own channel. */
export function channelOptions(
  channels: readonly { _id: string; name: string }[],
  current: TemplateFormFieldsFragment['premiumChannel'] | undefined,
): SelectOption[] {
  const options = channels.map((c) => ({ value: c._id, label: c.name }));
  if (current && !options.some((o) => o.value === current._id)) {
    options.push({ value: current._id, label: current.state === 'archived' ? `${current.name} (archived)` : current.name });
  }
  return options;
}

export function TemplateForm({ record }: { record: TemplateFormFieldsFragment | null }) {
  const { features } = useConfig();
  const channels = useQuery(TemplateFormChannelsDocument);
  const [addTemplate] = useMutation(AddTemplateDocument);
  const [editTemplate] = useMutation(EditTemplateDocument);
  const [deleteTemplate] = useMutation(DeleteTemplateDocument);
  const readOnly = !!record && !record.canEdit;
  const tagsId = useId();

  const form = useAdminForm<TemplateValues, TemplateFormFieldsFragment>({
    type: 'template',
    listPath: TEMPLATES_PATH,
    record,
    empty: EMPTY,
    toValues,
    validate: validateTemplate,
    nameOf: (v) => v.title.trim(),
    save: (values, existing) => {
      const item = toTemplateInput(values);
      return existing
        ? editTemplate({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addTemplate({ variables: { item } });
    },
    remove: readOnly
      ? undefined
      : (existing) =>
          deleteTemplate({
            variables: { id: existing._id },
            // Out of the cached list, but not evicted: evicting would make the still-open form
            // refetch the template it has just deleted.
            update: (cache) =>
              cache.modify({
                fields: {
                  templates: (refs: readonly Reference[], { readField }) => refs.filter((ref) => readField('_id', ref) !== existing._id),
                },
              }),
          }),
  });

  const { values, errors } = form;
  const title = record ? 'Edit template' : 'New template';
  const topics = topicsWord(features.premiumChannels);

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Templates', to: TEMPLATES_PATH }, { text: title }]}
      readOnly={readOnly}
      deleteTitle="Delete template"
      deleteText={
        <>
          <p>Delete the template {record?.title}?</p>
          {!!record?.usedArticlesNumber && <p>Articles started from it ({usedText(record.usedArticlesNumber)}) keep their content.</p>}
        </>
      }
      aside={record ? <TemplateSidebar template={record} /> : undefined}
    >
      {readOnly && <Banner>Only an editor can change this template.</Banner>}

      <Section title="Template details">
        <TextField label="Title" placeholder={`Morning report ${TODAY_PLACEHOLDER}`} disabled={readOnly} {...form.field('title')} />
        <p className="insights-template-hint">
          {TODAY_PLACEHOLDER} in the title becomes the date the article is started from this template, like &apos;
          {formatDate(new Date())}&apos;.
        </p>
        <div className="insights-template-field">
          {/* The editable area is named 'Template body'; this is the visible label. */}
          <span className="insights-template-label" aria-hidden>
            Body
          </span>
          <RichTextEditor
            ariaLabel="Template body"
            initialHtml={record?.html ?? ''}
            resetKey={record ? `${record._id}:${record.version}` : 'new'}
            readOnly={readOnly}
            onChange={(html) => form.setValues({ html })}
          />
          {errors.html && <span className="insights-template-error">{errors.html}</span>}
        </div>
      </Section>

      <Section title="Article details">
        <SelectField
          label="Channel"
          noneLabel={channels.loading ? 'Loading channels...' : 'Choose a channel'}
          options={channelOptions(channels.data?.me.channelsToPublish ?? [], record?.premiumChannel)}
          disabled={readOnly}
          {...form.field('premiumChannelId')}
        />
        {channels.error && (
          <Banner intent="danger" role="alert">
            The channels could not be loaded: {formatError(channels.error)}
          </Banner>
        )}
        <UserPickerField label="Contributors" placeholder="Search users..." disabled={readOnly} {...form.field('contributors')} />
      </Section>

      <Section title="Taxonomies">
        <div className="insights-template-field">
          {/* The tree names itself; this is the visible label. */}
          <span className="insights-template-label" aria-hidden>
            {topics}
          </span>
          <TopicTreePicker
            value={values.categories}
            onChange={(categories) => form.setValues({ categories })}
            disabled={readOnly}
            invalid={!!errors.categories}
          />
          {errors.categories && <span className="insights-template-error">{errors.categories}</span>}
        </div>
        <div className="insights-template-field">
          <label htmlFor={tagsId} className="insights-template-label">
            Tags
          </label>
          <TagPicker id={tagsId} value={values.tags} onChange={(tags) => form.setValues({ tags })} disabled={readOnly} />
          {errors.tags && <span className="insights-template-error">{errors.tags}</span>}
        </div>
      </Section>
    </AdminForm>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="insights-template-section">
      <h2 id={id} className="insights-template-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Beside an existing template: its dates, author and use (spec 2 §2). */
function TemplateSidebar({ template }: { template: TemplateFormFieldsFragment }) {
  const rows = [
    { label: 'Last edited', value: formatDate(new Date(template.lastEdited)) },
    { label: 'Created', value: formatDate(new Date(template.created)) },
    ...(template.author ? [{ label: 'Created by', value: template.author.name }] : []),
    { label: 'Used by', value: usedText(template.usedArticlesNumber) },
  ];
  return (
    <aside aria-label="Template summary" className="insights-template-sidebar">
      <dl>
        {rows.map((r) => (
          <div key={r.label}>
            <dt>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

export const TEMPLATE_FORM_OPERATIONS = gql`
  fragment TemplateFormFields on Template {
    _id
    title
    html
    version
    canEdit
    usedArticlesNumber
    created
    lastEdited
    author {
      _id
      name
      email
    }
    premiumChannel {
      _id
      name
      state
    }
    contributors {
      _id
      name
      email
    }
    categories {
      _id
      name
    }
    tags {
      _id
      name
    }
  }

  query TemplateById($id: ID!) {
    findTemplateById(id: $id) {
      ...TemplateFormFields
    }
  }

  query TemplateFormChannels {
    me {
      _id
      channelsToPublish {
        _id
        name
      }
    }
  }

  mutation AddTemplate($item: TemplateInput!) {
    addTemplate(item: $item) {
      ...TemplateFormFields
    }
  }

  mutation EditTemplate($item: TemplateInput!) {
    editTemplate(item: $item) {
      ...TemplateFormFields
    }
  }

  mutation DeleteTemplate($id: ID!) {
    deleteTemplate(id: $id) {
      _id
      name
    }
  }
`;
