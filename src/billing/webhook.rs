//! `POST /webhooks/stripe`: Stripe's events. The endpoint checks the signature (a bad or stale one
//! is a 400 and nothing changes), records the event by its id and answers at once; a job applies
//! it (Stripe's advice: a burst, such as every renewal on the 1st, must not wait on the work).
//! Recording is idempotent, so a duplicate delivery, even ten at once, or a replay days later is a
//! no-op; applying claims each event once and reads the subscription again from Stripe (`sync`),
//! so events may arrive and be applied in any order. Events about customers or objects this portal
//! does not know, and types it does not handle, are recorded as ignored and logged.

use axum::{
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use stripe_webhook::Webhook;

use super::{
    queries::{self, EventHeader},
    stripe::{StripeApi, time},
    sync::{self, Synced},
};
use crate::{
    AppState,
    error::Result,
    jobs::{JobQueue, JobRequest},
};

/// How soon after an event arrives its job runs (the queue's poll adds up to a second).
const APPLY_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

pub async fn handle(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let (Some(_), Some(secret)) = (state.stripe.as_deref(), state.config.stripe.webhook_secret.as_ref()) else {
        return (StatusCode::NOT_FOUND, "Card payments are not configured").into_response();
    };
    let Ok(payload) = std::str::from_utf8(&body) else {
        return (StatusCode::BAD_REQUEST, "The event is not UTF-8").into_response();
    };
    let signature = headers.get("stripe-signature").and_then(|value| value.to_str().ok()).unwrap_or_default();
    // Checks the signature, its age (300 s) and that the event parses into async-stripe's types.
    let event = match Webhook::construct_event(payload, signature, secret.expose()) {
        Ok(event) => event,
        Err(error) => {
            tracing::warn!(%error, "Stripe webhook refused");
            return (StatusCode::BAD_REQUEST, "Invalid or stale signature").into_response();
        }
    };
    let Ok(raw) = serde_json::from_str::<Value>(payload) else {
        return (StatusCode::BAD_REQUEST, "The event is not JSON").into_response();
    };
    let received = Received {
        id: event.id.as_str().to_owned(),
        type_: event.type_.as_str().to_owned(),
        created: time(event.created),
        object: raw.pointer("/data/object").cloned().unwrap_or(Value::Null),
    };
    match record(&state, &received).await {
        Ok(outcome) => {
            state.metrics.stripe_event_received(&received.type_, &outcome);
            tracing::info!(event = received.id, r#type = received.type_, outcome, "Stripe event");
            StatusCode::OK.into_response()
        }
        // Not recorded: Stripe delivers it again later.
        Err(error) => {
            tracing::error!(event = received.id, r#type = received.type_, error = ?error, "Stripe event not recorded; Stripe will retry");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// A verified event: its id, type, time and object.
#[derive(Debug, Clone)]
pub struct Received {
    pub id: String,
    pub type_: String,
    pub created: chrono::DateTime<Utc>,
    pub object: Value,
}

/// Records an event once: one the portal handles is kept pending with its object, and the job
/// that applies it is enqueued in the same transaction; another is recorded as ignored. Returns
/// `pending`, the ignored outcome, or `duplicate`.
pub async fn record(state: &AppState, event: &Received) -> Result<String> {
    let object_id = event.object.get("id").and_then(Value::as_str);
    let header = EventHeader { event_id: &event.id, type_: &event.type_, object_id, created: event.created };
    if handled(&event.type_).is_none() {
        let outcome = not_handled(&event.type_);
        let first = queries::record_ignored_event(&state.pool, &header, &truncate(&outcome, 200)).await?;
        return Ok(if first { outcome } else { "duplicate".to_owned() });
    }
    let mut tx = state.pool.begin().await?;
    let first = queries::record_pending_event(&mut *tx, &header, &event.object).await?;
    if !first {
        return Ok("duplicate".to_owned());
    }
    // One job for a burst: it applies every event recorded by the time it runs.
    state.jobs.enqueue_coalesced(&mut tx, JobRequest::ApplyStripeEvents, APPLY_DELAY).await?;
    tx.commit().await?;
    Ok("pending".to_owned())
}

/// Applies the pending events, oldest first, each in its own transaction; several workers may run
/// this at once (each claims different events). An event that fails waits (30 s, doubling, at
/// most an hour) while the others go on; when Stripe does not answer, the run stops there, the
/// rest would fail the same way. Returns how many were applied, or the last failure (so the job
/// is retried; the expiry schedule also runs this).
pub async fn apply_pending(state: &AppState) -> Result<u64> {
    let Some(stripe) = state.stripe.as_deref() else { return Ok(0) };
    let mut applied = 0;
    let mut failed = None;
    loop {
        let mut tx = state.pool.begin().await?;
        let claimed = queries::claim_pending_event(&mut tx).await?;
        let Some(row) = claimed else { break };
        let event = Received { id: row.event_id, type_: row.r#type, created: row.created, object: row.object };
        let outcome = match dispatch(&mut tx, stripe, state.jobs.as_ref(), &event, row.received_at).await {
            Ok(outcome) => outcome,
            Err(error) => {
                tx.rollback().await?;
                tracing::warn!(event = event.id, r#type = event.type_, error = ?error, "Stripe event not applied; retried later");
                state.metrics.stripe_event_applied(&event.type_, "retrying");
                let retrying = truncate(&format!("retrying: {}", error.message()), 200);
                queries::record_event_retry(&state.pool, &event.id, &retrying).await?;
                if matches!(error, crate::error::Error::Unavailable(_)) {
                    return Err(error);
                }
                failed = Some(error);
                continue;
            }
        };
        queries::record_event_applied(&mut *tx, &event.id, &truncate(&outcome, 200)).await?;
        tx.commit().await?;
        tracing::info!(event = event.id, r#type = event.type_, outcome, "Stripe event applied");
        state.metrics.stripe_event_applied(&event.type_, &outcome);
        applied += 1;
    }
    match failed {
        Some(error) => Err(error),
        None => Ok(applied),
    }
}

/// What the portal does with an event type; `None`: nothing (recorded as ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Handled {
    /// `customer.subscription.created|updated|deleted`: the subscription is read again.
    Subscription,
    /// `invoice.*`: its subscription is read again.
    Invoice,
    /// `setup_intent.succeeded`: a reader's new card.
    NewCard,
}

fn handled(type_: &str) -> Option<Handled> {
    match type_ {
        "customer.subscription.created" | "customer.subscription.updated" | "customer.subscription.deleted" => Some(Handled::Subscription),
        "setup_intent.succeeded" => Some(Handled::NewCard),
        kind if kind.starts_with("invoice.") => Some(Handled::Invoice),
        _ => None,
    }
}

/// `received`: when the event was recorded (`stripe_event.received_at`, by the database's clock).
async fn dispatch(
    conn: &mut PgConnection,
    stripe: &StripeApi,
    jobs: &dyn JobQueue,
    event: &Received,
    received: DateTime<Utc>,
) -> Result<String> {
    let object = &event.object;
    let Some(kind) = handled(&event.type_) else { return Ok(not_handled(&event.type_)) };
    let synced = match kind {
        Handled::Subscription => {
            let id = object.get("id").and_then(Value::as_str).unwrap_or_default();
            sync::subscription_for_event(conn, stripe, jobs, id, received).await?
        }
        // The invoice's subscription, from the signed payload (an invoice never changes subscription).
        Handled::Invoice => match invoice_subscription(object) {
            Some(subscription_id) => sync::subscription_for_event(conn, stripe, jobs, subscription_id, received).await?,
            None => Synced::Unknown,
        },
        Handled::NewCard => {
            let subscription_id = object.pointer("/metadata/subscription_id").and_then(Value::as_str);
            let payment_method = object.get("payment_method").and_then(Value::as_str);
            match (subscription_id, payment_method) {
                (Some(subscription_id), Some(payment_method)) => {
                    super::card_update::use_new_card(conn, stripe, jobs, subscription_id, payment_method).await?
                }
                _ => Synced::Unknown,
            }
        }
    };
    Ok(synced.outcome())
}

fn not_handled(type_: &str) -> String {
    format!("ignored: {type_} not handled")
}

/// `parent.subscription_details.subscription` of an invoice: an id, or the object when expanded.
fn invoice_subscription(invoice: &Value) -> Option<&str> {
    let subscription = invoice.pointer("/parent/subscription_details/subscription")?;
    subscription.as_str().or_else(|| subscription.get("id").and_then(Value::as_str))
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}
