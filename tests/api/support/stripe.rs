//! The app with card payments on, against the Stripe test double (tests/stripe-double) started on
//! a free port: its API base, keys and webhook secret, and its webhooks pointed at the app.
//! `pay` and `confirm_setup` do what Stripe.js does in the browser.

use serde_json::{Value, json};
use sqlx::PgPool;
use stripe_double::Options;
pub use stripe_double::{Signing, StripeDouble};

use super::TestApp;

pub const SECRET_KEY: &str = "sk_test_insights";
pub const PUBLISHABLE_KEY: &str = "pk_test_insights";
pub const WEBHOOK_SECRET: &str = "whsec_insights_test_secret";

/// The app and its Stripe double; events are delivered as they happen unless a test holds them.
pub async fn spawn(pool: PgPool) -> (TestApp, StripeDouble) {
    // The webhook endpoint sends events in the API version the app's async-stripe is built for, as
    // the endpoint would be set up at Stripe.
    let options = Options { api_version: stripe_shared::version::VERSION.as_str().to_owned(), ..Options::default() };
    let double = StripeDouble::start_with(options).await.expect("start the Stripe double");
    let base = double.base_url();
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
            &base,
        ],
    )
    .await;
    double.set_webhook(&app.url("/webhooks/stripe"), WEBHOOK_SECRET);
    (app, double)
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
