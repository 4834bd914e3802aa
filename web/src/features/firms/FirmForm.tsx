//! Add and edit a client firm (issue 39): name (required, at most 100), email domains (readers at
//! them join the firm; the server normalises and checks them: public mail services and another
//! firm's domains are refused, with its message on the field), account number, billing method
//! (required) and staff notes. When the domains gain one, the form first asks the server how many
//! readers in no firm are at them (`firmDomainReaders`) and, when some are, asks before saving:
//! '{n} readers at these domains will join {name}.' An existing firm can be archived (not while a
//! subscription of it is live: the server says so); an archived one is read-only.
import { gql } from '@apollo/client';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import {
  AdminForm,
  ConfirmDialog,
  RadioField,
  TextAreaField,
  TextField,
  useAdminForm,
  useRecordQuery,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import {
  AddFirmDocument,
  ArchiveFirmDocument,
  EditFirmDocument,
  FirmByIdDocument,
  FirmDomainReadersDocument,
  type FirmBillingMethod,
  type FirmFormFieldsFragment,
} from './__generated__/FirmForm.generated';
import { addedDomains, BILLING_METHOD_OPTIONS, FIRMS_PATH, firmPath, joiningText, MESSAGES, splitDomains } from './firmText';
import './firms.css';

export const FIRM_LIMITS = { name: 100, accountNumber: 64, notes: 1000 } as const;

export interface FirmValues extends Record<string, unknown> {
  name: string;
  /** As typed: commas or spaces between the domains. */
  domains: string;
  accountNumber: string;
  billingMethod: FirmBillingMethod | null;
  notes: string;
}

const EMPTY: FirmValues = { name: '', domains: '', accountNumber: '', billingMethod: null, notes: '' };

const toValues = (f: FirmFormFieldsFragment): FirmValues => ({
  name: f.name,
  domains: f.domains.join(', '),
  accountNumber: f.accountNumber ?? '',
  billingMethod: f.billingMethod,
  notes: f.notes ?? '',
});

export function validateFirm(v: FirmValues): FieldErrors<FirmValues> {
  const errors: FieldErrors<FirmValues> = {};
  if (!v.name.trim()) errors.name = MESSAGES.required;
  else if (v.name.trim().length > FIRM_LIMITS.name) errors.name = MESSAGES.maxLength(FIRM_LIMITS.name);
  if (!v.billingMethod) errors.billingMethod = MESSAGES.choose;
  if (v.accountNumber.trim().length > FIRM_LIMITS.accountNumber) errors.accountNumber = MESSAGES.maxLength(FIRM_LIMITS.accountNumber);
  if (v.notes.length > FIRM_LIMITS.notes) errors.notes = MESSAGES.maxLength(FIRM_LIMITS.notes);
  return errors;
}

/** The route screen: edit/{_id} loads the firm first; add starts empty. */
export default function FirmFormScreen() {
  const { id } = useParams();
  const { data, loading, error } = useRecordQuery(FirmByIdDocument, id);
  if (!id) return <FirmForm record={null} />;
  if (data) return <FirmForm record={data.findFirmById} />;
  if (loading) return <LoadingBlock />;
  return (
    <Page title="Edit firm">
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

export function FirmForm({ record }: { record: FirmFormFieldsFragment | null }) {
  const client = useApolloClient();
  const [addFirm] = useMutation(AddFirmDocument);
  const [editFirm] = useMutation(EditFirmDocument);
  const [archiveFirm] = useMutation(ArchiveFirmDocument);
  const archived = record?.state === 'archived';
  // The readers the new domains bring in, while the confirmation is open.
  const [joining, setJoining] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);

  const form = useAdminForm<FirmValues, FirmFormFieldsFragment>({
    type: 'firm',
    listPath: record ? firmPath(record._id) : FIRMS_PATH,
    record,
    empty: EMPTY,
    toValues,
    validate: validateFirm,
    nameOf: (v) => v.name.trim(),
    successMessage: (verb, name) => `The firm ${name} has been ${verb === 'deleted' ? 'archived' : verb}.`,
    save: (values, existing) => {
      const item = {
        name: values.name.trim(),
        domains: splitDomains(values.domains),
        accountNumber: values.accountNumber.trim() || null,
        billingMethod: values.billingMethod,
        notes: values.notes.trim() ? values.notes : null,
      };
      return existing
        ? editFirm({ variables: { item: { ...item, _id: existing._id, version: existing.version } } })
        : addFirm({ variables: { item } });
    },
    remove: record && !archived ? (existing) => archiveFirm({ variables: { id: existing._id, version: existing.version } }) : undefined,
  });

  /**
   * Saves, after the confirmation when the domains gained one and readers in no firm are at the
   * domains. The count is only a warning: when it cannot be had, the save goes on (the server
   * checks the domains itself).
   */
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (form.submitting || checking) return;
    const domains = splitDomains(form.values.domains);
    const gained = addedDomains(record?.domains ?? [], domains).length > 0;
    const valid = !Object.values(validateFirm(form.values)).some(Boolean);
    if (!gained || !valid) return form.submit();
    setChecking(true);
    let count = 0;
    try {
      const { data } = await client.query({
        query: FirmDomainReadersDocument,
        variables: { domains, firmId: record?._id ?? null },
        fetchPolicy: 'network-only',
      });
      count = data?.firmDomainReaders ?? 0;
    } catch {
      // No count: the save goes on without the warning.
    } finally {
      setChecking(false);
    }
    if (count > 0) setJoining(count);
    else await form.submit();
  };

  const title = record ? 'Edit firm' : 'Add firm';
  const disabled = archived;
  return (
    <>
      <AdminForm
        form={{ ...form, submit, submitting: form.submitting || checking }}
        title={title}
        breadcrumbs={[
          { text: 'Firms', to: FIRMS_PATH },
          ...(record ? [{ text: record.name, to: firmPath(record._id) }] : []),
          { text: title },
        ]}
        readOnly={archived}
        deleteLabel="Archive"
        deleteIcon="archive"
        deleteTitle="Archive firm"
        deleteText={
          <>
            <p>Archive the firm {record?.name}? An archived firm can no longer be changed; its readers and its history stay.</p>
            <p>A firm with a live subscription cannot be archived: end its subscriptions first.</p>
          </>
        }
      >
        {archived && (
          <Banner intent="warning" title="Archived firm">
            This firm is archived: it can no longer be changed.
          </Banner>
        )}
        <TextField label="Name" maxLength={FIRM_LIMITS.name} disabled={disabled} {...form.field('name')} />
        <TextAreaField
          label="Email domains"
          rows={2}
          placeholder="bank.com, bank.co.uk"
          help="Readers whose email address is at one of these domains join the firm. Separate domains with commas or spaces."
          disabled={disabled}
          {...form.field('domains')}
        />
        <TextField label="Account number" maxLength={FIRM_LIMITS.accountNumber} disabled={disabled} {...form.field('accountNumber')} />
        <RadioField label="Billing method" options={BILLING_METHOD_OPTIONS} disabled={disabled} {...form.field('billingMethod')} />
        <TextAreaField label="Notes" maxLength={FIRM_LIMITS.notes} counter rows={3} disabled={disabled} {...form.field('notes')} />
      </AdminForm>
      <ConfirmDialog
        isOpen={joining !== null}
        title="Readers will join this firm"
        icon="people"
        intent="primary"
        confirmText={record ? 'Update' : 'Add'}
        onConfirm={() => {
          setJoining(null);
          void form.submit();
        }}
        onCancel={() => setJoining(null)}
      >
        <p>{joiningText(joining ?? 0, form.values.name.trim())}</p>
      </ConfirmDialog>
    </>
  );
}

export const FIRM_FORM_OPERATIONS = gql`
  fragment FirmFormFields on Firm {
    _id
    name
    domains
    accountNumber
    billingMethod
    notes
    state
    version
  }

  query FirmById($id: ID!) {
    findFirmById(id: $id) {
      ...FirmFormFields
    }
  }

  query FirmDomainReaders($domains: [String!]!, $firmId: ID) {
    firmDomainReaders(domains: $domains, firmId: $firmId)
  }

  mutation AddFirm($item: FirmInput!) {
    addFirm(item: $item) {
      ...FirmFormFields
    }
  }

  mutation EditFirm($item: FirmInput!) {
    editFirm(item: $item) {
      ...FirmFormFields
    }
  }

  mutation ArchiveFirm($id: ID!, $version: Int!) {
    archiveFirm(id: $id, version: $version) {
      ...FirmFormFields
    }
  }
`;
