//! Request and session ids: taken from the client's `x-request-id` / `x-session-id` headers (or
//! generated), returned on the response, and carried by the span of every log line of the request.

use std::time::Instant;

use axum::{
    extract::Request,
    http::{HeaderName, HeaderValue},
    middleware::Next,
    response::Response,
};
use tracing::Instrument;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
pub const SESSION_ID: HeaderName = HeaderName::from_static("x-session-id");

#[derive(Debug, Clone)]
pub struct RequestIds {
    pub request_id: String,
    pub session_id: String,
}

/// A client-supplied id is kept only when it is short and plain, so it cannot forge log lines.
fn client_id(request: &Request, name: &HeaderName) -> Option<String> {
    let value = request.headers().get(name)?.to_str().ok()?;
    let plain = !value.is_empty() && value.len() <= 100 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b));
    plain.then(|| value.to_owned())
}

pub async fn request_ids(mut request: Request, next: Next) -> Response {
    let ids = RequestIds {
        request_id: client_id(&request, &REQUEST_ID).unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
        session_id: client_id(&request, &SESSION_ID).unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
    };
    let span = tracing::info_span!(
        "request",
        request_id = %ids.request_id,
        session_id = %ids.session_id,
        method = %request.method(),
        path = %request.uri().path(),
    );
    request.extensions_mut().insert(ids.clone());
    let started = Instant::now();
    let mut response = next.run(request).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::info!(status = response.status().as_u16(), latency_ms = started.elapsed().as_millis() as u64, "request finished")
    });
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&ids.request_id) {
        headers.insert(REQUEST_ID, value);
    }
    if let Ok(value) = HeaderValue::from_str(&ids.session_id) {
        headers.insert(SESSION_ID, value);
    }
    response
}
