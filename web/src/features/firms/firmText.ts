//! Paths, words and small rules the firm screens share (issue 39 'client firms'): the staff list,
//! form and page, the firm subscription form, and a firm administrator's 'My firm'.
import type { FirmBillingMethod } from './__generated__/FirmForm.generated';
import type { FirmJoinedBy } from './__generated__/FirmReaders.generated';
import type { SubscriptionState } from './__generated__/FirmSubscriptions.generated';

export const FIRMS_PATH = '/publisher/firms';
export const ADD_FIRM_PATH = `${FIRMS_PATH}/add`;
/** The reader page of a firm's administrators. */
export const MY_FIRM_PATH = '/my-firm';

/** The firm page's tabs, kept in its address (`?tab=`) so that a form returns to the tab it left. */
export type FirmTab = 'readers' | 'subscriptions' | 'usage';

export function firmPath(id: string, tab?: FirmTab): string {
  return `${FIRMS_PATH}/${id}${tab && tab !== 'readers' ? `?tab=${tab}` : ''}`;
}

export function editFirmPath(id: string): string {
  return `${FIRMS_PATH}/edit/${id}`;
}

export function addFirmSubscriptionPath(firmId: string): string {
  return `${FIRMS_PATH}/${firmId}/subscriptions/add`;
}

export function editFirmSubscriptionPath(firmId: string, channelId: string): string {
  return `${FIRMS_PATH}/${firmId}/subscriptions/edit/${channelId}`;
}

/**
 * A firm's reading as CSV (`GET /export/firms/{id}/readership.csv`). Without `from`/`to` it covers
 * the last twelve months, the same period as `firmReadership` shows.
 */
export function firmReadershipCsvPath(firmId: string): string {
  return `/export/firms/${encodeURIComponent(firmId)}/readership.csv`;
}

export const BILLING_METHOD_LABELS: Record<FirmBillingMethod, string> = {
  account: 'Clearing account',
  invoice: 'Invoice',
  card: 'Card',
};

export const BILLING_METHOD_OPTIONS = (Object.keys(BILLING_METHOD_LABELS) as FirmBillingMethod[]).map((value) => ({
  value,
  label: BILLING_METHOD_LABELS[value],
}));

export const JOINED_BY_LABELS: Record<FirmJoinedBy, string> = {
  domain: 'Email domain',
  staff: 'Added by staff',
  invitation: 'Invitation',
};

export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionState, string> = {
  active: 'Active',
  canceled: 'Ended',
  rejected: 'Rejected',
  expired: 'Expired',
  pending: 'Pending',
  paymentFailed: 'Payment failed',
};

/** The state of a firm subscription in words: an active one whose start is still to come is 'Starts later'. */
export function subscriptionStateText(sub: { subscriptionState: SubscriptionState; isActive: boolean; isLive: boolean }): string {
  if (sub.subscriptionState === 'active' && !sub.isActive && sub.isLive) return 'Starts later';
  return SUBSCRIPTION_STATE_LABELS[sub.subscriptionState];
}

/** '12 / 20', or '12 / unlimited' when there is no limit (null). */
export function seatsText(used: number, seats: number | null | undefined): string {
  return `${used} / ${seats ?? 'unlimited'}`;
}

/** A firm's seats used / held: `seatsHeld` is null when one of its live subscriptions is unlimited. */
export function firmSeatsText(firm: { seatsUsed: number; seatsHeld?: number | null }): string {
  return seatsText(firm.seatsUsed, firm.seatsHeld);
}

/** '3 of 5 seats used', or '3 seats used (unlimited)'. */
export function seatsUsedText(used: number, seats: number | null | undefined): string {
  if (seats == null) return `${used} ${used === 1 ? 'seat' : 'seats'} used (unlimited)`;
  return `${used} of ${seats} seats used`;
}

/** The confirmation before saving domains that bring readers in. */
export function joiningText(count: number, firmName: string): string {
  return `${count} ${count === 1 ? 'reader' : 'readers'} at these domains will join ${firmName}.`;
}

/**
 * Domains as typed (commas, semicolons, spaces or new lines between them), each as the server keeps
 * it: trimmed, lower case, no leading '@' or trailing '.', once each, in order. The server
 * normalises and checks them again; this only decides which ones are new.
 */
export function splitDomains(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[,;\s]+/)) {
    const domain = part.trim().replace(/^@+/, '').replace(/\.+$/, '').toLowerCase();
    if (domain) seen.add(domain);
  }
  return [...seen];
}

/** The domains of `after` that `before` does not have. */
export function addedDomains(before: readonly string[], after: readonly string[]): string[] {
  const known = new Set(before.map((d) => d.toLowerCase()));
  return after.filter((d) => !known.has(d));
}

/** The names of the channels a member's seats give, from the firm's subscriptions. */
export function seatChannelNames(
  seatChannelIds: readonly string[],
  subscriptions: readonly { channelId: string; channelName: string }[],
): string[] {
  return seatChannelIds.map((id) => subscriptions.find((s) => s.channelId === id)?.channelName ?? id);
}

/** The form messages (the server answers the same ones per field). */
export const MESSAGES = {
  required: 'This field is required',
  choose: 'This field should be chosen',
  maxLength: (n: number) => `Maximum ${n} characters`,
  invalidPrice: 'Invalid price format',
  invalidStart: 'Invalid Start Date',
  invalidExpiry: 'Invalid Expiry Date',
  startPast: 'Date cannot be in the past',
  minDate: (day: string) => `Date should not be before ${day}`,
  seats: (max: number) => `Enter a whole number of seats from 1 to ${max}, or leave it empty for unlimited`,
  trialDays: (min: number, max: number) => `Enter a whole number of days from ${min} to ${max}`,
} as const;
