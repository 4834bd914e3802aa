//! Stripe's Payment Element for a client secret (spec 3 §4 'Checkout' card payment, §2
//! 'Subscriptions' card update): Stripe.js is loaded from the configured address (lib/stripe.ts),
//! the element mounts inside `<Elements options={{ clientSecret }}>`, and the screen gets the
//! `stripe` and `elements` it confirms with once the element is ready (spec 3 §5: the card update
//! needs the payment element loaded).
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { useEffect, useMemo, useState } from 'react';
import { Banner } from '../../../components/Banner';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { useConfig } from '../../../lib/config';
import { loadStripeJs } from '../../../lib/stripe';

export interface StripeHandles {
  stripe: Stripe;
  elements: StripeElements;
}

/** Stripe.js with the server's settings; null while it loads or when card payments are off. */
export function useStripeJs(): { stripe: Promise<Stripe> | null; error: string | null } {
  const config = useConfig();
  const settings = config.stripe;
  const [error, setError] = useState<string | null>(null);
  const stripe = useMemo(
    () => (settings ? loadStripeJs({ publishableKey: settings.publishableKey, jsUrl: settings.jsUrl }) : null),
    [settings],
  );
  useEffect(() => {
    let live = true;
    stripe?.catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [stripe]);
  return { stripe, error: settings ? error : 'Card payments are not available.' };
}

export interface PaymentElementPanelProps {
  clientSecret: string;
  /** The handles once the element is ready; null when it goes. */
  onReady: (handles: StripeHandles | null) => void;
}

/** The Payment Element for `clientSecret`; tells the screen when it can be confirmed. */
export function PaymentElementPanel({ clientSecret, onReady }: PaymentElementPanelProps) {
  const { stripe, error } = useStripeJs();
  const options = useMemo(() => ({ clientSecret }), [clientSecret]);
  if (error)
    return (
      <Banner intent="danger" role="alert">
        {error}
      </Banner>
    );
  if (!stripe) return null;
  return (
    <Elements stripe={stripe} options={options} key={clientSecret}>
      <ElementWithHandles onReady={onReady} />
    </Elements>
  );
}

function ElementWithHandles({ onReady }: { onReady: PaymentElementPanelProps['onReady'] }) {
  const stripe = useStripe();
  const elements = useElements();
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    onReady(mounted && stripe && elements ? { stripe, elements } : null);
  }, [mounted, stripe, elements, onReady]);
  useEffect(() => () => onReady(null), [onReady]);
  return (
    <div className="insights-payment-element">
      {!mounted && <LoadingBlock label="Loading the card form" />}
      <PaymentElement onReady={() => setMounted(true)} />
    </div>
  );
}
