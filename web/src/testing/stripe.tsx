//! A stand-in for Stripe in unit tests (the browser tests use the Stripe double's fake Stripe.js):
//!
//!   vi.mock('@stripe/react-stripe-js', () => import('../../testing/stripe'));
//!   beforeEach(() => installStripe());
//!
//! `window.Stripe` answers lib/stripe.ts's load with `stripeMock`; `<Elements>` renders its
//! children, `<PaymentElement>` is a labelled box that reports ready at once, and `useStripe`
//! gives `stripeMock`, whose `confirmPayment` and `confirmSetup` each test sets.
import { useEffect, type ReactNode } from 'react';
import { vi } from 'vitest';

export const stripeMock = {
  confirmPayment: vi.fn(),
  confirmSetup: vi.fn(),
  elements: vi.fn(() => elementsMock),
};
export const elementsMock = { submit: vi.fn() };

/** The last `options` given to `<Elements>` (the client secret). */
export const lastElements: { options: unknown } = { options: null };

export function installStripe(): void {
  stripeMock.confirmPayment.mockReset();
  stripeMock.confirmSetup.mockReset();
  lastElements.options = null;
  (window as unknown as { Stripe: unknown }).Stripe = Object.assign(() => stripeMock, { version: 'endive' });
}

export function Elements({ children, options }: { children: ReactNode; options?: unknown }) {
  lastElements.options = options;
  return <>{children}</>;
}

export function PaymentElement({ onReady }: { onReady?: () => void }) {
  useEffect(() => {
    onReady?.();
  }, [onReady]);
  return <div role="group" aria-label="Card payment form" />;
}

export const useStripe = () => stripeMock;
export const useElements = () => elementsMock;
