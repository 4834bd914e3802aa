//! The revisions that values kept in memory are checked against, read together in one statement
//! per request: the topics' (migration 0003), the published content's and the caller's
//! subscriptions' (0019). Each moves in the writing transaction, so a value kept under the revision
//! a request reads is at least as new as that request's snapshot, on every server, with no
//! notification to wait for.

use std::sync::{Arc, Mutex};

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

/// Values kept in memory by key, each under the revision it was read at (an article's card
/// revision, a reader's subscriptions' revision, the content revision): found only at that
/// revision, and a slower read of an older revision never replaces a newer one. Bounded: the least
/// recently used go first.
pub struct KeptByRevision<V> {
    entries: Mutex<lru::LruCache<String, (i64, Arc<V>)>>,
}

impl<V> KeptByRevision<V> {
    pub fn new(capacity: usize) -> Self {
        KeptByRevision { entries: Mutex::new(crate::state::lru(capacity)) }
    }

    pub fn find(&self, key: &str, revision: i64) -> Option<Arc<V>> {
        match self.entries.lock().expect("kept values lock").get(key) {
            Some((kept, value)) if *kept == revision => Some(value.clone()),
            _ => None,
        }
    }

    pub fn keep(&self, key: &str, revision: i64, value: Arc<V>) {
        let mut entries = self.entries.lock().expect("kept values lock");
        if entries.peek(key).is_none_or(|(kept, _)| *kept <= revision) {
            entries.put(key.to_owned(), (revision, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KeptByRevision;
    use std::sync::Arc;

    #[test]
    fn a_value_is_found_only_at_its_revision() {
        let kept = KeptByRevision::new(10);
        kept.keep("a", 1, Arc::new("First"));
        kept.keep("b", 7, Arc::new("Other"));
        assert_eq!(kept.find("a", 1).as_deref(), Some(&"First"));
        assert!(kept.find("b", 8).is_none());
        assert!(kept.find("c", 1).is_none());
    }

    #[test]
    fn an_older_read_does_not_replace_a_newer_value() {
        let kept = KeptByRevision::new(10);
        kept.keep("a", 5, Arc::new("New"));
        kept.keep("a", 4, Arc::new("Old"));
        assert_eq!(kept.find("a", 5).as_deref(), Some(&"New"));
        assert!(kept.find("a", 4).is_none());
    }
}
