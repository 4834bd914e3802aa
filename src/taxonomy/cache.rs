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
    /// Each topic's root topic (itself for a root), as its position in `list`.
    roots: HashMap<String, usize>,
}

impl Topics {
    /// Whether any of these topics is locked.
    pub fn any_locked<'a>(&self, mut ids: impl Iterator<Item = &'a str>) -> bool {
        !self.locked.is_empty() && ids.any(|id| self.locked.contains(id))
    }

    /// The root topics of these topics, each once, in the list's order (by name).
    pub fn roots_of<'a>(&self, ids: impl Iterator<Item = &'a str>) -> Vec<&Category> {
        let mut roots: Vec<usize> = ids.filter_map(|id| self.roots.get(id).copied()).collect();
        roots.sort_unstable();
        roots.dedup();
        roots.into_iter().map(|position| &self.list[position]).collect()
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
                let (locked, roots) = assign_levels_locks_and_roots(&mut list);
                Ok(Topics { list, locked, roots })
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
/// locked set (a locked topic and everything under it) and each topic's root (its position).
fn assign_levels_locks_and_roots(categories: &mut [Category]) -> (HashSet<String>, HashMap<String, usize>) {
    let positions: HashMap<&str, usize> = categories.iter().enumerate().map(|(position, c)| (c.category_id.as_str(), position)).collect();
    let parents: HashMap<&str, (Option<&str>, bool)> =
        categories.iter().map(|c| (c.category_id.as_str(), (c.parent_id.as_deref(), c.is_locked))).collect();
    let mut levels = Vec::with_capacity(categories.len());
    let mut locked = HashSet::new();
    let mut roots = HashMap::with_capacity(categories.len());
    for category in categories.iter() {
        let (mut level, mut is_locked, mut root) = (1, category.is_locked, category.category_id.as_str());
        let mut parent = category.parent_id.as_deref();
        // The database forbids cycles; the bound only guards against a corrupt row.
        while let Some(id) = parent.filter(|_| level <= MAX_LEVEL) {
            level += 1;
            let (above, above_locked) = parents.get(id).copied().unwrap_or((None, false));
            is_locked |= above_locked;
            root = id;
            parent = above;
        }
        levels.push(level);
        if is_locked {
            locked.insert(category.category_id.clone());
        }
        if let Some(&position) = positions.get(root) {
            roots.insert(category.category_id.clone(), position);
        }
    }
    for (category, level) in categories.iter_mut().zip(levels) {
        category.level = level;
    }
    (locked, roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(id: &str, name: &str, parent: Option<&str>) -> Category {
        Category {
            category_id: id.to_owned(),
            name: name.to_owned(),
            description: name.to_owned(),
            parent_id: parent.map(str::to_owned),
            is_featured: false,
            small_image: None,
            large_image: None,
            promotional_content_id: None,
            promotional_content_name: None,
            promotional_content_link: None,
            promotional_content_article_image: None,
            is_locked: false,
            is_premium: false,
            version: 1,
            level: 0,
        }
    }

    #[test]
    fn each_topic_knows_its_level_and_root_and_roots_come_once_in_the_lists_order() {
        // The list's order, as the database sorts it: by name.
        let mut list = vec![
            topic("a", "Agriculture", None),
            topic("b", "Base metals", Some("m")),
            topic("c", "Copper", Some("b")),
            topic("e", "Energy", None),
            topic("m", "Metals", None),
            topic("o", "Oil", Some("e")),
        ];
        let (locked, roots) = assign_levels_locks_and_roots(&mut list);
        let topics = Topics { list, locked, roots };
        let levels: Vec<i32> = topics.list.iter().map(|t| t.level).collect();
        assert_eq!(levels, [1, 2, 3, 1, 1, 2]);
        let names = |ids: &[&str]| -> Vec<String> { topics.roots_of(ids.iter().copied()).iter().map(|t| t.name.clone()).collect() };
        assert_eq!(names(&["c", "o", "b", "m"]), ["Energy", "Metals"], "each root once, by name, whatever the order asked");
        assert_eq!(names(&["a"]), ["Agriculture"], "a root is its own root");
        assert!(names(&["unknown"]).is_empty());
    }
}
