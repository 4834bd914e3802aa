//! Words and paths shared by the reader's channel screens (spec 3 §2 routes, §9 prices).
import { uploadedImageUrl } from '../../../lib/upload';

export type ChannelKind = 'premium' | 'freeOpen' | 'freeClosed';

export const channelPath = (id: string) => `/browse/channel/${id}`;
export const articlePath = (id: string) => `/browse/article/${id}`;
export const tagPath = (id: string) => `/tag/${id}`;
export const subscribePath = (id: string) => `/subscribe/channel/${id}`;
export const confirmTrialPath = (id: string) => `/subscribe/channel/confirm-trial/${id}`;
export const CHANNELS_PATH = '/channels';
export const SUBSCRIPTIONS_PATH = '/subscriptions';

export function publisherPath(publisher: { _id: string; type: 'desk' | 'contributor' }): string {
  return publisher.type === 'desk' ? `/desk/${publisher._id}` : `/contributor/${publisher._id}`;
}

export function channelTypeLabel(type: ChannelKind): string {
  return type === 'premium' ? 'Premium' : 'Free';
}

/** '$49.00 per month excluding tax' (prices are dollars per month excluding sales tax); '' without a price. */
export function priceText(price: string | null | undefined): string {
  if (!price) return '';
  const amount = Number(price);
  const shown = Number.isFinite(amount) ? amount.toFixed(2) : price;
  return `$${shown} per month excluding tax`;
}

/** An uploaded image's address, or null without one. */
export function imageUrl(fileName: string | null | undefined): string | null {
  return fileName ? uploadedImageUrl(fileName) : null;
}

/** The 24-hex ObjectId format of every id (spec 3 §5: other ids show the not-found screens). */
export function isObjectId(id: string | undefined): id is string {
  return !!id && /^[0-9a-f]{24}$/i.test(id);
}
