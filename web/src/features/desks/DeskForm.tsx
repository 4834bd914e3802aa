//! Add and edit a desk (spec 2 §2 "Desks", §4, §5): name (required, at most 50), 'Show all users',
//! contributors (at least one, picked from the staff), contact email (valid, at most 50) and a
//! description. Delete asks first; the server refuses while the desk owns a channel, and its
//! message stays on the form.
//!
//! 'Show all users': the contract offers one source of people, `staffUsers`, so the checkbox
//! narrows that list instead of widening it. Unticked (the default), the contributors picker
//! suggests only staff who are not on another desk yet, the people a new desk usually gathers;
//! ticked, it suggests every staff user.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useParams } from 'react-router';
import {
  AdminForm,
  CheckboxField,
  TextAreaField,
  TextField,
  useAdminForm,
  useRecordQuery,
  UserPickerField,
  type FieldErrors,
  type UserSummary,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { INVALID_EMAIL, isEmail } from '../../lib/email';
import { formatError } from '../../lib/errors';
import {
  AddDeskDocument,
  DeleteDeskDocument,
  DeskByIdDocument,
  DeskMembershipDocument,
  EditDeskDocument,
  type DeskFormFieldsFragment,
} from './__generated__/DeskForm.generated';

const DESKS_PATH = '/publisher/desks';

export const DESK_LIMITS = { name: 50, email: 50 } as const;
export const REQUIRED = 'This field is required';
export const MUST_CHOOSE = 'This field should be chosen';

export interface DeskValues extends Record<string, unknown> {
  name: string;
  contributors: UserSummary[];
  email: string;
  description: string;
}

const EMPTY: DeskValues = { name: '', contributors: [], email: '', description: '' };

const toValues = (d: DeskFormFieldsFragment): DeskValues => ({
  name: d.name,
  contributors: d.contributors.map(({ _id, name, email }) => ({ _id, name, email })),
  email: d.email ?? '',
  description: d.description ?? '',
});

export function validateDesk(v: DeskValues): FieldErrors<DeskValues> {
  const errors: FieldErrors<DeskValues> = {};
  if (!v.name.trim()) errors.name = REQUIRED;
  else if (v.name.length > DESK_LIMITS.name) errors.name = `Maximum ${DESK_LIMITS.name} characters`;
  if (v.contributors.length === 0) errors.contributors = MUST_CHOOSE;
  const email = v.email.trim();
  if (email.length > DESK_LIMITS.email) errors.email = `Maximum ${DESK_LIMITS.email} characters`;
  else if (email && !isEmail(email)) errors.email = INVALID_EMAIL;
  return errors;
}

/** The route screen: edit/{_id} loads the desk first; add starts empty. */
export default function DeskFormScreen() {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(DeskByIdDocument, id);
  if (!id) return <DeskForm record={null} />;
  if (data) return <DeskForm record={data.findDeskById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit desk">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function DeskForm({ record }: { record: DeskFormFieldsFragment | null }) {
  const [showAllUsers, setShowAllUsers] = useState(false);
  const membership = useQuery(DeskMembershipDocument, { skip: showAllUsers });
  const [addDesk] = useMutation(AddDeskDocument);
  const [editDesk] = useMutation(EditDeskDocument);
  const [deleteDesk] = useMutation(DeleteDeskDocument);
  const canEdit = record?.canEdit ?? true;

  const form = useAdminForm<DeskValues, DeskFormFieldsFragment>({
    type: 'desk',
    listPath: DESKS_PATH,
    record,
    empty: EMPTY,
    toValues,
    validate: validateDesk,
    nameOf: (v) => v.name,
    save: (values, existing) => {
      const item = {
        name: values.name,
        contributors: values.contributors.map((u) => u._id),
        email: values.email.trim() || null,
        description: values.description.trim() ? values.description : null,
      };
      return existing
        ? editDesk({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addDesk({ variables: { item } });
    },
    remove: canEdit
      ? (existing) =>
          deleteDesk({
            variables: { id: existing._id },
            update: (cache) => {
              cache.evict({ id: cache.identify({ __typename: 'Desk', _id: existing._id }) });
              cache.gc();
            },
          })
      : undefined,
  });

  // Staff already on another desk; this desk's own members never count.
  const onOtherDesks = showAllUsers
    ? []
    : (membership.data?.desks ?? []).filter((d) => d._id !== record?._id).flatMap((d) => d.contributors.map((u) => u._id));

  const title = record ? 'Edit desk' : 'Add desk';
  const channels = record?.channels ?? [];
  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Desks', to: DESKS_PATH }, { text: record ? record.name : title }]}
      deleteTitle="Delete desk"
      deleteText={
        <>
          <p>Delete the desk {record?.name}?</p>
          {channels.length > 0 && (
            <p>
              It owns {channels.length === 1 ? 'the channel' : 'the channels'} {channels.map((c) => c.name).join(', ')}: a desk that owns
              channels cannot be deleted.
            </p>
          )}
        </>
      }
    >
      {!canEdit && <Banner>Only an administrator or a member of this desk can change it.</Banner>}
      <TextField label="Name" maxLength={DESK_LIMITS.name} disabled={!canEdit} {...form.field('name')} />
      <CheckboxField
        label="Show all users"
        name="showAllUsers"
        value={showAllUsers}
        onChange={setShowAllUsers}
        onBlur={() => {}}
        disabled={!canEdit}
        help={showAllUsers ? 'Every staff user is suggested.' : 'Only staff who are not on another desk are suggested.'}
      />
      <UserPickerField
        label="Contributors"
        placeholder="Search users..."
        excludeIds={onOtherDesks}
        disabled={!canEdit}
        {...form.field('contributors')}
      />
      <TextField label="Contact email" maxLength={DESK_LIMITS.email} disabled={!canEdit} {...form.field('email')} />
      <TextAreaField label="Description" disabled={!canEdit} {...form.field('description')} />
    </AdminForm>
  );
}

export const DESK_FORM_OPERATIONS = gql`
  fragment DeskFormFields on Desk {
    _id
    name
    description
    email
    version
    canEdit
    contributors {
      _id
      name
      email
    }
    channels {
      _id
      name
    }
  }

  query DeskById($id: ID!) {
    findDeskById(id: $id) {
      ...DeskFormFields
    }
  }

  query DeskMembership {
    desks {
      _id
      contributors {
        _id
      }
    }
  }

  mutation AddDesk($item: DeskInput!) {
    addDesk(item: $item) {
      ...DeskFormFields
    }
  }

  mutation EditDesk($item: DeskInput!) {
    editDesk(item: $item) {
      ...DeskFormFields
    }
  }

  mutation DeleteDesk($id: ID!) {
    deleteDesk(id: $id) {
      _id
      name
    }
  }
`;
