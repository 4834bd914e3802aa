//! Bringing a reader's card subscription in line with Stripe. Whatever says something changed (a
//! webhook event in any order, a reader back from the payment page), the subscription is read
//! again from Stripe under its row's lock and applied through the subscriptions' state machine:
//! an old event can never undo a newer state, and access is granted only when Stripe says the
//! subscription is paid for.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use stripe_shared::{Subscription as StripeSubscription, SubscriptionStatus};
use stripe_types::Expandable;

use super::{
    queries::{self, ReadSubscription},
    stripe::{StripeApi, StripeFailure, time},
};
use crate::{
    error::{Error, Result},
    jobs::JobQueue,
    subscriptions::{
        machine::{self, Card, CardState, CardStatus, Event, Refusal},
        service,
        store::{self, Actor, Change, Route},
    },
};

/// What a sync did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Synced {
    /// The reader's subscription changed (`action` as in the audit log).
    Changed(&'static str),
    /// It already was as Stripe says.
    Unchanged,
    /// A sync that began after the event arrived has applied Stripe's state since: nothing to read.
    AlreadyRead,
    /// Not a subscription a checkout here created.
    Unknown,
    /// The rules refused the change (e.g. an archived channel); logged, nothing written.
    Refused(String),
}

impl Synced {
    pub fn outcome(&self) -> String {
        match self {
            Synced::Changed(action) => format!("applied: {action}"),
            Synced::Unchanged => "applied: unchanged".to_owned(),
            Synced::AlreadyRead => "applied: already read since".to_owned(),
            Synced::Unknown => "ignored: unknown subscription".to_owned(),
            Synced::Refused(message) => format!("refused: {message}"),
        }
    }
}

pub const STRIPE_UNAVAILABLE: &str = "The card payment provider is not answering. Please try again in a few minutes.";

/// Stripe could not be asked (or refused a call it should not have): logged, and the caller answers
/// so that Stripe (or the reader) tries again.
pub fn unavailable(failure: StripeFailure) -> Error {
    tracing::error!(%failure, "Stripe call failed");
    Error::Unavailable(STRIPE_UNAVAILABLE)
}

/// Who made the change Stripe reports: Stripe itself (its webhooks, the reconcile), unless a
/// reader's own request here caused it.
pub fn stripe_actor() -> Actor {
    Actor { user_id: None, route: Route::Stripe }
}

/// Reads Stripe subscription `subscription_id` again and applies it, in the caller's transaction;
/// a change is audited as `actor`'s.
pub async fn subscription(
    conn: &mut PgConnection,
    stripe: &StripeApi,
    jobs: &dyn JobQueue,
    subscription_id: &str,
    actor: &Actor,
) -> Result<Synced> {
    read_and_apply(conn, stripe, jobs, subscription_id, actor, None).await
}

/// [`subscription`] for a webhook event that reached this server (by the database's clock) at
/// `received`. When a sync committed since whose read from Stripe began after that, the state it
/// applied already includes the event's change, so there is nothing to read: a payment's several
/// events, or a burst's, are applied with about one read of their subscription.
pub async fn subscription_for_event(
    conn: &mut PgConnection,
    stripe: &StripeApi,
    jobs: &dyn JobQueue,
    subscription_id: &str,
    received: DateTime<Utc>,
) -> Result<Synced> {
    read_and_apply(conn, stripe, jobs, subscription_id, &stripe_actor(), Some(received)).await
}

async fn read_and_apply(
    conn: &mut PgConnection,
    stripe: &StripeApi,
    jobs: &dyn JobQueue,
    subscription_id: &str,
    actor: &Actor,
    received: Option<DateTime<Utc>>,
) -> Result<Synced> {
    let mirror = queries::lock_mirrored_subscription(conn, subscription_id).await?;
    let Some(mirror) = mirror else { return Ok(Synced::Unknown) };
    if let (Some(received), Some(read_at)) = (received, mirror.read_at)
        && read_at > received
    {
        return Ok(Synced::AlreadyRead);
    }
    // Taken under the lock, before the read: a sync that comes later reads a state at least as new,
    // and an event received before this moment is covered by this read.
    let read_at = queries::clock_now(conn).await?;
    let subscription = stripe.subscription(subscription_id).await.map_err(unavailable)?;
    let card = card_state(&subscription, mirror.unit_amount_cents);
    let read = ReadSubscription {
        status: subscription.status.as_str(),
        current_period_end: card.period_end,
        cancel_at_period_end: subscription.cancel_at_period_end,
        latest_invoice_id: subscription.latest_invoice.as_ref().and_then(|invoice| invoice.id().as_ref()).map(|id| id.as_str().to_owned()),
        read_at,
    };
    queries::update_mirrored_subscription(conn, subscription_id, &read).await?;
    if let Some(Expandable::Object(invoice)) = &subscription.latest_invoice {
        super::invoices::store(conn, invoice, subscription_id, &mirror.user_id).await?;
    }

    let now = Utc::now();
    let channel = service::lock_channel(conn, &mirror.channel_id).await?;
    let before = store::lock_one(conn, &channel.id, &mirror.user_id).await?;
    match machine::transition(channel.facts(), before.as_ref(), &Event::CardSync(card), now) {
        Ok(transition) => {
            let action = transition.action;
            let change = Change { user_id: mirror.user_id.clone(), before, transition };
            store::write(conn, jobs, &channel.id, actor, &[change], now).await?;
            Ok(Synced::Changed(action))
        }
        Err(Refusal::Conflict(message)) if message == machine::NO_CHANGE => Ok(Synced::Unchanged),
        Err(refusal) => {
            let message = match refusal {
                Refusal::Conflict(message) => message,
                Refusal::NotOffered(message) => message.to_owned(),
            };
            tracing::warn!(subscription_id, channel_id = channel.id, message, "card subscription change refused");
            Ok(Synced::Refused(message))
        }
    }
}

/// A Stripe subscription in the rules' terms; `cents` is its monthly price.
pub fn card_state(subscription: &StripeSubscription, cents: i64) -> CardState {
    let status = match subscription.status {
        SubscriptionStatus::Active | SubscriptionStatus::Trialing => CardStatus::Active,
        SubscriptionStatus::PastDue | SubscriptionStatus::Unpaid => CardStatus::PaymentFailed,
        SubscriptionStatus::Canceled | SubscriptionStatus::Paused => CardStatus::Canceled,
        _ => CardStatus::Unpaid,
    };
    let period_end: Option<DateTime<Utc>> = subscription.items.data.iter().map(|item| time(item.current_period_end)).max();
    let (payment_method_type, payment_method_details) = match &subscription.default_payment_method {
        Some(Expandable::Object(method)) => payment_method_summary(method),
        _ => (None, None),
    };
    CardState {
        status,
        period_end,
        cancel_at_period_end: subscription.cancel_at_period_end,
        ended_at: subscription.ended_at.map(time),
        card: Card { subscription_id: subscription.id.as_str().to_owned(), payment_method_type, payment_method_details },
        price_per_month: Some(dollars(cents)),
    }
}

/// `("card", "Visa ending 4242")`.
pub fn payment_method_summary(method: &stripe_shared::PaymentMethod) -> (Option<String>, Option<String>) {
    let kind = method.type_.as_str().to_owned();
    let details = method.card.as_ref().map(|card| {
        let brand = card.display_brand.as_deref().unwrap_or(&card.brand).replace('_', " ");
        let mut letters = brand.chars();
        let brand = letters.next().map(|first| first.to_uppercase().chain(letters).collect::<String>()).unwrap_or_default();
        format!("{brand} ending {}", card.last4)
    });
    (Some(kind), details)
}

/// 4950 → "49.50".
pub fn dollars(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Card subscriptions whose state at Stripe may have moved without an event reaching this server
/// (a webhook misconfigured or down): unpaid checkouts of the last two days, and paid ones whose
/// period has ended. Each is read again and applied, so no reader who paid is left without
/// access. Run by the expiry sweep's schedule; returns how many changed.
pub async fn reconcile(state: &crate::AppState, now: DateTime<Utc>) -> Result<u64> {
    let Some(stripe) = state.stripe.as_deref() else { return Ok(0) };
    let due = queries::subscriptions_to_reconcile(&state.pool, now).await?;
    let mut changed = 0;
    for subscription_id in due {
        let mut tx = state.pool.begin().await?;
        let synced = subscription(&mut tx, stripe, state.jobs.as_ref(), &subscription_id, &stripe_actor()).await;
        match synced {
            Ok(synced) => {
                tx.commit().await?;
                if let Synced::Changed(action) = synced {
                    tracing::info!(subscription_id, action, "card subscription reconciled with Stripe");
                    changed += 1;
                }
            }
            // One unreachable read does not stop the others; the next run tries again.
            Err(error) => tracing::warn!(subscription_id, error = ?error, "card subscription not reconciled"),
        }
    }
    Ok(changed)
}
