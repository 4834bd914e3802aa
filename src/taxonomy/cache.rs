//! The computed topic list (every topic with its level, and the locked set) and the topics' counts,
//! shared by every request. Each is reused while its revision is unchanged: the topics' revision
//! moves with topic and promotional-content edits, the counts' revision with article links, follows
//! and views (migrations 0003 and 0017), bumped by triggers in the writing transactions, so a kept
//! value is never older than the revision a request reads and stays right in every process. A view
//! changes only the counts, which are computed only for a list that shows them.

use std::{
    collections::{HashMap, HashSet},
    future::Future,
    sync::Arc,
};

use sqlx::PgPool;
use tokio::sync::Mutex;

use super::{
    model::{Category, MAX_LEVEL, TopicCounts},
    queries,
};
use crate::revisions::request_revisions;

/// Every topic, and which are locked (a locked topic and everything under it).
pub struct Topics {
    pub list: Vec<Category>,
    locked: HashSet<String>,
}

impl Topics {
    /// Whether any of these topics is locked.
    pub fn any_locked<'a>(&self, mut ids: impl Iterator<Item = &'a str>) -> bool {
        !self.locked.is_empty() && ids.any(|id| self.locked.contains(id))
    }
}

#[derive(Default)]
pub struct TopicListCache {
    topics: Kept<Topics>,
    counts: Kept<HashMap<String, TopicCounts>>,
}

impl TopicListCache {
    /// Every topic as of `revision`, a taxonomy revision just read: none when unchanged.
    pub async fn topics_at(&self, pool: &PgPool, revision: i64) -> sqlx::Result<Arc<Topics>> {
        self.topics
            .get(revision, || async {
                let mut list = queries::list_categories(pool).await?;
                let locked = assign_levels_and_locks(&mut list);
                Ok(Topics { list, locked })
            })
            .await
    }

    /// The counts of every topic that has any, as of now.
    pub async fn counts(&self, pool: &PgPool) -> sqlx::Result<Arc<HashMap<String, TopicCounts>>> {
        let revision = queries::topic_counts_revision(pool).await?;
        self.counts.get(revision, || queries::list_topic_counts(pool)).await
    }
}

/// Request data of a query: the topics as its first reader found them, so that its fields (a
/// page's lists, its article's lock) agree.
#[derive(Default)]
pub struct RequestTopics(tokio::sync::OnceCell<Arc<Topics>>);

/// Every topic as of this request (see `RequestTopics`; without it, as of now).
pub async fn request_topics(ctx: &async_graphql::Context<'_>) -> crate::error::Result<Arc<Topics>> {
    let state = crate::graphql::app_state(ctx);
    let read =
        || async { Ok::<_, crate::error::Error>(state.topic_list.topics_at(&state.pool, request_revisions(ctx).await?.topics).await?) };
    Ok(match ctx.data_opt::<RequestTopics>() {
        Some(cell) => cell.0.get_or_try_init(read).await?.clone(),
        None => read().await?,
    })
}

/// A value computed from the database, kept with the revision it was computed at.
struct Kept<T> {
    current: std::sync::RwLock<Option<(i64, Arc<T>)>>,
    /// One computation at a time: concurrent misses wait for it instead of repeating it.
    computing: Mutex<()>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { current: Default::default(), computing: Default::default() }
    }
}

impl<T> Kept<T> {
    async fn get<F, Fut>(&self, revision: i64, compute: F) -> sqlx::Result<Arc<T>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = sqlx::Result<T>>,
    {
        if let Some(value) = self.at(revision) {
            return Ok(value);
        }
        let _computing = self.computing.lock().await;
        if let Some(value) = self.at(revision) {
            return Ok(value);
        }
        // Computed after reading the revision: the value is at least as new as `revision`. If it
        // is newer, the next request sees a higher revision and computes again: never stale.
        let value = Arc::new(compute().await?);
        *self.current.write().expect("cache lock") = Some((revision, value.clone()));
        Ok(value)
    }

    fn at(&self, revision: i64) -> Option<Arc<T>> {
        match &*self.current.read().expect("cache lock") {
            Some((kept, value)) if *kept == revision => Some(value.clone()),
            _ => None,
        }
    }
}

/// Sets each topic's level (1 for a root) from the parent links of the whole list; returns the
/// locked topics: those locked themselves or under a locked one.
fn assign_levels_and_locks(categories: &mut [Category]) -> HashSet<String> {
    let parents: HashMap<&str, (Option<&str>, bool)> =
        categories.iter().map(|c| (c.category_id.as_str(), (c.parent_id.as_deref(), c.is_locked))).collect();
    let mut levels = Vec::with_capacity(categories.len());
    let mut locked = HashSet::new();
    for category in categories.iter() {
        let (mut level, mut is_locked) = (1, category.is_locked);
        let mut parent = category.parent_id.as_deref();
        // The database forbids cycles; the bound only guards against a corrupt row.
        while let Some(id) = parent.filter(|_| level <= MAX_LEVEL) {
            level += 1;
            let (above, above_locked) = parents.get(id).copied().unwrap_or((None, false));
            is_locked |= above_locked;
            parent = above;
        }
        levels.push(level);
        if is_locked {
            locked.insert(category.category_id.clone());
        }
    }
    for (category, level) in categories.iter_mut().zip(levels) {
        category.level = level;
    }
    locked
}
