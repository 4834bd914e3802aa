//! The revisions that values kept in memory are checked against, read together in one statement
//! per request: the topics' (migration 0003), the published content's and the caller's
//! subscriptions' (0019), the channels' (0020) and the caller's reading (0021). Each moves in the
//! writing transaction, so a value kept under the revision a request reads is at least as new as
//! that request's snapshot, on every server, with no notification to wait for.

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
    /// Every channel with its admins, owner's and creator's names.
    pub channels: i64,
    /// The caller's followed topics and the articles they have read twice (0 for a caller with none).
    pub reading: i64,
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
                  coalesce((select revision from user_subscriptions_revision where user_id = $1), 0) as "subscriptions!",
                  (select revision from channels_revision) as "channels!",
                  coalesce((select revision from user_reading_revision where user_id = $1), 0) as "reading!""#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// Values kept in memory by key, each under the revision it was read at (an article's card
/// revision, a reader's subscriptions' revision, the content revision; a tuple for a value that
/// depends on two, compared in order): found only at that revision, and a slower read of an older
/// revision never replaces a newer one. Bounded by a weight (a count, or a size in bytes): the
/// least recently used go first.
pub struct KeptByRevision<V, R = i64> {
    entries: Mutex<Entries<V, R>>,
    weigh: fn(&V) -> usize,
    budget: usize,
}

struct Entries<V, R> {
    values: lru::LruCache<String, (R, Arc<V>)>,
    weight: usize,
}

impl<V, R: PartialOrd + Copy> KeptByRevision<V, R> {
    /// At most `capacity` values.
    pub fn new(capacity: usize) -> Self {
        Self::weighed(capacity, |_| 1)
    }

    /// Values whose weights add up to at most `budget`.
    pub fn weighed(budget: usize, weigh: fn(&V) -> usize) -> Self {
        KeptByRevision { entries: Mutex::new(Entries { values: lru::LruCache::unbounded(), weight: 0 }), weigh, budget }
    }

    pub fn find(&self, key: &str, revision: R) -> Option<Arc<V>> {
        match self.entries.lock().expect("kept values lock").values.get(key) {
            Some((kept, value)) if *kept == revision => Some(value.clone()),
            _ => None,
        }
    }

    pub fn keep(&self, key: &str, revision: R, value: Arc<V>) {
        let weight = (self.weigh)(&value);
        if weight > self.budget {
            return;
        }
        let mut entries = self.entries.lock().expect("kept values lock");
        if entries.values.peek(key).is_some_and(|(kept, _)| *kept > revision) {
            return;
        }
        if let Some((_, old)) = entries.values.put(key.to_owned(), (revision, value)) {
            entries.weight -= (self.weigh)(&old);
        }
        entries.weight += weight;
        while entries.weight > self.budget {
            let Some((_, (_, gone))) = entries.values.pop_lru() else { break };
            entries.weight -= (self.weigh)(&gone);
        }
    }

    /// The value kept at `revision`, if it `holds` (a check of its own, such as the clock), else
    /// what `read` reads, kept.
    pub async fn find_or_read<E>(
        &self,
        key: &str,
        revision: R,
        holds: impl Fn(&V) -> bool,
        read: impl Future<Output = Result<V, E>>,
    ) -> Result<Arc<V>, E> {
        if let Some(kept) = self.find(key, revision).filter(|kept| holds(kept)) {
            return Ok(kept);
        }
        let value = Arc::new(read.await?);
        self.keep(key, revision, value.clone());
        Ok(value)
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

    #[test]
    fn the_least_recently_used_go_when_the_weights_pass_the_budget() {
        let kept = KeptByRevision::weighed(10, |value: &&str| value.len());
        kept.keep("a", 1, Arc::new("aaaa"));
        kept.keep("b", 1, Arc::new("bbbb"));
        assert!(kept.find("a", 1).is_some(), "a is now the most recently used");
        kept.keep("c", 1, Arc::new("cccc"));
        assert!(kept.find("b", 1).is_none(), "b went to make room");
        assert!(kept.find("a", 1).is_some() && kept.find("c", 1).is_some());
        kept.keep("a", 2, Arc::new("a"));
        kept.keep("d", 1, Arc::new("dddd"));
        assert!(kept.find("a", 2).is_some() && kept.find("c", 1).is_some() && kept.find("d", 1).is_some(), "1 + 4 + 4 fit");
        kept.keep("e", 1, Arc::new("eeeeeeeeeee"));
        assert!(kept.find("e", 1).is_none(), "heavier than the whole budget: never kept");
    }

    #[test]
    fn two_revisions_are_compared_in_order() {
        let kept = KeptByRevision::new(10);
        kept.keep("a", (5, 2), Arc::new("New"));
        kept.keep("a", (4, 9), Arc::new("Old"));
        assert_eq!(kept.find("a", (5, 2)).as_deref(), Some(&"New"));
        assert!(kept.find("a", (5, 3)).is_none(), "the second revision moved");
    }
}
