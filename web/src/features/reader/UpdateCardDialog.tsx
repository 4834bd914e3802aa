//! 'Update card' on the Subscriptions page (spec 3 §2 'Subscriptions', §7, §9): a setup intent for
//! the reader's card subscription (`createPaymentSetupIntent`), Stripe's Payment Element in a
//! dialog 500 px wide, then `confirmSetup` with the billing address the subscription was made with
//! and a return to /subscriptions (when the card asks for a redirect). Stripe tells the server
//! (setup_intent.succeeded): the card becomes the subscription's and its open invoice is paid, so
//! the list is read again until it shows a card other than the one it showed (`CardUpdate`, kept
//! in the session's storage over a redirect to the bank).
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { LoadingBlock } from '../../components/LoadingScreen';
import { formatError } from '../../lib/errors';
import { PAYMENT_MESSAGES } from '../../lib/stripe';
import { SUBSCRIPTIONS_PATH } from './common/channelText';
import { PaymentElementPanel, type StripeHandles } from './subscribe/StripePayment';
import { CreatePaymentSetupIntentDocument, type CreatePaymentSetupIntentMutation } from './__generated__/UpdateCardDialog.generated';

/** Spec 3 §9: the payment dialog is 500 px wide. */
export const PAYMENT_DIALOG_WIDTH = 500;
export const CARD_UPDATED_TEXT = 'Your card has been updated. Any payment due is being taken with it.';

type Setup = CreatePaymentSetupIntentMutation['createPaymentSetupIntent'];

/** A card update under way: the subscription and the card the page showed for it before. */
export interface CardUpdate {
  subscriptionId: string;
  card: string | null;
}

const CARD_UPDATE_KEY = 'insights.cardUpdate';

/** Notes the update before `confirmSetup`, which may leave the page for the bank's check. */
function rememberCardUpdate(update: CardUpdate): void {
  try {
    window.sessionStorage.setItem(CARD_UPDATE_KEY, JSON.stringify(update));
  } catch {
    // Storage refused (private mode, quota): the page then polls for the usual 2 seconds only.
  }
}

/** The update noted before a redirect to the bank, once (null when there is none). */
export function takeCardUpdate(): CardUpdate | null {
  try {
    const saved = window.sessionStorage.getItem(CARD_UPDATE_KEY);
    window.sessionStorage.removeItem(CARD_UPDATE_KEY);
    const update = saved ? (JSON.parse(saved) as Partial<CardUpdate>) : null;
    return typeof update?.subscriptionId === 'string' ? { subscriptionId: update.subscriptionId, card: update.card ?? null } : null;
  } catch {
    return null;
  }
}

export interface UpdateCardDialogProps {
  isOpen: boolean;
  channelName: string;
  subscriptionId: string;
  /** The card the page shows now ('Visa ending 4242'), which the new one replaces. */
  card: string | null;
  onClose: () => void;
  /** After the card was saved with Stripe; the page shows the new card once the webhook came. */
  onUpdated: (update: CardUpdate) => void;
}

export function UpdateCardDialog({ isOpen, channelName, subscriptionId, card, onClose, onUpdated }: UpdateCardDialogProps) {
  const [createSetup] = useMutation(CreatePaymentSetupIntentDocument);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [handles, setHandles] = useState<StripeHandles | null>(null);
  const [saving, setSaving] = useState(false);
  const running = useRef(false);

  useEffect(() => {
    if (!isOpen) return;
    let live = true;
    setSetup(null);
    setError(null);
    createSetup({ variables: { subscriptionId } })
      .then((result) => live && setSetup(result.data!.createPaymentSetupIntent))
      .catch((e: unknown) => live && setError(formatError(e)));
    return () => {
      live = false;
    };
  }, [isOpen, subscriptionId, createSetup]);

  const save = async () => {
    if (!handles || !setup || running.current) return;
    running.current = true;
    setSaving(true);
    setError(null);
    try {
      const address = setup.billingAddress;
      const update = { subscriptionId, card };
      rememberCardUpdate(update);
      const returnUrl = new URL(`${import.meta.env.BASE_URL}${SUBSCRIPTIONS_PATH.slice(1)}`, window.location.origin);
      const result = await handles.stripe.confirmSetup({
        elements: handles.elements,
        redirect: 'if_required',
        confirmParams: {
          return_url: returnUrl.toString(),
          payment_method_data: {
            billing_details: {
              name: setup.metadata.businessName,
              address: {
                line1: address.line1,
                line2: address.line2 ?? '',
                city: address.city,
                state: address.state ?? '',
                postal_code: address.postalCode,
                country: address.country,
              },
            },
          },
        },
      });
      // No redirect happened: the note is not needed.
      takeCardUpdate();
      if (result.error) setError(result.error.message ?? PAYMENT_MESSAGES.other);
      else if (result.setupIntent.status === 'succeeded' || result.setupIntent.status === 'processing') onUpdated(update);
      else setError(PAYMENT_MESSAGES.requiresPaymentMethod);
    } catch (e) {
      takeCardUpdate();
      setError(formatError(e));
    } finally {
      running.current = false;
      setSaving(false);
    }
  };

  return (
    <Dialog
      isOpen={isOpen}
      title={`Update the card for ${channelName}`}
      width={PAYMENT_DIALOG_WIDTH}
      onClose={() => !saving && onClose()}
      footer={
        <>
          <Button text="Cancel" disabled={saving} onClick={onClose} />
          <Button text="Save card" intent="primary" loading={saving} disabled={!handles || saving} onClick={() => void save()} />
        </>
      }
    >
      {error && (
        <Banner intent="danger" role="alert">
          {error}
        </Banner>
      )}
      {setup ? (
        <PaymentElementPanel clientSecret={setup.clientSecret} onReady={setHandles} />
      ) : (
        !error && <LoadingBlock label="Preparing the card form" />
      )}
    </Dialog>
  );
}

export const CREATE_PAYMENT_SETUP_INTENT_MUTATION = gql`
  mutation CreatePaymentSetupIntent($subscriptionId: String!) {
    createPaymentSetupIntent(subscriptionId: $subscriptionId) {
      clientSecret
      billingAddress {
        city
        country
        line1
        line2
        postalCode
        state
      }
      metadata {
        businessName
        taxId
      }
    }
  }
`;
