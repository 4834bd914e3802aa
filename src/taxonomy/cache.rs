//! The computed topic list (every topic with its level and counts), shared by every request and
//! reused while the taxonomy revision is unchanged. The revision is bumped by triggers in the
//! transactions that change any source of the list (migration 0003), so a cached list is never
//! older than the revision a request reads: counts stay right in every process.

use std::{collections::HashMap, sync::Arc};

use sqlx::PgPool;
use tokio::sync::Mutex;

use super::{
    model::{Category, MAX_LEVEL},
    queries,
};

#[derive(Default)]
pub struct TopicListCache {
    current: std::sync::RwLock<Option<(i64, Arc<Vec<Category>>)>>,
    /// One recomputation at a time: concurrent misses wait for it instead of repeating it.
    computing: Mutex<()>,
}

impl TopicListCache {
    /// The topic list as of now: one cheap statement when unchanged, two on a change.
    pub async fn get(&self, pool: &PgPool) -> sqlx::Result<Arc<Vec<Category>>> {
        let revision = queries::taxonomy_revision(pool).await?;
        if let Some(list) = self.cached(revision) {
            return Ok(list);
        }
        let _computing = self.computing.lock().await;
        if let Some(list) = self.cached(revision) {
            return Ok(list);
        }
        // Read after the revision: the list is at least as new as `revision`. If it is newer,
        // the next request sees a higher revision and recomputes: never stale, at worst recomputed.
        let mut list = queries::list_categories(pool).await?;
        assign_levels(&mut list);
        let list = Arc::new(list);
        *self.current.write().expect("cache lock") = Some((revision, list.clone()));
        Ok(list)
    }

    fn cached(&self, revision: i64) -> Option<Arc<Vec<Category>>> {
        match &*self.current.read().expect("cache lock") {
            Some((cached, list)) if *cached == revision => Some(list.clone()),
            _ => None,
        }
    }
}

/// Sets each topic's level (1 for a root) from the parent links of the whole list.
fn assign_levels(categories: &mut [Category]) {
    let parents: HashMap<String, Option<String>> =
        categories.iter().map(|c| (c.category_id.clone(), c.parent_id.clone())).collect();
    for category in categories.iter_mut() {
        let mut level = 1;
        let mut parent = category.parent_id.as_ref();
        // The database forbids cycles; the bound only guards against a corrupt row.
        while let Some(id) = parent.filter(|_| level <= MAX_LEVEL) {
            level += 1;
            parent = parents.get(id).and_then(Option::as_ref);
        }
        category.level = level;
    }
}
