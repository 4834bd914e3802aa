//! Search pages and totals kept in memory, by the published content's revision (migration 0019:
//! every statement that changes a published article, its links or anything its card shows moves
//! it in the writing transaction). A channel page or a popular search asked again is then served
//! without reading the articles; the first request after any change reads them again.
//!
//! Filters that depend on the clock as well (free or premium only: a premium period ends by
//! itself) are never kept. Which words make a query at all never changes: kept without a revision.
//!
//! A reader's search is keyed by the channels whose bodies it may match as well (the filter's
//! `body_channels`): staff, and readers opened to other channels, never share a page or a count.
//! The clock matters there too, but only one way: an article whose premium period ends becomes
//! matchable by its body, so a kept page misses such a match until the next change, and never
//! shows one the reader may not match.

use std::sync::{Arc, Mutex};

use super::{
    cursor::Cursor,
    queries::{Page, Ranking, SearchFilter},
};

/// Pages of up to 51 hits (~100 bytes each).
const PAGES: usize = 5_000;
const COUNTS: usize = 5_000;
const WORDS: usize = 10_000;

/// One page of a search: what it selects, how it ranks, where it starts and how many rows it reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PageKey {
    pub filter: SearchFilter,
    pub ranking: Ranking,
    /// The encoded cursor.
    pub after: Option<String>,
    pub limit: i64,
}

impl PageKey {
    /// The key of a page that may be kept: None for a clock-dependent filter.
    pub fn of(filter: &SearchFilter, ranking: Ranking, after: Option<&Cursor>, limit: i64) -> Option<PageKey> {
        filter.is_timeless().then(|| PageKey { filter: filter.clone(), ranking, after: after.map(Cursor::encode), limit })
    }
}

pub struct SearchCache {
    /// Pages and counts of one content revision, the newest any request has read.
    kept: Mutex<Kept>,
    words: Mutex<lru::LruCache<String, bool>>,
}

struct Kept {
    revision: i64,
    pages: lru::LruCache<PageKey, Arc<Page>>,
    counts: lru::LruCache<SearchFilter, i64>,
}

impl Default for SearchCache {
    fn default() -> Self {
        let kept = Kept { revision: i64::MIN, pages: crate::state::lru(PAGES), counts: crate::state::lru(COUNTS) };
        SearchCache { kept: Mutex::new(kept), words: Mutex::new(crate::state::lru(WORDS)) }
    }
}

impl SearchCache {
    /// The kept values as of `revision`: a newer revision drops the older one's, an older one
    /// (a request that read it before a change) finds nothing and keeps nothing.
    fn at(&self, revision: i64) -> Option<std::sync::MutexGuard<'_, Kept>> {
        let mut kept = self.kept.lock().expect("search cache lock");
        if revision > kept.revision {
            kept.revision = revision;
            kept.pages.clear();
            kept.counts.clear();
        }
        (kept.revision == revision).then_some(kept)
    }

    pub fn page(&self, revision: i64, key: &PageKey) -> Option<Arc<Page>> {
        self.at(revision)?.pages.get(key).cloned()
    }

    /// Keeps a page read after `revision` was (and its count, when reading it took one).
    pub fn keep_page(&self, revision: i64, key: PageKey, page: Arc<Page>) {
        if let Some(mut kept) = self.at(revision) {
            if let Some(count) = page.matches {
                kept.counts.put(key.filter.clone(), count);
            }
            kept.pages.put(key, page);
        }
    }

    pub fn count(&self, revision: i64, filter: &SearchFilter) -> Option<i64> {
        self.at(revision)?.counts.get(filter).copied()
    }

    pub fn keep_count(&self, revision: i64, filter: SearchFilter, count: i64) {
        if let Some(mut kept) = self.at(revision) {
            kept.counts.put(filter, count);
        }
    }

    /// Whether `words` make a query, if known.
    pub fn meaningful(&self, words: &str) -> Option<bool> {
        self.words.lock().expect("search words lock").get(words).copied()
    }

    pub fn keep_meaningful(&self, words: &str, meaningful: bool) {
        self.words.lock().expect("search words lock").put(words.to_owned(), meaningful);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(words: &str) -> SearchFilter {
        SearchFilter { query: Some(words.to_owned()), ..SearchFilter::default() }
    }

    fn page(matches: i64) -> Arc<Page> {
        Arc::new(Page { hits: Vec::new(), matches: Some(matches) })
    }

    #[test]
    fn pages_are_found_only_at_the_revision_they_were_kept_at() {
        let cache = SearchCache::default();
        let key = PageKey::of(&filter("copper"), Ranking::Rum, None, 10).expect("timeless");
        cache.keep_page(3, key.clone(), page(7));
        assert_eq!(cache.page(3, &key).map(|p| p.matches), Some(Some(7)));
        assert_eq!(cache.count(3, &filter("copper")), Some(7), "the page's count is kept with it");
        assert!(cache.page(2, &key).is_none(), "an older revision finds nothing");
        cache.keep_page(2, key.clone(), page(1));
        assert_eq!(cache.page(3, &key).map(|p| p.matches), Some(Some(7)), "nor replaces anything");
        assert!(cache.page(4, &key).is_none(), "a newer revision drops the older pages");
        assert!(cache.page(3, &key).is_none());
        assert!(cache.count(4, &filter("copper")).is_none());
    }

    #[test]
    fn clock_dependent_filters_are_not_kept() {
        let premium = SearchFilter { premium_only: true, ..SearchFilter::default() };
        let free = SearchFilter { free_only: true, ..SearchFilter::default() };
        assert!(PageKey::of(&premium, Ranking::Rum, None, 10).is_none());
        assert!(PageKey::of(&free, Ranking::Rum, None, 10).is_none());
        assert!(PageKey::of(&SearchFilter::default(), Ranking::Rum, None, 10).is_some());
    }
}
