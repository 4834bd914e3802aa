//! Readers' subscriptions kept in memory, by reader and the revision of their subscriptions
//! (migration 0019: every change to a reader's subscriptions, or to the names and types of their
//! channels, moves it in the writing transaction). A reader page needs them for every article's
//! access; with them kept, it reads one revision instead of the subscriptions themselves.

use std::sync::{Arc, Mutex};

use super::graphql::ViewerSubscriptions;

/// A reader's subscriptions are a few hundred bytes; readers active at once are far fewer.
const CAPACITY: usize = 20_000;

pub struct SubscriptionsCache {
    readers: Mutex<lru::LruCache<String, (i64, Arc<ViewerSubscriptions>)>>,
}

impl Default for SubscriptionsCache {
    fn default() -> Self {
        SubscriptionsCache { readers: Mutex::new(crate::state::lru(CAPACITY)) }
    }
}

impl SubscriptionsCache {
    /// The reader's subscriptions if kept at `revision`.
    pub fn find(&self, user_id: &str, revision: i64) -> Option<Arc<ViewerSubscriptions>> {
        match self.readers.lock().expect("subscriptions cache lock").get(user_id) {
            Some((kept, subscriptions)) if *kept == revision => Some(subscriptions.clone()),
            _ => None,
        }
    }

    /// Keeps subscriptions read after `revision` was, unless those of a newer revision are kept.
    pub fn keep(&self, user_id: &str, revision: i64, subscriptions: Arc<ViewerSubscriptions>) {
        let mut readers = self.readers.lock().expect("subscriptions cache lock");
        if readers.peek(user_id).is_none_or(|(kept, _)| *kept <= revision) {
            readers.put(user_id.to_owned(), (revision, subscriptions));
        }
    }
}
