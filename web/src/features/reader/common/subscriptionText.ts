//! The reader's subscription messages (spec 3 §8), shared by the channel cards, the channel page,
//! the subscribe pages and the Subscriptions page.

export const PAYMENT_FAILED_TEXT =
  'There was an issue processing your payment for this channel. Please update your payment details to avoid cancellation.';

/** After joining a free open channel (spec 3 §8 success messages). */
export const subscribedText = (name: string) =>
  `You are now subscribed to ${name}. Change your subscriptions and email preferences at any time.`;

export const accessRequestedText = (name: string) =>
  `Your request to access ${name} has been sent. You will get an email once it has been reviewed.`;

/** A subscription a firm's seat gives the reader (issue 39): on the channel cards and the Subscriptions page. */
export const providedByText = (firmName: string) => `Provided by ${firmName}`;
