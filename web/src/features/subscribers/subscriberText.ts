//! Paths, words and formats the subscriber screens share (spec 3 §2, §3, §8, §9).

export const CHANNELS_PATH = '/publisher/premium-channels';
export const STATS_PATH = `${CHANNELS_PATH}/subscriber-stats`;

/** A channel's subscriber stats: where every save, delete and bulk confirmation returns. */
export function statsPath(channelId: string): string {
  return `${STATS_PATH}/${channelId}`;
}

export function addSubscriberPath(channelId: string): string {
  return `${CHANNELS_PATH}/subscribers/${channelId}/add`;
}

export function addBulkPath(channelId: string): string {
  return `${CHANNELS_PATH}/subscribers/${channelId}/add-bulk`;
}

/** The edit screen: the identity provider's subject may hold characters a path must escape. */
export function editSubscriberPath(channelId: string, insightsUserId: string): string {
  return `${CHANNELS_PATH}/subscribers/${channelId}/edit/${encodeURIComponent(insightsUserId)}`;
}

/** A client firm's staff page (features/firms), linked from a channel's firms. */
export function firmPagePath(firmId: string): string {
  return `/publisher/firms/${firmId}`;
}

/** Contract `SubscriptionState`. */
export type SubscriptionState = 'active' | 'canceled' | 'rejected' | 'expired' | 'pending' | 'paymentFailed';

/** Contract `SubscriptionType`. */
export type SubscriptionType = 'stripe' | 'account' | 'external' | 'nonCharge' | 'trial' | 'free';

export const STATE_LABELS: Record<SubscriptionState, string> = {
  active: 'Active',
  canceled: 'Canceled',
  rejected: 'Rejected',
  expired: 'Expired',
  pending: 'Pending',
  paymentFailed: 'Payment failed',
};

/** Type names where the server's `status.typeLabel` is not at hand (the bulk check, the history). */
export const TYPE_LABELS: Record<SubscriptionType, string> = {
  stripe: 'Card',
  account: 'Clearing account',
  external: 'Billed externally',
  nonCharge: 'Non-charge',
  trial: 'Trial',
  free: 'Free',
};

/** 'N view(s)', as the spec words article views. */
export function viewsText(count: number): string {
  return `${count} view(s)`;
}

export const MESSAGES = {
  required: 'This field is required',
  choose: 'This field should be chosen',
  invalidPrice: 'Invalid price format',
  invalidExpiry: 'Invalid Expiry Date',
  minDate: (day: string) => `Date should not be before ${day}`,
  maxLength: (n: number) => `Maximum ${n} characters`,
  trialDays: (min: number, max: number) => `Enter a whole number of days from ${min} to ${max}`,
  fileFormat: 'File format not supported',
  uploadComplete: 'Upload complete',
} as const;

/** The trial policy override (the subscriber form and the bulk review, for trials). */
export const OVERRIDE_LABEL = 'Reason to override the trial policy';
export const OVERRIDE_HELP = 'Only for a trial longer than the policy allows or within its cool-off; kept in the audit trail.';
