//! Readers' article cards kept in memory, by article and card revision (migration 0018): every
//! change to what a card shows moves the article's revision in the writing transaction, and each
//! list statement reads the revisions with its ids. A kept card is therefore the card of exactly
//! the revision the list saw, on every server, with no notification to wait for; a card of an older
//! revision is never found again and ages out.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use super::queries::{CardRow, Dated, Listed};

/// About 2 kB a card: 20,000 cards is some 40 MB at most.
const CAPACITY: usize = 20_000;

pub struct CardCache {
    cards: Mutex<lru::LruCache<String, Arc<CardRow>>>,
}

impl Default for CardCache {
    fn default() -> Self {
        CardCache { cards: Mutex::new(crate::state::lru(CAPACITY)) }
    }
}

impl CardCache {
    /// The kept cards of `listed` (by id) and the ids that are not kept at their revision.
    pub fn find(&self, listed: &[Listed]) -> (Vec<Arc<CardRow>>, Vec<String>) {
        let mut cards = self.cards.lock().expect("card cache lock");
        let mut found = Vec::with_capacity(listed.len());
        let mut missing = Vec::new();
        for item in listed {
            match cards.get(&item.article_id) {
                Some(card) if card.card_revision == item.card_revision => found.push(card.clone()),
                _ => missing.push(item.article_id.clone()),
            }
        }
        (found, missing)
    }

    /// Keeps `cards`, unless a newer revision of one is kept already (a slower, older read).
    pub fn keep(&self, rows: &[Arc<CardRow>]) {
        let mut cards = self.cards.lock().expect("card cache lock");
        for row in rows {
            let newer = cards.peek(&row.article_id).is_some_and(|kept| kept.card_revision > row.card_revision);
            if !newer {
                cards.put(row.article_id.clone(), row.clone());
            }
        }
    }
}

/// Each channel's newest published articles since a time, as of a content revision (migration
/// 0019): an article page's "recent in this channel". While the revision stands no article joins or
/// leaves a channel but by the clock, and as time passes articles only leave the window, so a list
/// read since an earlier time answers a later one by cutting it.
pub struct Recent {
    pub revision: i64,
    pub since: DateTime<Utc>,
    pub articles: Vec<Dated>,
}

pub struct RecentCache {
    channels: Mutex<lru::LruCache<String, Arc<Recent>>>,
}

/// Channels: a few hundred at most.
const CHANNELS: usize = 2_000;

impl Default for RecentCache {
    fn default() -> Self {
        RecentCache { channels: Mutex::new(crate::state::lru(CHANNELS)) }
    }
}

impl RecentCache {
    /// The channel's list if kept at `revision` and read since `since` or earlier.
    pub fn find(&self, channel_id: &str, revision: i64, since: DateTime<Utc>) -> Option<Arc<Recent>> {
        match self.channels.lock().expect("recent cache lock").get(channel_id) {
            Some(recent) if recent.revision == revision && recent.since <= since => Some(recent.clone()),
            _ => None,
        }
    }

    /// Keeps a list, unless one of a newer revision is kept.
    pub fn keep(&self, channel_id: &str, recent: Arc<Recent>) {
        let mut channels = self.channels.lock().expect("recent cache lock");
        if channels.peek(channel_id).is_none_or(|kept| kept.revision <= recent.revision) {
            channels.put(channel_id.to_owned(), recent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::types::Json;

    fn card(id: &str, revision: i64, title: &str) -> Arc<CardRow> {
        Arc::new(CardRow {
            article_id: id.to_owned(),
            card_revision: revision,
            title: title.to_owned(),
            summary: None,
            publish_date: Utc::now(),
            updated_at: Utc::now(),
            is_premium: false,
            premium_expires_at: None,
            is_pinned: false,
            display_in_chart_section: false,
            premium_channel_id: None,
            channel_name: None,
            channel_type: None,
            channel_state: None,
            publisher_type: None,
            publisher_id: None,
            publisher_name: None,
            categories: Json(Vec::new()),
            tags: Json(Vec::new()),
        })
    }

    fn listed(id: &str, revision: i64) -> Listed {
        Listed { article_id: id.to_owned(), card_revision: revision }
    }

    #[test]
    fn a_card_is_found_only_at_its_revision() {
        let cache = CardCache::default();
        cache.keep(&[card("a", 1, "First"), card("b", 7, "Other")]);
        let (found, missing) = cache.find(&[listed("a", 1), listed("b", 8), listed("c", 1)]);
        assert_eq!(found.iter().map(|c| c.title.as_str()).collect::<Vec<_>>(), ["First"]);
        assert_eq!(missing, ["b", "c"]);
    }

    #[test]
    fn an_older_read_does_not_replace_a_newer_card() {
        let cache = CardCache::default();
        cache.keep(&[card("a", 5, "New")]);
        cache.keep(&[card("a", 4, "Old")]);
        let (found, _) = cache.find(&[listed("a", 5)]);
        assert_eq!(found[0].title, "New");
        let (found, missing) = cache.find(&[listed("a", 4)]);
        assert!(found.is_empty());
        assert_eq!(missing, ["a"]);
    }

    #[test]
    fn a_channels_recent_list_answers_later_times_of_its_revision_only() {
        let cache = RecentCache::default();
        let read_at = Utc::now();
        cache.keep("c", Arc::new(Recent { revision: 4, since: read_at, articles: Vec::new() }));
        assert!(cache.find("c", 4, read_at + chrono::Duration::seconds(5)).is_some(), "later: cut from the kept list");
        assert!(cache.find("c", 4, read_at - chrono::Duration::seconds(5)).is_none(), "earlier: articles may be missing");
        assert!(cache.find("c", 5, read_at).is_none(), "another revision");
        cache.keep("c", Arc::new(Recent { revision: 3, since: read_at, articles: Vec::new() }));
        assert!(cache.find("c", 4, read_at).is_some(), "an older read does not replace a newer one");
    }
}
