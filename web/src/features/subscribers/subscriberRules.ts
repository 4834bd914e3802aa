//! The admin subscriber form's rules (spec 3 §3 payment categories, §4 'Admin subscriber form',
//! §5 'Subscriber form'), as pure functions: the category and sub-type choices, what a switch of
//! type clears, the expiry date's dd/MM/yyyy text, and the checks before a save.
import type { FieldErrors } from '../../components/admin';
import { dayText, isBefore, isoDay, parseDay, type Day } from '../../lib/days';
import { normalisePrice, PRICE_PATTERN } from '../../lib/price';
import { MESSAGES, type SubscriptionType } from './subscriberText';

export const LIMITS = {
  notes: 250,
  accountNumber: 64,
  billingMethod: 100,
  price: 100,
  trialDuration: 100,
  policyOverrideReason: 250,
} as const;

/** Contract `PaymentCategory`: the first radio of a premium channel's form. */
export type PaymentCategory = 'Paid' | 'Free' | 'FreeTrial';

/**
 * The second radio: a subscription type, with the clearing account split in two (a paying
 * clearing account under Paid, a rebated clearing client under Free).
 */
export type SubTypeChoice = 'stripe' | 'account' | 'external' | 'rebated' | 'nonCharge' | 'trial';

export interface Option<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
}

export const CATEGORY_OPTIONS: readonly Option<PaymentCategory>[] = [
  { value: 'Paid', label: 'Paid' },
  { value: 'Free', label: 'Free' },
  { value: 'FreeTrial', label: 'Free trial' },
];

/** Card subscriptions come from the reader's checkout: staff see the option but cannot choose it. */
export const SUB_TYPE_OPTIONS: Record<PaymentCategory, readonly Option<SubTypeChoice>[]> = {
  Paid: [
    { value: 'stripe', label: 'Card', disabled: true },
    { value: 'account', label: 'Clearing account' },
    { value: 'external', label: 'Billed externally' },
  ],
  Free: [
    { value: 'rebated', label: 'Clearing client (rebated)' },
    { value: 'nonCharge', label: 'Non-client' },
  ],
  FreeTrial: [{ value: 'trial', label: 'Free trial' }],
};

const CATEGORY_OF: Record<SubTypeChoice, PaymentCategory> = {
  stripe: 'Paid',
  account: 'Paid',
  external: 'Paid',
  rebated: 'Free',
  nonCharge: 'Free',
  trial: 'FreeTrial',
};

export function categoryOf(choice: SubTypeChoice): PaymentCategory {
  return CATEGORY_OF[choice];
}

/** The choice a stored subscription stands for; null for a free channel's 'free'. */
export function choiceOf(subscriptionType: SubscriptionType, rebate: boolean): SubTypeChoice | null {
  if (subscriptionType === 'free') return null;
  if (subscriptionType === 'account' && rebate) return 'rebated';
  return subscriptionType;
}

/** The stored type and rebate flag of a choice. */
export function typeOf(choice: SubTypeChoice): { subscriptionType: SubscriptionType; rebate: boolean } {
  return choice === 'rebated' ? { subscriptionType: 'account', rebate: true } : { subscriptionType: choice, rebate: false };
}

/** Types with a clearing account number. */
export const hasAccountNumber = (choice: SubTypeChoice | null) => choice === 'account' || choice === 'rebated';
/** Types charged a monthly price (a rebated clearing client is not charged). */
export const hasPrice = (choice: SubTypeChoice | null) => choice === 'account' || choice === 'external' || choice === 'stripe';
/** Types with an expiry date (a trial ends after its duration instead). */
export const hasExpiry = (choice: SubTypeChoice | null) => choice !== null && choice !== 'trial';

/**
 * The family a type belongs to when it is switched: its payment category. Within a family
 * (clearing account ↔ externally billed, rebated clearing client ↔ non-client) the account
 * number, price and expiry an existing subscription had still apply; across families they do not.
 */
export function familyOf(choice: SubTypeChoice | null): PaymentCategory | null {
  return choice ? categoryOf(choice) : null;
}

export interface SubscriberValues<U = unknown> extends Record<string, unknown> {
  /** The reader (add only); named like the server's field so its errors land here. */
  userId: U | null;
  category: PaymentCategory | null;
  subscriptionType: SubTypeChoice | null;
  accountNumber: string;
  billingMethod: string;
  pricePerMonth: string;
  /** dd/MM/yyyy, or '' for none. */
  cancelAt: string;
  /** Whole days, as typed. */
  trialDuration: string;
  /** Why a new trial goes over the trial policy (longer, or within its cool-off); '' for none. */
  policyOverrideReason: string;
  notes: string;
}

/**
 * A switch to another sub-type. For an existing subscription, leaving the family clears the
 * account number, price and expiry; choosing the non-client clears the account number always.
 */
export function chooseSubType<V extends SubscriberValues>(values: V, next: SubTypeChoice | null, existing: boolean): V {
  const result: V = { ...values, subscriptionType: next };
  if (existing && familyOf(next) !== familyOf(values.subscriptionType)) {
    result.accountNumber = '';
    result.pricePerMonth = '';
    result.cancelAt = '';
  }
  if (next === 'nonCharge') result.accountNumber = '';
  return result;
}

/**
 * A choice of payment category resets the sub-type: Free trial has one (trial); Paid and Free
 * leave it empty for the admin to choose.
 */
export function chooseCategory<V extends SubscriberValues>(values: V, category: PaymentCategory, existing: boolean): V {
  const next: SubTypeChoice | null = category === 'FreeTrial' ? 'trial' : null;
  return { ...chooseSubType(values, next, existing), category };
}

// ---- the expiry date (dd/MM/yyyy, lib/days) ----

/** The expiry's message: optional, a real dd/MM/yyyy date, and not before today. */
export function expiryError(text: string, today: Day): string | undefined {
  if (text.trim() === '') return undefined;
  const day = parseDay(text);
  if (!day) return MESSAGES.invalidExpiry;
  if (isBefore(day, today)) return `${MESSAGES.invalidExpiry}. ${MESSAGES.minDate(dayText(today))}`;
  return undefined;
}

/** The day as the API's DateTime: midnight UTC of that day (the server keeps 23:59:59 of it). */
export function expiryToIso(text: string): string | null {
  const day = parseDay(text);
  return day ? `${isoDay(day)}T00:00:00.000Z` : null;
}

// ---- the bespoke monthly price ----

/** Typed price as the blur leaves it: 2 decimals when valid ('49.5' → '49.50'), else as typed. */
export function formatPriceInput(text: string): string {
  return text.trim() === '' ? '' : normalisePrice(text);
}

export function priceError(text: string): string | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (value.length > LIMITS.price) return MESSAGES.maxLength(LIMITS.price);
  return PRICE_PATTERN.test(value) ? undefined : MESSAGES.invalidPrice;
}

// ---- the checks before a save ----

export interface TrialBounds {
  trialMinDays: number;
  trialMaxDays: number;
}

export function trialDurationError(text: string, { trialMinDays, trialMaxDays }: TrialBounds): string | undefined {
  if (text.trim() === '') return MESSAGES.required;
  const days = Number(text);
  if (!/^\d+$/.test(text.trim()) || days < trialMinDays || days > trialMaxDays) return MESSAGES.trialDays(trialMinDays, trialMaxDays);
  return undefined;
}

export interface ValidateContext {
  /** Adding (the user and the notes are required) or editing. */
  adding: boolean;
  /** Premium channels have payment categories; the others a user and notes only. */
  premium: boolean;
  /** The trial duration input is on screen (new trials; an edited trial once revealed). */
  trialShown: boolean;
  today: Day;
  bounds: TrialBounds;
}

export function validateSubscriber(v: SubscriberValues, ctx: ValidateContext): FieldErrors<SubscriberValues> {
  const errors: FieldErrors<SubscriberValues> = {};
  if (ctx.adding && !v.userId) errors.userId = MESSAGES.choose;
  if (v.notes.length > LIMITS.notes) errors.notes = MESSAGES.maxLength(LIMITS.notes);
  else if (ctx.adding && v.notes.trim() === '') errors.notes = MESSAGES.required;
  if (!ctx.premium) return errors;

  if (!v.category) errors.category = MESSAGES.choose;
  if (!v.subscriptionType) errors.subscriptionType = MESSAGES.choose;
  const choice = v.subscriptionType;
  if (hasAccountNumber(choice) && v.accountNumber.trim() === '') errors.accountNumber = MESSAGES.required;
  if (v.accountNumber.length > LIMITS.accountNumber) errors.accountNumber = MESSAGES.maxLength(LIMITS.accountNumber);
  if (choice === 'external' && v.billingMethod.trim() === '') errors.billingMethod = MESSAGES.required;
  if (v.billingMethod.length > LIMITS.billingMethod) errors.billingMethod = MESSAGES.maxLength(LIMITS.billingMethod);
  if (hasPrice(choice)) {
    const price = priceError(v.pricePerMonth);
    if (price) errors.pricePerMonth = price;
  }
  if (hasExpiry(choice)) {
    const expiry = expiryError(v.cancelAt, ctx.today);
    if (expiry) errors.cancelAt = expiry;
  }
  if (choice === 'trial' && ctx.trialShown) {
    const trial = trialDurationError(v.trialDuration, ctx.bounds);
    if (trial) errors.trialDuration = trial;
  }
  if (choice === 'trial' && v.policyOverrideReason.length > LIMITS.policyOverrideReason) {
    errors.policyOverrideReason = MESSAGES.maxLength(LIMITS.policyOverrideReason);
  }
  return errors;
}

/** Contract `ChannelSubscriptionInput`, less the channel and the user. */
export interface SubscriptionPayload {
  subscriptionType: SubscriptionType;
  rebate: boolean;
  accountNumber: string | null;
  billingMethod: string | null;
  pricePerMonth: string | null;
  cancelAt: string | null;
  trialDuration: number | null;
  /** Trials only: the server gives a trial over the trial policy with a reason, and audits it. */
  policyOverrideReason: string | null;
  notes: string | null;
  addedByAdmin: boolean;
}

export interface PayloadContext {
  premium: boolean;
  trialShown: boolean;
  /** The stored trial length, sent again when an edited trial's duration was not revealed. */
  storedTrialDuration: number | null;
}

/**
 * The form as the API's payload (spec 3 §3 'Subscription payload'): each field only for the types
 * it belongs to; an empty price falls back to the channel's on the server.
 */
export function toPayload(v: SubscriberValues, { premium, trialShown, storedTrialDuration }: PayloadContext): SubscriptionPayload {
  const notes = v.notes.trim() || null;
  const choice = premium ? v.subscriptionType : null;
  if (!choice) {
    return {
      subscriptionType: 'free',
      rebate: false,
      accountNumber: null,
      billingMethod: null,
      pricePerMonth: null,
      cancelAt: null,
      trialDuration: null,
      policyOverrideReason: null,
      notes,
      addedByAdmin: true,
    };
  }
  const { subscriptionType, rebate } = typeOf(choice);
  const price = hasPrice(choice) ? formatPriceInput(v.pricePerMonth).trim() : '';
  return {
    subscriptionType,
    rebate,
    accountNumber: hasAccountNumber(choice) ? v.accountNumber.trim() || null : null,
    billingMethod: choice === 'external' ? v.billingMethod.trim() || null : null,
    pricePerMonth: price || null,
    cancelAt: hasExpiry(choice) ? expiryToIso(v.cancelAt) : null,
    trialDuration: choice === 'trial' ? (trialShown ? Number(v.trialDuration) : storedTrialDuration) : null,
    policyOverrideReason: choice === 'trial' ? v.policyOverrideReason.trim() || null : null,
    notes,
    addedByAdmin: true,
  };
}
