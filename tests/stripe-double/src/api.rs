//! The `/v1` REST API: authentication (secret key, or the publishable key for what Stripe.js may
//! call), form decoding, idempotent replays, and the dispatch of each path to its resource module.

use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::State,
    http::{HeaderMap, HeaderValue, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
};
use serde_json::Value;

use crate::{
    Inner, customers,
    error::ApiError,
    invoices,
    params::Params,
    payments, products,
    store::{Store, new_id},
    subscriptions,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Secret,
    Publishable,
}

fn authenticate(headers: &HeaderMap) -> Result<Key, ApiError> {
    let header = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let key = if let Some(bearer) = header.strip_prefix("Bearer ") {
        bearer.trim().to_owned()
    } else if let Some(basic) = header.strip_prefix("Basic ") {
        decode_base64(basic.trim()).and_then(|user| user.split(':').next().map(str::to_owned)).unwrap_or_default()
    } else {
        return Err(ApiError::unauthorized(
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        ));
    };
    if key.starts_with("sk_test_") || key.starts_with("rk_test_") {
        Ok(Key::Secret)
    } else if key.starts_with("pk_test_") {
        Ok(Key::Publishable)
    } else {
        let shown: String = key.chars().take(8).collect();
        Err(ApiError::unauthorized(format!("Invalid API Key provided: {shown}***")))
    }
}

fn decode_base64(text: &str) -> Option<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.bytes().filter(|b| *b != b'=') {
        bits = (bits << 6) | ALPHABET.iter().position(|a| *a == byte)? as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The one handler behind every `/v1/...` path.
pub async fn handle(State(inner): State<Arc<Inner>>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let request_id = new_id("req");
    let key = match authenticate(&headers) {
        Ok(key) => key,
        Err(error) => return with_request_id(error.into_response(), &request_id),
    };
    let encoded =
        if method == Method::POST { String::from_utf8_lossy(&body).into_owned() } else { uri.query().unwrap_or_default().to_owned() };
    let params = Params::parse(&encoded);
    let idempotency_key =
        headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned).filter(|_| method == Method::POST);
    let cache_key = idempotency_key.clone().map(|k| (k, format!("{method} {}", uri.path())));

    let (status, body, replayed) = {
        let Ok(mut store) = inner.store.lock() else {
            return (StatusCode::INTERNAL_SERVER_ERROR, "store poisoned").into_response();
        };
        store.api_calls.push(format!("{method} {}", uri.path()));
        if let Some(cached) = cache_key.as_ref().and_then(|k| store.idempotent.get(k)).cloned() {
            (cached.0, cached.1, true)
        } else {
            store.request = Some((request_id.clone(), idempotency_key.clone()));
            let result = route(&mut store, key, &method, uri.path(), &params);
            store.request = None;
            let (status, body) = match result {
                Ok(value) => (200, value),
                Err(error) => (error.status.as_u16(), error.to_json()),
            };
            if let Some(cache_key) = cache_key {
                store.idempotent.insert(cache_key, (status, body.clone()));
            }
            (status, body, false)
        }
    };
    inner.wake.notify_one();
    let mut response = (StatusCode::from_u16(status).unwrap_or(StatusCode::OK), axum::Json(body)).into_response();
    if let Some(key) = idempotency_key
        && let Ok(value) = HeaderValue::from_str(&key)
    {
        response.headers_mut().insert("idempotency-key", value);
    }
    if replayed {
        response.headers_mut().insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    with_request_id(response, &request_id)
}

fn with_request_id(mut response: Response, id: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(id) {
        response.headers_mut().insert("request-id", value);
    }
    response
}

/// The publishable key may read or confirm an intent only with its client secret.
fn check_client_secret(store: &Store, key: Key, id: &str, params: &Params) -> Result<(), ApiError> {
    if key == Key::Secret {
        return Ok(());
    }
    let given = params.str("client_secret").ok_or_else(|| ApiError::missing("client_secret"))?;
    match store.get(id) {
        Some(intent) if intent["client_secret"] == given => Ok(()),
        Some(_) => Err(ApiError::invalid(
            "parameter_invalid_string",
            "client_secret",
            "The client_secret provided does not match any associated PaymentIntent on this account.",
        )),
        None => Err(ApiError::not_found("payment_intent", id, "intent")),
    }
}

fn route(store: &mut Store, key: Key, method: &Method, path: &str, params: &Params) -> Result<Value, ApiError> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    let expand = params.expand();
    let limit = params.int("limit")?;
    let after = params.str("starting_after");
    let publishable_allowed = matches!(
        (method, segments.as_slice()),
        (&Method::GET, ["v1", "payment_intents" | "setup_intents", _])
            | (&Method::POST, ["v1", "payment_intents" | "setup_intents", _, "confirm"])
    );
    if key == Key::Publishable && !publishable_allowed {
        return Err(ApiError::forbidden_publishable());
    }
    let show = |store: &Store, object: Value| Ok(store.render(&object, &expand));
    match (method.clone(), segments.as_slice()) {
        // Customers, tax ids, their payment methods.
        (Method::POST, ["v1", "customers"]) => customers::create_customer(store, params).map(|c| store.render(&c, &expand)),
        (Method::GET, ["v1", "customers"]) => {
            let email = params.str("email");
            let items = store.all("customer", |c| email.is_none_or(|e| c["email"] == e));
            Ok(store.list("/v1/customers", items, limit, after, &expand))
        }
        (Method::GET, ["v1", "customers", id]) => show(store, store.find("customer", id, "id")?),
        (Method::POST, ["v1", "customers", id]) => customers::update_customer(store, id, params).map(|c| store.render(&c, &expand)),
        (Method::GET, ["v1", "customers", id, "tax_ids"]) => {
            store.find("customer", id, "customer")?;
            let items = store.all("tax_id", |t| t["customer"] == *id);
            Ok(store.list(&format!("/v1/customers/{id}/tax_ids"), items, limit, after, &expand))
        }
        (Method::POST, ["v1", "customers", id, "tax_ids"]) => customers::create_tax_id(store, id, params),
        (Method::GET, ["v1", "customers", customer, "tax_ids", id]) => match store.get(id) {
            Some(t) if t["object"] == "tax_id" && t["customer"] == *customer => Ok(t.clone()),
            _ => Err(ApiError::not_found("tax_id", id, "id")),
        },
        (Method::DELETE, ["v1", "customers", customer, "tax_ids", id]) => customers::delete_tax_id(store, customer, id),
        (Method::GET, ["v1", "customers", id, "payment_methods"]) => {
            store.find("customer", id, "customer")?;
            let items = store.all("payment_method", |m| m["customer"] == *id);
            Ok(store.list(&format!("/v1/customers/{id}/payment_methods"), items, limit, after, &expand))
        }
        // Products and prices.
        (Method::POST, ["v1", "products"]) => products::create_product(store, params),
        (Method::GET, ["v1", "products"]) => {
            let items = store.all("product", |_| true);
            Ok(store.list("/v1/products", items, limit, after, &expand))
        }
        (Method::GET, ["v1", "products", id]) => show(store, store.find("product", id, "id")?),
        (Method::POST, ["v1", "products", id]) => products::update_product(store, id, params),
        (Method::POST, ["v1", "prices"]) => products::create_price(store, params).map(|p| store.render(&p, &expand)),
        (Method::GET, ["v1", "prices"]) => {
            let items = products::list_prices(store, params)?;
            Ok(store.list("/v1/prices", items, limit, after, &expand))
        }
        (Method::GET, ["v1", "prices", id]) => show(store, store.find("price", id, "price")?),
        (Method::POST, ["v1", "prices", id]) => products::update_price(store, id, params).map(|p| store.render(&p, &expand)),
        // Subscriptions.
        (Method::POST, ["v1", "subscriptions"]) => subscriptions::create(store, params),
        (Method::GET, ["v1", "subscriptions"]) => {
            let items = subscriptions::list(store, params);
            Ok(store.list("/v1/subscriptions", items, limit, after, &expand))
        }
        (Method::GET, ["v1", "subscriptions", id]) => show(store, store.find("subscription", id, "id")?),
        (Method::POST, ["v1", "subscriptions", id]) => subscriptions::update(store, id, params),
        (Method::DELETE, ["v1", "subscriptions", id]) => subscriptions::cancel(store, id, params),
        // Invoices.
        (Method::GET, ["v1", "invoices"]) => {
            let customer = params.str("customer");
            let subscription = params.str("subscription");
            let status = params.str("status");
            let items = store.all("invoice", |i| {
                customer.is_none_or(|c| i["customer"] == c)
                    && subscription.is_none_or(|s| i["subscription"] == s)
                    && status.is_none_or(|s| i["status"] == s)
            });
            Ok(store.list("/v1/invoices", items, limit, after, &expand))
        }
        (Method::GET, ["v1", "invoices", id]) => show(store, store.find("invoice", id, "invoice")?),
        (Method::POST, ["v1", "invoices", id, "pay"]) => invoices::pay(store, id, params).map(|i| store.render(&i, &expand)),
        (Method::POST, ["v1", "invoices", id, "void"]) => invoices::void(store, id).map(|i| store.render(&i, &expand)),
        // PaymentIntents, SetupIntents, PaymentMethods.
        (Method::GET, ["v1", "payment_intents", id]) => {
            let intent = store.find("payment_intent", id, "intent")?;
            check_client_secret(store, key, id, params)?;
            show(store, intent)
        }
        (Method::POST, ["v1", "payment_intents", id, "confirm"]) => {
            store.find("payment_intent", id, "intent")?;
            check_client_secret(store, key, id, params)?;
            payments::confirm_payment_intent(store, id, params).map(|i| store.render(&i, &expand))
        }
        (Method::POST, ["v1", "setup_intents"]) => payments::create_setup_intent(store, params),
        (Method::GET, ["v1", "setup_intents", id]) => {
            let intent = store.find("setup_intent", id, "intent")?;
            check_client_secret(store, key, id, params)?;
            show(store, intent)
        }
        (Method::POST, ["v1", "setup_intents", id, "confirm"]) => {
            store.find("setup_intent", id, "intent")?;
            check_client_secret(store, key, id, params)?;
            payments::confirm_setup_intent(store, id, params).map(|i| store.render(&i, &expand))
        }
        (Method::GET, ["v1", "payment_methods", id]) => show(store, store.find("payment_method", id, "payment_method")?),
        (Method::POST, ["v1", "payment_methods", id, "attach"]) => {
            store.find("payment_method", id, "payment_method")?;
            let customer = params.required("customer")?.to_owned();
            store.find("customer", &customer, "customer")?;
            payments::attach(store, id, &customer);
            show(store, store.find("payment_method", id, "payment_method")?)
        }
        // Events.
        (Method::GET, ["v1", "events"]) => {
            let kind = params.str("type");
            let items = store.all("event", |e| kind.is_none_or(|t| e["type"] == t));
            Ok(store.list("/v1/events", items, limit, after, &[]))
        }
        (Method::GET, ["v1", "events", id]) => store.find("event", id, "id"),
        _ => Err(ApiError::unrecognized(method.as_str(), path)),
    }
}
