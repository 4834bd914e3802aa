//! Bulk add (spec 3 §2 'Bulk add', §3 'CSV check result', §4 'Bulk flow', §5 'Bulk review'): choose
//! a .csv file ('File format not supported' otherwise), read it in the browser ('Upload complete')
//! and have the server check its addresses (`checkEmails` parses the text); then the review
//! ('Review upload'): who can be added, who is already subscribed (overwritten on request), who has
//! no Insights account, and the addresses nobody has. Confirm adds them in one transaction
//! (`createBulkSubscriptions`) and returns to the subscriber stats; Cancel clears the review.
import { gql } from '@apollo/client';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  AdminList,
  Breadcrumbs,
  CheckboxField,
  FileChooser,
  pageRows,
  RadioField,
  TextAreaField,
  useListState,
  type AdminColumn,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Page } from '../../components/Page';
import { Tabs } from '../../components/Tabs';
import { showToast } from '../../components/Toaster';
import { formatError } from '../../lib/errors';
import {
  BulkAddChannelDocument,
  CheckEmailsDocument,
  CreateBulkSubscriptionsDocument,
  type CheckEmailsQuery,
} from './__generated__/BulkAdd.generated';
import { bulkOutcomeText, canConfirmBulk, fileError, reviewSummary } from './bulkRules';
import { ChannelGate } from './ChannelGate';
import type { SubscriberChannel } from './subscriberChannel';
import { LIMITS } from './subscriberRules';
import { CHANNELS_PATH, MESSAGES, OVERRIDE_HELP, OVERRIDE_LABEL, STATE_LABELS, statsPath, TYPE_LABELS } from './subscriberText';
import './subscribers.css';

type CheckResult = CheckEmailsQuery['checkEmails'];
type CheckUser = CheckResult['users'][number];

/** The file's text, read in the browser. */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

export default function BulkAddScreen() {
  const { id = '' } = useParams();
  const { data, previousData, loading, error } = useQuery(BulkAddChannelDocument, {
    variables: { channelId: id },
    fetchPolicy: 'network-only',
  });
  return (
    <ChannelGate channel={(data ?? previousData)?.channel} loading={loading} error={error} title="Add subscribers">
      {(channel) => <BulkAdd channel={channel} />}
    </ChannelGate>
  );
}

function BulkAdd({ channel }: { channel: SubscriberChannel }) {
  const client = useApolloClient();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [review, setReview] = useState<{ fileName: string; result: CheckResult } | null>(null);

  const choose = async (file: File) => {
    setRefusal(null);
    setMessage(null);
    setFailure(null);
    const error = fileError(file);
    if (error) {
      setRefusal(error);
      return;
    }
    setBusy(true);
    try {
      const csv = await readFileText(file);
      setMessage(MESSAGES.uploadComplete);
      const { data } = await client.query({
        query: CheckEmailsDocument,
        variables: { channelId: channel._id, csv },
        fetchPolicy: 'no-cache',
      });
      if (data) setReview({ fileName: file.name, result: data.checkEmails });
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };

  const crumbs = [{ text: 'Channels', to: CHANNELS_PATH }, { text: channel.name, to: statsPath(channel._id) }, { text: 'Add subscribers' }];

  if (review) {
    return (
      <Page title="Review upload" breadcrumbs={<Breadcrumbs items={crumbs} />}>
        <BulkReview
          channel={channel}
          fileName={review.fileName}
          result={review.result}
          onCancel={() => {
            setReview(null);
            setMessage(null);
          }}
          onDone={() => navigate(statsPath(channel._id))}
        />
      </Page>
    );
  }

  return (
    <Page title="Add subscribers" breadcrumbs={<Breadcrumbs items={crumbs} />}>
      <p>Choose a CSV file of email addresses: the first value of each line is read, and a header line is skipped.</p>
      {failure != null && (
        <Banner intent="danger" role="alert">
          {formatError(failure)}
        </Banner>
      )}
      <FileChooser
        label="CSV file"
        accept=".csv,text/csv"
        buttonText="Choose CSV file"
        onChoose={(file) => void choose(file)}
        error={refusal}
        message={message}
        busy={busy}
      />
      <Button text="Cancel" onClick={() => navigate(statsPath(channel._id))} />
    </Page>
  );
}

type ReviewTab = 'subscriptions' | 'existing' | 'noInsightsAccount' | 'unmatched';
type BulkType = 'nonCharge' | 'trial';

const BULK_TYPES = [
  { value: 'nonCharge', label: 'Non-charge' },
  { value: 'trial', label: 'Trial' },
] as const;

function subscriptionText(u: CheckUser): string {
  if (!u.subscriptionType) return '';
  const type = TYPE_LABELS[u.subscriptionType];
  return u.subscriptionState ? `${type} (${STATE_LABELS[u.subscriptionState]})` : type;
}

const userColumns: AdminColumn<CheckUser>[] = [
  { key: 'name', title: 'Name', render: (u) => u.name },
  { key: 'email', title: 'Email', render: (u) => u.email },
  { key: 'company', title: 'Company', render: (u) => u.company ?? '' },
];

const existingColumns: AdminColumn<CheckUser>[] = [
  ...userColumns,
  { key: 'subscription', title: 'Current subscription', render: subscriptionText },
];

const refusalColumns: AdminColumn<{ email: string; reason: string }>[] = [
  { key: 'email', title: 'Email', render: (r) => r.email },
  { key: 'reason', title: 'Reason', render: (r) => r.reason },
];

const emailColumns: AdminColumn<string>[] = [{ key: 'email', title: 'Email', render: (email) => email }];

/** One tab's rows, paged in the browser (a file may hold many thousands). */
function ReviewTable<T>({
  label,
  columns,
  rows,
  rowKey,
}: {
  label: string;
  columns: AdminColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
}) {
  const [state, change] = useListState();
  return (
    <AdminList
      label={label}
      columns={columns}
      rows={pageRows(rows, state)}
      total={rows.length}
      rowKey={rowKey}
      state={state}
      onStateChange={change}
    />
  );
}

interface BulkReviewProps {
  channel: SubscriberChannel;
  fileName: string;
  result: CheckResult;
  onCancel: () => void;
  onDone: () => void;
}

function BulkReview({ channel, fileName, result, onCancel, onDone }: BulkReviewProps) {
  const premium = channel.type === 'premium';
  const [tab, setTab] = useState<ReviewTab>('subscriptions');
  const [overwrite, setOverwrite] = useState(false);
  const [type, setType] = useState<BulkType>('nonCharge');
  const [notes, setNotes] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  // Readers the server refused (e.g. within the trial policy's cool-off): shown before leaving.
  const [refusals, setRefusals] = useState<{ email: string; reason: string }[] | null>(null);
  const [createBulk, { loading }] = useMutation(CreateBulkSubscriptionsDocument);
  const enabled = canConfirmBulk({ toAdd: result.users.length, existing: result.existing.length, overwrite });

  const confirm = async () => {
    setFailure(null);
    try {
      const { data } = await createBulk({
        variables: {
          item: {
            channelId: channel._id,
            fileName,
            subscriptionType: premium ? type : 'free',
            notes: notes.trim() || null,
            policyOverrideReason: premium && type === 'trial' ? overrideReason.trim() || null : null,
          },
          users: result.users.map((u) => u._id),
          existing: overwrite ? result.existing.map((u) => u._id) : [],
        },
      });
      if (!data) return;
      const outcome = data.createBulkSubscriptions;
      void showToast({ message: bulkOutcomeText(outcome), intent: 'success' });
      if (outcome.refusals.length === 0) {
        onDone();
        return;
      }
      const emails = new Map([...result.users, ...result.existing].map((u) => [u._id, u.email]));
      setRefusals(outcome.refusals.map((r) => ({ email: emails.get(r.userId) ?? r.userId, reason: r.reason })));
    } catch (e) {
      setFailure(e);
    }
  };

  const userKey = (u: CheckUser) => u._id;
  if (refusals) {
    return (
      <>
        <Banner intent="warning" role="status">
          {`${refusals.length} user(s) were not given the subscription:`}
        </Banner>
        <ReviewTable label="Users refused" columns={refusalColumns} rows={refusals} rowKey={(r) => r.email} />
        <Button text="Done" intent="primary" onClick={onDone} />
      </>
    );
  }
  return (
    <>
      <p>{reviewSummary(result.identified, result.users.length)}</p>
      {failure != null && (
        <Banner intent="danger" role="alert">
          {formatError(failure)}
        </Banner>
      )}
      <Tabs<ReviewTab>
        id="bulk-review"
        label="Upload review"
        selected={tab}
        onChange={setTab}
        tabs={[
          {
            id: 'subscriptions',
            title: `Subscriptions (${result.users.length})`,
            panel: <ReviewTable label="Users to be added" columns={userColumns} rows={result.users} rowKey={userKey} />,
          },
          {
            id: 'existing',
            title: `Existing (${result.existing.length})`,
            panel: (
              <>
                <CheckboxField
                  label="Overwrite subscribed users"
                  name="overwrite"
                  value={overwrite}
                  onChange={setOverwrite}
                  onBlur={() => {}}
                  help="Their subscriptions are replaced by the one given here."
                />
                <ReviewTable label="Users already subscribed" columns={existingColumns} rows={result.existing} rowKey={userKey} />
              </>
            ),
          },
          {
            id: 'noInsightsAccount',
            title: `No Insights account (${result.insightsUsers.length})`,
            panel: (
              <ReviewTable label="Users without an Insights account" columns={userColumns} rows={result.insightsUsers} rowKey={userKey} />
            ),
          },
          {
            id: 'unmatched',
            title: `Unmatched (${result.unmatched.length})`,
            panel: <ReviewTable label="Unmatched email addresses" columns={emailColumns} rows={result.unmatched} rowKey={(e) => e} />,
          },
        ]}
      />
      <div className="insights-bulk-options">
        {premium && (
          <RadioField<BulkType>
            label="Subscription type given"
            name="bulkType"
            options={BULK_TYPES}
            value={type}
            onChange={(value) => value && setType(value)}
            onBlur={() => {}}
          />
        )}
        {premium && type === 'trial' && (
          <TextAreaField
            label={OVERRIDE_LABEL}
            name="policyOverrideReason"
            maxLength={LIMITS.policyOverrideReason}
            rows={2}
            help={OVERRIDE_HELP}
            value={overrideReason}
            onChange={setOverrideReason}
            onBlur={() => {}}
          />
        )}
        <TextAreaField
          label="Notes (optional)"
          name="notes"
          maxLength={LIMITS.notes}
          counter
          rows={2}
          value={notes}
          onChange={setNotes}
          onBlur={() => {}}
        />
      </div>
      <div className="insights-subscriber-actions">
        <Button
          text="Confirm and add subscribers"
          intent="primary"
          disabled={!enabled || loading}
          loading={loading}
          onClick={() => void confirm()}
        />
        <Button text="Cancel" disabled={loading} onClick={onCancel} />
      </div>
    </>
  );
}

export const BULK_ADD_OPERATIONS = gql`
  query BulkAddChannel($channelId: ID!) {
    channel(id: $channelId) {
      ...SubscriberChannel
    }
  }

  query CheckEmails($channelId: ID!, $csv: String!) {
    checkEmails(channelId: $channelId, csv: $csv) {
      identified
      users {
        _id
        insightsUserId
        name
        email
        company
        subscriptionType
        subscriptionState
      }
      existing {
        _id
        insightsUserId
        name
        email
        company
        subscriptionType
        subscriptionState
      }
      insightsUsers {
        _id
        insightsUserId
        name
        email
        company
        subscriptionType
        subscriptionState
      }
      unmatched
    }
  }

  mutation CreateBulkSubscriptions($item: BulkSubscriptionInput!, $users: [ID!]!, $existing: [ID!]!) {
    createBulkSubscriptions(item: $item, users: $users, existing: $existing) {
      added
      updated
      alreadySubscribed
      refused
      refusals {
        userId
        reason
      }
    }
  }
`;
