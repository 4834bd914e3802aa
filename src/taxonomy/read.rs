//! The topics and their counts, read through what the server keeps (`kept`): the topic list
//! (every topic with its level, its root, and the locked set) at the topics' revision, which moves
//! with topic and promotional-content edits, and the counts at their own revision, which moves
//! with article links, follows and views (migrations 0003 and 0017). A view changes only the
//! counts, which are computed only for a list that shows them.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use super::{
    model::{Category, MAX_LEVEL, TopicCounts},
    queries,
};
use crate::{error::Result, kept::RequestScope, state::AppState};

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

/// Every topic as of the request's topics revision: kept, else read (one read at a time: after an
/// edit every request wants it at once) and kept. `RequestScope::topics` shares it among a
/// query's fields.
pub(crate) async fn topics(scope: &RequestScope) -> Result<Arc<Topics>> {
    let state = scope.state();
    let revision = scope.revisions().await?.topics;
    let read = async {
        let mut list = queries::list_categories(&state.pool).await?;
        let (locked, roots) = assign_levels_locks_and_roots(&mut list);
        Ok::<_, sqlx::Error>(Arc::new(Topics { list, locked, roots }))
    };
    Ok(state.kept.topic_list.find_or_read((), revision, |_| true, read).await?)
}

/// The counts of every topic that has any, as of now: kept at the counts' revision, else read.
pub async fn counts(state: &AppState) -> Result<Arc<HashMap<String, TopicCounts>>> {
    let revision = crate::kept::revisions::of_topic_counts(&state.pool).await?;
    let read = async { Ok::<_, sqlx::Error>(Arc::new(queries::list_topic_counts(&state.pool).await?)) };
    Ok(state.kept.topic_counts.find_or_read((), revision, |_| true, read).await?)
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
