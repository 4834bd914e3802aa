import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientConfig } from '../../../lib/config';
import { testConfig, testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { installStripe, lastElements, stripeMock } from '../../../testing/stripe';
import { changedChannel, channel, READER_IDS, readerCard } from '../testData';
import { MESSAGES, taxIdOutcome, validateStep, EMPTY_CHECKOUT } from './checkoutForm';
import { CARD_LIMIT_HINT } from '../../../lib/price';
import { NO_ACCOUNT_HINT } from './CheckoutPage';
import {
  CheckoutPageDocument,
  CreateAccountSubscriptionDocument,
  CreateInvoicePaymentRequestDocument,
  CreateStripeCustomerDocument,
  CreateStripeSubscriptionDocument,
} from './__generated__/CheckoutPage.generated';

vi.mock('@stripe/react-stripe-js', () => import('../../../testing/stripe'));

const ID = READER_IDS.oilChannel;
const PATH = `/subscribe/channel/confirm/${ID}`;
const CARDS_ON = testConfig({
  features: { ...testConfig().features, cardPayments: true },
  stripe: { __typename: 'StripeSettings', publishableKey: 'pk_test_insights', jsUrl: 'http://127.0.0.1:9/js/v3' },
} as Partial<ClientConfig>);

type Account = { id: string; name: string | null };

function pageMock(options: { action?: string; type?: string; accounts?: Account[]; price?: string } = {}): MockLink.MockedResponse {
  const c = channel({ type: (options.type ?? 'premium') as 'premium' });
  return {
    request: { query: CheckoutPageDocument, variables: { id: ID } },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: {
        channel: {
          __typename: 'Channel',
          _id: ID,
          name: c.name,
          type: c.type,
          price: options.price ?? '49.50',
          state: 'active',
          readerCard: { __typename: 'ReaderChannelCard', action: options.action ?? 'RequestTrial' },
        },
        stripeTaxCountries: [
          { __typename: 'StripeTaxCountry', name: 'United Kingdom', code: 'gb_vat', description: 'United Kingdom VAT number' },
          { __typename: 'StripeTaxCountry', name: 'Norway', code: 'no_vat', description: 'Norwegian VAT number' },
        ],
        isoCountries: [
          { __typename: 'IsoCountry', name: 'Norway', alpha2: 'NO' },
          { __typename: 'IsoCountry', name: 'United Kingdom', alpha2: 'GB' },
        ],
        myBillingAccounts: (options.accounts ?? []).map((a, i) => ({ __typename: 'BillingAccount', _id: `acc${i}`, ...a })),
      },
    },
  };
}

/** A mutation mock that records its variables. */
function mutationMock(query: unknown, answer: (variables: Record<string, unknown>) => unknown, calls: Record<string, unknown>[] = []) {
  return {
    calls,
    mock: {
      request: { query, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (variables: Record<string, unknown>) => {
        calls.push(variables);
        return answer(variables);
      },
    } as unknown as MockLink.MockedResponse,
  };
}

const customer = (result: string) => mutationMock(CreateStripeCustomerDocument, () => ({ data: { createStripeCustomer: result } }));

const subscription = () =>
  mutationMock(CreateStripeSubscriptionDocument, () => ({
    data: {
      createStripeSubscription: {
        __typename: 'StripeSubscriptionResult',
        subscriptionId: 'sub_1',
        clientSecret: 'pi_1_secret_xyz',
        addressIsValid: true,
      },
    },
  }));

function open(mocks: MockLink.MockedResponse[], config?: ClientConfig) {
  return renderApp({ path: PATH, user: testUser('Subscriber'), mocks, config });
}

const stepHeading = (n: number, title: string) => screen.findByRole('heading', { name: `Step ${n} of 3: ${title}`, level: 2 });
const next = () => userEvent.click(screen.getByRole('button', { name: 'Next' }));

async function fillStep1() {
  await userEvent.type(await screen.findByLabelText('Business name'), 'Acme Trading Ltd');
  await userEvent.selectOptions(screen.getByLabelText('Tax ID type'), 'gb_vat|United Kingdom');
  await userEvent.type(screen.getByLabelText('Tax ID'), 'GB123456789');
}

async function fillStep2(postcode = 'EC2V 8AU') {
  await userEvent.type(await screen.findByLabelText('Address line 1'), '1 King Street');
  await userEvent.type(screen.getByLabelText('City'), 'London');
  await userEvent.type(screen.getByLabelText('Postcode'), postcode);
  await userEvent.selectOptions(screen.getByLabelText('Country'), 'GB');
  await userEvent.click(screen.getByLabelText('I accept the Terms of Service for Premium Content'));
}

async function toPayment() {
  await fillStep1();
  await next();
  await fillStep2();
  await next();
  await stepHeading(3, 'Payment');
}

describe('Checkout', () => {
  beforeEach(() => installStripe());

  it('shows the breadcrumb and the stepper, checks each step, and goes back', async () => {
    open([pageMock()]);
    expect(await screen.findByRole('heading', { name: 'Subscribe to Oil Weekly', level: 1 })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'All channels' })).toHaveAttribute('href', '/channels');
    expect(crumbs.getByRole('link', { name: 'Oil Weekly' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(crumbs.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', `/subscribe/channel/${ID}`);
    expect(crumbs.getByText('Confirm')).toHaveAttribute('aria-current', 'page');
    const steps = within(screen.getByRole('list', { name: 'Checkout steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['1Business and tax identification', '2Billing information', '3Payment']);
    expect(steps[0]).toHaveAttribute('aria-current', 'step');

    await stepHeading(1, 'Business and tax identification');
    await next();
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(3);
    await fillStep1();
    expect(screen.queryByText(MESSAGES.required)).not.toBeInTheDocument();
    await next();

    await stepHeading(2, 'Billing information');
    await userEvent.type(screen.getByLabelText('Postcode'), '!!');
    await next();
    expect(screen.getByText(MESSAGES.postcode)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.terms)).toBeInTheDocument();

    // Back to the first step by the stepper: what was typed is kept.
    await userEvent.click(screen.getByRole('button', { name: 'Business and tax identification' }));
    await stepHeading(1, 'Business and tax identification');
    expect(screen.getByLabelText('Business name')).toHaveValue('Acme Trading Ltd');
    await next();
    await stepHeading(2, 'Billing information');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await stepHeading(1, 'Business and tax identification');
  });

  it('without card payments: no card option, the clearing account disabled with a hint, an invoice request', async () => {
    const invoice = mutationMock(CreateInvoicePaymentRequestDocument, () => ({
      data: {
        createInvoicePaymentRequest: {
          __typename: 'ChannelSubscription',
          channelId: ID,
          channel: changedChannel(channel(), readerCard({ action: 'Pending' })),
        },
      },
    }));
    open([pageMock(), invoice.mock]);
    await toPayment();
    const group = screen.getByRole('radiogroup', { name: 'Payment type' });
    expect(within(group).queryByRole('radio', { name: 'Card' })).not.toBeInTheDocument();
    const account = within(group).getByRole('radio', { name: 'Clearing account' });
    expect(account).toBeDisabled();
    expect(account).toHaveAccessibleDescription(NO_ACCOUNT_HINT);

    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(screen.getByText(MESSAGES.paymentType)).toBeInTheDocument();

    await userEvent.click(within(group).getByRole('radio', { name: 'Invoice' }));
    await userEvent.click(screen.getByRole('button', { name: 'Request invoice' }));
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Legal entity name'), 'Acme Trading Ltd');
    await userEvent.type(screen.getByLabelText('Billing email address'), 'not-an-email');
    expect(screen.getByText(MESSAGES.email)).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Billing email address'));
    await userEvent.type(screen.getByLabelText('Billing email address'), 'billing@acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Request invoice' }));

    expect(await screen.findByRole('heading', { name: 'Invoice requested', level: 1 })).toBeInTheDocument();
    expect(invoice.calls).toEqual([{ channelId: ID, legalEntityName: 'Acme Trading Ltd', billingEmailAddress: 'billing@acme.example' }]);
  });

  it('pays with a clearing account of the reader', async () => {
    const account = mutationMock(CreateAccountSubscriptionDocument, () => ({
      data: {
        createAccountSubscription: {
          __typename: 'ChannelSubscription',
          channelId: ID,
          channel: changedChannel(channel(), readerCard({ action: 'Subscribed' })),
        },
      },
    }));
    open([pageMock({ accounts: [{ id: 'ACC-1001', name: 'Acme clearing' }] }), account.mock]);
    await toPayment();
    await userEvent.click(screen.getByRole('radio', { name: 'Clearing account' }));
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(screen.getByText(MESSAGES.required)).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Clearing account' }), 'ACC-1001');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed', level: 1 })).toBeInTheDocument();
    expect(account.calls).toEqual([{ channelId: ID, accountNumber: 'ACC-1001' }]);
  });

  it('creates the Stripe customer on leaving Billing information and sends tax id refusals back to the first step', async () => {
    const results = ['TaxIdInvalidFormat', 'MaxTaxIDError', 'TaxIdAlreadyExists'];
    const calls: Record<string, unknown>[] = [];
    const answers = mutationMock(
      CreateStripeCustomerDocument,
      () => ({ data: { createStripeCustomer: results[calls.length - 1] } }),
      calls,
    );
    open([pageMock(), answers.mock], CARDS_ON);
    await fillStep1();
    await next();
    await fillStep2();
    await next();

    await stepHeading(1, 'Business and tax identification');
    expect(screen.getByText(MESSAGES.invalidTaxId)).toBeInTheDocument();
    expect(screen.getByLabelText('Tax ID')).toHaveAttribute('aria-invalid', 'true');
    expect(calls[0]).toEqual({
      channelId: ID,
      businessName: 'Acme Trading Ltd',
      taxId: 'GB123456789',
      taxIdType: 'gb_vat',
      addressLine1: '1 King Street',
      addressLine2: null,
      addressState: null,
      addressCity: 'London',
      addressPostcode: 'EC2V 8AU',
      addressCountryCode: 'GB',
    });
    await userEvent.clear(screen.getByLabelText('Tax ID'));
    await userEvent.type(screen.getByLabelText('Tax ID'), 'GB987654321');
    await next();
    await next();
    await stepHeading(1, 'Business and tax identification');
    expect(screen.getByText(MESSAGES.maxTaxIds)).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Tax ID'));
    await userEvent.type(screen.getByLabelText('Tax ID'), 'GB123456789');
    await next();
    await next();
    await stepHeading(3, 'Payment');
    expect(screen.getByRole('radio', { name: 'Card' })).toBeEnabled();
  });

  it("shows the server's field errors on their fields", async () => {
    const bad = mutationMock(CreateStripeCustomerDocument, () => ({
      errors: [
        new GraphQLError('Invalid input', {
          extensions: { code: 'BAD_USER_INPUT', fields: { addressPostcode: 'Please enter a valid postcode' } },
        }),
      ],
    }));
    open([pageMock(), bad.mock], CARDS_ON);
    await fillStep1();
    await next();
    await fillStep2('12345');
    await next();
    expect(await screen.findByText(MESSAGES.postcode)).toBeInTheDocument();
    expect(screen.getByLabelText('Postcode')).toHaveAttribute('aria-invalid', 'true');
    await stepHeading(2, 'Billing information');
  });

  it('pays by card with the Payment Element and lands on the subscribed page', async () => {
    const sub = subscription();
    stripeMock.confirmPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    open([pageMock(), customer('Success').mock, sub.mock], CARDS_ON);
    await toPayment();
    await userEvent.click(screen.getByRole('radio', { name: 'Card' }));
    expect(await screen.findByRole('group', { name: 'Card payment form' })).toBeInTheDocument();
    expect(lastElements.options).toEqual({ clientSecret: 'pi_1_secret_xyz' });
    expect(sub.calls).toHaveLength(1);
    expect(sub.calls[0]).toMatchObject({ channelId: ID, businessName: 'Acme Trading Ltd', addressCountryCode: 'GB' });
    const pay = screen.getByRole('button', { name: 'Pay and subscribe' });
    await waitFor(() => expect(pay).toBeEnabled());
    await userEvent.click(pay);
    expect(await screen.findByText("Congratulations! You're now subscribed...")).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed', level: 1 })).toBeInTheDocument();
    expect(stripeMock.confirmPayment).toHaveBeenCalledTimes(1);
    expect(stripeMock.confirmPayment.mock.calls[0][0]).toMatchObject({ redirect: 'if_required' });
  });

  it('offers no card for a price over what a card takes ($999,999.99), and shows every digit of it', async () => {
    const sub = subscription();
    open([pageMock({ price: '123456789012345678.90' }), customer('NotSet').mock, sub.mock], CARDS_ON);
    expect(await screen.findByText('$123,456,789,012,345,678.90')).toBeInTheDocument();
    await toPayment();
    const card = within(screen.getByRole('radiogroup', { name: 'Payment type' })).getByRole('radio', { name: 'Card' });
    expect(card).toBeDisabled();
    expect(card).toHaveAccessibleDescription(CARD_LIMIT_HINT);
    expect(screen.getByRole('radio', { name: 'Invoice' })).toBeEnabled();
    expect(sub.calls).toHaveLength(0);
  });

  it.each([
    [{ paymentIntent: { id: 'pi_1', status: 'requires_payment_method' } }, 'Payment failed. Please try another payment method.'],
    [{ paymentIntent: { id: 'pi_1', status: 'requires_capture' } }, 'Something went wrong.'],
    [{ paymentIntent: { id: 'pi_1', status: 'processing' } }, 'Your payment is processing. We will email you once it has gone through.'],
    [{ error: { type: 'card_error', message: 'Your card was declined.' } }, 'Your card was declined.'],
  ])('says what became of the card payment: %j', async (answer, message) => {
    stripeMock.confirmPayment.mockResolvedValue(answer);
    open([pageMock(), customer('NotSet').mock, subscription().mock], CARDS_ON);
    await toPayment();
    await userEvent.click(screen.getByRole('radio', { name: 'Card' }));
    const pay = await screen.findByRole('button', { name: 'Pay and subscribe' });
    await waitFor(() => expect(pay).toBeEnabled());
    await userEvent.click(pay);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Step 3 of 3: Payment' })).toBeInTheDocument();
  });

  it('refuses politely when the reader is already subscribed, or the channel is free', async () => {
    const { unmount } = open([pageMock({ action: 'Subscribed' })]);
    expect(await screen.findByText('You are already subscribed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Channel' })).toHaveAttribute('href', `/browse/channel/${ID}`);
    expect(screen.queryByRole('list', { name: 'Checkout steps' })).not.toBeInTheDocument();
    unmount();
    open([pageMock({ type: 'freeOpen', action: 'SubscribeFree' })]);
    expect(await screen.findByText(/is a free channel: there is no Premium access to buy\./)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Checkout steps' })).not.toBeInTheDocument();
  });

  it('knows which tax id results go on and what the rules say', () => {
    expect(['Success', 'TaxIdAlreadyExists', 'NotSet'].map((r) => taxIdOutcome(r as 'Success').ok)).toEqual([true, true, true]);
    expect(taxIdOutcome('UnknownError')).toEqual({ ok: false, message: 'Invalid Tax ID.' });
    expect(taxIdOutcome('MaxTaxIDError')).toEqual({ ok: false, message: 'We only support up to 5 tax IDs per user.' });
    expect(
      validateStep(1, {
        ...EMPTY_CHECKOUT,
        addressLine1: 'a',
        addressCity: 'b',
        addressCountryCode: 'GB',
        terms: true,
        addressPostcode: 'SW1A 1AA',
      }),
    ).toEqual({});
    expect(validateStep(1, { ...EMPTY_CHECKOUT, addressPostcode: '#' }).addressPostcode).toBe('Please enter a valid postcode');
    expect(validateStep(2, EMPTY_CHECKOUT)).toEqual({ paymentType: 'Payment type should be chosen' });
    // Spec 1 §5's email message, as the server says it for billingEmailAddress.
    const invoice = { ...EMPTY_CHECKOUT, paymentType: 'invoice' as const, legalEntityName: 'Acme' };
    expect(validateStep(2, { ...invoice, billingEmailAddress: 'ap@acme..example' })).toEqual({
      billingEmailAddress: 'Email should be valid',
    });
    expect(validateStep(2, { ...invoice, billingEmailAddress: 'ap@acme.example' })).toEqual({});
  });
});
