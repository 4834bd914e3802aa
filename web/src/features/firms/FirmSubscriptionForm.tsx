//! Add and edit a firm's subscription to a premium channel (issue 39), through the subscription
//! state machine on the server: the channel (add only), the type (clearing account, billed
//! externally, non-charge, free trial), seats (empty for unlimited), start and end dates (a trial
//! starts now and lasts its length in days instead), the monthly price per seat or flat (paid
//! types), the account number (clearing account) or billing method (billed externally), notes
//! (required when adding, as on the subscriber form) and 'Full article content'. A change is sent
//! at the version read (a stale one answers CONFLICT). Saves return to the firm's Subscriptions tab.
//! The channels offered are the premium ones the user manages (an Editor: those they administer, as
//! the server requires; an Administrator: all), from the channel list's `channels(params)`.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import {
  AdminForm,
  CheckboxField,
  RadioField,
  SelectField,
  TextAreaField,
  TextField,
  useAdminForm,
  type FieldErrors,
} from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import type { Role } from '../../lib/access';
import { useConfig } from '../../lib/config';
import { formatUtcDay } from '../../lib/dates';
import { isoToDayText, localDay } from '../../lib/days';
import { formatError } from '../../lib/errors';
import { normalisePrice, PRICE_PATTERN } from '../../lib/price';
import { useSession } from '../../lib/session';
import {
  ChangeFirmSubscriptionDocument,
  CreateFirmSubscriptionDocument,
  FirmSubscriptionFormDocument,
  type FirmSubscriptionFieldsFragment,
  type FirmSubscriptionFormQuery,
  type FirmSubscriptionFormQueryVariables,
} from './__generated__/FirmSubscriptionForm.generated';
import {
  asFirmSubscriptionType,
  EMPTY_VALUES,
  hasDates,
  hasPrice,
  PRICE_BASIS_OPTIONS,
  startText,
  SUBSCRIPTION_LIMITS,
  toFirmSubscriptionInput,
  TYPE_OPTIONS,
  validateFirmSubscription,
  type FirmSubscriptionValues,
} from './firmSubscriptionRules';
import { FIRMS_PATH, firmPath } from './firmText';
import './firms.css';

type FormData = FirmSubscriptionFormQuery;
type Channel = FormData['channels']['items'][number];
type ChannelParams = NonNullable<FirmSubscriptionFormQueryVariables['channels']>;

/**
 * The premium channels the user manages, as the channel list asks for 'My Channels'; the largest
 * page the list serves (200) holds them all.
 */
export function managedPremiumChannels(role: Role | null): ChannelParams {
  return { filter: role === 'Administrator' ? 'All' : 'MyChannels', type: 'Premium', page: 1, pageSize: 200, sortField: 'Name' };
}

/** The route screen: subscriptions/add, or subscriptions/edit/{channelId}, of the firm {id}. */
export default function FirmSubscriptionFormScreen() {
  const { id = '', channelId } = useParams();
  const { role } = useSession();
  const { data, previousData, loading, error } = useQuery(FirmSubscriptionFormDocument, {
    variables: { id, channels: managedPremiumChannels(role) },
    fetchPolicy: 'network-only',
  });
  const shown = data ?? previousData;
  const title = channelId ? 'Edit subscription' : 'Add subscription';
  if (shown) {
    const record = channelId ? (shown.findFirmById.subscriptions.find((s) => s.channelId === channelId) ?? null) : null;
    if (!channelId || record) return <FirmSubscriptionForm data={shown} record={record} />;
    return (
      <Page title={title}>
        <Banner intent="danger" role="alert">
          The firm has no subscription to this channel.
        </Banner>
      </Page>
    );
  }
  if (loading) return <LoadingBlock />;
  return (
    <Page title={title}>
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}

function toValues(s: FirmSubscriptionFieldsFragment): FirmSubscriptionValues {
  const type = asFirmSubscriptionType(s.subscriptionType);
  return {
    channelId: s.channelId,
    subscriptionType: type,
    seats: s.seats == null ? '' : String(s.seats),
    startsAt: hasDates(type) ? startText(s.startsAt) : '',
    cancelAt: hasDates(type) ? isoToDayText(s.cancelAt) : '',
    trialDuration: s.trialDuration == null ? '' : String(s.trialDuration),
    pricePerMonth: s.pricePerMonth ?? '',
    priceBasis: s.priceBasis,
    accountNumber: s.accountNumber ?? '',
    billingMethod: s.billingMethod ?? '',
    notes: s.notes ?? '',
    isFullArticleContent: s.isFullArticleContent,
  };
}

export function FirmSubscriptionForm({ data, record }: { data: FormData; record: FirmSubscriptionFieldsFragment | null }) {
  const { constants } = useConfig();
  const firm = data.findFirmById;
  const [create] = useMutation(CreateFirmSubscriptionDocument);
  const [change] = useMutation(ChangeFirmSubscriptionDocument);
  const initialStart = record ? toValues(record).startsAt : '';
  const channels = data.channels.items;
  const channelName = (id: string | null) => record?.channelName ?? channels.find((c) => c._id === id)?.name ?? '';

  const form = useAdminForm<FirmSubscriptionValues, FirmSubscriptionFieldsFragment>({
    type: 'subscription',
    listPath: firmPath(firm._id, 'subscriptions'),
    record,
    empty: EMPTY_VALUES,
    toValues,
    validate: (v): FieldErrors<FirmSubscriptionValues> =>
      validateFirmSubscription(v, {
        adding: !record,
        today: localDay(new Date()),
        trialMinDays: constants.trialMinDays,
        trialMaxDays: constants.trialMaxDays,
        initialStart,
      }),
    nameOf: (v) => channelName(v.channelId),
    successMessage: (verb, name) =>
      verb === 'added' ? `${firm.name} now subscribes to ${name}.` : `The subscription of ${firm.name} to ${name} has been updated.`,
    save: (values, existing) => {
      const item = toFirmSubscriptionInput(values, { firmId: firm._id, version: existing?.version ?? null, initialStart });
      return existing ? change({ variables: { item } }) : create({ variables: { item } });
    },
  });

  const { values } = form;
  const type = values.subscriptionType;
  const channel: Channel | undefined = channels.find((c) => c._id === values.channelId);
  const defaultTrialDays = channel?.defaultTrialDurationDays ?? constants.defaultTrialChannelDays;
  const price = form.field('pricePerMonth');
  const seats = form.field('seats');
  const trialDuration = form.field('trialDuration');
  const basis = form.field('priceBasis');
  const title = record ? 'Edit subscription' : 'Add subscription';
  const archived = firm.state === 'archived';
  const subscribed = new Set(firm.subscriptions.filter((s) => s.isLive).map((s) => s.channelId));

  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[
        { text: 'Firms', to: FIRMS_PATH },
        { text: firm.name, to: firmPath(firm._id, 'subscriptions') },
        { text: record ? record.channelName : title },
      ]}
      readOnly={archived}
    >
      {archived && (
        <Banner intent="warning" title="Archived firm">
          This firm is archived: its subscriptions can no longer be changed.
        </Banner>
      )}
      {record ? (
        <TextField label="Channel" name="channel" value={record.channelName} onChange={() => {}} onBlur={() => {}} disabled />
      ) : (
        <SelectField
          label="Channel"
          noneLabel="Choose a channel"
          // A firm holds one subscription per channel: the channels of its live ones are not offered.
          options={channels.filter((c) => !subscribed.has(c._id)).map((c) => ({ value: c._id, label: c.name }))}
          {...form.field('channelId')}
        />
      )}
      <RadioField label="Subscription type" options={TYPE_OPTIONS} inline={false} {...form.field('subscriptionType')} />
      <TextField
        label="Seats"
        placeholder="Unlimited"
        help="Leave empty for unlimited seats."
        {...seats}
        // Whole seats only: anything but digits is dropped as it is typed.
        onChange={(text) => seats.onChange(text.replace(/\D/g, '').slice(0, 7))}
      />
      {hasDates(type) && (
        <>
          <TextField label="Start date" placeholder="dd/MM/yyyy" help="Leave empty to start now." {...form.field('startsAt')} />
          <TextField label="End date" placeholder="dd/MM/yyyy" help="Leave empty for no end date." {...form.field('cancelAt')} />
        </>
      )}
      {type === 'trial' && (
        <>
          {record?.subscriptionType === 'trial' && record.cancelAt && (
            <p className="insights-firm-note" role="status">
              This free trial ends on {formatUtcDay(record.cancelAt)}.
            </p>
          )}
          <TextField
            label="Trial length (days)"
            placeholder={String(defaultTrialDays)}
            help={`Leave empty for the channel's ${defaultTrialDays} days. The trial starts now.`}
            {...trialDuration}
            onChange={(text) => trialDuration.onChange(text.replace(/\D/g, '').slice(0, 3))}
          />
        </>
      )}
      {hasPrice(type) && (
        <>
          <TextField
            label="Price per month (USD)"
            maxLength={SUBSCRIPTION_LIMITS.price}
            placeholder={channel?.price ?? ''}
            help="Leave empty for the channel's price."
            {...price}
            onBlur={() => {
              price.onBlur();
              const text = values.pricePerMonth.trim();
              if (PRICE_PATTERN.test(text)) form.setValues({ pricePerMonth: normalisePrice(text) });
            }}
          />
          <RadioField label="Price basis" options={PRICE_BASIS_OPTIONS} {...basis} onChange={(next) => next && basis.onChange(next)} />
        </>
      )}
      {type === 'account' && (
        <TextField label="Account number" maxLength={SUBSCRIPTION_LIMITS.accountNumber} {...form.field('accountNumber')} />
      )}
      {type === 'external' && (
        <TextField label="Billing method" maxLength={SUBSCRIPTION_LIMITS.billingMethod} {...form.field('billingMethod')} />
      )}
      <TextAreaField label="Notes" maxLength={SUBSCRIPTION_LIMITS.notes} counter rows={3} {...form.field('notes')} />
      <CheckboxField
        label="Full article content"
        help="Seat holders read the channel's premium articles in full; unticked, they read the summaries only."
        {...form.field('isFullArticleContent')}
      />
    </AdminForm>
  );
}

export const FIRM_SUBSCRIPTION_FORM_OPERATIONS = gql`
  fragment FirmSubscriptionFields on FirmSubscription {
    _id
    ...FirmSubscriptionRow
    priceBasis
    pricePerMonth
    accountNumber
    billingMethod
    trialDuration
    isFullArticleContent
    notes
  }

  query FirmSubscriptionForm($id: ID!, $channels: ChannelListParams) {
    findFirmById(id: $id) {
      _id
      name
      state
      subscriptions {
        _id
        ...FirmSubscriptionFields
      }
    }
    channels(params: $channels) {
      items {
        _id
        name
        price
        defaultTrialDurationDays
      }
    }
  }

  mutation CreateFirmSubscription($item: FirmSubscriptionInput!) {
    createFirmSubscription(item: $item) {
      _id
      ...FirmSubscriptionFields
    }
  }

  mutation ChangeFirmSubscription($item: FirmSubscriptionInput!) {
    changeFirmSubscription(item: $item) {
      _id
      ...FirmSubscriptionFields
    }
  }
`;
