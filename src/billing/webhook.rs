//! `POST /webhooks/stripe`: Stripe's events. The signature is checked (a bad or stale one is a
//! 400 and nothing changes); each event is stored by its id in the transaction that applies it, so
//! a duplicate delivery, even ten at once, or a replay days later, is a no-op; and applying reads
//! the subscription again from Stripe (`sync`), so events may arrive in any order. Events about
//! customers or objects this portal does not know, and types it does not handle, are answered 200
//! and logged.

use axum::{
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use chrono::Utc;
use serde_json::Value;
use sqlx::PgConnection;
use stripe_webhook::Webhook;

use super::{
    stripe::{StripeApi, time},
    sync::{self, Synced, unavailable},
};
use crate::{AppState, error::Result, jobs::JobQueue};

pub async fn handle(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let (Some(stripe), Some(secret)) = (state.stripe.as_deref(), state.config.stripe.webhook_secret.as_ref()) else {
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
    match apply(&state, stripe, &received).await {
        Ok(outcome) => {
            tracing::info!(event = received.id, r#type = received.type_, outcome, "Stripe event");
            StatusCode::OK.into_response()
        }
        // Not stored: Stripe delivers it again later.
        Err(error) => {
            tracing::error!(event = received.id, r#type = received.type_, error = ?error, "Stripe event not applied; Stripe will retry");
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

/// Applies an event once; returns what it did (stored as the event's outcome).
pub async fn apply(state: &AppState, stripe: &StripeApi, event: &Received) -> Result<String> {
    let mut tx = state.pool.begin().await?;
    let object_id = event.object.get("id").and_then(Value::as_str);
    // The event's row is written first: a concurrent duplicate waits here for this transaction and
    // then finds it; if this one fails, nothing is stored and a retry applies it.
    let first = sqlx::query!(
        "insert into stripe_event (event_id, type, object_id, created, outcome) values ($1, $2, $3, $4, 'applying')
         on conflict (event_id) do nothing",
        event.id,
        event.type_,
        object_id,
        event.created,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !first {
        return Ok("duplicate".to_owned());
    }
    let outcome = dispatch(&mut tx, stripe, state.jobs.as_ref(), event).await?;
    sqlx::query!("update stripe_event set outcome = $2 where event_id = $1", event.id, truncate(&outcome, 200)).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(outcome)
}

async fn dispatch(conn: &mut PgConnection, stripe: &StripeApi, jobs: &dyn JobQueue, event: &Received) -> Result<String> {
    let object = &event.object;
    let id = object.get("id").and_then(Value::as_str).unwrap_or_default();
    let synced = match event.type_.as_str() {
        "customer.subscription.created" | "customer.subscription.updated" | "customer.subscription.deleted" => {
            sync::subscription(conn, stripe, jobs, id, &sync::stripe_actor()).await?
        }
        kind if kind.starts_with("invoice.") => {
            let invoice = stripe.invoice(id).await.map_err(unavailable)?;
            match sync::invoice_subscription(&invoice) {
                Some(subscription_id) => sync::subscription(conn, stripe, jobs, &subscription_id, &sync::stripe_actor()).await?,
                None => Synced::Unknown,
            }
        }
        "setup_intent.succeeded" => {
            let subscription_id = object.pointer("/metadata/subscription_id").and_then(Value::as_str);
            let payment_method = object.get("payment_method").and_then(Value::as_str);
            match (subscription_id, payment_method) {
                (Some(subscription_id), Some(payment_method)) => {
                    super::card_update::use_new_card(conn, stripe, jobs, subscription_id, payment_method).await?
                }
                _ => Synced::Unknown,
            }
        }
        _ => return Ok(format!("ignored: {} not handled", event.type_)),
    };
    Ok(synced.outcome())
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}
