//! Words and paths shared by the reader's channel screens (spec 3 §2 routes, §9 prices).
import { formatPrice } from '../../../lib/price';
import { uploadedImageUrl } from '../../../lib/upload';

export type ChannelKind = 'premium' | 'freeOpen' | 'freeClosed';

export const channelPath = (id: string) => `/browse/channel/${id}`;
export const articlePath = (id: string) => `/browse/article/${id}`;
export const tagPath = (id: string) => `/tag/${id}`;
export const subscribePath = (id: string) => `/subscribe/channel/${id}`;
export const confirmTrialPath = (id: string) => `/subscribe/channel/confirm-trial/${id}`;
export const confirmInterestPath = (id: string) => `/subscribe/channel/confirm-interest/${id}`;
/** The checkout (card, clearing account or invoice). */
export const checkoutPath = (id: string) => `/subscribe/channel/confirm/${id}`;
/** The subscription result page: 'subscribed', 'paying-invoice-requested', anything else reads as unsubscribed. */
export const subscriptionResultPath = (id: string, status: string) => `/browse/channel/${id}/${status}`;
export const CHANNELS_PATH = '/channels';
export const SUBSCRIPTIONS_PATH = '/subscriptions';
export const EMAIL_NOTIFICATIONS_PATH = '/email-notifications';

export function publisherPath(publisher: { _id: string; type: 'desk' | 'contributor' }): string {
  return publisher.type === 'desk' ? `/desk/${publisher._id}` : `/contributor/${publisher._id}`;
}

export function channelTypeLabel(type: ChannelKind): string {
  return type === 'premium' ? 'Premium' : 'Free';
}

/** '$49.00' for "49.00" (prices are dollars per month excluding sales tax), every digit kept; '' without a price. */
export function dollars(price: string | null | undefined): string {
  return formatPrice(price);
}

/** '$49.00 per month excluding tax'; '' without a price. */
export function priceText(price: string | null | undefined): string {
  const amount = dollars(price);
  return amount ? `${amount} per month excluding tax` : '';
}

/** An uploaded image's address, or null without one. */
export function imageUrl(fileName: string | null | undefined): string | null {
  return fileName ? uploadedImageUrl(fileName) : null;
}

/** The 24-hex ObjectId format of every id (spec 3 §5: other ids show the not-found screens). */
export function isObjectId(id: string | undefined): id is string {
  return !!id && /^[0-9a-f]{24}$/i.test(id);
}
