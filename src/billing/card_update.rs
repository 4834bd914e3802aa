//! A new card for a card subscription (spec 3 §7 `createPaymentSetupIntent`): the reader confirms
//! a setup intent in the Payment Element; when Stripe says it succeeded (its webhook), the card
//! becomes the subscription's default and an unpaid invoice is charged to it at once.

use std::collections::HashMap;

use sqlx::PgConnection;
use stripe_shared::InvoiceStatus;
use stripe_types::Expandable;

use super::{
    queries,
    stripe::StripeApi,
    sync::{self, Synced, unavailable},
};
use crate::{
    error::{Error, Result},
    jobs::JobQueue,
};

pub const NOT_RUNNING: &str = "This subscription is not running: there is no card to update.";

/// What the card update form needs: the setup intent's client secret and the billing details
/// the checkout collected.
#[derive(Debug, Clone)]
pub struct PaymentSetup {
    pub client_secret: String,
    pub billing_address: super::stripe::BillingAddress,
    pub business_name: String,
    pub tax_id: Option<String>,
}

/// Starts a card update for the reader's own card subscription `subscription_id`.
pub async fn create_setup_intent(pool: &sqlx::PgPool, stripe: &StripeApi, user_id: &str, subscription_id: &str) -> Result<PaymentSetup> {
    let owned = queries::subscription_customer(pool, user_id, subscription_id).await?;
    // Someone else's subscription is as unknown as a made-up one.
    let customer = owned.ok_or(Error::NotFound("Subscription"))?;
    // Only the card of a subscription that is running now (an unpaid checkout or an ended one has none to replace).
    let subscription = crate::subscriptions::queries::of_channel_user(pool, &customer.channel_id, user_id).await?.map(|row| row.machine());
    let runs_on_this_card = subscription.is_some_and(|s| {
        s.card.as_ref().is_some_and(|card| card.subscription_id == subscription_id) && s.card_updatable(chrono::Utc::now())
    });
    if !runs_on_this_card {
        return Err(Error::Conflict(NOT_RUNNING.into()));
    }
    let metadata =
        HashMap::from([("subscription_id".to_owned(), subscription_id.to_owned()), ("insights_user_id".to_owned(), user_id.to_owned())]);
    let intent = stripe.create_setup_intent(&customer.stripe_customer_id, metadata).await.map_err(unavailable)?;
    let client_secret =
        intent.client_secret.ok_or_else(|| Error::Internal(anyhow::anyhow!("Stripe returned a setup intent without a client secret")))?;
    Ok(PaymentSetup {
        client_secret,
        billing_address: super::stripe::BillingAddress {
            line1: customer.address_line1,
            line2: customer.address_line2,
            city: customer.address_city,
            state: customer.address_state,
            postcode: customer.address_postcode,
            country: customer.address_country_code,
        },
        business_name: customer.business_name,
        tax_id: customer.tax_id,
    })
}

/// Makes `payment_method` the subscription's card and charges its open invoice, if any, then
/// applies what Stripe says (in the caller's transaction).
pub async fn use_new_card(
    conn: &mut PgConnection,
    stripe: &StripeApi,
    jobs: &dyn JobQueue,
    subscription_id: &str,
    payment_method: &str,
) -> Result<Synced> {
    if !queries::lock_stripe_subscription(conn, subscription_id).await? {
        return Ok(Synced::Unknown);
    }
    let subscription = stripe.set_default_payment_method(subscription_id, payment_method).await.map_err(unavailable)?;
    if let Some(invoice) = &subscription.latest_invoice
        && let Some(invoice_id) = invoice.id().as_ref().map(|id| id.as_str().to_owned())
    {
        let open = match invoice {
            Expandable::Object(invoice) => invoice.status == Some(InvoiceStatus::Open),
            Expandable::Id(_) => stripe.invoice(&invoice_id).await.map_err(unavailable)?.status == Some(InvoiceStatus::Open),
        };
        if open && let Err(failure) = stripe.pay_invoice(&invoice_id, payment_method).await {
            // A declined new card leaves the subscription as it was; the reader still sees the alert.
            tracing::warn!(subscription_id, invoice_id, %failure, "the new card did not pay the open invoice");
        }
    }
    sync::subscription(conn, stripe, jobs, subscription_id, &sync::stripe_actor()).await
}
