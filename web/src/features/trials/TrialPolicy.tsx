//! The trial policy (Administrators, issue 40): how long a free trial may last, the cool-off after a
//! trial or subscription of a channel ends, and whether readers accept the trial terms with their
//! request; and the terms themselves, edited as HTML, each save a new version (readers' acceptances
//! name theirs). Both saves send the version they were edited from: the server answers CONFLICT
//! when another was saved since. The server checks the same rules and names the field it refuses.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { AdminFormSection, CheckboxField, TextField, useAdminForm, type FieldErrors } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { RichTextEditor } from '../../components/richtext/RichTextEditor';
import { formatDate, formatFullDateTime } from '../../lib/dates';
import { formatError } from '../../lib/errors';
import {
  EditTrialPolicyDocument,
  EditTrialTermsDocument,
  TrialPolicyDocument,
  type TrialPolicyFieldsFragment,
  type TrialPolicyInput,
  type TrialTermsFieldsFragment,
} from './__generated__/TrialPolicy.generated';
import './trials.css';

export const TRIAL_POLICY_PATH = '/publisher/trial-policy';

const TITLE = 'Trial policy';

/** The server's bounds (`editTrialPolicy`), in whole days. */
export const DAY_BOUNDS = {
  maxDays: { min: 1, max: 100 },
  coolOffDays: { min: 0, max: 3650 },
} as const;

export const MESSAGES = {
  days: (min: number, max: number) => `Enter a whole number of days from ${min} to ${max}`,
  required: 'This field is required',
  policySaved: 'Trial policy saved.',
  termsSaved: (version: number) => `Trial terms saved as version ${version}.`,
} as const;

export const REGULATION =
  'MiFID II lets a firm take research free of charge on trial only for a short time: a trial lasts at most three months, ' +
  'is not given within twelve months of an earlier trial or subscription of the same research, and its terms are agreed ' +
  'before it starts and recorded. These settings apply to the trials readers ask for and to those staff give.';

/** Whole days typed, at most four digits: anything else is dropped as it is typed. */
const DAY_DIGITS = 4;

export interface PolicyValues extends Record<string, unknown> {
  /** Whole days, as typed. */
  maxDays: string;
  coolOffDays: string;
  termsRequired: boolean;
}

export interface TermsValues extends Record<string, unknown> {
  html: string;
}

function daysError(text: string, { min, max }: { min: number; max: number }): string | undefined {
  const value = text.trim();
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) return MESSAGES.days(min, max);
  return undefined;
}

export function validatePolicy(v: PolicyValues): FieldErrors<PolicyValues> {
  const errors: FieldErrors<PolicyValues> = {};
  const maxDays = daysError(v.maxDays, DAY_BOUNDS.maxDays);
  if (maxDays) errors.maxDays = maxDays;
  const coolOffDays = daysError(v.coolOffDays, DAY_BOUNDS.coolOffDays);
  if (coolOffDays) errors.coolOffDays = coolOffDays;
  return errors;
}

export function toPolicyInput(v: PolicyValues, version: number): TrialPolicyInput {
  return { maxDays: Number(v.maxDays.trim()), coolOffDays: Number(v.coolOffDays.trim()), termsRequired: v.termsRequired, version };
}

const toPolicyValues = (p: TrialPolicyFieldsFragment): PolicyValues => ({
  maxDays: String(p.maxDays),
  coolOffDays: String(p.coolOffDays),
  termsRequired: p.termsRequired,
});

const EMPTY_POLICY: PolicyValues = { maxDays: '', coolOffDays: '', termsRequired: true };
const EMPTY_TERMS: TermsValues = { html: '' };

export default function TrialPolicy() {
  const { data, loading, error, refetch } = useQuery(TrialPolicyDocument, { fetchPolicy: 'cache-and-network' });
  if (!data) {
    return (
      <Page title={TITLE}>
        {loading || !error ? (
          <LoadingBlock />
        ) : (
          <Banner intent="danger" role="alert">
            <p>{formatError(error)}</p>
            <Button text="Retry" size="small" onClick={() => void refetch()} />
          </Banner>
        )}
      </Page>
    );
  }
  return (
    <Page title={TITLE}>
      <p className="insights-trials-intro">{REGULATION}</p>
      <PolicyForm policy={data.trialPolicy} />
      <TermsForm terms={data.trialTerms} />
    </Page>
  );
}

function PolicyForm({ policy }: { policy: TrialPolicyFieldsFragment }) {
  const [editPolicy] = useMutation(EditTrialPolicyDocument);
  const form = useAdminForm<PolicyValues, TrialPolicyFieldsFragment>({
    type: 'trial policy',
    listPath: TRIAL_POLICY_PATH,
    record: policy,
    empty: EMPTY_POLICY,
    toValues: toPolicyValues,
    validate: validatePolicy,
    nameOf: () => TITLE,
    successMessage: () => MESSAGES.policySaved,
    save: (values, existing) =>
      editPolicy({
        variables: { item: toPolicyInput(values, (existing ?? policy).version) },
        // The policy has no id: the screen's query is pointed at the saved one.
        update: (cache, { data }) => {
          const saved = data?.editTrialPolicy;
          if (saved) cache.updateQuery({ query: TrialPolicyDocument }, (prev) => prev && { ...prev, trialPolicy: saved });
        },
      }),
  });
  const days = (name: 'maxDays' | 'coolOffDays') => {
    const binding = form.field(name);
    // Whole days only: anything but digits is dropped as it is typed.
    return { ...binding, onChange: (text: string) => binding.onChange(text.replace(/\D/g, '').slice(0, DAY_DIGITS)) };
  };

  return (
    <section className="insights-trials-section" aria-labelledby="trial-policy-rules">
      <h2 id="trial-policy-rules" className="insights-trials-heading">
        Rules
      </h2>
      <p className="insights-trials-hint">Last changed {formatFullDateTime(policy.updatedAt)}.</p>
      <AdminFormSection form={form} label="Trial policy rules" submitText="Save" cancel={false}>
        <TextField
          label="Longest trial (days)"
          help="Longer trials are shortened to it when approved; staff give a longer one only with a reason."
          {...days('maxDays')}
        />
        <TextField
          label="Cool-off after a trial or subscription ends (days)"
          help="No new trial of the channel for the reader or their firm until it has passed; 0 for none."
          {...days('coolOffDays')}
        />
        <CheckboxField
          label="Readers accept the trial terms with their request"
          help="The version they accept is recorded with the request."
          {...form.field('termsRequired')}
        />
      </AdminFormSection>
    </section>
  );
}

function TermsForm({ terms }: { terms: TrialTermsFieldsFragment }) {
  const [editTerms] = useMutation(EditTrialTermsDocument);
  const next = terms.version + 1;
  const form = useAdminForm<TermsValues, TrialTermsFieldsFragment>({
    type: 'trial terms',
    listPath: TRIAL_POLICY_PATH,
    record: terms,
    empty: EMPTY_TERMS,
    toValues: (t) => ({ html: t.html }),
    validate: (v) => (v.html.trim() ? {} : { html: MESSAGES.required }),
    nameOf: () => String(next),
    successMessage: (_, version) => MESSAGES.termsSaved(Number(version)),
    save: (values, existing) =>
      editTerms({
        variables: { item: { html: values.html, version: (existing ?? terms).version } },
        // A new version: the current terms are now the saved ones (the earlier stay on the server).
        update: (cache, { data }) => {
          const saved = data?.editTrialTerms;
          if (saved) cache.updateQuery({ query: TrialPolicyDocument }, (prev) => prev && { ...prev, trialTerms: saved });
        },
      }),
  });
  const html = form.field('html');
  const heading = `Trial terms (version ${terms.version}, ${formatDate(new Date(terms.createdAt))})`;

  return (
    <section className="insights-trials-section" aria-labelledby="trial-policy-terms">
      <h2 id="trial-policy-terms" className="insights-trials-heading">
        {heading}
      </h2>
      <p className="insights-trials-hint">
        Readers see these terms when they ask for a trial. A save keeps this version and adds the next: each acceptance names the version
        the reader accepted.
      </p>
      <AdminFormSection form={form} label="Trial terms" submitText={`Save as version ${next}`} cancel={false}>
        <div className="insights-trials-field">
          <RichTextEditor
            ariaLabel="Trial terms"
            initialHtml={terms.html}
            resetKey={terms.version}
            // No onBlur: the required message waits for a save attempt, as in the other HTML forms.
            onChange={(value) => html.onChange(value)}
          />
          {html.error && <span className="insights-trials-error">{html.error}</span>}
        </div>
      </AdminFormSection>
    </section>
  );
}

export const TRIAL_POLICY_OPERATIONS = gql`
  fragment TrialPolicyFields on TrialPolicy {
    maxDays
    coolOffDays
    termsRequired
    version
    updatedAt
  }

  fragment TrialTermsFields on TrialTerms {
    version
    html
    createdAt
  }

  query TrialPolicy {
    trialPolicy {
      ...TrialPolicyFields
    }
    trialTerms {
      ...TrialTermsFields
    }
  }

  mutation EditTrialPolicy($item: TrialPolicyInput!) {
    editTrialPolicy(item: $item) {
      ...TrialPolicyFields
    }
  }

  mutation EditTrialTerms($item: TrialTermsInput!) {
    editTrialTerms(item: $item) {
      ...TrialTermsFields
    }
  }
`;
