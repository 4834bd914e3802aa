//! A user's clearing accounts on the user edit screen (issue 13: Administrators manage them here;
//! operators import them with `insights-cli billing-accounts import`). The reader pays a premium
//! channel's checkout with one of them. Adding and removing take effect at once, apart from the
//! user form's Update.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { InputField } from '../../components/InputField';
import { LoadingBlock } from '../../components/LoadingScreen';
import { showToast } from '../../components/Toaster';
import { fieldErrors, formatError } from '../../lib/errors';
import {
  AddBillingAccountDocument,
  BillingAccountsDocument,
  RemoveBillingAccountDocument,
} from './__generated__/BillingAccounts.generated';

export function BillingAccounts({ userId, userName }: { userId: string; userName: string }) {
  const headingId = useId();
  const { data, loading, error } = useQuery(BillingAccountsDocument, { variables: { userId }, fetchPolicy: 'cache-and-network' });
  const refetch = { refetchQueries: [{ query: BillingAccountsDocument, variables: { userId } }], awaitRefetchQueries: true };
  const [add, adding] = useMutation(AddBillingAccountDocument, refetch);
  const [remove, removing] = useMutation(RemoveBillingAccountDocument, refetch);
  const [accountNumber, setAccountNumber] = useState('');
  const [name, setName] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const busy = adding.loading || removing.loading;

  // Not a <form>: this section sits under the user form and must not submit it.
  const submit = async (event?: FormEvent | KeyboardEvent) => {
    event?.preventDefault();
    if (busy) return;
    setAlert(null);
    if (accountNumber.trim() === '') {
      setNumberError('This field is required');
      return;
    }
    try {
      await add({ variables: { userId, accountNumber: accountNumber.trim(), name: name.trim() || null } });
      void showToast({ message: `The clearing account ${accountNumber.trim()} has been added to ${userName}.`, intent: 'success' });
      setAccountNumber('');
      setName('');
      setNumberError(null);
    } catch (e) {
      const fields = fieldErrors(e);
      if (fields.accountNumber) setNumberError(fields.accountNumber);
      else setAlert(formatError(e));
    }
  };

  const removeAccount = async (id: string, number: string) => {
    if (busy) return;
    setAlert(null);
    try {
      await remove({ variables: { id } });
      void showToast({ message: `The clearing account ${number} has been removed from ${userName}.`, intent: 'success' });
    } catch (e) {
      setAlert(formatError(e));
    }
  };

  const accounts = data?.billingAccounts ?? [];
  return (
    <section className="insights-billing-accounts" aria-labelledby={headingId}>
      <h2 id={headingId}>Clearing accounts</h2>
      <p className="insights-billing-accounts-help">The reader can pay for premium channels with these accounts at checkout.</p>
      {(alert || (error && !data)) && (
        <Banner intent="danger" role="alert">
          {alert ?? formatError(error)}
        </Banner>
      )}
      {loading && !data ? (
        <LoadingBlock label="Loading the clearing accounts" />
      ) : accounts.length === 0 ? (
        <p>No clearing accounts.</p>
      ) : (
        <ul aria-label="Clearing accounts" className="insights-billing-accounts-list">
          {accounts.map((a) => (
            <li key={a._id}>
              <span>
                <strong>{a.id}</strong>
                {a.name ? ` ${a.name}` : ''}
              </span>
              <Button
                text="Remove"
                size="small"
                variant="minimal"
                intent="danger"
                label={`Remove the clearing account ${a.id}`}
                disabled={busy}
                onClick={() => void removeAccount(a._id, a.id)}
              />
            </li>
          ))}
        </ul>
      )}
      <div
        className="insights-billing-accounts-add"
        role="group"
        aria-label="Add a clearing account"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') void submit(e);
        }}
      >
        <InputField
          label="Account number"
          value={accountNumber}
          onChange={(v) => {
            setAccountNumber(v);
            setNumberError(null);
          }}
          intent={numberError ? 'danger' : 'none'}
          helperText={numberError ?? undefined}
        />
        <InputField label="Account name (optional)" value={name} onChange={setName} />
        <Button text="Add account" icon="add" loading={adding.loading} disabled={busy} onClick={() => void submit()} />
      </div>
    </section>
  );
}

export const BILLING_ACCOUNTS_OPERATIONS = gql`
  query BillingAccounts($userId: ID!) {
    billingAccounts(userId: $userId) {
      _id
      id
      name
    }
  }

  mutation AddBillingAccount($userId: ID!, $accountNumber: String!, $name: String) {
    addBillingAccount(userId: $userId, accountNumber: $accountNumber, name: $name) {
      _id
      id
      name
    }
  }

  mutation RemoveBillingAccount($id: ID!) {
    removeBillingAccount(id: $id)
  }
`;
