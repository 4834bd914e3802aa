//! The MCP server (issue 41): the Model Context Protocol over streamable HTTP at `/mcp`, with the
//! official Rust SDK (`rmcp`), in the `serve` process, so that a client's AI assistant can ask
//! "what did you publish on copper this week?" and get what the reader's subscriptions allow, with
//! citations.
//!
//! - Who: the same bearer tokens as the API (OIDC: the built-in provider or an external issuer) or
//!   a personal access token (`crate::access_tokens`), checked on every request (`auth`). Without
//!   one, 401 with `WWW-Authenticate` naming the protected-resource metadata (RFC 9728) served at
//!   `/.well-known/oauth-protected-resource`, which names the issuer an MCP client signs in with.
//!   A session stays its first caller's, and is closed once idle for `INSIGHTS_MCP_SESSION_IDLE_SECS`.
//! - What: the tools and resources of `server`, each through the reader's entitlement (the search's
//!   cards, `Reader::can_see`); staff see what readers see, published articles only.
//! - Each call is rate-limited per user (`INSIGHTS_RATE_LIMIT_AGENT`), logged as the chat's
//!   questions are (mode `agent`), and the articles read are recorded as readership of kind `agent`.

pub mod auth;
pub mod queries;
pub mod server;
mod tools;

use std::{sync::Arc, time::Duration};

use axum::{Json, Router, extract::State, middleware, routing::get};
use rmcp::transport::{
    StreamableHttpServerConfig,
    streamable_http_server::{session::local::LocalSessionManager, tower::StreamableHttpService},
};

use crate::state::AppState;

/// `/mcp` and the protected-resource metadata.
pub fn routes(state: AppState) -> Router<AppState> {
    // A session whose client goes quiet is closed after the idle time: its worker ends and the SDK
    // drops it from the map (a client that comes back gets 404 and initialises a new one).
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(Duration::from_secs(state.config.mcp_session_idle_secs));
    let sessions = Arc::new(sessions);
    let service_state = state.clone();
    // The SDK refuses Host headers it was not told of (DNS rebinding): the public URL's, and loopback.
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "[::1]".to_owned()];
    if let Some(host) = url::Url::parse(state.config.public_url()).ok().and_then(|url| url.host_str().map(str::to_owned)) {
        hosts.push(host);
    }
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    let service = StreamableHttpService::new(move || Ok(server::Research::new(service_state.clone())), sessions, config);
    Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(state, auth::authenticate))
        .route("/.well-known/oauth-protected-resource", get(protected_resource))
        .route("/.well-known/oauth-protected-resource/mcp", get(protected_resource))
}

/// The resource's address: `{public URL}/mcp`.
pub fn resource(state: &AppState) -> String {
    format!("{}/mcp", state.config.public_url())
}

/// RFC 9728: what this resource is and which authorization server issues its tokens.
async fn protected_resource(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "resource": resource(&state),
        "authorization_servers": [state.config.issuer()],
        "bearer_methods_supported": ["header"],
        "scopes_supported": ["openid", "profile", "email"],
        "resource_name": "Insights research",
        "resource_documentation": format!("{}/insights/subscriptions", state.config.public_url()),
    }))
}
