//! The revisions that values kept in memory are checked against, read together in one statement
//! per request: the topics' (migration 0003), the published content's and the caller's
//! subscriptions' (0019). Each moves in the writing transaction, so a value kept under the revision
//! a request reads is at least as new as that request's snapshot, on every server, with no
//! notification to wait for.

use async_graphql::Context;
use sqlx::PgExecutor;
use tokio::sync::OnceCell;

use crate::{
    error::Result,
    graphql::{app_state, viewer},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revisions {
    /// Topics and promotional content (`taxonomy_revision`).
    pub topics: i64,
    /// Published articles and everything reader lists select and order them by.
    pub content: i64,
    /// The caller's channel subscriptions (0 for a caller who never had one).
    pub subscriptions: i64,
}

/// Request data of a query: the revisions as its first reader found them, so that its fields
/// agree (a mutation goes without and reads them at each use; see `http::request_data`).
#[derive(Default)]
pub struct RequestRevisions(OnceCell<Revisions>);

/// The revisions as of this request (see `RequestRevisions`), for the signed-in caller.
pub async fn request_revisions(ctx: &Context<'_>) -> Result<Revisions> {
    let state = app_state(ctx);
    let user_id = viewer(ctx).ok().map(|viewer| viewer.user.user_id.as_str());
    let read = || read(&state.pool, user_id);
    Ok(match ctx.data_opt::<RequestRevisions>() {
        Some(cell) => *cell.0.get_or_try_init(read).await?,
        None => read().await?,
    })
}

async fn read(db: impl PgExecutor<'_>, user_id: Option<&str>) -> sqlx::Result<Revisions> {
    sqlx::query_as!(
        Revisions,
        r#"select (select revision from taxonomy_revision) as "topics!",
                  (select revision from content_revision) as "content!",
                  coalesce((select revision from user_subscriptions_revision where user_id = $1), 0) as "subscriptions!""#,
        user_id
    )
    .fetch_one(db)
    .await
}
