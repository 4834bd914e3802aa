//! `GET /healthz` for load balancers and operators, and the draining state of a server that is
//! shutting down (issue 15: rolling restarts lose nothing).
//!
//! - `200 {"status":"ok","database":"ok"}`: serving.
//! - `503 {"status":"draining"}`: SIGTERM received; requests are still served during the grace
//!   period (`INSIGHTS_SHUTDOWN_GRACE_MS`) while the load balancer takes this server out.
//! - `503 {"status":"unavailable","database":"unreachable","reason":…}` with `Retry-After`:
//!   PostgreSQL cannot be reached; the pool reconnects by itself when it is back.

use std::{sync::atomic::Ordering, time::Duration};

use axum::{
    Json,
    extract::{Request, State},
    http::{HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use sqlx::Connection;

use super::limits::with_retry_after;
use crate::{error::DATABASE_RETRY_AFTER_SECS, state::AppState};

pub async fn healthz(State(state): State<AppState>) -> Response {
    if state.draining.load(Ordering::Relaxed) {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({ "status": "draining" }))).into_response();
    }
    // The probe's own round trip to the database, no area's data: it stays with the probe.
    match sqlx::query_scalar::<_, i32>("select 1").fetch_one(&state.pool).await {
        Ok(_) => Json(serde_json::json!({ "status": "ok", "database": "ok" })).into_response(),
        Err(error) => {
            let reason = reason(&state, error).await;
            tracing::warn!(%reason, "health check: database unreachable");
            let body = serde_json::json!({ "status": "unavailable", "database": "unreachable", "reason": reason });
            with_retry_after(StatusCode::SERVICE_UNAVAILABLE, DATABASE_RETRY_AFTER_SECS, Json(body))
        }
    }
}

/// Why the database could not be reached, in sqlx's words (which name the failure, never the
/// credentials). A pool timeout says only that no connection came: one direct attempt tells
/// whether the server refused, was not found, or is starting or shutting down.
async fn reason(state: &AppState, error: sqlx::Error) -> String {
    if !matches!(error, sqlx::Error::PoolTimedOut) {
        return error.to_string();
    }
    let options = state.pool.connect_options();
    match tokio::time::timeout(Duration::from_secs(2), sqlx::PgConnection::connect_with(&options)).await {
        Ok(Err(cause)) => format!("{error}: {cause}"),
        Ok(Ok(connection)) => {
            let _ = connection.close().await;
            format!("{error} (a new connection succeeds: the pool is exhausted)")
        }
        Err(_) => format!("{error}: no answer from the server within 2 s"),
    }
}

/// While draining, every response asks the client to close its connection, so keep-alive
/// clients reconnect (through the load balancer, to another server) before this one stops.
pub async fn close_when_draining(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if state.draining.load(Ordering::Relaxed) {
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}
