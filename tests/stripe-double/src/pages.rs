//! What a browser loads from the double: the fake Stripe.js, the 3D Secure challenge page an
//! intent's `next_action.redirect_to_url` points at, and the hosted invoice page.

use std::{collections::HashMap, sync::Arc};

use axum::{
    extract::{Path, Query, State},
    http::{StatusCode, header},
    response::{Html, IntoResponse, Response},
};

use crate::{Inner, invoices};

/// The fake Stripe.js, pointed at this double whatever origin the page loads it from, of the
/// release train of the double's API version (which @stripe/stripe-js checks).
pub async fn stripe_js(State(inner): State<Arc<Inner>>) -> Response {
    let (base, version) = inner.store.lock().map(|s| (s.base_url.clone(), s.api_version.clone())).unwrap_or_default();
    let script = include_str!("../static/stripe.js")
        .replace("__STRIPE_DOUBLE_BASE__", &base)
        .replace("__STRIPE_DOUBLE_RELEASE__", crate::release_train(&version));
    ([(header::CONTENT_TYPE, "application/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], script).into_response()
}

pub async fn invoice(State(inner): State<Arc<Inner>>, Path(id): Path<String>) -> Response {
    let page = inner.store.lock().ok().and_then(|store| invoices::page(&store, &id));
    match page {
        Some(page) => Html(page).into_response(),
        None => (StatusCode::NOT_FOUND, "No such invoice").into_response(),
    }
}

/// Two buttons, as Stripe's test challenge has; each settles the intent, then returns to
/// `return_url` with Stripe's query parameters.
pub async fn challenge(State(inner): State<Arc<Inner>>, Path(id): Path<String>, Query(query): Query<HashMap<String, String>>) -> Response {
    let intent = inner.store.lock().ok().and_then(|store| store.get(&id).cloned());
    let Some(intent) =
        intent.filter(|i| Some(i["client_secret"].as_str().unwrap_or_default()) == query.get("client_secret").map(String::as_str))
    else {
        return (StatusCode::NOT_FOUND, "No such intent").into_response();
    };
    let return_url = intent["next_action"]["redirect_to_url"]["return_url"].as_str().unwrap_or("").to_owned();
    let kind = if intent["object"] == "setup_intent" { "setup_intent" } else { "payment_intent" };
    let secret = intent["client_secret"].as_str().unwrap_or_default().to_owned();
    let back = serde_json::to_string(&return_url).unwrap_or_else(|_| "\"\"".into());
    let page = format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure test challenge</title></head><body>
<h1>3D Secure 2 test page</h1><p>Complete or fail the authentication of {id}.</p>
<button id="complete">Complete authentication</button> <button id="fail">Fail authentication</button>
<script>
const finish = async (outcome) => {{
  await fetch('/_double/intents/{id}/authenticate', {{method: 'POST', headers: {{'content-type': 'application/json'}}, body: JSON.stringify({{outcome}})}});
  const back = {back};
  if (back) {{
    const url = new URL(back);
    url.searchParams.set('{kind}', '{id}');
    url.searchParams.set('{kind}_client_secret', '{secret}');
    url.searchParams.set('redirect_status', outcome === 'complete' ? 'succeeded' : 'failed');
    location.href = url.toString();
  }} else {{ document.body.textContent = 'Authentication ' + outcome + 'd.'; }}
}};
document.getElementById('complete').onclick = () => finish('complete');
document.getElementById('fail').onclick = () => finish('fail');
</script></body></html>"#
    );
    Html(page).into_response()
}
