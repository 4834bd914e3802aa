//! Search snippets kept in memory. A snippet depends on the article's text, the words searched and
//! whether the caller may read the body; the article's card revision (migration 0018) moves with
//! every edit, so a snippet kept under it is right for as long as it can be found.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

/// A few hundred bytes each.
const CAPACITY: usize = 20_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SnippetKey {
    pub article_id: String,
    pub card_revision: i64,
    pub with_body: bool,
    pub words: String,
}

pub struct SnippetCache {
    snippets: Mutex<lru::LruCache<SnippetKey, Arc<str>>>,
}

impl Default for SnippetCache {
    fn default() -> Self {
        SnippetCache { snippets: Mutex::new(crate::state::lru(CAPACITY)) }
    }
}

impl SnippetCache {
    /// The kept snippets of `keys` by article id, and the keys not kept.
    pub fn find(&self, keys: Vec<SnippetKey>) -> (HashMap<String, Arc<str>>, Vec<SnippetKey>) {
        let mut snippets = self.snippets.lock().expect("snippet cache lock");
        let mut found = HashMap::new();
        let mut missing = Vec::new();
        for key in keys {
            match snippets.get(&key) {
                Some(snippet) => {
                    found.insert(key.article_id, snippet.clone());
                }
                None => missing.push(key),
            }
        }
        (found, missing)
    }

    pub fn keep(&self, key: SnippetKey, snippet: Arc<str>) {
        self.snippets.lock().expect("snippet cache lock").put(key, snippet);
    }
}
