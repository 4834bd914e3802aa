//! What the reader side keeps in memory (`revisions::KeptByRevision`). Cards, by article and card
//! revision (migration 0018): every change to what a card shows moves the article's revision in the
//! writing transaction, and each list statement reads the revisions with its ids, so a kept card is
//! the card of exactly the revision the list saw, on every server, with no notification to wait
//! for. Each channel's recent articles, pages of the latest articles and article pages, by the
//! content revision (0019); a reader's followed topics and recommendations, by their reading
//! revision (0021).

use chrono::{DateTime, Utc};

use super::queries::{ArticleRow, Dated, Listed};

/// About 2 kB a card: 20,000 cards is some 40 MB at most.
pub const CARDS: usize = 20_000;
/// Channels: a few hundred at most.
pub const CHANNELS: usize = 2_000;

/// Article pages: some 64 MB of them at most.
pub const ARTICLE_PAGES_BYTES: usize = 64 << 20;

/// The size in memory of a published article's page, roughly: the body and summary, and the rest's
/// strings. A page is kept by article at the content revision, which every change to what it shows
/// moves (0018–0020), and at the topics' revision, which its root topics follow. Its sidebar
/// promotion is picked from the kept ones per request (at random, among those not expired by then).
pub fn page_weight(row: &ArticleRow) -> usize {
    row.html.len() + row.summary.as_ref().map_or(0, String::len) + 2048
}

/// Readers whose followed topics and recommendations are kept (a few kB each), at their reading
/// revision (0021: their follows and what they have read twice).
pub const READERS: usize = 10_000;

/// Pages of the latest articles (up to 51 ids each).
pub const LATEST_PAGES: usize = 5_000;

/// A page of the latest published articles (`getArticles`), kept by its filter and page at the
/// content revision. A free-only page depends on the clock too (a premium period ends by itself):
/// it holds from when it was read until the first end of a premium period after that, read before
/// the page itself (an end in between makes it hold no more at once).
pub struct Latest {
    pub ids: Vec<Listed>,
    pub read_at: DateTime<Utc>,
    /// None: until the revision moves.
    pub until: Option<DateTime<Utc>>,
}

impl Latest {
    pub fn holds_at(&self, now: DateTime<Utc>) -> bool {
        self.read_at <= now && self.until.is_none_or(|until| now < until)
    }
}

/// A channel's newest published articles since a time, as of a content revision: an article
/// page's "recent in this channel". While the revision stands no article joins or leaves a channel
/// but by the clock, and as time passes articles only leave the window, so a list read since an
/// earlier time answers a later one by cutting it.
pub struct Recent {
    pub since: DateTime<Utc>,
    pub articles: Vec<Dated>,
}

impl Recent {
    /// Whether the list holds every article of the window starting at `since`.
    pub fn covers(&self, since: DateTime<Utc>) -> bool {
        self.since <= since
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channels_recent_list_answers_later_times_only() {
        let read_at = Utc::now();
        let recent = Recent { since: read_at, articles: Vec::new() };
        assert!(recent.covers(read_at + chrono::Duration::seconds(5)), "later: cut from the kept list");
        assert!(!recent.covers(read_at - chrono::Duration::seconds(5)), "earlier: articles may be missing");
    }

    #[test]
    fn a_free_only_page_holds_until_the_next_premium_period_ends() {
        let read_at = Utc::now();
        let ends = read_at + chrono::Duration::minutes(10);
        let free = Latest { ids: Vec::new(), read_at, until: Some(ends) };
        assert!(free.holds_at(read_at) && free.holds_at(ends - chrono::Duration::milliseconds(1)));
        assert!(!free.holds_at(ends), "the period has ended: an article may have become free");
        assert!(!free.holds_at(read_at - chrono::Duration::seconds(1)), "a request older than the read");
        let timeless = Latest { ids: Vec::new(), read_at, until: None };
        assert!(timeless.holds_at(read_at + chrono::Duration::days(365)));
    }
}
