//! `/_double/...`: the test controls over HTTP (JSON), the same as the Rust handle's methods, for
//! the browser tests and `make run`.

use std::sync::Arc;

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Inner, Mode, Signing, StripeDouble};

type Shared = State<Arc<Inner>>;

fn double(inner: Arc<Inner>) -> StripeDouble {
    let address = inner.store.lock().map(|s| s.base_url.trim_start_matches("http://").parse().ok()).ok().flatten();
    StripeDouble { inner, address: address.unwrap_or_else(|| ([127, 0, 0, 1], 0).into()) }
}

pub fn router() -> Router<Arc<Inner>> {
    Router::new()
        .route("/events", get(list_events))
        .route("/events/deliver-all", post(deliver_all))
        .route("/events/deliver", post(deliver_ids))
        .route("/events/{id}", get(event))
        .route("/events/{id}/deliver", post(deliver_one))
        .route("/events/{id}/duplicate", post(duplicate))
        .route("/deliveries", get(deliveries))
        .route("/webhook", post(set_webhook))
        .route("/mode", post(set_mode))
        .route("/clock", get(clock).post(advance))
        .route("/subscriptions/{id}/next-renewal", post(next_renewal))
        .route("/intents/{id}/authenticate", post(authenticate))
        .route("/objects/{id}", get(object))
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Json(json!({"error": "not found"}))).into_response()
}

async fn list_events(State(inner): Shared) -> Json<Value> {
    let double = double(inner);
    let queued: Vec<Value> = double.queued().iter().map(|e| e["id"].clone()).collect();
    let events: Vec<Value> = double
        .events()
        .iter()
        .map(|e| json!({"id": e["id"], "type": e["type"], "created": e["created"], "queued": queued.contains(&e["id"])}))
        .collect();
    Json(json!({"queued": queued, "events": events}))
}

async fn event(State(inner): Shared, Path(id): Path<String>) -> Response {
    double(inner).event(&id).map_or_else(not_found, |e| Json(e).into_response())
}

async fn deliver_all(State(inner): Shared) -> Json<Value> {
    Json(json!(double(inner).deliver_all().await))
}

#[derive(Deserialize)]
struct DeliverIds {
    ids: Vec<String>,
    #[serde(default)]
    signing: Signing,
}

async fn deliver_ids(State(inner): Shared, Json(body): Json<DeliverIds>) -> Json<Value> {
    let double = double(inner);
    let mut deliveries = Vec::new();
    for id in &body.ids {
        deliveries.extend(double.deliver_signed(id, body.signing).await);
    }
    Json(json!(deliveries))
}

#[derive(Deserialize, Default)]
struct DeliverOne {
    #[serde(default)]
    signing: Signing,
}

async fn deliver_one(State(inner): Shared, Path(id): Path<String>, body: Option<Json<DeliverOne>>) -> Response {
    let signing = body.map(|Json(b)| b.signing).unwrap_or_default();
    double(inner).deliver_signed(&id, signing).await.map_or_else(not_found, |d| Json(d).into_response())
}

#[derive(Deserialize)]
struct Duplicate {
    copies: usize,
}

async fn duplicate(State(inner): Shared, Path(id): Path<String>, Json(body): Json<Duplicate>) -> Json<Value> {
    Json(json!(double(inner).duplicate(&id, body.copies.min(1000)).await))
}

async fn deliveries(State(inner): Shared) -> Json<Value> {
    Json(json!(double(inner).deliveries()))
}

#[derive(Deserialize)]
struct Webhook {
    url: String,
    secret: String,
}

async fn set_webhook(State(inner): Shared, Json(body): Json<Webhook>) -> StatusCode {
    double(inner).set_webhook(&body.url, &body.secret);
    StatusCode::NO_CONTENT
}

#[derive(Deserialize)]
struct SetMode {
    mode: Mode,
}

async fn set_mode(State(inner): Shared, Json(body): Json<SetMode>) -> StatusCode {
    let double = double(inner);
    match body.mode {
        Mode::Auto => double.auto_deliver(),
        Mode::Hold => double.hold_events(),
    }
    StatusCode::NO_CONTENT
}

async fn clock(State(inner): Shared) -> Json<Value> {
    Json(json!({"now": double(inner).now()}))
}

#[derive(Deserialize)]
struct Advance {
    seconds: Option<i64>,
    days: Option<i64>,
    to: Option<i64>,
}

async fn advance(State(inner): Shared, Json(body): Json<Advance>) -> Response {
    let double = double(inner);
    let result = match body.to {
        Some(to) => double.advance_clock_to(to).await,
        None => {
            double.advance_clock(chrono::Duration::seconds(body.seconds.unwrap_or(0) + body.days.unwrap_or(0) * 86_400)).await;
            Ok(())
        }
    };
    match result {
        Ok(()) => Json(json!({"now": double.now()})).into_response(),
        Err(error) => (StatusCode::BAD_REQUEST, Json(error)).into_response(),
    }
}

#[derive(Deserialize)]
struct Outcome {
    outcome: String,
}

async fn next_renewal(State(inner): Shared, Path(id): Path<String>, Json(body): Json<Outcome>) -> Response {
    let double = double(inner);
    match body.outcome.as_str() {
        "fail" => double.fail_next_renewal(&id),
        "succeed" => double.succeed_next_renewal(&id),
        "card" => {
            double.with_store(|s| s.next_renewal.remove(&id));
        }
        _ => return (StatusCode::BAD_REQUEST, Json(json!({"error": "outcome is fail, succeed or card"}))).into_response(),
    }
    StatusCode::NO_CONTENT.into_response()
}

async fn authenticate(State(inner): Shared, Path(id): Path<String>, Json(body): Json<Outcome>) -> Response {
    let double = double(inner);
    let result = match body.outcome.as_str() {
        "complete" => double.complete_authentication(&id),
        "fail" => double.fail_authentication(&id),
        _ => return (StatusCode::BAD_REQUEST, Json(json!({"error": "outcome is complete or fail"}))).into_response(),
    };
    match result {
        Ok(intent) => Json(intent).into_response(),
        Err(error) => (StatusCode::BAD_REQUEST, Json(error)).into_response(),
    }
}

async fn object(State(inner): Shared, Path(id): Path<String>) -> Response {
    double(inner).object(&id).map_or_else(not_found, |o| Json(o).into_response())
}
