//! `POST /log`: the web app's log batches, written to the server log under the request's span (so
//! with its request and session ids). A batch holds 1 to 100 entries; anything else is a 400, a
//! body over `BODY_MAX` a 413. Anyone may post (the app logs before sign-in), so each address is
//! rate-limited (`INSIGHTS_RATE_LIMIT_CLIENT_LOG`).

use axum::{
    Json,
    extract::rejection::JsonRejection,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;

use crate::graphql::LOG_BATCH_MAX;

/// Longest message or context kept from one entry; the rest is cut so a client cannot flood the log.
const MAX_TEXT: usize = 4000;
/// Largest batch body: 100 entries with stack traces fit (the web app's flush on page hide is
/// capped at 64 KB by the browsers).
pub const BODY_MAX: usize = 256 * 1024;

#[derive(Debug, Deserialize)]
pub struct LogBatch {
    entries: Vec<LogEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogEntry {
    level: Level,
    message: String,
    timestamp: Option<String>,
    context: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Error,
    Warn,
    Info,
    Debug,
}

fn cut(text: &str) -> &str {
    match text.char_indices().nth(MAX_TEXT) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn bad_request(message: String) -> Response {
    refused(StatusCode::BAD_REQUEST, message)
}

fn refused(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "code": "BAD_USER_INPUT", "message": message }))).into_response()
}

pub async fn receive(batch: Result<Json<LogBatch>, JsonRejection>) -> Response {
    let batch = match batch {
        Ok(Json(batch)) => batch,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return refused(StatusCode::PAYLOAD_TOO_LARGE, rejection.body_text());
        }
        Err(rejection) => return bad_request(rejection.body_text()),
    };
    if batch.entries.is_empty() || batch.entries.len() > LOG_BATCH_MAX {
        return bad_request(format!("A log batch holds 1 to {LOG_BATCH_MAX} entries"));
    }
    for entry in &batch.entries {
        let message = cut(&entry.message);
        let timestamp = entry.timestamp.as_deref().map(cut).unwrap_or_default();
        let context = entry.context.as_ref().map(|c| c.to_string()).unwrap_or_default();
        let context = cut(&context);
        match entry.level {
            Level::Error => tracing::error!(target: "client", client_timestamp = timestamp, context, "{message}"),
            Level::Warn => tracing::warn!(target: "client", client_timestamp = timestamp, context, "{message}"),
            Level::Info => tracing::info!(target: "client", client_timestamp = timestamp, context, "{message}"),
            Level::Debug => tracing::debug!(target: "client", client_timestamp = timestamp, context, "{message}"),
        }
    }
    StatusCode::NO_CONTENT.into_response()
}
