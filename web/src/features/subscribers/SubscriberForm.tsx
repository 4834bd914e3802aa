//! Add and edit a subscriber (spec 3 §2 'Add/edit subscriber', §3 'Subscription payload', payment
//! categories, §4 'Admin subscriber form', §5 'Subscriber form'). A free channel's form is the user
//! and the notes; a premium channel's adds the payment category (Paid, Free, Free trial), its
//! sub-type and the fields that type needs. The rules live in subscriberRules.ts. An edited
//! subscription shows its history under the form. Saves and deletes return to the channel's
//! subscriber stats. A new trial is weighed against the trial policy on the server: one longer
//! than the policy allows, or within its cool-off, is given only with a reason to override it,
//! which the audit trail keeps.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { AdminForm, RadioField, TextAreaField, TextField, useAdminForm, type FieldErrors } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { useConfig } from '../../lib/config';
import { formatUtcDay } from '../../lib/dates';
import { isoToDayText, localDay } from '../../lib/days';
import { ChannelGate } from './ChannelGate';
import {
  ChangeSubscriptionDocument,
  CreateAccountSubscriptionDocument,
  CreateExternalSubscriptionDocument,
  CreateFreeSubscriptionDocument,
  CreateNonChargeSubscriptionDocument,
  CreateTrialSubscriptionDocument,
  DeleteEditedSubscriberDocument,
  SubscriberFormChannelDocument,
  SubscriberFormRecordDocument,
  type ChannelSubscriptionInput,
  type SubscriberFormRecordQuery,
} from './__generated__/SubscriberForm.generated';
import type { SubscriberChannel } from './subscriberChannel';
import {
  CATEGORY_OPTIONS,
  categoryOf,
  chooseCategory,
  chooseSubType,
  choiceOf,
  formatPriceInput,
  hasAccountNumber,
  hasExpiry,
  hasPrice,
  LIMITS,
  SUB_TYPE_OPTIONS,
  toPayload,
  validateSubscriber,
  type SubscriberValues,
} from './subscriberRules';
import { CHANNELS_PATH, OVERRIDE_HELP, OVERRIDE_LABEL, statsPath } from './subscriberText';
import { SubscriptionHistory } from './SubscriptionHistory';
import { userLabel, UserSearchField, type SubscribableUser } from './UserSearchField';
import './subscribers.css';

type SubscriberRecord = SubscriberFormRecordQuery['channelSubscriber'];

/** The form's values: the rules' values, and whether an edited trial's duration is being set again. */
export interface FormValues extends SubscriberValues<SubscribableUser> {
  /** 'Adjust trial duration' or 'Restart trial' was pressed: the duration is sent and the trial restarts. */
  adjustTrial: boolean;
}

export const NOTES_LABEL = "Reason for activating this subscription on user's behalf";

/** The route screen: /subscribers/{_id}/add, or /subscribers/{_id}/edit/{productUserId}. */
export default function SubscriberFormScreen() {
  // The router hands the path's parameters over decoded, so the URL-encoded subject arrives as it
  // is stored: decoding it again would corrupt one holding a '%'.
  const { id = '', productUserId } = useParams();
  return productUserId === undefined ? (
    <AddSubscriberScreen channelId={id} />
  ) : (
    <EditSubscriberScreen channelId={id} insightsUserId={productUserId} />
  );
}

function AddSubscriberScreen({ channelId }: { channelId: string }) {
  const { data, previousData, loading, error } = useQuery(SubscriberFormChannelDocument, {
    variables: { channelId },
    fetchPolicy: 'network-only',
  });
  return (
    <ChannelGate channel={(data ?? previousData)?.channel} loading={loading} error={error} title="Add subscriber">
      {(channel) => <SubscriberForm channel={channel} record={null} />}
    </ChannelGate>
  );
}

function EditSubscriberScreen({ channelId, insightsUserId }: { channelId: string; insightsUserId: string }) {
  const { data, previousData, loading, error } = useQuery(SubscriberFormRecordDocument, {
    variables: { channelId, insightsUserId },
    fetchPolicy: 'network-only',
  });
  const shown = data ?? previousData;
  return (
    <ChannelGate channel={shown?.channel} loading={loading} error={error} title="Edit subscriber">
      {(channel) => shown && <SubscriberForm channel={channel} record={shown.channelSubscriber} />}
    </ChannelGate>
  );
}

/** A card subscription that still runs is the reader's to manage (checkout, cancel at period end). */
function isCardManaged(record: SubscriberRecord | null): boolean {
  const sub = record?.channelSubscription;
  return sub?.subscriptionType === 'stripe' && ['active', 'paymentFailed', 'pending'].includes(sub.status.effectiveState);
}

/** Only the keys whose value changed, so server errors of the other fields stay. */
function changedKeys(prev: FormValues, next: FormValues): Partial<FormValues> {
  const patch: Partial<FormValues> = {};
  for (const key of Object.keys(next) as (keyof FormValues)[]) {
    if (next[key] !== prev[key]) (patch as Record<string, unknown>)[key] = next[key];
  }
  return patch;
}

export function SubscriberForm({ channel, record }: { channel: SubscriberChannel; record: SubscriberRecord | null }) {
  const { constants } = useConfig();
  const premium = channel.type === 'premium';
  const sub = record?.channelSubscription ?? null;
  const storedChoice = sub ? choiceOf(sub.subscriptionType, sub.rebate) : null;
  const defaultTrialDays = channel.defaultTrialDurationDays ?? constants.defaultTrialChannelDays;
  // An edited running or ended trial first says when it ends; its duration input comes on request.
  const trialStatus = sub?.subscriptionType === 'trial' ? sub.status.trial : null;
  const trialNotice = trialStatus === 'Active' || trialStatus === 'Expired';
  const cardManaged = isCardManaged(record);

  const [createAccount] = useMutation(CreateAccountSubscriptionDocument);
  const [createExternal] = useMutation(CreateExternalSubscriptionDocument);
  const [createNonCharge] = useMutation(CreateNonChargeSubscriptionDocument);
  const [createTrial] = useMutation(CreateTrialSubscriptionDocument);
  const [createFree] = useMutation(CreateFreeSubscriptionDocument);
  const [changeSubscription] = useMutation(ChangeSubscriptionDocument);
  const [deleteSubscriber] = useMutation(DeleteEditedSubscriberDocument);

  const trialShownFor = (v: FormValues) => v.subscriptionType === 'trial' && (!trialNotice || v.adjustTrial);

  const form = useAdminForm<FormValues, SubscriberRecord>({
    type: 'subscriber',
    listPath: statsPath(channel._id),
    record,
    empty: {
      userId: null,
      category: null,
      subscriptionType: null,
      accountNumber: '',
      billingMethod: '',
      pricePerMonth: '',
      cancelAt: '',
      trialDuration: String(defaultTrialDays),
      policyOverrideReason: '',
      notes: '',
      adjustTrial: false,
    },
    toValues: (r) => {
      const s = r.channelSubscription;
      const choice = s ? choiceOf(s.subscriptionType, s.rebate) : null;
      return {
        userId: null,
        category: premium && choice ? categoryOf(choice) : null,
        subscriptionType: premium ? choice : null,
        accountNumber: s?.accountNumber ?? '',
        billingMethod: s?.billingMethod ?? '',
        pricePerMonth: s?.pricePerMonth ?? '',
        cancelAt: hasExpiry(choice) ? isoToDayText(s?.cancelAt) : '',
        trialDuration: String(s?.trialDuration ?? defaultTrialDays),
        policyOverrideReason: '',
        notes: s?.notes ?? '',
        adjustTrial: false,
      };
    },
    validate: (v): FieldErrors<FormValues> =>
      validateSubscriber(v, {
        adding: !record,
        premium,
        trialShown: trialShownFor(v),
        today: localDay(new Date()),
        bounds: constants,
      }),
    nameOf: (v) => record?.name ?? v.userId?.name ?? '',
    save: (v, existing) => {
      const payload = toPayload(v, { premium, trialShown: trialShownFor(v), storedTrialDuration: sub?.trialDuration ?? null });
      const item: ChannelSubscriptionInput = {
        ...payload,
        channelId: channel._id,
        userId: existing ? existing._id : (v.userId?._id ?? null),
        // Kept as it was: the form does not offer it.
        isFullArticleContent: sub?.isFullArticleContent ?? null,
      };
      if (existing) return changeSubscription({ variables: { item } });
      switch (premium ? v.subscriptionType : null) {
        case 'account':
        case 'rebated':
          return createAccount({ variables: { item } });
        case 'external':
          return createExternal({ variables: { item } });
        case 'nonCharge':
          return createNonCharge({ variables: { item } });
        case 'trial':
          return createTrial({ variables: { item } });
        default:
          return createFree({ variables: { item } });
      }
    },
    remove:
      record && !cardManaged ? (existing) => deleteSubscriber({ variables: { channelId: channel._id, userId: existing._id } }) : undefined,
  });

  const { values } = form;
  const choice = premium ? values.subscriptionType : null;
  const adding = !record;
  const trialShown = trialShownFor(values);
  const update = (next: FormValues) => form.setValues(changedKeys(values, next));
  const price = form.field('pricePerMonth');
  const trialDuration = form.field('trialDuration');
  const title = record ? 'Edit subscriber' : 'Add subscriber';

  // The revealed duration input takes the focus from the button that revealed it.
  useEffect(() => {
    if (values.adjustTrial) document.querySelector<HTMLInputElement>('input[name="trialDuration"]')?.focus();
  }, [values.adjustTrial]);

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[
        { text: 'Channels', to: CHANNELS_PATH },
        { text: channel.name, to: statsPath(channel._id) },
      ]}
      readOnly={cardManaged}
      deleteTitle="Delete subscriber"
      deleteText={
        <p>
          Delete {record?.name} from the subscribers of {channel.name}? Their subscription to the channel ends at once.
        </p>
      }
      after={record && <SubscriptionHistory channelId={channel._id} userId={record._id} />}
    >
      {cardManaged && (
        <Banner title="Paid by card">This subscription is paid by card: the reader manages it from their Subscriptions page.</Banner>
      )}
      {record ? (
        <TextField label="User" name="user" value={userLabel(record)} onChange={() => {}} onBlur={() => {}} disabled />
      ) : (
        <UserSearchField label="User" channelId={channel._id} {...form.field('userId')} />
      )}

      {premium && (
        <>
          <RadioField
            label="Payment category"
            options={CATEGORY_OPTIONS}
            disabled={cardManaged}
            {...form.field('category')}
            onChange={(category) => category && update(chooseCategory(values, category, !adding))}
          />
          {values.category && (
            <RadioField
              label="Subscription type"
              options={SUB_TYPE_OPTIONS[values.category]}
              inline={false}
              disabled={cardManaged}
              {...form.field('subscriptionType')}
              onChange={(next) => update(chooseSubType(values, next, !adding))}
            />
          )}
          {hasAccountNumber(choice) && (
            <TextField label="Account number" maxLength={LIMITS.accountNumber} disabled={cardManaged} {...form.field('accountNumber')} />
          )}
          {choice === 'external' && (
            <TextField label="Billing method" maxLength={LIMITS.billingMethod} disabled={cardManaged} {...form.field('billingMethod')} />
          )}
          {hasPrice(choice) && (
            <TextField
              label="Bespoke monthly price (USD)"
              maxLength={LIMITS.price}
              // Empty: the channel's price applies.
              placeholder={channel.price ?? ''}
              disabled={cardManaged}
              {...price}
              onBlur={() => {
                price.onBlur();
                form.setValues({ pricePerMonth: formatPriceInput(values.pricePerMonth) });
              }}
            />
          )}
          {hasExpiry(choice) && (
            <TextField label="Expiry date" placeholder="dd/MM/yyyy" disabled={cardManaged} {...form.field('cancelAt')} />
          )}
          {choice === 'trial' && !trialShown && sub && (
            <div className="insights-subscriber-trial">
              <span role="status">
                {trialStatus === 'Expired'
                  ? `The free trial expired on ${formatUtcDay(sub.cancelAt)}`
                  : `This ${sub.trialDuration ?? defaultTrialDays} day free trial expires on ${formatUtcDay(sub.cancelAt)}`}
              </span>
              <Button
                text={trialStatus === 'Expired' ? 'Restart trial' : 'Adjust trial duration'}
                onClick={() => form.setValues({ adjustTrial: true })}
              />
            </div>
          )}
          {trialShown && (
            <TextField
              label="Trial duration (days)"
              placeholder={String(defaultTrialDays)}
              {...trialDuration}
              // Whole days only: anything but digits is dropped as it is typed.
              onChange={(text) => trialDuration.onChange(text.replace(/\D/g, '').slice(0, LIMITS.trialDuration))}
            />
          )}
          {/* The server weighs a trial given, lengthened or restarted here against the trial policy. */}
          {choice === 'trial' && (
            <TextAreaField
              label={OVERRIDE_LABEL}
              maxLength={LIMITS.policyOverrideReason}
              rows={2}
              help={OVERRIDE_HELP}
              {...form.field('policyOverrideReason')}
            />
          )}
        </>
      )}

      <TextAreaField label={NOTES_LABEL} maxLength={LIMITS.notes} counter rows={3} disabled={cardManaged} {...form.field('notes')} />
      {storedChoice === 'stripe' && !cardManaged && (
        <p className="insights-admin-counter">The card subscription has ended: choose another type to give access again.</p>
      )}
    </AdminForm>
  );
}

export const SUBSCRIBER_FORM_OPERATIONS = gql`
  fragment SubscriberFormRecord on SubscribedUser {
    _id
    channelId
    insightsUserId
    name
    email
    company
    channelSubscription {
      subscriptionType
      subscriptionState
      cancelAt
      accountNumber
      billingMethod
      pricePerMonth
      rebate
      trialDuration
      notes
      isFullArticleContent
      status {
        effectiveState
        trial
        typeLabel
        paymentCategory
      }
    }
  }

  query SubscriberFormChannel($channelId: ID!) {
    channel(id: $channelId) {
      ...SubscriberChannel
    }
  }

  query SubscriberFormRecord($channelId: ID!, $insightsUserId: String!) {
    channel(id: $channelId) {
      ...SubscriberChannel
    }
    channelSubscriber(channelId: $channelId, insightsUserId: $insightsUserId) {
      ...SubscriberFormRecord
    }
  }

  mutation CreateAccountSubscription($item: ChannelSubscriptionInput!) {
    createAccountChannelSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation CreateExternalSubscription($item: ChannelSubscriptionInput!) {
    createExternalBillingChannelSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation CreateNonChargeSubscription($item: ChannelSubscriptionInput!) {
    createNonChargeChannelSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation CreateTrialSubscription($item: ChannelSubscriptionInput!) {
    createTrialChannelSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation CreateFreeSubscription($item: ChannelSubscriptionInput!) {
    createFreeChannelSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation ChangeSubscription($item: ChannelSubscriptionInput!) {
    changeSubscription(item: $item) {
      subscriptionState
    }
  }

  mutation DeleteEditedSubscriber($channelId: ID!, $userId: ID!) {
    deleteChannelSubscriber(channelId: $channelId, userId: $userId)
  }
`;
