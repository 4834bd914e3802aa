//! Add and edit a topic (category) (spec 1 §2, §4, §5): name, description, parent (a tree select
//! that never offers the topic itself or its sub-topics), sector (cleared and disabled once a
//! parent is chosen), card and cover images, promotional content, locked and premium.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import {
  AdminForm,
  CheckboxField,
  ImageUploadField,
  SelectField,
  TextAreaField,
  TextField,
  TreeSelectField,
  useAdminForm,
  useRecordQuery,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import { uploadedImageUrl, useImageUpload } from '../../lib/upload';
import {
  AddTopicDocument,
  DeleteTopicDocument,
  EditTopicDocument,
  PromotionalContentOptionsDocument,
  TopicByIdDocument,
  type TopicFormFieldsFragment,
} from './__generated__/TopicForm.generated';
import { TopicTreeDocument } from './__generated__/topicTree.generated';
import { parentOptions, toTopicNodes } from './topicTree';
import { articleUseText, useTopicWording } from './wording';

export const TOPIC_LIMITS = { name: 100, description: 500 } as const;
export const REQUIRED = 'This field is required';

export interface TopicValues extends Record<string, unknown> {
  name: string;
  description: string;
  parent: string | null;
  isFeatured: boolean;
  smallImage: string | null;
  largeImage: string | null;
  promotionalContentId: string | null;
  isLocked: boolean;
  isPremium: boolean;
}

const EMPTY: TopicValues = {
  name: '',
  description: '',
  parent: null,
  isFeatured: false,
  smallImage: null,
  largeImage: null,
  promotionalContentId: null,
  isLocked: false,
  isPremium: false,
};

export const toTopicValues = (t: TopicFormFieldsFragment): TopicValues => ({
  name: t.name,
  description: t.description,
  parent: t.parent ?? null,
  isFeatured: t.isFeatured,
  smallImage: t.smallImage ?? null,
  largeImage: t.largeImage ?? null,
  promotionalContentId: t.promotionalContentId ?? null,
  isLocked: t.isLocked,
  isPremium: t.isPremium,
});

export function validateTopic(v: TopicValues): FieldErrors<TopicValues> {
  const errors: FieldErrors<TopicValues> = {};
  if (!v.name.trim()) errors.name = REQUIRED;
  else if (v.name.length > TOPIC_LIMITS.name) errors.name = `Maximum ${TOPIC_LIMITS.name} characters`;
  if (!v.description.trim()) errors.description = REQUIRED;
  else if (v.description.length > TOPIC_LIMITS.description) errors.description = `Maximum ${TOPIC_LIMITS.description} characters`;
  return errors;
}

/** The route screen: edit/{_id} loads the topic first; add starts empty. */
export default function TopicFormScreen({ base }: { base: string }) {
  const { id } = useParams();
  const words = useTopicWording();
  const { data, loading, error } = useRecordQuery(TopicByIdDocument, id);
  if (!id) return <TopicForm base={base} record={null} />;
  if (data) return <TopicForm base={base} record={data.findCategoryById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title={`Edit ${words.one}`}>
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function TopicForm({ base, record }: { base: string; record: TopicFormFieldsFragment | null }) {
  const words = useTopicWording();
  const upload = useImageUpload();
  const tree = useQuery(TopicTreeDocument);
  const promos = useQuery(PromotionalContentOptionsDocument);
  const [addTopic] = useMutation(AddTopicDocument);
  const [editTopic] = useMutation(EditTopicDocument);
  const [deleteTopic] = useMutation(DeleteTopicDocument);

  const form = useAdminForm<TopicValues, TopicFormFieldsFragment>({
    type: words.one,
    listPath: base,
    record,
    empty: EMPTY,
    toValues: toTopicValues,
    validate: validateTopic,
    nameOf: (v) => v.name,
    // The list reloads the tree when the form returns to it (cache-and-network).
    save: (values, existing) => {
      const item = { ...values, isFeatured: values.parent ? false : values.isFeatured };
      return existing
        ? editTopic({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addTopic({ variables: { item } });
    },
    remove: (existing) =>
      deleteTopic({
        variables: { id: existing._id },
        update: (cache) => {
          cache.evict({ id: cache.identify({ __typename: 'Category', _id: existing._id }) });
          cache.gc();
        },
      }),
  });

  const title = `${record ? 'Edit' : 'Add'} ${words.one}`;
  const parent = form.field('parent');
  const nodes = parentOptions(toTopicNodes(tree.data?.categoriesAsTree ?? []), record?._id ?? null);

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: words.Many, to: base }, { text: record ? record.name : title }]}
      deleteTitle={`Delete ${words.one}`}
      deleteText={
        <p>
          Delete the {words.one} {record?.name}? {articleUseText(record?.articleCount ?? 0, words.one)}
        </p>
      }
    >
      <TextField label="Name" maxLength={TOPIC_LIMITS.name} {...form.field('name')} />
      <TextAreaField label="Description" maxLength={TOPIC_LIMITS.description} counter {...form.field('description')} />
      <TreeSelectField
        label={`Parent ${words.one}`}
        noneLabel={`None (top-level ${words.one})`}
        nodes={nodes}
        exclude={record?._id}
        {...parent}
        // A sub-topic cannot be a sector (spec 1 §4).
        onChange={(value) => form.setValues(value ? { parent: value, isFeatured: false } : { parent: null })}
      />
      <CheckboxField
        label="Sector"
        disabled={!!form.values.parent}
        help={form.values.parent ? `Only a top-level ${words.one} can be a sector.` : undefined}
        {...form.field('isFeatured')}
      />
      <ImageUploadField label="Card image" upload={upload} previewUrl={uploadedImageUrl} {...form.field('smallImage')} />
      <ImageUploadField label="Cover image" upload={upload} previewUrl={uploadedImageUrl} {...form.field('largeImage')} />
      <SelectField
        label="Promotional content"
        noneLabel="None"
        options={(promos.data?.promotionalContentOptions ?? []).map((p) => ({ value: p._id, label: p.name }))}
        {...form.field('promotionalContentId')}
      />
      <CheckboxField label="Locked" {...form.field('isLocked')} />
      <CheckboxField label="Premium" {...form.field('isPremium')} />
    </AdminForm>
  );
}

export const TOPIC_FORM_OPERATIONS = gql`
  fragment TopicFormFields on Category {
    _id
    name
    description
    parent
    isFeatured
    smallImage
    largeImage
    promotionalContentId
    isLocked
    isPremium
    version
    articleCount
  }

  query TopicById($id: ID!) {
    findCategoryById(id: $id) {
      ...TopicFormFields
    }
  }

  query PromotionalContentOptions {
    promotionalContentOptions {
      _id
      name
    }
  }

  mutation AddTopic($item: CategoryInput!) {
    addCategory(item: $item) {
      ...TopicFormFields
    }
  }

  mutation EditTopic($item: CategoryInput!) {
    editCategory(item: $item) {
      ...TopicFormFields
    }
  }

  mutation DeleteTopic($id: ID!) {
    deleteCategory(id: $id) {
      _id
      name
    }
  }
`;
