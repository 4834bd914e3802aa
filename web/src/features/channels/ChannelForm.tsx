//! Add and edit a channel (spec 3 §2 "Channel form", §3, §4, §5, §8, §9): name, description, url,
//! profile and cover images, type (premium, or free and then open or closed), GL account, price
//! (premium), owner (a desk or a contributor), admin users (the creator is a fixed admin of a new
//! channel), default trial days and hide-disclaimer. Type and owner are fixed once created. An
//! existing channel shows its counts beside the form and can be archived; an archived one is read-only.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { Navigate, useParams } from 'react-router';
import {
  AdminForm,
  CheckboxField,
  RadioField,
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
import { useConfig } from '../../lib/config';
import { formatError } from '../../lib/errors';
import { useSession } from '../../lib/session';
import {
  AddChannelDocument,
  ArchiveChannelDocument,
  ChannelByIdDocument,
  EditChannelDocument,
  type ChannelFormFieldsFragment,
  type ChannelInput,
} from './__generated__/ChannelForm.generated';
import { ChannelImageField } from './ChannelFields';
import { CHANNELS_PATH, MESSAGES, normalisePrice, PRICE_PATTERN } from './channelText';
import { OwnerField, type OwnerCandidate, type OwnerType } from './OwnerField';
import './channels.css';

export const CHANNEL_LIMITS = { name: 100, description: 250, url: 100, glAccount: 32, price: 100, trialDays: 7 } as const;

/** The type radio: premium, or free, which then needs open or closed. */
export type ChannelKind = 'premium' | 'free';
export type FreeAccess = 'freeOpen' | 'freeClosed';

export interface ChannelValues extends Record<string, unknown> {
  name: string;
  description: string;
  url: string;
  profileImage: string | null;
  coverImage: string | null;
  type: ChannelKind | null;
  freeAccess: FreeAccess | null;
  glAccount: string;
  price: string;
  ownerType: OwnerType;
  owner: OwnerCandidate | null;
  adminUsers: UserSummary[];
  /** Digits only; '' leaves the server's default. */
  defaultTrialDurationDays: string;
  hideDisclaimer: boolean;
}

export interface TrialBounds {
  trialMinDays: number;
  trialMaxDays: number;
}

export function validateChannel(v: ChannelValues, { trialMinDays, trialMaxDays }: TrialBounds): FieldErrors<ChannelValues> {
  const errors: FieldErrors<ChannelValues> = {};
  if (!v.name.trim()) errors.name = MESSAGES.required;
  else if (v.name.length > CHANNEL_LIMITS.name) errors.name = `Maximum ${CHANNEL_LIMITS.name} characters`;
  if (v.description.length > CHANNEL_LIMITS.description) errors.description = `Maximum ${CHANNEL_LIMITS.description} characters`;
  if (v.url.length > CHANNEL_LIMITS.url) errors.url = `Maximum ${CHANNEL_LIMITS.url} characters`;

  if (!v.type) errors.type = MESSAGES.choose;
  if (v.type === 'free' && !v.freeAccess) errors.freeAccess = MESSAGES.choose;

  if (v.glAccount.length > CHANNEL_LIMITS.glAccount) errors.glAccount = MESSAGES.glAccountTooLong;
  else if (v.type === 'premium' && !v.glAccount.trim()) errors.glAccount = MESSAGES.required;

  if (v.type === 'premium') {
    if (!v.price.trim()) errors.price = MESSAGES.required;
    else if (!PRICE_PATTERN.test(v.price.trim())) errors.price = MESSAGES.invalidPrice;
  }

  if (!v.owner) errors.owner = MESSAGES.choose;
  if (v.adminUsers.length === 0) errors.adminUsers = MESSAGES.choose;

  if (v.defaultTrialDurationDays !== '') {
    const days = Number(v.defaultTrialDurationDays);
    if (!/^\d+$/.test(v.defaultTrialDurationDays)) errors.defaultTrialDurationDays = MESSAGES.wholeNumber;
    else if (days < trialMinDays) errors.defaultTrialDurationDays = `Minimum value is ${trialMinDays}`;
    else if (days > trialMaxDays) errors.defaultTrialDurationDays = `Maximum value is ${trialMaxDays}`;
  }
  return errors;
}

const toValues = (c: ChannelFormFieldsFragment): ChannelValues => ({
  name: c.name,
  description: c.description ?? '',
  url: c.url ?? '',
  profileImage: c.profileImage ?? null,
  coverImage: c.coverImage ?? null,
  type: c.type === 'premium' ? 'premium' : 'free',
  freeAccess: c.type === 'premium' ? null : c.type,
  glAccount: c.glAccount ?? '',
  price: c.price ?? '',
  ownerType: c.ownerType,
  owner: { _id: c.owner._id, name: c.owner.name, type: c.owner.type },
  adminUsers: c.adminUsers.map(({ _id, name, email }) => ({ _id, name, email })),
  defaultTrialDurationDays: c.defaultTrialDurationDays == null ? '' : String(c.defaultTrialDurationDays),
  hideDisclaimer: c.hideDisclaimer,
});

/** The form's values as `ChannelInput` (without `_id` and `version`). */
export function toChannelInput(v: ChannelValues): ChannelInput {
  const premium = v.type === 'premium';
  const optional = (text: string) => text.trim() || null;
  return {
    name: v.name.trim(),
    description: optional(v.description),
    url: optional(v.url),
    profileImage: v.profileImage,
    coverImage: v.coverImage,
    glAccount: optional(v.glAccount),
    price: premium ? normalisePrice(v.price) : null,
    type: premium ? 'premium' : (v.freeAccess ?? 'freeOpen'),
    ownerType: v.ownerType,
    ownerId: v.owner?._id ?? '',
    adminUsers: v.adminUsers.map((u) => u._id),
    defaultTrialDurationDays: v.defaultTrialDurationDays === '' ? null : Number(v.defaultTrialDurationDays),
    hideDisclaimer: v.hideDisclaimer,
  };
}

/** The route screen: edit/{_id} loads the channel first; add starts empty. */
export default function ChannelFormScreen() {
  const { id } = useParams();
  const user = useSession();
  const { data, loading, error } = useRecordQuery(ChannelByIdDocument, id);
  if (!id) return <ChannelForm record={null} />;
  if (data) {
    // Spec 3 §6: only an Administrator opens channels they may not edit (archived ones, read-only).
    if (!data.channel.canEdit && user.role !== 'Administrator') return <Navigate to={CHANNELS_PATH} replace />;
    return <ChannelForm record={data.channel} />;
  }
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit channel">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

const TYPE_OPTIONS = [
  { value: 'premium', label: 'Premium' },
  { value: 'free', label: 'Free' },
] as const;

const FREE_ACCESS_OPTIONS = [
  { value: 'freeOpen', label: 'Open: anyone can subscribe' },
  { value: 'freeClosed', label: 'Closed: access requests are reviewed' },
] as const;

const OWNER_TYPE_OPTIONS = [
  { value: 'desk', label: 'Desk' },
  { value: 'contributor', label: 'Contributor' },
] as const;

export function ChannelForm({ record }: { record: ChannelFormFieldsFragment | null }) {
  const me = useSession();
  const { constants } = useConfig();
  const [addChannel] = useMutation(AddChannelDocument);
  const [editChannel] = useMutation(EditChannelDocument);
  const [archiveChannel] = useMutation(ArchiveChannelDocument);
  const creator: UserSummary = { _id: me._id, name: me.name, email: me.email };
  const readOnly = !!record && (record.state === 'archived' || !record.canEdit);
  const canArchive = !!record && record.state === 'active' && record.canEdit;

  const form = useAdminForm<ChannelValues, ChannelFormFieldsFragment>({
    type: 'Premium Channel',
    listPath: CHANNELS_PATH,
    record,
    empty: {
      name: '',
      description: '',
      url: '',
      profileImage: null,
      coverImage: null,
      type: 'premium',
      freeAccess: null,
      glAccount: '',
      price: '',
      ownerType: 'desk',
      owner: null,
      adminUsers: [creator],
      defaultTrialDurationDays: String(constants.defaultTrialChannelDays),
      hideDisclaimer: false,
    },
    toValues,
    validate: (v) => validateChannel(v, constants),
    nameOf: (v) => v.name.trim(),
    successMessage: (verb, name) =>
      verb === 'added' ? MESSAGES.created(name) : verb === 'updated' ? MESSAGES.updated(name) : MESSAGES.archived(name),
    save: (values, existing) => {
      const item = toChannelInput(values);
      return existing
        ? editChannel({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addChannel({ variables: { item } });
    },
    remove: canArchive ? (existing) => archiveChannel({ variables: { id: existing._id } }) : undefined,
  });

  const { values } = form;
  const premium = values.type === 'premium';
  const existing = !!record;
  const price = form.field('price');
  const trialDays = form.field('defaultTrialDurationDays');
  const title = record ? 'Edit channel' : 'Add channel';

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Channels', to: CHANNELS_PATH }, { text: record ? record.name : title }]}
      readOnly={readOnly}
      deleteLabel="Archive"
      deleteIcon="archive"
      deleteTitle="Archive channel"
      deleteText={
        <p>
          Archive the channel {record?.name}? Its articles are archived too and its templates unlinked. An archived channel cannot be
          changed or made active again.
        </p>
      }
      aside={record ? <ChannelSidebar channel={record} /> : undefined}
    >
      {record?.state === 'archived' && (
        <Banner intent="warning" title="Archived channel">
          This channel is archived: it can no longer be changed.
        </Banner>
      )}
      <TextField label="Name" maxLength={CHANNEL_LIMITS.name} disabled={readOnly} {...form.field('name')} />
      <TextAreaField
        label="Description"
        maxLength={CHANNEL_LIMITS.description}
        counter
        rows={3}
        disabled={readOnly}
        {...form.field('description')}
      />
      <TextField label="URL" maxLength={CHANNEL_LIMITS.url} disabled={readOnly} {...form.field('url')} />
      <ChannelImageField label="Profile image" disabled={readOnly} {...form.field('profileImage')} />
      <ChannelImageField label="Cover image" disabled={readOnly} {...form.field('coverImage')} />

      <RadioField
        label="Subscription type"
        options={TYPE_OPTIONS}
        disabled={readOnly || existing}
        {...form.field('type')}
        onChange={(type) => form.setValues(type === 'premium' ? { type, freeAccess: null } : { type })}
      />
      {values.type === 'free' && (
        <RadioField
          label="Free access"
          options={FREE_ACCESS_OPTIONS}
          inline={false}
          disabled={readOnly || existing}
          {...form.field('freeAccess')}
        />
      )}
      <TextField label="GL account" disabled={readOnly} {...form.field('glAccount')} />
      {premium && (
        <TextField
          label="Price (USD per month)"
          maxLength={CHANNEL_LIMITS.price}
          placeholder="49.00"
          disabled={readOnly}
          {...price}
          onBlur={() => {
            price.onBlur();
            form.setValues({ price: normalisePrice(values.price) });
          }}
        />
      )}

      <RadioField
        label="Owner type"
        options={OWNER_TYPE_OPTIONS}
        disabled={readOnly || existing}
        {...form.field('ownerType')}
        // A desk and a contributor are different records: another type needs another owner.
        onChange={(ownerType) => ownerType && ownerType !== values.ownerType && form.setValues({ ownerType, owner: null })}
      />
      <OwnerField label="Owner" ownerType={values.ownerType} disabled={readOnly || existing} {...form.field('owner')} />
      <UserPickerField
        label="Admin users"
        placeholder="Search users..."
        fixedIds={existing ? undefined : [creator._id]}
        disabled={readOnly}
        help={existing ? undefined : 'You are an admin of the channels you create.'}
        {...form.field('adminUsers')}
      />
      <TextField
        label="Default trial days"
        placeholder={String(constants.defaultTrialChannelDays)}
        disabled={readOnly}
        {...trialDays}
        // Whole days only: anything but digits is dropped as it is typed, then the 7-digit limit applies.
        onChange={(text) => trialDays.onChange(text.replace(/\D/g, '').slice(0, CHANNEL_LIMITS.trialDays))}
      />
      <CheckboxField label="Hide disclaimer" disabled={readOnly} {...form.field('hideDisclaimer')} />
    </AdminForm>
  );
}

/** The counts beside an existing channel (spec 3 §2). */
function ChannelSidebar({ channel }: { channel: ChannelFormFieldsFragment }) {
  const counts = [
    { label: 'Articles', value: channel.articleCount },
    { label: 'Archived articles', value: channel.archivedArticleCount },
    { label: 'Templates', value: channel.templateCount },
    { label: 'Active users', value: channel.channelActiveUsersCount },
  ];
  return (
    <aside aria-label="Channel summary" className="insights-channel-sidebar">
      <h2 className="insights-channel-sidebar-title">{channel.name}</h2>
      <dl className="insights-channel-counts">
        {counts.map((c) => (
          <div key={c.label}>
            <dt>{c.label}</dt>
            <dd>{c.value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

export const CHANNEL_FORM_OPERATIONS = gql`
  fragment ChannelFormFields on Channel {
    _id
    name
    description
    url
    profileImage
    coverImage
    glAccount
    price
    type
    ownerType
    ownerId
    owner {
      _id
      name
      type
    }
    adminUsers {
      _id
      name
      email
    }
    defaultTrialDurationDays
    hideDisclaimer
    state
    articleCount
    archivedArticleCount
    templateCount
    channelActiveUsersCount
    version
    canEdit
  }

  query ChannelById($id: ID!) {
    channel(id: $id) {
      ...ChannelFormFields
    }
  }

  mutation AddChannel($item: ChannelInput!) {
    addChannel(item: $item) {
      ...ChannelFormFields
    }
  }

  mutation EditChannel($item: ChannelInput!) {
    editChannel(item: $item) {
      ...ChannelFormFields
    }
  }

  mutation ArchiveChannel($id: ID!) {
    archiveChannel(id: $id) {
      ...ChannelFormFields
    }
  }
`;
