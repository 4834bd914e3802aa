//! Events and their delivery. Every state change records Stripe's event (`object: "event"`,
//! `data.object` = the object after the change, `previous_attributes` on `*.updated`) and queues it
//! for the webhook endpoint. Mode `Auto` delivers in order as they happen (retrying a failed POST a
//! few times); mode `Hold` keeps them until the test releases them, in any order, duplicated,
//! replayed, or with a stale or bad signature.

use std::{collections::VecDeque, sync::Arc, time::Duration};

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::{
    Inner,
    fixtures::template,
    store::{Store, new_id},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Auto,
    Hold,
}

/// How a delivery is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Signing {
    /// `t=<now>,v1=<HMAC-SHA256 of "t.payload" with the endpoint secret>`, as Stripe signs.
    #[default]
    Valid,
    /// A correct signature over a timestamp one day old (outside the 5-minute tolerance).
    Stale,
    /// A signature made with another secret.
    Bad,
}

/// One POST of an event to the endpoint.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Delivery {
    pub event_id: String,
    pub event_type: String,
    pub signing: Signing,
    /// The endpoint's HTTP status, or None when the request itself failed.
    pub status: Option<u16>,
    pub error: Option<String>,
    pub attempt: u32,
    /// Wall-clock unix time of the attempt.
    pub at: i64,
}

impl Delivery {
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|status| (200..300).contains(&status))
    }
}

#[derive(Debug, Default)]
pub struct Webhooks {
    pub url: Option<String>,
    pub secret: Option<String>,
    pub mode: Mode,
    /// Event ids not yet delivered, oldest first.
    pub queue: VecDeque<String>,
    pub deliveries: Vec<Delivery>,
}

/// Records an event of `kind` about `object` and queues it. `previous` = Stripe's
/// `previous_attributes` (the changed fields' old values).
pub fn emit(store: &mut Store, kind: &str, object: &Value, previous: Option<Value>) -> String {
    let mut event = template("event");
    let id = new_id("evt");
    let mut data = json!({ "object": store.public(object) });
    if let Some(previous) = previous {
        data["previous_attributes"] = previous;
    }
    let (request_id, idempotency_key) = match &store.request {
        Some((id, key)) => (json!(id), json!(key)),
        None => (Value::Null, Value::Null),
    };
    event["id"] = json!(id);
    event["api_version"] = json!(store.api_version);
    event["created"] = json!(store.now());
    event["data"] = data;
    event["pending_webhooks"] = json!(if store.webhooks.url.is_some() { 1 } else { 0 });
    event["request"] = json!({"id": request_id, "idempotency_key": idempotency_key});
    event["type"] = json!(kind);
    store.insert(event);
    store.webhooks.queue.push_back(id.clone());
    id
}

/// The `Stripe-Signature` header for `payload` signed at `timestamp`.
pub fn sign(payload: &str, secret: &str, timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(format!("{timestamp}.{payload}").as_bytes());
    format!("t={timestamp},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// POSTs one event once. Returns None when no endpoint is configured or the event is unknown.
pub async fn deliver_once(inner: &Arc<Inner>, event_id: &str, signing: Signing, attempt: u32) -> Option<Delivery> {
    let (url, secret, payload, event_type) = {
        let store = inner.store.lock().ok()?;
        let event = store.get(event_id)?;
        (
            store.webhooks.url.clone()?,
            store.webhooks.secret.clone().unwrap_or_default(),
            event.to_string(),
            event["type"].as_str()?.to_owned(),
        )
    };
    let now = chrono::Utc::now().timestamp();
    let header = match signing {
        Signing::Valid => sign(&payload, &secret, now),
        Signing::Stale => sign(&payload, &secret, now - 86_400),
        Signing::Bad => sign(&payload, "whsec_not_the_endpoint_secret", now),
    };
    let result = inner
        .http
        .post(&url)
        .header("content-type", "application/json; charset=utf-8")
        .header("user-agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
        .header("stripe-signature", header)
        .body(payload)
        .send()
        .await;
    let (status, error) = match result {
        Ok(response) => (Some(response.status().as_u16()), None),
        Err(error) => (None, Some(error.to_string())),
    };
    let delivery = Delivery { event_id: event_id.to_owned(), event_type, signing, status, error, attempt, at: now };
    if let Ok(mut store) = inner.store.lock() {
        store.webhooks.deliveries.push(delivery.clone());
    }
    Some(delivery)
}

/// Delivers with up to 3 attempts (Stripe retries for days; a test cannot wait that long).
pub async fn deliver_with_retries(inner: &Arc<Inner>, event_id: &str) -> Option<Delivery> {
    let mut last = None;
    for attempt in 1..=3 {
        let delivery = deliver_once(inner, event_id, Signing::Valid, attempt).await?;
        if delivery.succeeded() {
            return Some(delivery);
        }
        last = Some(delivery);
        tokio::time::sleep(Duration::from_millis(100 * u64::from(attempt))).await;
    }
    last
}

/// The auto-mode worker: delivers queued events one at a time, in order.
pub async fn run_worker(inner: Arc<Inner>) {
    loop {
        let next = {
            let Ok(mut store) = inner.store.lock() else { return };
            let ready = store.webhooks.mode == Mode::Auto && store.webhooks.url.is_some();
            let next = if ready { store.webhooks.queue.pop_front() } else { None };
            if next.is_some() {
                inner.in_flight.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            next
        };
        match next {
            Some(event_id) => {
                deliver_with_retries(&inner, &event_id).await;
                inner.in_flight.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            }
            None => {
                let _ = tokio::time::timeout(Duration::from_millis(200), inner.wake.notified()).await;
            }
        }
    }
}
