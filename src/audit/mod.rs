//! The audit trail (issue 40): who changed what, when and from where, in one append-only table
//! (`audit_event`, migration 0035).
//!
//! Changes are written by the database itself: a row trigger on every table staff manage keeps
//! the fields that changed, in the transaction of the change. Who made it comes from the
//! connection's `insights.audit` setting, an `Actor` as JSON:
//! - a GraphQL mutation runs in `scoped(actor, ..)` on the server's audited pool (`audited_pool`),
//!   whose every connection is given the actor of the task that takes it (one statement per
//!   connection taken; queries use the other pool and pay nothing);
//! - the CLI and the workers connect with a fixed actor (`connection_setting`);
//! - a single write elsewhere sets it for its transaction (`queries::act_as`).
//!
//! Events that change nothing (sign-ins, exports, a reader's data opened by staff, the trail
//! read) are recorded with `record`.

pub mod export;
pub mod graphql;
pub mod queries;

use std::{net::SocketAddr, sync::Arc};

use axum::http::{HeaderMap, header};
use serde::Serialize;
use sqlx::{PgPool, postgres::PgPoolOptions};

use crate::{auth::Auth, http::RequestIds, state::AppState};

pub use graphql::AuditQuery;

/// Who acts, from where, doing what: the `insights.audit` setting of a connection.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Actor {
    pub kind: ActorKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The GraphQL operation (its root fields), the REST endpoint or the CLI command.
    pub action: String,
}

#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ActorKind {
    User,
    Cli,
    Worker,
    Stripe,
    #[default]
    System,
}

/// Where a request comes from: its client address (through trusted proxies), user agent and id.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub address: Option<String>,
    pub agent: Option<String>,
    pub request_id: Option<String>,
}

impl Origin {
    /// The origin of an HTTP request (its peer from the server's connect info, its request id).
    pub fn of_request(state: &AppState, request: &axum::extract::Request) -> Origin {
        Origin::of_parts(state, request.extensions(), request.headers())
    }

    fn of_parts(state: &AppState, extensions: &axum::http::Extensions, headers: &HeaderMap) -> Origin {
        let peer = extensions.get::<axum::extract::ConnectInfo<SocketAddr>>().map(|info| info.0);
        Origin::of(state, peer, headers, extensions.get::<RequestIds>())
    }

    pub fn of(state: &AppState, peer: Option<SocketAddr>, headers: &HeaderMap, ids: Option<&RequestIds>) -> Origin {
        Origin {
            address: peer.map(|peer| state.limits.client_address(peer.ip(), headers).to_string()),
            agent: headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(|agent| agent.chars().take(400).collect()),
            request_id: ids.map(|ids| ids.request_id.clone()),
        }
    }
}

/// A handler's argument: where its request comes from.
impl axum::extract::FromRequestParts<AppState> for Origin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Origin, Self::Rejection> {
        Ok(Origin::of_parts(state, &parts.extensions, &parts.headers))
    }
}

impl Actor {
    /// The caller of a request (a signed-in user, or nobody yet: a sign-in refused).
    pub fn of_request(auth: &Auth, origin: &Origin, action: impl Into<String>) -> Actor {
        let viewer = auth.viewer().ok();
        Actor {
            kind: ActorKind::User,
            id: viewer.map(|v| v.user.user_id.clone()),
            role: viewer.and_then(|v| v.role).map(|role| role.as_str().to_owned()),
            email: viewer.map(|v| v.user.email.to_string()),
            address: origin.address.clone(),
            agent: origin.agent.clone(),
            request: origin.request_id.clone(),
            action: action.into(),
        }
    }

    /// An operator's command: `cli import-subscribers`; its agent names the program and the
    /// operating-system user and host it ran as.
    pub fn cli(command: &str) -> Actor {
        let user = std::env::var("USER").or_else(|_| std::env::var("USERNAME")).unwrap_or_else(|_| "unknown".into());
        let host = std::fs::read_to_string("/etc/hostname").map(|h| h.trim().to_owned()).unwrap_or_else(|_| "unknown".into());
        let agent = format!("insights-cli {} ({user}@{host})", crate::config::build_version());
        Actor { kind: ActorKind::Cli, agent: Some(agent), action: format!("cli {command}"), ..Actor::default() }
    }

    /// The background workers.
    pub fn worker() -> Actor {
        Actor { kind: ActorKind::Worker, action: "worker".into(), ..Actor::default() }
    }

    /// Stripe, through its webhook.
    pub fn stripe(origin: &Origin) -> Actor {
        Actor {
            kind: ActorKind::Stripe,
            address: origin.address.clone(),
            request: origin.request_id.clone(),
            action: "POST /webhooks/stripe".into(),
            ..Actor::default()
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an actor serialises")
    }
}

/// Records a download of data (a CSV export) by the request's caller, with what it asked for.
pub async fn record_export(
    state: &AppState,
    auth: &Auth,
    origin: &Origin,
    action: &str,
    entity: Option<(&str, &str)>,
    details: &serde_json::Value,
) -> crate::error::Result<()> {
    let actor = Actor::of_request(auth, origin, action);
    let (entity_type, entity_id) = entity.unzip();
    queries::record(&state.pool, Some(&actor), None, entity_type, entity_id, details).await?;
    Ok(())
}

tokio::task_local! {
    /// The actor of the mutation this task runs (`scoped`).
    static ACTING: Arc<Actor>;
}

/// Runs `work` as `actor`: the connections it takes from the audited pool carry it.
pub async fn scoped<F: Future>(actor: Actor, work: F) -> F::Output {
    ACTING.scope(Arc::new(actor), work).await
}

/// The `insights.audit` value for a connection taken now: this task's actor, or none.
fn acting_setting() -> String {
    ACTING.try_with(|actor| actor.to_json()).unwrap_or_default()
}

/// A pool over the same database and options as `pool` whose every connection, when taken, is
/// given the actor of the task taking it (none outside `scoped`: the setting is cleared, so a
/// connection never carries an earlier request's actor). It closes when `pool` closes.
pub fn audited_pool(pool: &PgPool) -> PgPool {
    let options = pool.options();
    let audited = PgPoolOptions::new()
        .max_connections(options.get_max_connections())
        .acquire_timeout(options.get_acquire_timeout())
        .test_before_acquire(false)
        .after_connect(|conn, _| Box::pin(async move { queries::set_actor(conn, &acting_setting()).await }))
        .before_acquire(|conn, _| Box::pin(async move { queries::set_actor(conn, &acting_setting()).await.map(|_| true) }))
        .connect_lazy_with((*pool.connect_options()).clone());
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        let (closing, audited) = (pool.close_event(), audited.clone());
        runtime.spawn(async move {
            closing.await;
            audited.close().await;
        });
    }
    audited
}

/// The startup parameter that gives every connection of a pool the same actor (the CLI's
/// command, the workers): no statement per connection.
pub fn connection_setting(actor: &Actor) -> (&'static str, String) {
    ("insights.audit", actor.to_json())
}
