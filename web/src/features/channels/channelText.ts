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

// The price rules are shared with the subscriber form (lib/price.ts).
export { formatPrice, normalisePrice, PRICE_PATTERN } from '../../lib/price';

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
