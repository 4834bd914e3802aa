//! Edit a user (spec 2 §2 "Users", §5, §6): email, role, last sign-in, member since, name, company
//! and phone are read only; Function (at most 50) can change, and so can the contributor photo
//! (only for users on the internal company domains: `canHaveProfilePicture`) and the tableau-chart
//! access (only an administrator may change it). Administrators also manage the user's clearing
//! accounts here (BillingAccounts, issue 13), and see and revoke the user's feed links and access
//! tokens (UserSecrets, issue 41). A Contributor may edit only themself; the server checks every
//! rule again.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useParams } from 'react-router';
import {
  AdminForm,
  CheckboxField,
  ImageUploadField,
  TextField,
  useAdminForm,
  useRecordQuery,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { BillingAccounts } from './BillingAccounts';
import { UserSecrets } from './UserSecrets';
import { EditUserDocument, UserByIdDocument, type UserFormFieldsFragment } from './__generated__/UserForm.generated';
import { checkPhoto, PHOTO_ACCEPT, usePhotoUpload, useProfilePicture } from './profilePicture';
import './UserForm.css';

const USERS_PATH = '/publisher/users';

export const USER_LIMITS = { position: 50 } as const;

export interface UserValues extends Record<string, unknown> {
  position: string;
  displayAvatar: boolean;
  tableauAccess: boolean;
  /** A new photo's link (POST /upload); null keeps the current photo. */
  profilePicture: string | null;
}

const toValues = (u: UserFormFieldsFragment): UserValues => ({
  position: u.position ?? '',
  displayAvatar: u.displayAvatar,
  tableauAccess: u.tableauAccess,
  profilePicture: null,
});

export function validateUser(v: UserValues): FieldErrors<UserValues> {
  return v.position.length > USER_LIMITS.position ? { position: `Maximum ${USER_LIMITS.position} characters` } : {};
}

/** The route screen: the id in the path is URL-encoded (react-router decodes it). */
export default function UserFormScreen() {
  const { id = '' } = useParams();
  const { data, loading, error } = useRecordQuery(UserByIdDocument, id);
  if (data) return <UserForm record={data.findUserById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit user">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function UserForm({ record }: { record: UserFormFieldsFragment }) {
  const viewer = useSession();
  const [editUser] = useMutation(EditUserDocument);
  const upload = usePhotoUpload();
  const currentPhoto = useProfilePicture(record._id, record.canHaveProfilePicture && record.hasProfilePicture);
  const isAdministrator = viewer.role === 'Administrator';
  const canEdit = isAdministrator || viewer.role === 'Editor' || viewer._id === record._id;

  const form = useAdminForm<UserValues, UserFormFieldsFragment>({
    type: 'user',
    listPath: USERS_PATH,
    record,
    empty: toValues(record),
    toValues,
    validate: validateUser,
    nameOf: () => record.name,
    save: (values, existing) =>
      editUser({
        variables: {
          item: {
            _id: record._id,
            version: (existing ?? record).version,
            position: values.position.trim(),
            displayAvatar: values.displayAvatar,
            tableauAccess: values.tableauAccess,
            profilePicture: values.profilePicture,
          },
        },
      }),
  });

  const facts: [string, string][] = [
    ['Email', record.email],
    ['Role', record.role ?? 'None'],
    ['Last signed in', record.lastLogin ? formatDateTime(record.lastLogin) : 'Never'],
    ['Member since', formatDateTime(record.memberSince)],
    ['Name', record.name],
    ['Company', record.company ?? ''],
    ['Phone', record.phone ?? ''],
  ];

  return (
    <AdminForm
      form={form}
      title="Edit user"
      breadcrumbs={[{ text: 'Users', to: USERS_PATH }, { text: record.name }]}
      after={
        isAdministrator ? (
          <>
            <BillingAccounts userId={record._id} userName={record.name} />
            <UserSecrets userId={record._id} userName={record.name} />
          </>
        ) : undefined
      }
    >
      {!canEdit && <Banner>A contributor can change only their own profile.</Banner>}
      <dl className="insights-user-facts" aria-label="User details">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <TextField label="Function" maxLength={USER_LIMITS.position} disabled={!canEdit} {...form.field('position')} />
      {record.canHaveProfilePicture && (
        <>
          <CheckboxField label="Show contributor photo" disabled={!canEdit} {...form.field('displayAvatar')} />
          {currentPhoto && !form.values.profilePicture && (
            <img className="insights-user-photo" src={currentPhoto} alt={`Current photo of ${record.name}`} />
          )}
          <ImageUploadField
            label="Contributor photo"
            upload={upload}
            previewUrl={(link) => link}
            accept={PHOTO_ACCEPT}
            checkFile={checkPhoto}
            disabled={!canEdit}
            {...form.field('profilePicture')}
          />
        </>
      )}
      <CheckboxField
        label="Tableau chart access"
        disabled={!isAdministrator}
        help={isAdministrator ? undefined : 'Only an administrator can change this.'}
        {...form.field('tableauAccess')}
      />
    </AdminForm>
  );
}

export const USER_FORM_OPERATIONS = gql`
  fragment UserFormFields on User {
    _id
    version
    email
    name
    company
    phone
    role
    position
    lastLogin
    memberSince
    displayAvatar
    tableauAccess
    canHaveProfilePicture
    hasProfilePicture
  }

  query UserById($id: ID!) {
    findUserById(id: $id) {
      ...UserFormFields
    }
  }

  mutation EditUser($item: UserInput!) {
    editUser(item: $item) {
      ...UserFormFields
    }
  }
`;
