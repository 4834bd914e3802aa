//! A stateful Stripe test double: Stripe's REST protocol (form-encoded requests, JSON objects
//! built from Stripe's published fixtures, Stripe's error envelope), webhooks signed as Stripe
//! signs them and delivered from a queue the test controls, a clock the test advances, and a fake
//! Stripe.js. Start it in-process with [`StripeDouble::start`] or as the `stripe-double` binary.

mod api;
mod controls;
mod customers;
mod error;
mod events;
mod fixtures;
mod invoices;
mod pages;
mod params;
mod payments;
mod products;
mod store;
mod subscriptions;

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{
    Router,
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
};
pub use events::{Delivery, Mode, Signing, sign};
use serde_json::Value;
use tokio::{net::TcpListener, sync::Notify};

use crate::store::Store;

/// The API version the double speaks (events' `api_version`, responses' `Stripe-Version`, the
/// fake Stripe.js's release train): the one the server's async-stripe is built for, which the
/// README tells operators to set on their webhook endpoint. A second version here made every
/// webhook log async-stripe's version warning and Stripe.js warn in checkout.
pub fn api_version() -> &'static str {
    // A static, so the version lives for the program (it owns a String in one variant, so a
    // constant's borrow would not).
    static VERSION: stripe_shared::ApiVersion = stripe_shared::version::VERSION;
    VERSION.as_str()
}

/// The release train of an API version (`2026-09-30.endive` → `endive`): the Stripe.js version
/// that @stripe/stripe-js expects with it.
pub fn release_train(api_version: &str) -> &str {
    api_version.split_once('.').map_or(api_version, |(_, train)| train)
}

/// How to start the double.
#[derive(Debug, Clone)]
pub struct Options {
    /// Loopback port; 0 picks a free one.
    pub port: u16,
    /// Where events are POSTed, with the endpoint's `whsec_…` signing secret.
    pub webhook_url: Option<String>,
    pub webhook_secret: Option<String>,
    pub mode: Mode,
    /// Tax ids a customer may have (the product's limit; Stripe's own is higher).
    pub max_tax_ids: usize,
    pub api_version: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            port: 0,
            webhook_url: None,
            webhook_secret: None,
            mode: Mode::Auto,
            max_tax_ids: 5,
            api_version: api_version().to_owned(),
        }
    }
}

pub(crate) struct Inner {
    pub store: Mutex<Store>,
    /// Wakes the auto-mode delivery worker.
    pub wake: Notify,
    pub http: reqwest::Client,
    /// Auto-mode deliveries under way.
    pub in_flight: AtomicUsize,
}

/// A running double. Cloning shares it.
#[derive(Clone)]
pub struct StripeDouble {
    inner: Arc<Inner>,
    address: SocketAddr,
}

impl StripeDouble {
    /// Starts on a free loopback port with the clock at now, delivering events automatically
    /// once a webhook is set.
    pub async fn start() -> std::io::Result<StripeDouble> {
        StripeDouble::start_with(Options::default()).await
    }

    pub async fn start_with(options: Options) -> std::io::Result<StripeDouble> {
        let listener = TcpListener::bind(("127.0.0.1", options.port)).await?;
        let address = listener.local_addr()?;
        let mut store = Store {
            base_url: format!("http://{address}"),
            api_version: options.api_version,
            max_tax_ids: options.max_tax_ids,
            ..Store::default()
        };
        store.webhooks.url = options.webhook_url;
        store.webhooks.secret = options.webhook_secret;
        store.webhooks.mode = options.mode;
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().map_err(std::io::Error::other)?;
        let inner = Arc::new(Inner { store: Mutex::new(store), wake: Notify::new(), http, in_flight: AtomicUsize::new(0) });
        tokio::spawn(events::run_worker(inner.clone()));
        let app = router(inner.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(StripeDouble { inner, address })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// `http://127.0.0.1:PORT`, the API base (INSIGHTS_STRIPE_API_BASE).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The fake Stripe.js.
    pub fn js_url(&self) -> String {
        format!("{}/js/v3", self.base_url())
    }

    fn with_store<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.inner.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let result = f(&mut store);
        drop(store);
        self.inner.wake.notify_one();
        result
    }

    // --- Webhook endpoint and queue -------------------------------------------------------

    pub fn set_webhook(&self, url: &str, secret: &str) {
        self.with_store(|s| {
            s.webhooks.url = Some(url.to_owned());
            s.webhooks.secret = Some(secret.to_owned());
        });
    }

    /// Keep events queued until released by `deliver_*`.
    pub fn hold_events(&self) {
        self.with_store(|s| s.webhooks.mode = Mode::Hold);
    }

    /// Deliver queued and future events automatically, in order.
    pub fn auto_deliver(&self) {
        self.with_store(|s| s.webhooks.mode = Mode::Auto);
    }

    /// Every event so far, oldest first.
    pub fn events(&self) -> Vec<Value> {
        self.with_store(|s| {
            let mut all = s.all("event", |_| true);
            all.reverse();
            all
        })
    }

    /// Events of one type (`invoice.paid`), oldest first.
    pub fn events_of_type(&self, kind: &str) -> Vec<Value> {
        self.events().into_iter().filter(|e| e["type"] == kind).collect()
    }

    /// Events not yet delivered, oldest first.
    pub fn queued(&self) -> Vec<Value> {
        self.with_store(|s| s.webhooks.queue.iter().filter_map(|id| s.get(id).cloned()).collect())
    }

    pub fn event(&self, id: &str) -> Option<Value> {
        self.object(id).filter(|e| e["object"] == "event")
    }

    /// Every delivery attempt so far, with the endpoint's status.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.with_store(|s| s.webhooks.deliveries.clone())
    }

    /// Delivers every queued event, in order, one after the other.
    pub async fn deliver_all(&self) -> Vec<Delivery> {
        let ids: Vec<String> = self.with_store(|s| s.webhooks.queue.drain(..).collect());
        self.deliver_each(&ids, Signing::Valid).await
    }

    /// Delivers these events in this order (queued or not: a delivered one is replayed).
    pub async fn deliver_in_order(&self, ids: &[&str]) -> Vec<Delivery> {
        let ids: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
        self.deliver_each(&ids, Signing::Valid).await
    }

    /// Delivers one event (taking it off the queue if it is there).
    pub async fn deliver(&self, id: &str) -> Option<Delivery> {
        self.deliver_signed(id, Signing::Valid).await
    }

    /// Delivers a delivered event again.
    pub async fn replay(&self, id: &str) -> Option<Delivery> {
        self.deliver_signed(id, Signing::Valid).await
    }

    /// Delivers one event with a valid, stale (one day old) or bad signature.
    pub async fn deliver_signed(&self, id: &str, signing: Signing) -> Option<Delivery> {
        self.deliver_each(&[id.to_owned()], signing).await.pop()
    }

    /// Delivers one event `copies` times concurrently.
    pub async fn duplicate(&self, id: &str, copies: usize) -> Vec<Delivery> {
        self.dequeue(&[id.to_owned()]);
        self.deliver_at_once(vec![id.to_owned(); copies]).await
    }

    /// Delivers these events all at once (as Stripe does with a payment's several events).
    pub async fn deliver_concurrently(&self, ids: &[&str]) -> Vec<Delivery> {
        let ids: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
        self.dequeue(&ids);
        self.deliver_at_once(ids).await
    }

    async fn deliver_at_once(&self, ids: Vec<String>) -> Vec<Delivery> {
        let mut tasks = tokio::task::JoinSet::new();
        for id in ids {
            let inner = self.inner.clone();
            tasks.spawn(async move { events::deliver_once(&inner, &id, Signing::Valid, 1).await });
        }
        let mut deliveries = Vec::new();
        while let Some(result) = tasks.join_next().await {
            deliveries.extend(result.ok().flatten());
        }
        deliveries
    }

    /// The API requests the double has served, as `METHOD /v1/path`, oldest first.
    pub fn api_calls(&self) -> Vec<String> {
        self.with_store(|s| s.api_calls.clone())
    }

    fn dequeue(&self, ids: &[String]) {
        self.with_store(|s| s.webhooks.queue.retain(|queued| !ids.contains(queued)));
    }

    async fn deliver_each(&self, ids: &[String], signing: Signing) -> Vec<Delivery> {
        self.dequeue(ids);
        let mut deliveries = Vec::new();
        for id in ids {
            deliveries.extend(events::deliver_once(&self.inner, id, signing, 1).await);
        }
        deliveries
    }

    /// Waits until auto mode has delivered everything queued (returns at once in hold mode
    /// or without an endpoint).
    pub async fn settle(&self) {
        loop {
            let pending = self.with_store(|s| s.webhooks.mode == Mode::Auto && s.webhooks.url.is_some() && !s.webhooks.queue.is_empty());
            if !pending && self.inner.in_flight.load(Ordering::SeqCst) == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    // --- Clock and outcomes ------------------------------------------------------------------

    /// The double's clock (unix seconds).
    pub fn now(&self) -> i64 {
        self.with_store(|s| s.now())
    }

    /// Moves the clock forward, applying renewals, cancellations at period end and expiries.
    pub async fn advance_clock(&self, by: chrono::Duration) {
        let _ = self.with_store(|s| {
            let target = s.now() + by.num_seconds().max(0);
            subscriptions::advance_clock_to(s, target)
        });
    }

    /// Moves the clock to a unix time (never backwards).
    pub async fn advance_clock_to(&self, time: i64) -> Result<(), Value> {
        self.with_store(|s| subscriptions::advance_clock_to(s, time)).map_err(|e| e.to_json())
    }

    /// The subscription's next renewal fails whatever its card (a decline).
    pub fn fail_next_renewal(&self, subscription: &str) {
        self.with_store(|s| s.next_renewal.insert(subscription.to_owned(), false));
    }

    /// The subscription's next renewal succeeds whatever its card.
    pub fn succeed_next_renewal(&self, subscription: &str) {
        self.with_store(|s| s.next_renewal.insert(subscription.to_owned(), true));
    }

    /// Completes the 3D Secure challenge of an intent in `requires_action`.
    pub fn complete_authentication(&self, intent: &str) -> Result<Value, Value> {
        self.with_store(|s| payments::authenticate(s, intent, true)).map_err(|e| e.to_json())
    }

    /// Fails the 3D Secure challenge of an intent in `requires_action`.
    pub fn fail_authentication(&self, intent: &str) -> Result<Value, Value> {
        self.with_store(|s| payments::authenticate(s, intent, false)).map_err(|e| e.to_json())
    }

    // --- State --------------------------------------------------------------------------------

    /// Any object by id, as the API shows it.
    pub fn object(&self, id: &str) -> Option<Value> {
        self.with_store(|s| s.get(id).map(|o| s.public(o)))
    }

    pub fn subscription(&self, id: &str) -> Value {
        self.object(id).unwrap_or_default()
    }

    pub fn invoice(&self, id: &str) -> Value {
        self.object(id).unwrap_or_default()
    }

    pub fn customer(&self, id: &str) -> Value {
        self.object(id).unwrap_or_default()
    }

    pub fn payment_intent(&self, id: &str) -> Value {
        self.object(id).unwrap_or_default()
    }

    /// The PaymentIntent paying an invoice.
    pub fn payment_intent_of_invoice(&self, invoice: &str) -> Option<Value> {
        let id = self.with_store(|s| invoices::intent_of(s, invoice))?;
        self.object(&id)
    }
}

fn router(inner: Arc<Inner>) -> Router {
    Router::new()
        .route("/js/v3", get(pages::stripe_js))
        .route("/js/v3/", get(pages::stripe_js))
        .route("/3ds/{id}", get(pages::challenge))
        .route("/invoice/{id}", get(pages::invoice))
        .nest("/_double", controls::router())
        .route("/v1/{*rest}", axum::routing::any(api::handle))
        .route("/", get(|| async { "stripe-double" }))
        .route("/health", post(|| async { "ok" }).get(|| async { "ok" }))
        .layer(middleware::from_fn_with_state(inner.clone(), cors))
        .with_state(inner)
}

/// Stripe.js calls the API from the page's origin; the double allows any origin. Every answer
/// says the API version it speaks, as Stripe's do.
async fn cors(State(inner): State<Arc<Inner>>, request: Request, next: Next) -> Response {
    let mut response = if request.method() == Method::OPTIONS { StatusCode::NO_CONTENT.into_response() } else { next.run(request).await };
    let version = inner.store.lock().map(|s| s.api_version.clone()).unwrap_or_default();
    let headers = response.headers_mut();
    if let Ok(version) = HeaderValue::from_str(&version) {
        headers.insert("stripe-version", version);
    }
    headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    headers.insert("access-control-allow-methods", HeaderValue::from_static("GET, POST, DELETE, OPTIONS"));
    headers
        .insert("access-control-allow-headers", HeaderValue::from_static("authorization, content-type, idempotency-key, stripe-version"));
    response
}
