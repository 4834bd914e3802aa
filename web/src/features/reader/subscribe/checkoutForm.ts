//! The checkout's values and rules (spec 3 §3 'Billing info', §4 'Checkout', §5 'Billing'): which
//! step holds which field, the messages each rule gives, and what each tax id result means.
import { INVALID_EMAIL, isEmail } from '../../../lib/email';

export type PaymentType = 'card' | 'account' | 'invoice';

export interface CheckoutValues {
  businessName: string;
  /** The chosen option of stripeTaxCountries: `${code}|${name}` (several countries share a code). */
  taxIdOption: string;
  taxId: string;
  addressLine1: string;
  addressLine2: string;
  addressCity: string;
  addressState: string;
  addressPostcode: string;
  addressCountryCode: string;
  terms: boolean;
  paymentType: PaymentType | null;
  accountNumber: string;
  legalEntityName: string;
  billingEmailAddress: string;
}

export type CheckoutField = keyof CheckoutValues;
export type CheckoutErrors = Partial<Record<CheckoutField, string>>;

export const EMPTY_CHECKOUT: CheckoutValues = {
  businessName: '',
  taxIdOption: '',
  taxId: '',
  addressLine1: '',
  addressLine2: '',
  addressCity: '',
  addressState: '',
  addressPostcode: '',
  addressCountryCode: '',
  terms: false,
  paymentType: null,
  accountNumber: '',
  legalEntityName: '',
  billingEmailAddress: '',
};

export const STEPS = ['Business and tax identification', 'Billing information', 'Payment'] as const;
export type Step = 0 | 1 | 2;

export const MESSAGES = {
  required: 'This field is required',
  postcode: 'Please enter a valid postcode',
  terms: 'Terms of Service for Premium Content is required',
  paymentType: 'Payment type should be chosen',
  invalidTaxId: 'Invalid Tax ID.',
  maxTaxIds: 'We only support up to 5 tax IDs per user.',
  email: INVALID_EMAIL,
} as const;

/** The fields of each step, in the order they are shown. */
export const STEP_FIELDS: Record<Step, readonly CheckoutField[]> = {
  0: ['businessName', 'taxIdOption', 'taxId'],
  1: ['addressLine1', 'addressLine2', 'addressCity', 'addressState', 'addressPostcode', 'addressCountryCode', 'terms'],
  2: ['paymentType', 'accountNumber', 'legalEntityName', 'billingEmailAddress'],
};

/** The step a field is on (a server's field error sends the reader back to it). */
export function stepOf(field: CheckoutField): Step {
  return ([0, 1, 2] as const).find((s) => STEP_FIELDS[s].includes(field)) ?? 0;
}

/** Letters, digits, spaces and hyphens, 2 to 12 characters, starting with a letter or digit. */
const POSTCODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/;

const blank = (v: string) => v.trim() === '';

/** The rules of one step: field → message. */
export function validateStep(step: Step, v: CheckoutValues): CheckoutErrors {
  const errors: CheckoutErrors = {};
  if (step === 0) {
    if (blank(v.businessName)) errors.businessName = MESSAGES.required;
    if (blank(v.taxIdOption)) errors.taxIdOption = MESSAGES.required;
    if (blank(v.taxId)) errors.taxId = MESSAGES.required;
  } else if (step === 1) {
    if (blank(v.addressLine1)) errors.addressLine1 = MESSAGES.required;
    if (blank(v.addressCity)) errors.addressCity = MESSAGES.required;
    if (blank(v.addressPostcode)) errors.addressPostcode = MESSAGES.required;
    else if (!POSTCODE.test(v.addressPostcode.trim())) errors.addressPostcode = MESSAGES.postcode;
    if (blank(v.addressCountryCode)) errors.addressCountryCode = MESSAGES.required;
    if (!v.terms) errors.terms = MESSAGES.terms;
  } else {
    if (!v.paymentType) errors.paymentType = MESSAGES.paymentType;
    if (v.paymentType === 'account' && blank(v.accountNumber)) errors.accountNumber = MESSAGES.required;
    if (v.paymentType === 'invoice') {
      if (blank(v.legalEntityName)) errors.legalEntityName = MESSAGES.required;
      if (blank(v.billingEmailAddress)) errors.billingEmailAddress = MESSAGES.required;
      else if (!isEmail(v.billingEmailAddress)) errors.billingEmailAddress = MESSAGES.email;
    }
  }
  return errors;
}

/** Stripe's tax id type of the chosen option ('gb_vat'). */
export function taxIdType(option: string): string {
  return option.split('|')[0] ?? '';
}

/** The business and address the Stripe calls take. */
export function billingVariables(v: CheckoutValues) {
  const opt = (s: string) => (blank(s) ? null : s.trim());
  return {
    businessName: v.businessName.trim(),
    taxId: opt(v.taxId),
    addressLine1: v.addressLine1.trim(),
    addressLine2: opt(v.addressLine2),
    addressState: opt(v.addressState),
    addressCity: v.addressCity.trim(),
    addressPostcode: v.addressPostcode.trim(),
    addressCountryCode: v.addressCountryCode,
  };
}

export type TaxIdResultCode = 'NotSet' | 'MaxTaxIDError' | 'TaxIdAlreadyExists' | 'TaxIdInvalidFormat' | 'UnknownError' | 'Success';

/** Spec 3 §4: Success, TaxIdAlreadyExists and NotSet go on; the others block with their message on the tax id. */
export function taxIdOutcome(result: TaxIdResultCode): { ok: true } | { ok: false; message: string } {
  switch (result) {
    case 'Success':
    case 'TaxIdAlreadyExists':
    case 'NotSet':
      return { ok: true };
    case 'MaxTaxIDError':
      return { ok: false, message: MESSAGES.maxTaxIds };
    case 'TaxIdInvalidFormat':
    case 'UnknownError':
      return { ok: false, message: MESSAGES.invalidTaxId };
  }
}

/** The server's field names that are not the form's own. */
export function formField(serverField: string): CheckoutField | null {
  if (serverField === 'taxIdType') return 'taxIdOption';
  return serverField in EMPTY_CHECKOUT ? (serverField as CheckoutField) : null;
}
