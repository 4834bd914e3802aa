//! What a server keeps in memory, and why it is never stale.
//!
//! A value is kept under a revision that the writing transaction moves (a trigger, in the same
//! transaction as the write), and found only at the revision a request reads: so every server
//! serves data at least as new as the request's snapshot, with no notification to wait for.
//! `map` says which columns move which revision (and `tests/api/kept.rs` walks it: every row moves
//! its revision, and every column a kept value reads is in it); `revisions` is the only code that
//! reads them; `KeptValues` keeps the values; `RequestScope` is what one request's fields share.
//!
//! Each revision, the columns that move it, and the kept values read under it (`map`, as data):
//!
//! | revision | moved by (table.column, migration) | read by |
//! |---|---|---|
//! | Topics | category.{(insert), (delete), name, description, parent_id, is_featured, small_image, large_image, promotional_content_id, is_locked, is_premium, version, created_at, updated_at} (0003) | topic_list, shared_topic_reads, article_pages, followed_topics |
//! | | promotional_content.{(insert), (delete), name, description, link, article_image, sidebar_image, expiry_date, version, created_at, updated_at, promotion_page_id} (0003) | |
//! | TopicCounts | category_follow.{(insert), (delete), category_id, user_id, created_at} (0017) | topic_counts |
//! | | article_category.{(insert), (delete), article_id, category_id} (0017) | |
//! | | article_contributor.{(insert), (delete), article_id, user_id} (0017) | |
//! | | article_view.{(insert), (delete), article_id, user_id, views, last_viewed} (0017) | |
//! | Content | article.{(insert), (delete), title, state, version, created_at, updated_at, premium_channel_id, published_by_desk_id, published_by_user_id, author_id, html, body_text, summary, publish_date, was_published_previously, is_premium, premium_expiry_offset, show_watermark, display_in_chart_section, is_pinned, is_timeless, template_id, send_emails, search_vector, premium_expires_at, card_revision, title_summary_vector, first_published_at, content_updated_at} (0019) | article_pages, channel_recent_articles, latest_pages, search_pages, search_counts, recommended |
//! | | article_contributor.{(insert), (delete)} (0019) | |
//! | | article_category.{(insert), (delete)} (0018 card, 0019) | |
//! | | article_tag.{(insert), (delete)} (0018 card, 0019) | |
//! | | article_promotional_content.{(insert), (delete)} (0020 card, 0019) | |
//! | | category.{name} (0018 card, 0019) | |
//! | | tag.{name} (0018 card, 0019) | |
//! | | channel.{name, type, state} (0018 card, 0019) | |
//! | | desk.{name, email} (0018/0020 card, 0019) | |
//! | | users.{name, email, position, phone, display_avatar, profile_picture} (0018/0020/0022 card, 0019) | |
//! | | promotional_content.{name, link, article_image} (0022 card, 0019) | |
//! | Channels | channel.{(insert), (delete), name, description, url, profile_image, cover_image, gl_account, price, type, owner_type, owner_desk_id, owner_user_id, default_trial_duration_days, hide_disclaimer, state, archived_at, created_by, version, created_at, updated_at} (0020) | all_channels |
//! | | channel_admin.{(insert), (delete), channel_id, user_id} (0020) | |
//! | | desk.{name} (0020) | |
//! | | users.{name, email} (0020) | |
//! | Subscriptions | channel_subscription.{(insert), (delete), channel_id, user_id, subscription_type, subscription_state, subscribed, created_at, updated_at, cancel_at, cancel_requested_at, cancel_at_period_end, notes, price_per_month, is_full_article_content, account_number, rebate, billing_method, trial_duration, email_notifications, next_payment, payment_method_type, payment_method_details, subscription_id, acknowledged_non_charge_sub_expired, added_by_admin, email_frequency, legal_entity_name, billing_email_address} (0019) | reader_subscriptions |
//! | | channel.{name, type} (0019) | |
//! | | firm_seat.{(insert), (delete), assigned_at, assigned_by, email_notifications, email_frequency} (0034) | |
//! | | firm_subscription.{(delete), channel_id, seats, starts_at, subscription_type, subscription_state, subscribed, cancel_at, cancel_requested_at, cancel_at_period_end, next_payment, acknowledged_non_charge_sub_expired, notes, price_per_month, price_basis, is_full_article_content, account_number, rebate, billing_method, trial_duration, added_by_admin, created_by, created_at, updated_at, version} (0034) | |
//! | | firm.{name} (0034) | |
//! | Reading | category_follow.{(insert), (delete)} (0021) | followed_topics, recommended |
//! | | article_view.{(insert), (delete), views} (0021) | |
//! | Card | article.{title, state, version, created_at, updated_at, premium_channel_id, published_by_desk_id, published_by_user_id, author_id, html, body_text, summary, publish_date, was_published_previously, is_premium, premium_expiry_offset, show_watermark, display_in_chart_section, is_pinned, is_timeless, template_id, send_emails, search_vector, premium_expires_at, card_revision, title_summary_vector, first_published_at, content_updated_at} (0018) | cards, article_relations, search_snippets |
//! | | article_category.{(insert), (delete)} (0018) | |
//! | | article_tag.{(insert), (delete)} (0018) | |
//! | | article_promotional_content.{(insert), (delete)} (0020) | |
//! | | article_contributor.{(insert), (delete)} (0022) | |
//! | | category.{name} (0018) | |
//! | | tag.{name} (0018) | |
//! | | channel.{name, type, state} (0018) | |
//! | | desk.{name, email} (0018/0020) | |
//! | | users.{name, email, position, phone, display_avatar, profile_picture} (0018/0020/0022) | |
//! | | promotional_content.{name, link, article_image} (0022) | |
//! | UserChanged | users, any change (NOTIFY, 0016) | (apart: the signed-in users cache) |
//!
//! "(insert)" and "(delete)": adding or removing a row moves the revision. Content moves with every
//! statement that touches a published article, so whatever moves a published article's card (a
//! topic renamed, say) moves it too. Per user: Subscriptions and Reading move only for the users
//! whose rows changed (Reading: a follow, or a view that makes or unmakes a read-twice article);
//! per article: Card moves only for the articles that show the change.
//!
//! Every kept value, as `Kept` holds it:
//!
//! | value                     | keyed by                           | valid under                 | bound                           |
//! |---------------------------|------------------------------------|-----------------------------|---------------------------------|
//! | `cards`                   | article                            | its card revision           | `MAX_KEPT_CARDS`                |
//! | `article_relations`       | article (staff lists' links)       | its card revision           | `MAX_KEPT_ARTICLE_RELATIONS`    |
//! | `search_snippets`         | article, access to its body, words | its card revision           | `MAX_KEPT_SNIPPETS`             |
//! | `article_pages`           | article                            | content, topics             | `MAX_KEPT_ARTICLE_PAGE_BYTES`   |
//! | `latest_pages`            | filter and page (`getArticles`)    | content (and the clock)     | `MAX_KEPT_LATEST_PAGES`         |
//! | `channel_recent_articles` | channel                            | content (and the clock)     | `MAX_KEPT_CHANNEL_LISTS`        |
//! | `search_pages`            | filter, ranking, cursor, size      | content                     | `MAX_KEPT_SEARCH_PAGES`         |
//! | `search_counts`           | filter                             | content                     | `MAX_KEPT_SEARCH_COUNTS`        |
//! | `followed_topics`         | reader                             | their reading, topics       | `MAX_KEPT_READERS`              |
//! | `recommended`             | reader, page, active channels      | their reading, content      | `MAX_KEPT_READERS`              |
//! | `reader_subscriptions`    | reader (their own and firm seats)  | their subscriptions         | `MAX_KEPT_READER_SUBSCRIPTIONS` |
//! | `all_channels`            | — (every channel)                  | channels                    | one                             |
//! | `topic_list`              | — (every topic, levels and locks)  | topics                      | one, single flight              |
//! | `topic_counts`            | — (every topic's counts)           | topic counts                | one, single flight              |
//! | `shared_topic_reads`      | query, operation, variables        | topics                      | `MAX_KEPT_SHARED_TOPIC_READS`   |
//! | `search_words`            | words                              | — (never stale: the parser) | `MAX_KEPT_SEARCH_WORDS`         |
//! | `public_uploads`          | upload name                        | — (once public, always)     | `MAX_KEPT_PUBLIC_UPLOADS`       |
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
    pub search_snippets: KeptValues<SnippetKey, str>,
    pub article_pages: KeptValues<String, ArticleRow, (i64, i64)>,
    pub latest_pages: KeptValues<String, Latest>,
    pub channel_recent_articles: KeptValues<String, Recent>,
    pub search_pages: KeptValues<PageKey, Page>,
    pub search_counts: KeptValues<SearchFilter, i64>,
    pub followed_topics: KeptValues<String, Vec<(String, String)>, (i64, i64)>,
    pub recommended: KeptValues<String, Vec<Listed>, (i64, i64)>,
    pub reader_subscriptions: KeptValues<String, ViewerSubscriptions>,
    pub all_channels: KeptValues<(), AllChannels>,
    pub topic_list: KeptValues<(), Topics>,
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
            search_snippets: KeptValues::new(MAX_KEPT_SNIPPETS),
            article_pages: KeptValues::weighed(MAX_KEPT_ARTICLE_PAGE_BYTES, page_weight),
            latest_pages: KeptValues::new(MAX_KEPT_LATEST_PAGES),
            channel_recent_articles: KeptValues::new(MAX_KEPT_CHANNEL_LISTS),
            search_pages: KeptValues::new(MAX_KEPT_SEARCH_PAGES),
            search_counts: KeptValues::new(MAX_KEPT_SEARCH_COUNTS),
            followed_topics: KeptValues::new(MAX_KEPT_READERS),
            recommended: KeptValues::new(MAX_KEPT_READERS),
            reader_subscriptions: KeptValues::new(MAX_KEPT_READER_SUBSCRIPTIONS),
            all_channels: KeptValues::new(1),
            topic_list: KeptValues::new(1).single_flight(),
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

#[cfg(test)]
mod tests {
    use super::map::{APART, KEPT};

    /// The table of kept values above names each value of the map once: those under a revision
    /// (`map::KEPT`) and those `Kept` holds without one (in `map::APART`, with why).
    #[test]
    fn the_table_of_kept_values_is_the_maps() {
        let mut documented: Vec<&str> =
            include_str!("mod.rs").lines().filter_map(|line| line.strip_prefix("//! | `")?.split('`').next()).collect();
        let without_revision = ["search_words", "public_uploads"];
        assert!(without_revision.iter().all(|name| APART.iter().any(|(apart, _)| apart == name)), "each says why in APART");
        let mut expected: Vec<&str> = KEPT.iter().map(|value| value.name).chain(without_revision).collect();
        // And `Kept` holds exactly those: a field added without its row here fails.
        let source = include_str!("mod.rs");
        let fields = &source[source.find("pub struct Kept {").expect("the struct")..];
        let mut held: Vec<&str> = fields[..fields.find("\n}").expect("its end")]
            .lines()
            .skip(1)
            .filter_map(|line| line.trim().strip_prefix("pub ")?.split(':').next())
            .collect();
        documented.sort_unstable();
        expected.sort_unstable();
        held.sort_unstable();
        assert_eq!(documented, expected);
        assert_eq!(held, expected, "the fields of Kept");
    }
}
