//! Stripe.js for card payments (spec 3 §4 'Checkout', §7): loaded only when a reader pays or
//! updates a card, from the server's configured address (`config.stripe.jsUrl`: Stripe's own in
//! production, the test double's in the browser tests and `make run`) by a script tag; then
//! `loadStripe(publishableKey)` of @stripe/stripe-js, which finds `window.Stripe` already there.
//! The `pure` entry point is used: the default one injects js.stripe.com by itself on import.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

export interface StripeSettings {
  publishableKey: string;
  jsUrl: string;
}

const scripts = new Map<string, Promise<void>>();
const instances = new Map<string, Promise<Stripe>>();

/** Adds the script tag once per address; resolves when `window.Stripe` is there. */
function loadScript(url: string): Promise<void> {
  const known = scripts.get(url);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    if ((window as { Stripe?: unknown }).Stripe) {
      resolve();
      return;
    }
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => reject(new Error('The card payment form could not be loaded. Please try again later.')));
    document.head.appendChild(script);
  });
  // A failed load may be tried again (a flaky network).
  loading.catch(() => scripts.delete(url));
  scripts.set(url, loading);
  return loading;
}

/** The Stripe object for these settings (one per key and address). */
export function loadStripeJs({ publishableKey, jsUrl }: StripeSettings): Promise<Stripe> {
  const key = `${jsUrl} ${publishableKey}`;
  const known = instances.get(key);
  if (known) return known;
  const loading = loadScript(jsUrl)
    .then(() => loadStripe(publishableKey))
    .then((stripe) => {
      if (!stripe) throw new Error('The card payment form could not be loaded. Please try again later.');
      return stripe;
    });
  loading.catch(() => instances.delete(key));
  instances.set(key, loading);
  return loading;
}

/** What the checkout says after `confirmPayment` (spec 3 §8 'Payment results'). */
export type PaymentOutcome =
  { kind: 'succeeded'; message: string } | { kind: 'processing'; message: string } | { kind: 'failed'; message: string };

export const PAYMENT_MESSAGES = {
  succeeded: "Congratulations! You're now subscribed...",
  processing: 'Your payment is processing. We will email you once it has gone through.',
  requiresPaymentMethod: 'Payment failed. Please try another payment method.',
  other: 'Something went wrong.',
} as const;

/** The outcome of a payment intent's status (spec 3 §4: succeeded, processing, requires_payment_method, other). */
export function paymentOutcome(status: string | undefined): PaymentOutcome {
  switch (status) {
    case 'succeeded':
      return { kind: 'succeeded', message: PAYMENT_MESSAGES.succeeded };
    case 'processing':
      return { kind: 'processing', message: PAYMENT_MESSAGES.processing };
    case 'requires_payment_method':
      return { kind: 'failed', message: PAYMENT_MESSAGES.requiresPaymentMethod };
    default:
      return { kind: 'failed', message: PAYMENT_MESSAGES.other };
  }
}
