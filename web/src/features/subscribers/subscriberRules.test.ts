import { describe, expect, it } from 'vitest';
import {
  chooseCategory,
  chooseSubType,
  choiceOf,
  expiryError,
  expiryToIso,
  formatPriceInput,
  priceError,
  toPayload,
  trialDurationError,
  typeOf,
  validateSubscriber,
  type SubscriberValues,
  type ValidateContext,
} from './subscriberRules';

const values = (overrides: Partial<SubscriberValues> = {}): SubscriberValues => ({
  userId: { _id: 'u1' },
  category: 'Paid',
  subscriptionType: 'account',
  accountNumber: 'ACC-1',
  billingMethod: 'Invoice',
  pricePerMonth: '40.00',
  cancelAt: '31/12/2030',
  trialDuration: '14',
  policyOverrideReason: '',
  notes: 'Sales deal',
  ...overrides,
});

const today = { year: 2026, month: 6, day: 15 };
const ctx = (overrides: Partial<ValidateContext> = {}): ValidateContext => ({
  adding: true,
  premium: true,
  trialShown: true,
  today,
  bounds: { trialMinDays: 1, trialMaxDays: 100 },
  ...overrides,
});

describe('payment category choice', () => {
  it('resets the sub-type: Free trial sets trial, Paid and Free clear it', () => {
    expect(chooseCategory(values(), 'FreeTrial', false)).toMatchObject({ category: 'FreeTrial', subscriptionType: 'trial' });
    expect(chooseCategory(values({ category: 'FreeTrial', subscriptionType: 'trial' }), 'Paid', false)).toMatchObject({
      category: 'Paid',
      subscriptionType: null,
    });
    expect(chooseCategory(values(), 'Free', false)).toMatchObject({ category: 'Free', subscriptionType: null });
  });

  it('keeps what was typed while adding, but clears it for an existing subscription of another family', () => {
    const adding = chooseCategory(values(), 'Free', false);
    expect(adding).toMatchObject({ accountNumber: 'ACC-1', pricePerMonth: '40.00', cancelAt: '31/12/2030' });
    const editing = chooseCategory(values(), 'Free', true);
    expect(editing).toMatchObject({ accountNumber: '', pricePerMonth: '', cancelAt: '' });
    // Billing method and notes are not part of the rule.
    expect(editing).toMatchObject({ billingMethod: 'Invoice', notes: 'Sales deal' });
  });
});

describe('sub-type switch of an existing subscription', () => {
  it('keeps account number, price and expiry within the family', () => {
    expect(chooseSubType(values(), 'external', true)).toMatchObject({
      subscriptionType: 'external',
      accountNumber: 'ACC-1',
      pricePerMonth: '40.00',
      cancelAt: '31/12/2030',
    });
    expect(chooseSubType(values({ category: 'Free', subscriptionType: 'nonCharge', accountNumber: '' }), 'rebated', true)).toMatchObject({
      pricePerMonth: '40.00',
      cancelAt: '31/12/2030',
    });
  });

  it('clears them across families', () => {
    expect(chooseSubType(values({ subscriptionType: 'external' }), 'rebated', true)).toMatchObject({
      subscriptionType: 'rebated',
      accountNumber: '',
      pricePerMonth: '',
      cancelAt: '',
    });
    expect(chooseSubType(values({ category: 'Free', subscriptionType: 'rebated' }), 'trial', true)).toMatchObject({
      accountNumber: '',
      pricePerMonth: '',
      cancelAt: '',
    });
  });

  it('clears the account number for a non-client, adding or not', () => {
    const rebated = values({ category: 'Free', subscriptionType: 'rebated' });
    expect(chooseSubType(rebated, 'nonCharge', false)).toMatchObject({ accountNumber: '', cancelAt: '31/12/2030' });
    expect(chooseSubType(rebated, 'nonCharge', true)).toMatchObject({ accountNumber: '', pricePerMonth: '40.00', cancelAt: '31/12/2030' });
  });

  it('maps stored types to choices and back', () => {
    expect(choiceOf('account', true)).toBe('rebated');
    expect(choiceOf('account', false)).toBe('account');
    expect(choiceOf('free', false)).toBeNull();
    expect(typeOf('rebated')).toEqual({ subscriptionType: 'account', rebate: true });
    expect(typeOf('nonCharge')).toEqual({ subscriptionType: 'nonCharge', rebate: false });
  });
});

describe('expiry date (dd/MM/yyyy)', () => {
  it("is optional, 'Invalid Expiry Date' when malformed, and never before today", () => {
    expect(expiryError('', today)).toBeUndefined();
    expect(expiryError('15/06/2026', today)).toBeUndefined();
    expect(expiryError('31/02/2027', today)).toBe('Invalid Expiry Date');
    expect(expiryError('14/06/2026', today)).toBe('Invalid Expiry Date. Date should not be before 15/06/2026');
    expect(expiryError('01/01/2020', today)).toMatch(/^Invalid Expiry Date\. Date should not be before/);
  });

  // Parsing and reading back a stored day: lib/days.test.ts.
  it('is sent as midnight UTC of the day', () => {
    expect(expiryToIso('05/03/2027')).toBe('2027-03-05T00:00:00.000Z');
    expect(expiryToIso('')).toBeNull();
  });
});

describe('bespoke monthly price', () => {
  it('is formatted to 2 decimals on blur when valid', () => {
    expect(formatPriceInput('49.5')).toBe('49.50');
    expect(formatPriceInput('049')).toBe('49.00');
    expect(formatPriceInput('')).toBe('');
    expect(formatPriceInput('-5')).toBe('-5');
  });

  it('accepts digits with up to 2 decimals, no sign, at most 100 characters', () => {
    expect(priceError('')).toBeUndefined();
    expect(priceError('12.34')).toBeUndefined();
    for (const bad of ['12.345', '-5', '+5', 'abc', '4,9']) expect(priceError(bad)).toBe('Invalid price format');
    expect(priceError('1'.repeat(101))).toBe('Maximum 100 characters');
  });
});

describe('trial duration', () => {
  it('is required and within the configured bounds', () => {
    const bounds = { trialMinDays: 1, trialMaxDays: 30 };
    expect(trialDurationError('', bounds)).toBe('This field is required');
    expect(trialDurationError('0', bounds)).toBe('Enter a whole number of days from 1 to 30');
    expect(trialDurationError('31', bounds)).toBe('Enter a whole number of days from 1 to 30');
    expect(trialDurationError('30', bounds)).toBeUndefined();
  });
});

describe('validateSubscriber', () => {
  it('requires the user, the notes, the category and the sub-type when adding', () => {
    const errors = validateSubscriber(values({ userId: null, notes: ' ', category: null, subscriptionType: null }), ctx());
    expect(errors).toEqual({
      userId: 'This field should be chosen',
      notes: 'This field is required',
      category: 'This field should be chosen',
      subscriptionType: 'This field should be chosen',
    });
  });

  it('leaves the notes optional when editing, but at most 250 characters', () => {
    expect(validateSubscriber(values({ userId: null, notes: '' }), ctx({ adding: false }))).toEqual({});
    expect(validateSubscriber(values({ notes: 'x'.repeat(251) }), ctx({ adding: false })).notes).toBe('Maximum 250 characters');
  });

  it('needs the account number for clearing types and the billing method when billed externally', () => {
    expect(validateSubscriber(values({ accountNumber: '' }), ctx()).accountNumber).toBe('This field is required');
    expect(validateSubscriber(values({ subscriptionType: 'rebated', category: 'Free', accountNumber: '' }), ctx()).accountNumber).toBe(
      'This field is required',
    );
    expect(validateSubscriber(values({ subscriptionType: 'nonCharge', category: 'Free', accountNumber: '' }), ctx())).toEqual({});
    expect(validateSubscriber(values({ subscriptionType: 'external', billingMethod: ' ' }), ctx()).billingMethod).toBe(
      'This field is required',
    );
  });

  it('checks the price for paid types only, the expiry for all but trials, the trial duration when shown', () => {
    expect(validateSubscriber(values({ pricePerMonth: '-1' }), ctx()).pricePerMonth).toBe('Invalid price format');
    expect(validateSubscriber(values({ subscriptionType: 'nonCharge', category: 'Free', pricePerMonth: '-1' }), ctx())).toEqual({});
    expect(validateSubscriber(values({ cancelAt: '01/01/2020' }), ctx()).cancelAt).toMatch(/^Invalid Expiry Date/);
    const trial = values({ category: 'FreeTrial', subscriptionType: 'trial', cancelAt: '01/01/2020', trialDuration: '0' });
    expect(validateSubscriber(trial, ctx())).toEqual({ trialDuration: 'Enter a whole number of days from 1 to 100' });
    expect(validateSubscriber(trial, ctx({ trialShown: false }))).toEqual({});
  });

  it('keeps the reason to override the trial policy optional, at most 250 characters', () => {
    const trial = { category: 'FreeTrial', subscriptionType: 'trial' } as const;
    expect(validateSubscriber(values({ ...trial, policyOverrideReason: '' }), ctx())).toEqual({});
    expect(validateSubscriber(values({ ...trial, policyOverrideReason: 'x'.repeat(250) }), ctx())).toEqual({});
    expect(validateSubscriber(values({ ...trial, policyOverrideReason: 'x'.repeat(251) }), ctx())).toEqual({
      policyOverrideReason: 'Maximum 250 characters',
    });
  });

  it('asks a free channel for the user and the notes only', () => {
    expect(validateSubscriber(values({ category: null, subscriptionType: null }), ctx({ premium: false }))).toEqual({});
  });
});

describe('toPayload', () => {
  const payload = (v: Partial<SubscriberValues>, premium = true, trialShown = true, storedTrialDuration: number | null = null) =>
    toPayload(values(v), { premium, trialShown, storedTrialDuration });

  it('sends each field with the types it belongs to', () => {
    expect(payload({})).toEqual({
      subscriptionType: 'account',
      rebate: false,
      accountNumber: 'ACC-1',
      billingMethod: null,
      pricePerMonth: '40.00',
      cancelAt: '2030-12-31T00:00:00.000Z',
      trialDuration: null,
      policyOverrideReason: null,
      notes: 'Sales deal',
      addedByAdmin: true,
    });
    expect(payload({ subscriptionType: 'rebated', category: 'Free' })).toMatchObject({
      subscriptionType: 'account',
      rebate: true,
      accountNumber: 'ACC-1',
      pricePerMonth: null,
    });
    expect(payload({ subscriptionType: 'external', pricePerMonth: '' })).toMatchObject({
      billingMethod: 'Invoice',
      accountNumber: null,
      pricePerMonth: null,
    });
    expect(payload({ subscriptionType: 'trial', category: 'FreeTrial' })).toMatchObject({ trialDuration: 14, cancelAt: null });
    expect(payload({ subscriptionType: 'trial', category: 'FreeTrial' }, true, false, 30)).toMatchObject({ trialDuration: 30 });
  });

  it('sends the reason to override the trial policy with a trial only, trimmed, and none when it is blank', () => {
    const trial = { subscriptionType: 'trial', category: 'FreeTrial' } as const;
    expect(payload({ ...trial, policyOverrideReason: '  Board approved a longer pilot ' })).toMatchObject({
      policyOverrideReason: 'Board approved a longer pilot',
    });
    expect(payload({ ...trial, policyOverrideReason: '   ' })).toMatchObject({ policyOverrideReason: null });
    expect(payload({ policyOverrideReason: 'Left over from a trial' })).toMatchObject({ policyOverrideReason: null });
    expect(payload({ policyOverrideReason: 'Left over from a trial' }, false)).toMatchObject({ policyOverrideReason: null });
  });

  it('sends a free subscription with the notes for a free channel', () => {
    expect(payload({ notes: '  ' }, false)).toEqual({
      subscriptionType: 'free',
      rebate: false,
      accountNumber: null,
      billingMethod: null,
      pricePerMonth: null,
      cancelAt: null,
      trialDuration: null,
      policyOverrideReason: null,
      notes: null,
      addedByAdmin: true,
    });
  });
});
