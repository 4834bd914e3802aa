//! What a server keeps in memory, and why it is never stale.
//!
//! A value is kept under a revision that the writing transaction moves (a trigger, in the same
//! transaction as the write), and found only at the revision a request reads: so every server
//! serves data at least as new as the request's snapshot, with no notification to wait for.
//! `map` says which columns move which revision (and `tests/api/kept.rs` walks it: every row moves
//! its revision, and every column a kept value reads is in it); `revisions` is the only code that
//! reads them; `KeptValues` keeps the values; `RequestScope` is what one request's fields share.
//!
//! Every kept value, as `Kept` holds it:
//!
//! | value                | keyed by                                   | valid under                 | bound                      |
//! |----------------------|--------------------------------------------|-----------------------------|----------------------------|
//! | `cards`              | article                                    | its card revision           | `MAX_KEPT_CARDS`           |
//! | `article_relations`  | article (staff lists' links)               | its card revision           | `MAX_KEPT_ARTICLE_RELATIONS` |
//! | `snippets`           | article, access to its body, words         | its card revision           | `MAX_KEPT_SNIPPETS`        |
//! | `article_pages`      | article                                    | content, topics             | `MAX_KEPT_ARTICLE_PAGE_BYTES` |
//! | `latest_pages`       | filter and page (`getArticles`)            | content (and the clock)     | `MAX_KEPT_LATEST_PAGES`    |
//! | `channel_recent`     | channel                                    | content (and the clock)     | `MAX_KEPT_CHANNEL_LISTS`   |
//! | `search_pages`       | filter, ranking, cursor, size              | content                     | `MAX_KEPT_SEARCH_PAGES`    |
//! | `search_counts`      | filter                                     | content                     | `MAX_KEPT_SEARCH_COUNTS`   |
//! | `followed_topics`    | reader                                     | their reading, topics       | `MAX_KEPT_READERS`         |
//! | `recommended`        | reader, page, active channels              | their reading, content      | `MAX_KEPT_READERS`         |
//! | `subscriptions`      | reader                                     | their subscriptions         | `MAX_KEPT_READER_SUBSCRIPTIONS` |
//! | `channels`           | — (every channel)                          | channels                    | one                        |
//! | `topics`             | — (every topic, levels and locks)          | topics                      | one, single flight         |
//! | `topic_counts`       | — (every topic's counts)                   | topic counts                | one, single flight         |
//! | `shared_topic_reads` | query, operation, variables                | topics                      | `MAX_KEPT_SHARED_TOPIC_READS` |
//! | `search_words`       | words                                      | — (never stale: the parser) | `MAX_KEPT_SEARCH_WORDS`    |
//! | `public_uploads`     | upload name                                | — (once public, always)     | `MAX_KEPT_PUBLIC_UPLOADS`  |
//!
//! Apart, kept by their own rules:
//! - signed-in users (`users::kept`): read on every request by the token's subject, before any
//!   revision could be read in the same round trip; dropped on a NOTIFY (migration 0016) from the
//!   writing transaction's commit, and after `INSIGHTS_USER_CACHE_SECS` at most;
//! - parsed GraphQL documents (`graphql::documents`): by their text, which is all they depend on;
//! - verified tokens (`auth::jwt`): by the token, until it expires or the signing keys change;
//! - values read once per process (the link-signing keys, the search ranking), which never change.

pub mod map;
pub mod request;
pub mod revisions;
pub mod values;

use std::collections::HashMap;

pub use request::RequestScope;
pub use values::KeptValues;

use crate::{
    articles::queries::Relations,
    channels::read::AllChannels,
    reading::{
        queries::{ArticleRow, CardRow, Listed},
        read::{Latest, Recent, page_weight},
    },
    search::{
        queries::{Page, SearchFilter},
        read::{PageKey, SnippetKey},
    },
    subscriptions::ViewerSubscriptions,
    taxonomy::{model::TopicCounts, read::Topics},
};

/// About 2 kB a card: some 40 MB at most.
pub const MAX_KEPT_CARDS: usize = 20_000;
/// About 1 kB each: some 20 MB at most.
pub const MAX_KEPT_ARTICLE_RELATIONS: usize = 20_000;
/// A few hundred bytes each.
pub const MAX_KEPT_SNIPPETS: usize = 20_000;
/// Article pages (`reading::read::page_weight`): some 64 MB of them at most.
pub const MAX_KEPT_ARTICLE_PAGE_BYTES: usize = 64 << 20;
/// Pages of the latest articles (up to 51 ids each).
pub const MAX_KEPT_LATEST_PAGES: usize = 5_000;
/// Channels' recent articles: a few hundred channels at most.
pub const MAX_KEPT_CHANNEL_LISTS: usize = 2_000;
/// Search pages of up to 51 hits (~100 bytes each).
pub const MAX_KEPT_SEARCH_PAGES: usize = 5_000;
pub const MAX_KEPT_SEARCH_COUNTS: usize = 5_000;
pub const MAX_KEPT_SEARCH_WORDS: usize = 10_000;
/// Readers' followed topics and recommendations (a few kB each; readers active at once are far fewer).
pub const MAX_KEPT_READERS: usize = 10_000;
/// Readers' subscriptions (a few hundred bytes each).
pub const MAX_KEPT_READER_SUBSCRIPTIONS: usize = 20_000;
/// Distinct shared topic queries (clients send a handful).
pub const MAX_KEPT_SHARED_TOPIC_READS: usize = 64;
/// Upload names known public (a name once public stays public, so none goes stale).
pub const MAX_KEPT_PUBLIC_UPLOADS: usize = 100_000;

/// Every value a server keeps (the table above).
pub struct Kept {
    pub cards: KeptValues<String, CardRow>,
    pub article_relations: KeptValues<String, Relations>,
    pub snippets: KeptValues<SnippetKey, str>,
    pub article_pages: KeptValues<String, ArticleRow, (i64, i64)>,
    pub latest_pages: KeptValues<String, Latest>,
    pub channel_recent: KeptValues<String, Recent>,
    pub search_pages: KeptValues<PageKey, Page>,
    pub search_counts: KeptValues<SearchFilter, i64>,
    pub followed_topics: KeptValues<String, Vec<(String, String)>, (i64, i64)>,
    pub recommended: KeptValues<String, Vec<Listed>, (i64, i64)>,
    pub subscriptions: KeptValues<String, ViewerSubscriptions>,
    pub channels: KeptValues<(), AllChannels>,
    pub topics: KeptValues<(), Topics>,
    pub topic_counts: KeptValues<(), HashMap<String, TopicCounts>>,
    pub shared_topic_reads: KeptValues<String, bytes::Bytes>,
    pub search_words: KeptValues<String, bool, ()>,
    pub public_uploads: KeptValues<String, (), ()>,
}

impl Default for Kept {
    fn default() -> Self {
        Kept {
            cards: KeptValues::new(MAX_KEPT_CARDS),
            article_relations: KeptValues::new(MAX_KEPT_ARTICLE_RELATIONS),
            snippets: KeptValues::new(MAX_KEPT_SNIPPETS),
            article_pages: KeptValues::weighed(MAX_KEPT_ARTICLE_PAGE_BYTES, page_weight),
            latest_pages: KeptValues::new(MAX_KEPT_LATEST_PAGES),
            channel_recent: KeptValues::new(MAX_KEPT_CHANNEL_LISTS),
            search_pages: KeptValues::new(MAX_KEPT_SEARCH_PAGES),
            search_counts: KeptValues::new(MAX_KEPT_SEARCH_COUNTS),
            followed_topics: KeptValues::new(MAX_KEPT_READERS),
            recommended: KeptValues::new(MAX_KEPT_READERS),
            subscriptions: KeptValues::new(MAX_KEPT_READER_SUBSCRIPTIONS),
            channels: KeptValues::new(1),
            topics: KeptValues::new(1).single_flight(),
            topic_counts: KeptValues::new(1).single_flight(),
            shared_topic_reads: KeptValues::new(MAX_KEPT_SHARED_TOPIC_READS),
            search_words: KeptValues::new(MAX_KEPT_SEARCH_WORDS),
            public_uploads: KeptValues::new(MAX_KEPT_PUBLIC_UPLOADS),
        }
    }
}

/// A least-recently-used map of at most `capacity` entries, for the values kept apart.
pub fn lru<K: std::hash::Hash + Eq, V>(capacity: usize) -> lru::LruCache<K, V> {
    lru::LruCache::new(std::num::NonZeroUsize::new(capacity).expect("a non-zero capacity"))
}
