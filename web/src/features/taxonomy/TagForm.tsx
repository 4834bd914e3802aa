//! Add and edit a tag (spec 1 §2 "Tag add/edit form", §5): name (at most 50), description (at
//! most 500, with a counter); Delete says how many articles lose the tag.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useParams } from 'react-router';
import { AdminForm, TextAreaField, TextField, useAdminForm, useRecordQuery, type FieldErrors } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import {
  AddTagDocument,
  DeleteTagDocument,
  EditTagDocument,
  TagByIdDocument,
  type TagFormFieldsFragment,
} from './__generated__/TagForm.generated';
import { articleUseText } from './wording';

export const TAG_LIMITS = { name: 50, description: 500 } as const;

export interface TagValues extends Record<string, unknown> {
  name: string;
  description: string;
}

export function validateTag(v: TagValues): FieldErrors<TagValues> {
  const errors: FieldErrors<TagValues> = {};
  if (!v.name.trim()) errors.name = 'This field is required';
  else if (v.name.length > TAG_LIMITS.name) errors.name = `Maximum ${TAG_LIMITS.name} characters`;
  if (!v.description.trim()) errors.description = 'This field is required';
  else if (v.description.length > TAG_LIMITS.description) errors.description = `Maximum ${TAG_LIMITS.description} characters`;
  return errors;
}

export default function TagFormScreen({ base }: { base: string }) {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(TagByIdDocument, id);
  if (!id) return <TagForm base={base} record={null} />;
  if (data) return <TagForm base={base} record={data.findTagById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit tag">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function TagForm({ base, record }: { base: string; record: TagFormFieldsFragment | null }) {
  const [addTag] = useMutation(AddTagDocument);
  const [editTag] = useMutation(EditTagDocument);
  const [deleteTag] = useMutation(DeleteTagDocument);

  const form = useAdminForm<TagValues, TagFormFieldsFragment>({
    type: 'tag',
    listPath: base,
    record,
    empty: { name: '', description: '' },
    toValues: (t) => ({ name: t.name, description: t.description }),
    validate: validateTag,
    nameOf: (v) => v.name,
    save: (values, existing) =>
      existing
        ? editTag({ variables: { item: { ...values, _id: existing._id, version: existing.version } } })
        : addTag({ variables: { item: values } }),
    remove: (existing) =>
      deleteTag({
        variables: { id: existing._id },
        update: (cache) => {
          cache.evict({ id: cache.identify({ __typename: 'Tag', _id: existing._id }) });
          cache.gc();
        },
      }),
  });

  const title = record ? 'Edit tag' : 'Add tag';
  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Tags', to: base }, { text: record ? record.name : title }]}
      deleteTitle="Delete tag"
      deleteText={
        <p>
          Delete the tag {record?.name}? {articleUseText(record?.articleCount ?? 0, 'tag')}
        </p>
      }
    >
      <TextField label="Name" maxLength={TAG_LIMITS.name} {...form.field('name')} />
      <TextAreaField label="Description" maxLength={TAG_LIMITS.description} counter {...form.field('description')} />
    </AdminForm>
  );
}

export const TAG_FORM_OPERATIONS = gql`
  fragment TagFormFields on Tag {
    _id
    name
    description
    version
    articleCount
  }

  query TagById($id: ID!) {
    findTagById(id: $id) {
      ...TagFormFields
    }
  }

  mutation AddTag($item: TagInput!) {
    addTag(item: $item) {
      ...TagFormFields
    }
  }

  mutation EditTag($item: TagInput!) {
    editTag(item: $item) {
      ...TagFormFields
    }
  }

  mutation DeleteTag($id: ID!) {
    deleteTag(id: $id) {
      _id
      name
    }
  }
`;
