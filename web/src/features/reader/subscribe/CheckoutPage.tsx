//! The checkout at /subscribe/channel/confirm/:channelId (spec 3 §2 'Checkout', §4, §5, §8):
//! breadcrumb All channels > channel > Subscribe > Confirm and a stepper Business and tax
//! identification → Billing information → Payment, where any earlier step can be gone back to.
//!
//! Leaving Billing information creates (or updates) the reader's Stripe customer
//! (`createStripeCustomer`, when card payments are on): Success, TaxIdAlreadyExists and NotSet go
//! on; an invalid tax id or too many tax ids send the reader back to the first step with the
//! message on the tax id; the server's field errors land on their fields. Payment offers a card
//! (Stripe's Payment Element, only when card payments are on), a clearing account (disabled with a
//! contact-sales hint when the reader has none) or an invoice; success leads to
//! /browse/channel/{id}/subscribed or /paying-invoice-requested. A channel that is not premium,
//! or one the reader already holds, is refused with a way back.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { CheckboxField, SelectField, TextField } from '../../../components/admin/fields';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { ChoiceRadios, type RadioChoice } from '../../../components/ChoiceRadios';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { showToast } from '../../../components/Toaster';
import { useConfig } from '../../../lib/config';
import { fieldErrors, formatError } from '../../../lib/errors';
import { CARD_LIMIT_HINT, cardPayable } from '../../../lib/price';
import { PAYMENT_MESSAGES, paymentOutcome } from '../../../lib/stripe';
import { ChannelNotFound } from '../common/ChannelNotFound';
import { channelPath, CHANNELS_PATH, dollars, isObjectId, subscribePath, subscriptionResultPath } from '../common/channelText';
import { channelGate } from './channelGate';
import {
  billingVariables,
  EMPTY_CHECKOUT,
  formField,
  STEPS,
  stepOf,
  taxIdOutcome,
  taxIdType,
  validateStep,
  type CheckoutErrors,
  type CheckoutField,
  type CheckoutValues,
  type PaymentType,
  type Step,
} from './checkoutForm';
import { PaymentElementPanel, type StripeHandles } from './StripePayment';
import {
  CheckoutPageDocument,
  CreateAccountSubscriptionDocument,
  CreateInvoicePaymentRequestDocument,
  CreateStripeCustomerDocument,
  CreateStripeSubscriptionDocument,
  type CheckoutPageQuery,
} from './__generated__/CheckoutPage.generated';
import './subscribe.css';

type Channel = CheckoutPageQuery['channel'];

/** 'United Kingdom VAT' (the description names the country already) or 'Norway: Norwegian VAT number'. */
export function taxIdLabel({ name, description }: { name: string; description: string }): string {
  return description.startsWith(name) ? description : `${name}: ${description}`;
}

/** The hint of the clearing account option when the reader has none (spec 3 §5). */
export const NO_ACCOUNT_HINT = 'You have no clearing account with us. Please contact sales to set one up.';

export default function CheckoutPage() {
  const { channelId } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return <CheckoutScreen key={channelId} id={channelId} />;
}

function CheckoutScreen({ id }: { id: string }) {
  const { data, loading, error } = useQuery(CheckoutPageDocument, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const gate = channelGate({ channel: data?.channel, loading, error }, 'Checkout');
  if (gate || !data) return gate;
  const channel = data.channel;
  const crumbs = [
    { text: 'All channels', to: CHANNELS_PATH },
    { text: channel.name, to: channelPath(channel._id) },
    { text: 'Subscribe', to: subscribePath(channel._id) },
    { text: 'Confirm' },
  ];
  const refusal = refusalOf(channel);
  return (
    <Page title={`Subscribe to ${channel.name}`} breadcrumbs={<Breadcrumbs items={crumbs} />}>
      <div className="insights-subscribe">{refusal ?? <Checkout channel={channel} data={data} />}</div>
    </Page>
  );
}

/** Why this reader cannot buy this channel now, or null. */
function refusalOf(channel: Channel): ReactNode | null {
  const view = <LinkButton to={channelPath(channel._id)} text="View Channel" intent="primary" />;
  if (channel.type !== 'premium')
    return (
      <Banner intent="primary" title="Nothing to pay">
        <p>{channel.name} is a free channel: there is no Premium access to buy.</p>
        <LinkButton to={subscribePath(channel._id)} text="Back to the subscription page" />
      </Banner>
    );
  switch (channel.readerCard.action) {
    case 'Subscribed':
    case 'AccessUntil':
      return (
        <Banner intent="success" title="You are already subscribed">
          <p>You already have Premium access to {channel.name}.</p>
          {view}
        </Banner>
      );
    case 'Pending':
      return (
        <Banner intent="primary" title="Subscription pending">
          <p>Your subscription to {channel.name} is being set up. We will email you once your access starts.</p>
          {view}
        </Banner>
      );
    default:
      return null;
  }
}

interface CheckoutProps {
  channel: Channel;
  data: CheckoutPageQuery;
}

function Checkout({ channel, data }: CheckoutProps) {
  const config = useConfig();
  const navigate = useNavigate();
  const cardPayments = config.features.cardPayments && !!config.stripe;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [step, setStep] = useState<Step>(0);
  const [values, setAll] = useState<CheckoutValues>(EMPTY_CHECKOUT);
  /** Steps the reader tried to leave: their rules are shown (and kept up to date). */
  const [attempted, setAttempted] = useState<ReadonlySet<Step>>(new Set());
  const [serverErrors, setServerErrors] = useState<CheckoutErrors>({});
  const [alert, setAlert] = useState<{ intent: 'danger' | 'primary'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  /** The card subscription being paid, for the billing details it was made with. */
  const [card, setCard] = useState<{ clientSecret: string; billing: string } | null>(null);
  const [cardError, setCardError] = useState<string | null>(null);
  const [handles, setHandles] = useState<StripeHandles | null>(null);

  const [createCustomer] = useMutation(CreateStripeCustomerDocument);
  const [createSubscription] = useMutation(CreateStripeSubscriptionDocument);
  const [createAccount] = useMutation(CreateAccountSubscriptionDocument);
  const [requestInvoice] = useMutation(CreateInvoicePaymentRequestDocument);

  const accounts = data.myBillingAccounts;
  const errors: CheckoutErrors = { ...(attempted.has(step) ? validateStep(step, values) : {}), ...serverErrors };

  // A new step's heading takes the focus (keyboard and screen-reader users hear where they are);
  // not on arrival, where the page's own heading comes first.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current) heading.current?.focus();
    arrived.current = true;
  }, [step]);

  const set = (patch: Partial<CheckoutValues>) => {
    setAll((prev) => ({ ...prev, ...patch }));
    setServerErrors((prev) => {
      const next = { ...prev };
      for (const key of Object.keys(patch) as CheckoutField[]) delete next[key];
      return next;
    });
  };
  const bind = <
    K extends
      | 'businessName'
      | 'taxId'
      | 'addressLine1'
      | 'addressLine2'
      | 'addressCity'
      | 'addressState'
      | 'addressPostcode'
      | 'legalEntityName'
      | 'billingEmailAddress',
  >(
    name: K,
  ) => ({ name, value: values[name], onChange: (v: string) => set({ [name]: v }), onBlur: () => {}, error: errors[name] });

  const goTo = (next: Step) => {
    setAlert(null);
    setStep(next);
  };

  /** Runs one server call at a time (no double submit). */
  const once = async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setAlert(null);
    try {
      await action();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  /** A failed call: field errors on their fields (back to the first step holding one), else an alert. */
  const failed = (error: unknown) => {
    const byField: CheckoutErrors = {};
    for (const [key, message] of Object.entries(fieldErrors(error))) {
      const field = formField(key);
      if (field) byField[field] = message;
    }
    const fields = Object.keys(byField) as CheckoutField[];
    if (fields.length > 0) {
      setServerErrors(byField);
      const first = Math.min(...fields.map(stepOf)) as Step;
      if (first < step) setStep(first);
    } else {
      setAlert({ intent: 'danger', text: formatError(error) });
    }
  };

  const billing = JSON.stringify(billingVariables(values));

  /** Leaving Billing information: the Stripe customer with the business's tax id. */
  const saveCustomer = () =>
    once(async () => {
      try {
        const result = await createCustomer({
          variables: { channelId: channel._id, taxIdType: taxIdType(values.taxIdOption), ...billingVariables(values) },
        });
        const outcome = taxIdOutcome(result.data!.createStripeCustomer);
        if (outcome.ok) goTo(2);
        else {
          setServerErrors({ taxId: outcome.message });
          setStep(0);
        }
      } catch (e) {
        failed(e);
      }
    });

  const next = async (event?: FormEvent) => {
    event?.preventDefault();
    setAttempted((prev) => new Set(prev).add(step));
    const stepErrors = { ...validateStep(step, values), ...serverErrors };
    if (Object.values(stepErrors).some(Boolean)) return;
    if (step === 0) goTo(1);
    else if (step === 1) {
      if (cardPayments) await saveCustomer();
      else goTo(2);
    } else await pay();
  };

  /** The card subscription for these billing details (the same one again while unpaid). */
  const starting = useRef(false);
  const startCard = useCallback(async () => {
    if (starting.current) return;
    starting.current = true;
    setCardError(null);
    try {
      const result = await createSubscription({ variables: { channelId: channel._id, ...JSON.parse(billing) } });
      setCard({ clientSecret: result.data!.createStripeSubscription.clientSecret, billing });
    } catch (e) {
      setCardError(formatError(e));
    } finally {
      starting.current = false;
    }
  }, [billing, channel._id, createSubscription]);

  useEffect(() => {
    if (step === 2 && values.paymentType === 'card' && card?.billing !== billing && !cardError) void startCard();
  }, [step, values.paymentType, card, billing, cardError, startCard]);

  const succeeded = (status: 'subscribed' | 'paying-invoice-requested', message?: string) => {
    if (message) void showToast({ message, intent: 'success' });
    navigate(subscriptionResultPath(channel._id, status));
  };

  const pay = () =>
    once(async () => {
      try {
        if (values.paymentType === 'account') {
          await createAccount({ variables: { channelId: channel._id, accountNumber: values.accountNumber } });
          succeeded('subscribed');
        } else if (values.paymentType === 'invoice') {
          await requestInvoice({
            variables: {
              channelId: channel._id,
              legalEntityName: values.legalEntityName.trim(),
              billingEmailAddress: values.billingEmailAddress.trim(),
            },
          });
          succeeded('paying-invoice-requested');
        } else if (values.paymentType === 'card') {
          if (!handles) return;
          const returnUrl = new URL(
            `${import.meta.env.BASE_URL}${subscriptionResultPath(channel._id, 'subscribed').slice(1)}`,
            window.location.origin,
          );
          const result = await handles.stripe.confirmPayment({
            elements: handles.elements,
            redirect: 'if_required',
            confirmParams: { return_url: returnUrl.toString() },
          });
          if (result.error) {
            setAlert({ intent: 'danger', text: result.error.message ?? PAYMENT_MESSAGES.other });
            return;
          }
          const outcome = paymentOutcome(result.paymentIntent?.status);
          if (outcome.kind === 'succeeded') succeeded('subscribed', outcome.message);
          else setAlert({ intent: outcome.kind === 'processing' ? 'primary' : 'danger', text: outcome.message });
        }
      } catch (e) {
        failed(e);
      }
    });

  const paymentOptions: RadioChoice<PaymentType>[] = [
    // Stripe takes at most $999,999.99: a dearer channel is paid by account or invoice.
    ...(cardPayments
      ? [
          {
            value: 'card' as const,
            label: 'Card',
            disabled: !cardPayable(channel.price),
            hint: cardPayable(channel.price) ? undefined : CARD_LIMIT_HINT,
          },
        ]
      : []),
    {
      value: 'account',
      label: 'Clearing account',
      disabled: accounts.length === 0,
      hint: accounts.length === 0 ? NO_ACCOUNT_HINT : undefined,
    },
    { value: 'invoice', label: 'Invoice' },
  ];

  const primaryText =
    step < 2
      ? 'Next'
      : values.paymentType === 'card'
        ? 'Pay and subscribe'
        : values.paymentType === 'invoice'
          ? 'Request invoice'
          : 'Subscribe';
  const cardNotReady = step === 2 && values.paymentType === 'card' && !handles;
  const price = dollars(channel.price);

  return (
    <>
      {price && (
        <p className="insights-subscribe-price">
          <strong>{price}</strong> per month, excluding tax. Billed monthly on the 1st.
        </p>
      )}
      <ol className="insights-stepper" aria-label="Checkout steps">
        {STEPS.map((title, i) => {
          const state = i < step ? 'done' : i === step ? 'current' : 'todo';
          return (
            <li key={title} className={`insights-stepper-step insights-stepper-${state}`} aria-current={i === step ? 'step' : undefined}>
              <span className="insights-stepper-number" aria-hidden>
                {i + 1}
              </span>
              {i < step ? (
                <button type="button" className="insights-stepper-back" disabled={busy} onClick={() => goTo(i as Step)}>
                  {title}
                </button>
              ) : (
                <span>{title}</span>
              )}
            </li>
          );
        })}
      </ol>
      <form className="insights-checkout-form" aria-labelledby={headingId} noValidate onSubmit={(e) => void next(e)}>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="insights-checkout-step-title">
          {`Step ${step + 1} of 3: ${STEPS[step]}`}
        </h2>
        {alert && (
          <Banner intent={alert.intent} role={alert.intent === 'danger' ? 'alert' : 'status'}>
            {alert.text}
          </Banner>
        )}
        {step === 0 && (
          <>
            <TextField label="Business name" maxLength={200} {...bind('businessName')} />
            <SelectField
              label="Tax ID type"
              name="taxIdOption"
              noneLabel="Choose the type of your tax ID"
              options={data.stripeTaxCountries.map((t) => ({ value: `${t.code}|${t.name}`, label: taxIdLabel(t) }))}
              value={values.taxIdOption || null}
              onChange={(v) => set({ taxIdOption: v ?? '' })}
              onBlur={() => {}}
              error={errors.taxIdOption}
            />
            <TextField label="Tax ID" maxLength={64} {...bind('taxId')} />
          </>
        )}
        {step === 1 && (
          <>
            <TextField label="Address line 1" maxLength={200} {...bind('addressLine1')} />
            <TextField label="Address line 2 (optional)" maxLength={200} {...bind('addressLine2')} />
            <TextField label="City" maxLength={100} {...bind('addressCity')} />
            <TextField label="State, county or region (optional)" maxLength={100} {...bind('addressState')} />
            <TextField label="Postcode" maxLength={12} {...bind('addressPostcode')} />
            <SelectField
              label="Country"
              name="addressCountryCode"
              noneLabel="Choose a country"
              options={data.isoCountries.map((c) => ({ value: c.alpha2, label: c.name }))}
              value={values.addressCountryCode || null}
              onChange={(v) => set({ addressCountryCode: v ?? '' })}
              onBlur={() => {}}
              error={errors.addressCountryCode}
            />
            <CheckboxField
              label="I accept the Terms of Service for Premium Content"
              name="terms"
              value={values.terms}
              onChange={(v) => set({ terms: v })}
              onBlur={() => {}}
              error={errors.terms}
            />
          </>
        )}
        {step === 2 && (
          <>
            <ChoiceRadios
              label="Payment type"
              options={paymentOptions}
              value={values.paymentType}
              disabled={busy}
              onChange={(v) => {
                setAlert(null);
                set({ paymentType: v });
              }}
              error={errors.paymentType}
            />
            {values.paymentType === 'card' && (
              <section className="insights-checkout-payment" aria-label="Card details">
                {cardError ? (
                  <Banner intent="danger" role="alert">
                    {cardError} <Button text="Try again" variant="minimal" onClick={() => void startCard()} />
                  </Banner>
                ) : card?.billing === billing ? (
                  <PaymentElementPanel clientSecret={card.clientSecret} onReady={setHandles} />
                ) : (
                  <LoadingBlock label="Preparing the card payment" />
                )}
              </section>
            )}
            {values.paymentType === 'account' && (
              <SelectField
                label="Clearing account"
                name="accountNumber"
                noneLabel="Choose an account"
                options={accounts.map((a) => ({ value: a.id, label: a.name ? `${a.name} (${a.id})` : a.id }))}
                value={values.accountNumber || null}
                onChange={(v) => set({ accountNumber: v ?? '' })}
                onBlur={() => {}}
                error={errors.accountNumber}
              />
            )}
            {values.paymentType === 'invoice' && (
              <>
                <TextField label="Legal entity name" maxLength={200} {...bind('legalEntityName')} />
                <TextField label="Billing email address" maxLength={254} {...bind('billingEmailAddress')} />
              </>
            )}
          </>
        )}
        <div className="insights-checkout-buttons">
          {step > 0 && <Button text="Back" icon="chevron-left" disabled={busy} onClick={() => goTo((step - 1) as Step)} />}
          <Button type="submit" intent="primary" text={primaryText} loading={busy} disabled={busy || cardNotReady} />
        </div>
      </form>
    </>
  );
}

export const CHECKOUT_PAGE_QUERY = gql`
  query CheckoutPage($id: ID!) {
    channel(id: $id) {
      _id
      name
      type
      price
      state
      readerCard {
        action
      }
    }
    stripeTaxCountries {
      name
      code
      description
    }
    isoCountries {
      name
      alpha2
    }
    myBillingAccounts {
      _id
      id
      name
    }
  }
`;

export const CHECKOUT_MUTATIONS = gql`
  mutation CreateStripeCustomer(
    $channelId: ID!
    $businessName: String
    $taxId: String
    $taxIdType: String
    $addressLine1: String
    $addressLine2: String
    $addressState: String
    $addressCity: String
    $addressPostcode: String
    $addressCountryCode: String
  ) {
    createStripeCustomer(
      channelId: $channelId
      businessName: $businessName
      taxId: $taxId
      taxIdType: $taxIdType
      addressLine1: $addressLine1
      addressLine2: $addressLine2
      addressState: $addressState
      addressCity: $addressCity
      addressPostcode: $addressPostcode
      addressCountryCode: $addressCountryCode
    )
  }

  mutation CreateStripeSubscription(
    $channelId: ID!
    $businessName: String
    $taxId: String
    $addressLine1: String
    $addressLine2: String
    $addressState: String
    $addressCity: String
    $addressPostcode: String
    $addressCountryCode: String
  ) {
    createStripeSubscription(
      channelId: $channelId
      businessName: $businessName
      taxId: $taxId
      addressLine1: $addressLine1
      addressLine2: $addressLine2
      addressState: $addressState
      addressCity: $addressCity
      addressPostcode: $addressPostcode
      addressCountryCode: $addressCountryCode
    ) {
      subscriptionId
      clientSecret
      addressIsValid
    }
  }

  mutation CreateAccountSubscription($channelId: ID!, $accountNumber: String!) {
    createAccountSubscription(channelId: $channelId, subscriptionType: "account", accountNumber: $accountNumber) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }

  mutation CreateInvoicePaymentRequest($channelId: ID!, $legalEntityName: String, $billingEmailAddress: String) {
    createInvoicePaymentRequest(channelId: $channelId, legalEntityName: $legalEntityName, billingEmailAddress: $billingEmailAddress) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;
