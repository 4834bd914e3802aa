//! The app with card payments on, against the Stripe test double (tests/stripe-double) started on
//! a free port: its API base, keys and webhook secret, and its webhooks pointed at the app.
//! `pay` and `confirm_setup` do what Stripe.js does in the browser.

use serde_json::{Value, json};
use sqlx::PgPool;
pub use stripe_double::{Options, Signing, StripeDouble};

use super::TestApp;

pub const SECRET_KEY: &str = "sk_test_insights";
pub const PUBLISHABLE_KEY: &str = "pk_test_insights";
pub const WEBHOOK_SECRET: &str = "whsec_insights_test_secret";

/// The app and its Stripe double; events are delivered as they happen unless a test holds them.
pub async fn spawn(pool: PgPool) -> (TestApp, StripeDouble) {
    spawn_with(pool, Options::default()).await
}

/// As `spawn`, with the double started with `options` (e.g. a lower tax id limit at Stripe).
pub async fn spawn_with(pool: PgPool, options: Options) -> (TestApp, StripeDouble) {
    let double = start_double(options).await;
    let base = double.base_url();
    (app_for(pool, &double, &base).await, double)
}

/// The app talking to the double through a proxy that, after answering each POST, delivers the
/// events it queued before the answer reaches the app: Stripe's webhook overtaking its own API
/// answer, every time. Events are held from the start.
pub async fn spawn_with_events_first(pool: PgPool) -> (TestApp, StripeDouble) {
    let double = start_double(Options::default()).await;
    double.hold_events();
    let proxy = events_first_proxy(double.clone()).await;
    (app_for(pool, &double, &proxy).await, double)
}

/// The double speaks the API version the app's async-stripe is built for (its default), as the
/// webhook endpoint would be set up at Stripe.
async fn start_double(options: Options) -> StripeDouble {
    StripeDouble::start_with(options).await.expect("start the Stripe double")
}

async fn events_first_proxy(double: StripeDouble) -> String {
    use axum::{
        body::Bytes,
        extract::State,
        http::{HeaderMap, Method, StatusCode, Uri},
        response::IntoResponse,
    };
    async fn forward(State(double): State<StripeDouble>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> impl IntoResponse {
        let url = format!("{}{}", double.base_url(), uri.path_and_query().map_or("/", |p| p.as_str()));
        let mut request = reqwest::Client::new().request(reqwest::Method::from_bytes(method.as_str().as_bytes()).unwrap(), url);
        for name in ["authorization", "content-type", "idempotency-key", "stripe-version"] {
            if let Some(value) = headers.get(name).and_then(|v| v.to_str().ok()) {
                request = request.header(name, value);
            }
        }
        let response = request.body(body).send().await.expect("the double answers");
        let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
        let answer = response.bytes().await.expect("the double's answer");
        if method == Method::POST {
            double.deliver_all().await;
        }
        (status, [("content-type", "application/json")], answer)
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a free port");
    let address = listener.local_addr().unwrap();
    let router = axum::Router::new().fallback(forward).with_state(double);
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{address}")
}

async fn app_for(pool: PgPool, double: &StripeDouble, base: &str) -> TestApp {
    let app = TestApp::spawn_with(
        pool,
        &[
            "--stripe-secret-key",
            SECRET_KEY,
            "--stripe-publishable-key",
            PUBLISHABLE_KEY,
            "--stripe-webhook-secret",
            WEBHOOK_SECRET,
            "--stripe-api-base",
            base,
        ],
    )
    .await;
    double.set_webhook(&app.url("/webhooks/stripe"), WEBHOOK_SECRET);
    app
}

/// The intent a client secret belongs to (`pi_…_secret_…` → `pi_…`).
pub fn intent_of(client_secret: &str) -> &str {
    client_secret.split("_secret_").next().unwrap_or(client_secret)
}

/// Confirms a payment with a test card (`pm_card_visa`, `pm_card_chargeDeclined`, …) as Stripe.js
/// does with the publishable key; returns the payment intent or Stripe's error.
pub async fn pay(double: &StripeDouble, client_secret: &str, payment_method: &str) -> Value {
    confirm(double, "payment_intents", client_secret, payment_method).await
}

/// Confirms a setup intent (a card update) with a test card, as Stripe.js does.
pub async fn confirm_setup(double: &StripeDouble, client_secret: &str, payment_method: &str) -> Value {
    confirm(double, "setup_intents", client_secret, payment_method).await
}

async fn confirm(double: &StripeDouble, intents: &str, client_secret: &str, payment_method: &str) -> Value {
    let url = format!("{}/v1/{intents}/{}/confirm", double.base_url(), intent_of(client_secret));
    let response = reqwest::Client::new()
        .post(url)
        .basic_auth(PUBLISHABLE_KEY, Some(""))
        .form(&[("client_secret", client_secret), ("payment_method", payment_method)])
        .send()
        .await
        .expect("confirm the intent");
    response.json().await.expect("intent JSON")
}

/// Business details that pass the checks (a UK company).
pub fn billing(tax_id: Option<(&str, &str)>) -> Value {
    json!({
        "businessName": "Acme Metals Ltd",
        "taxIdType": tax_id.map(|t| t.0),
        "taxId": tax_id.map(|t| t.1),
        "addressLine1": "1 King Street",
        "addressCity": "London",
        "addressPostcode": "EC2V 8AA",
        "addressCountryCode": "GB",
    })
}

pub const CREATE_CUSTOMER: &str =
    "mutation($channelId: ID!, $businessName: String, $taxId: String, $taxIdType: String, $addressLine1: String,
      $addressLine2: String, $addressState: String, $addressCity: String, $addressPostcode: String, $addressCountryCode: String) {
    createStripeCustomer(channelId: $channelId, businessName: $businessName, taxId: $taxId, taxIdType: $taxIdType,
      addressLine1: $addressLine1, addressLine2: $addressLine2, addressState: $addressState, addressCity: $addressCity,
      addressPostcode: $addressPostcode, addressCountryCode: $addressCountryCode) }";

pub const CREATE_SUBSCRIPTION: &str = "mutation($channelId: ID!, $businessName: String, $taxId: String, $addressLine1: String,
      $addressLine2: String, $addressState: String, $addressCity: String, $addressPostcode: String, $addressCountryCode: String) {
    createStripeSubscription(channelId: $channelId, businessName: $businessName, taxId: $taxId, addressLine1: $addressLine1,
      addressLine2: $addressLine2, addressState: $addressState, addressCity: $addressCity, addressPostcode: $addressPostcode,
      addressCountryCode: $addressCountryCode) { subscriptionId clientSecret addressIsValid } }";

/// `variables` with `channelId` added.
pub fn with_channel(mut variables: Value, channel: &str) -> Value {
    variables["channelId"] = json!(channel);
    variables
}

/// Stripe's list of subscriptions of a customer, canceled ones too, as the secret key sees it.
pub async fn subscriptions_of(double: &StripeDouble, customer: &str) -> Vec<Value> {
    let url = format!("{}/v1/subscriptions", double.base_url());
    let response = reqwest::Client::new()
        .get(url)
        .basic_auth(SECRET_KEY, Some(""))
        .query(&[("customer", customer), ("status", "all"), ("limit", "100")])
        .send()
        .await
        .expect("list subscriptions");
    let list: Value = response.json().await.expect("list JSON");
    list["data"].as_array().cloned().unwrap_or_else(|| panic!("a list: {list}"))
}

/// POSTs `payload` to the app's webhook endpoint signed now with `secret`, as a forger (or
/// Stripe) would; returns the HTTP status.
pub async fn post_event(app: &TestApp, payload: &str, secret: &str) -> u16 {
    let header = stripe_double::sign(payload, secret, chrono::Utc::now().timestamp());
    app.client
        .post(app.url("/webhooks/stripe"))
        .header("content-type", "application/json")
        .header("stripe-signature", header)
        .body(payload.to_owned())
        .send()
        .await
        .expect("post the event")
        .status()
        .as_u16()
}

/// The events the app stored (applied once each), oldest first: (id, type, outcome).
pub async fn stored_events(app: &TestApp) -> Vec<(String, String, String)> {
    sqlx::query_as("select event_id, type, outcome from stripe_event order by received_at, event_id")
        .fetch_all(&app.pool)
        .await
        .expect("stripe_event rows")
}
