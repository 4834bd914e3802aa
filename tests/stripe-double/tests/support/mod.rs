//! Test helpers: a form-encoding API client, a webhook endpoint that checks each event with
//! async-stripe's `Webhook::construct_event`, and parsing into async-stripe's types.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::{Router, body::Bytes, http::HeaderMap, http::StatusCode, routing::post};
use serde::de::DeserializeOwned;
use serde_json::Value;
use stripe_double::StripeDouble;

pub const SECRET: &str = "whsec_test_double_secret";

/// Deserialises into async-stripe's type, failing the test with the path of the problem.
pub fn parse<T: DeserializeOwned>(value: &Value) -> T {
    match serde_json::from_value::<T>(value.clone()) {
        Ok(parsed) => parsed,
        Err(error) => {
            panic!("{} does not parse: {error}\n{}", std::any::type_name::<T>(), serde_json::to_string_pretty(value).unwrap_or_default())
        }
    }
}

pub struct Api {
    pub base: String,
    pub key: String,
    http: reqwest::Client,
}

impl Api {
    pub fn new(double: &StripeDouble) -> Api {
        Api { base: double.base_url(), key: "sk_test_double".into(), http: reqwest::Client::new() }
    }

    pub fn publishable(double: &StripeDouble) -> Api {
        Api { key: "pk_test_double".into(), ..Api::new(double) }
    }

    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, form, None).await
    }

    pub async fn post_idempotent(&self, path: &str, form: &[(&str, &str)], key: &str) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, form, Some(key)).await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, &[], None).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::DELETE, path, &[], None).await
    }

    async fn send(&self, method: reqwest::Method, path: &str, form: &[(&str, &str)], key: Option<&str>) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base)).bearer_auth(&self.key);
        if !form.is_empty() {
            request = request.form(form);
        }
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await.expect("double answers");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON body"))
    }
}

/// One event as the endpoint received it.
#[derive(Clone, Debug)]
pub struct Received {
    pub payload: String,
    pub signature: String,
    pub verified: bool,
    pub event_type: String,
}

/// A webhook endpoint: answers 200 to events `construct_event` accepts, 400 otherwise.
#[derive(Clone, Default)]
pub struct Endpoint {
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl Endpoint {
    pub async fn start(double: &StripeDouble) -> Endpoint {
        let endpoint = Endpoint::default();
        let received = endpoint.received.clone();
        let app = Router::new().route(
            "/webhook",
            post(move |headers: HeaderMap, body: Bytes| {
                let received = received.clone();
                async move {
                    let payload = String::from_utf8_lossy(&body).into_owned();
                    let signature = headers.get("stripe-signature").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
                    let parsed = stripe_webhook::Webhook::construct_event(&payload, &signature, SECRET);
                    let event_type = parsed.as_ref().map(|e| e.type_.as_str().to_owned()).unwrap_or_default();
                    let verified = parsed.is_ok();
                    received.lock().unwrap().push(Received { payload, signature, verified, event_type });
                    if verified { StatusCode::OK } else { StatusCode::BAD_REQUEST }
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/webhook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        double.set_webhook(&url, SECRET);
        endpoint
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// A customer, a product and a $30/month price.
pub async fn customer_and_price(api: &Api) -> (String, String) {
    let (_, customer) =
        api.post("/v1/customers", &[("name", "Acme Ltd"), ("email", "billing@acme.test"), ("address[country]", "DE")]).await;
    let (_, product) = api.post("/v1/products", &[("name", "Premium channel"), ("metadata[channel_id]", "ch1")]).await;
    let product = product["id"].as_str().unwrap().to_owned();
    let (_, price) = api
        .post("/v1/prices", &[("product", &product), ("unit_amount", "3000"), ("currency", "usd"), ("recurring[interval]", "month")])
        .await;
    (customer["id"].as_str().unwrap().to_owned(), price["id"].as_str().unwrap().to_owned())
}

/// A subscription as the server creates it: default_incomplete, anchored on the 1st.
pub async fn subscribe(api: &Api, customer: &str, price: &str) -> Value {
    let (status, sub) = api
        .post(
            "/v1/subscriptions",
            &[
                ("customer", customer),
                ("items[0][price]", price),
                ("payment_behavior", "default_incomplete"),
                ("payment_settings[save_default_payment_method]", "on_subscription"),
                ("billing_cycle_anchor_config[day_of_month]", "1"),
                ("proration_behavior", "create_prorations"),
                ("metadata[channel_id]", "ch1"),
                ("expand[]", "latest_invoice.confirmation_secret"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{sub}");
    sub
}

/// Confirms the subscription's first payment the way Stripe.js does (publishable key).
pub async fn pay_first_invoice(double: &StripeDouble, sub: &Value, card: &str) -> (u16, Value) {
    let secret = sub["latest_invoice"]["confirmation_secret"]["client_secret"].as_str().expect("client secret").to_owned();
    let intent = secret.split("_secret_").next().unwrap().to_owned();
    Api::publishable(double)
        .post(
            &format!("/v1/payment_intents/{intent}/confirm"),
            &[
                ("client_secret", &secret),
                ("payment_method_data[type]", "card"),
                ("payment_method_data[card][number]", card),
                ("payment_method_data[card][exp_month]", "12"),
                ("payment_method_data[card][exp_year]", "34"),
                ("return_url", "http://localhost/return"),
            ],
        )
        .await
}
