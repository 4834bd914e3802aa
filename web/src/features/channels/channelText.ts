//! Words, formats and rules the channel screens share (spec 3 §3, §5, §8, §9).

/** Contract `ChannelType`. */
export type ChannelType = 'premium' | 'freeOpen' | 'freeClosed';

export const CHANNELS_PATH = '/publisher/premium-channels';
export const DESKS_PATH = '/publisher/desks';

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  premium: 'Premium',
  freeOpen: 'Free open',
  freeClosed: 'Free closed',
};

export function channelTypeLabel(type: ChannelType): string {
  return CHANNEL_TYPE_LABELS[type];
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** '$49.00' for "49.00"; blank for a free channel (no price). */
export function formatPrice(price: string | null | undefined): string {
  if (price == null || price.trim() === '') return '';
  const amount = Number(price);
  return Number.isFinite(amount) ? USD.format(amount) : price;
}

/** Spec 1 §5 price rule: up to 18 digits, at most 2 decimals, no sign. */
export const PRICE_PATTERN = /^\d{1,18}(\.\d{1,2})?$/;

/**
 * A valid price with exactly 2 decimals ('49' → '49.00', '049.5' → '49.50'), done on the text so
 * long prices keep every digit; anything else is returned as typed.
 */
export function normalisePrice(text: string): string {
  const value = text.trim();
  if (!PRICE_PATTERN.test(value)) return text;
  const [whole, decimals = ''] = value.split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${decimals.padEnd(2, '0')}`;
}

export const MESSAGES = {
  required: 'This field is required',
  choose: 'This field should be chosen',
  invalidPrice: 'Invalid price format',
  glAccountTooLong: 'Maximum 32 chars',
  fileFormat: 'File format not supported',
  fileSize: 'The file is too large: the maximum size is 2 MB',
  wholeNumber: 'Enter a whole number of days',
  created: (name: string) => `The Premium Channel ${name} has been created`,
  updated: (name: string) => `The Premium Channel ${name} has been updated`,
  archived: (name: string) => `The Premium Channel ${name} has been archived`,
} as const;
