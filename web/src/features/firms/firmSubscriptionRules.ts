//! The firm subscription form's rules (issue 39), as pure functions: the types a firm may hold, the
//! fields each type has, the checks before a save (the server checks the same and answers per
//! field), and the form as `FirmSubscriptionInput`. Dates are typed as dd/MM/yyyy (lib/days).
import type { FieldErrors } from '../../components/admin';
import { dayText, isBefore, isoDay, parseDay, type Day } from '../../lib/days';
import { normalisePrice, PRICE_PATTERN } from '../../lib/price';
import type { FirmSubscriptionInput, PriceBasis } from './__generated__/FirmSubscriptionForm.generated';
import { MESSAGES } from './firmText';

export const SUBSCRIPTION_LIMITS = { notes: 250, accountNumber: 64, billingMethod: 100, price: 100, seats: 1_000_000 } as const;

/** The types staff give a firm (a firm never pays by card from a checkout, nor holds a free channel). */
export type FirmSubscriptionType = 'account' | 'external' | 'nonCharge' | 'trial';

export const TYPE_OPTIONS: readonly { value: FirmSubscriptionType; label: string }[] = [
  { value: 'account', label: 'Clearing account' },
  { value: 'external', label: 'Billed externally' },
  { value: 'nonCharge', label: 'Non-charge' },
  { value: 'trial', label: 'Free trial' },
];

export const PRICE_BASIS_OPTIONS: readonly { value: PriceBasis; label: string }[] = [
  { value: 'seat', label: 'Per seat' },
  { value: 'flat', label: 'Flat' },
];

export function asFirmSubscriptionType(type: string): FirmSubscriptionType | null {
  return TYPE_OPTIONS.some((o) => o.value === type) ? (type as FirmSubscriptionType) : null;
}

/** Paid types have a monthly price. */
export const hasPrice = (type: FirmSubscriptionType | null) => type === 'account' || type === 'external';
/** A trial starts now and ends after its length; the other types have a start and an end date. */
export const hasDates = (type: FirmSubscriptionType | null) => type !== null && type !== 'trial';

export interface FirmSubscriptionValues extends Record<string, unknown> {
  /** The channel (add only); named like the server's field so its errors land here. */
  channelId: string | null;
  subscriptionType: FirmSubscriptionType | null;
  /** Whole seats as typed; '' is unlimited. */
  seats: string;
  /** dd/MM/yyyy; '' is now. */
  startsAt: string;
  /** dd/MM/yyyy; '' is open-ended. */
  cancelAt: string;
  /** Whole days as typed; '' is the channel's trial length. */
  trialDuration: string;
  pricePerMonth: string;
  priceBasis: PriceBasis;
  accountNumber: string;
  billingMethod: string;
  notes: string;
  isFullArticleContent: boolean;
}

export const EMPTY_VALUES: FirmSubscriptionValues = {
  channelId: null,
  subscriptionType: null,
  seats: '',
  startsAt: '',
  cancelAt: '',
  trialDuration: '',
  pricePerMonth: '',
  priceBasis: 'seat',
  accountNumber: '',
  billingMethod: '',
  notes: '',
  isFullArticleContent: true,
};

export interface ValidateContext {
  adding: boolean;
  today: Day;
  trialMinDays: number;
  trialMaxDays: number;
  /** The start date the form was opened with: an unchanged start is not checked again. */
  initialStart: string;
}

function seatsError(text: string): string | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  const seats = Number(value);
  return /^\d+$/.test(value) && seats >= 1 && seats <= SUBSCRIPTION_LIMITS.seats ? undefined : MESSAGES.seats(SUBSCRIPTION_LIMITS.seats);
}

export function validateFirmSubscription(v: FirmSubscriptionValues, ctx: ValidateContext): FieldErrors<FirmSubscriptionValues> {
  const errors: FieldErrors<FirmSubscriptionValues> = {};
  const type = v.subscriptionType;
  if (ctx.adding && !v.channelId) errors.channelId = MESSAGES.choose;
  if (!type) errors.subscriptionType = MESSAGES.choose;
  const seats = seatsError(v.seats);
  if (seats) errors.seats = seats;

  if (hasDates(type)) {
    const start = v.startsAt.trim() ? parseDay(v.startsAt) : null;
    if (v.startsAt.trim() && !start) errors.startsAt = MESSAGES.invalidStart;
    else if (start && v.startsAt.trim() !== ctx.initialStart.trim() && isBefore(start, ctx.today)) errors.startsAt = MESSAGES.startPast;
    const end = v.cancelAt.trim() ? parseDay(v.cancelAt) : null;
    const earliest = start && isBefore(ctx.today, start) ? start : ctx.today;
    if (v.cancelAt.trim() && !end) errors.cancelAt = MESSAGES.invalidExpiry;
    else if (end && isBefore(end, earliest)) errors.cancelAt = `${MESSAGES.invalidExpiry}. ${MESSAGES.minDate(dayText(earliest))}`;
  }
  if (type === 'trial' && v.trialDuration.trim()) {
    const days = Number(v.trialDuration.trim());
    if (!/^\d+$/.test(v.trialDuration.trim()) || days < ctx.trialMinDays || days > ctx.trialMaxDays) {
      errors.trialDuration = MESSAGES.trialDays(ctx.trialMinDays, ctx.trialMaxDays);
    }
  }
  if (hasPrice(type)) {
    const price = v.pricePerMonth.trim();
    if (price.length > SUBSCRIPTION_LIMITS.price) errors.pricePerMonth = MESSAGES.maxLength(SUBSCRIPTION_LIMITS.price);
    else if (price && !PRICE_PATTERN.test(price)) errors.pricePerMonth = MESSAGES.invalidPrice;
  }
  if (type === 'account' && !v.accountNumber.trim()) errors.accountNumber = MESSAGES.required;
  else if (v.accountNumber.trim().length > SUBSCRIPTION_LIMITS.accountNumber)
    errors.accountNumber = MESSAGES.maxLength(SUBSCRIPTION_LIMITS.accountNumber);
  if (type === 'external' && !v.billingMethod.trim()) errors.billingMethod = MESSAGES.required;
  else if (v.billingMethod.trim().length > SUBSCRIPTION_LIMITS.billingMethod)
    errors.billingMethod = MESSAGES.maxLength(SUBSCRIPTION_LIMITS.billingMethod);
  if (v.notes.length > SUBSCRIPTION_LIMITS.notes) errors.notes = MESSAGES.maxLength(SUBSCRIPTION_LIMITS.notes);
  else if (ctx.adding && !v.notes.trim()) errors.notes = MESSAGES.required;
  return errors;
}

/** A start day as the API's DateTime: that day's midnight on the admin's clock. */
export function startToIso(text: string): string | null {
  const day = parseDay(text);
  return day ? new Date(day.year, day.month - 1, day.day).toISOString() : null;
}

/** An end day as the API's DateTime: midnight UTC of that day (the server keeps 23:59:59 of it). */
export function endToIso(text: string): string | null {
  const day = parseDay(text);
  return day ? `${isoDay(day)}T00:00:00.000Z` : null;
}

/** A stored start as dd/MM/yyyy, on the admin's clock. */
export function startText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dayText({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

export interface PayloadContext {
  firmId: string;
  /** The stored subscription's version (a change), or null (adding). */
  version: number | null;
  initialStart: string;
}

/** The form as `FirmSubscriptionInput`: each field only for the types it belongs to. */
export function toFirmSubscriptionInput(v: FirmSubscriptionValues, ctx: PayloadContext): FirmSubscriptionInput {
  const type = v.subscriptionType;
  const dated = hasDates(type);
  const priced = hasPrice(type);
  const price = priced && v.pricePerMonth.trim() ? normalisePrice(v.pricePerMonth.trim()) : null;
  // An unchanged start is left to the server (it keeps the stored one).
  const startChanged = v.startsAt.trim() !== ctx.initialStart.trim();
  return {
    firmId: ctx.firmId,
    channelId: v.channelId ?? '',
    version: ctx.version,
    subscriptionType: type,
    seats: v.seats.trim() ? Number(v.seats.trim()) : null,
    startsAt: dated && startChanged && v.startsAt.trim() ? startToIso(v.startsAt) : null,
    cancelAt: dated ? endToIso(v.cancelAt) : null,
    trialDuration: type === 'trial' && v.trialDuration.trim() ? Number(v.trialDuration.trim()) : null,
    pricePerMonth: price,
    priceBasis: priced ? v.priceBasis : null,
    rebate: false,
    accountNumber: type === 'account' ? v.accountNumber.trim() || null : null,
    billingMethod: type === 'external' ? v.billingMethod.trim() || null : null,
    notes: v.notes.trim() || null,
    isFullArticleContent: v.isFullArticleContent,
  };
}
