//! The reader side read through what the server keeps (`kept`). Cards, by article and card
//! revision (migration 0018): every change to what a card shows moves the article's revision in the
//! writing transaction, and each list statement reads the revisions with its ids, so a kept card is
//! the card of exactly the revision the list saw, on every server, with no notification to wait
//! for. Each channel's recent articles, pages of the latest articles and article pages, by the
//! content revision (0019); a reader's followed topics and recommendations, by their reading
//! revision (0021).

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::{
    ArticleCard, Reader,
    queries::{self, ArticleRow, Dated, LatestFilter, Listed},
};
use crate::{articles::model::ArticleState, error::Result, kept::RequestScope};

/// The size in memory of a published article's page, roughly: the body and summary, and the rest's
/// strings. A page is kept by article at the content revision, which every change to what it shows
/// moves (0018–0020), and at the topics' revision, which its root topics follow. Its sidebar
/// promotion is picked from the kept ones per request (at random, among those not expired by then).
pub fn page_weight(row: &ArticleRow) -> usize {
    row.html.len() + row.summary.as_ref().map_or(0, String::len) + 2048
}

/// The cards of `listed`, in its order: those kept at their revision from memory, the others read
/// in one statement (and kept).
pub async fn cards(scope: &RequestScope, reader: &Reader, listed: &[Listed]) -> Result<Vec<ArticleCard>> {
    if listed.is_empty() {
        return Ok(Vec::new());
    }
    let state = scope.state();
    let wanted = listed.iter().map(|item| (item.article_id.clone(), item.card_revision));
    let rows = state.kept.cards.find_all_or_read(wanted, async |missing: Vec<String>| {
        let rows = queries::card_rows(&state.pool, &missing).await?;
        Ok::<_, sqlx::Error>(rows.into_iter().map(|row| (row.article_id.clone(), row.card_revision, Arc::new(row))).collect())
    });
    let (mut rows, topics) = tokio::try_join!(async { Ok(rows.await?) }, scope.topics())?;
    Ok(listed.iter().filter_map(|item| rows.remove(&item.article_id)).map(|row| ArticleCard::new(&row, reader, &topics)).collect())
}

/// A page of the latest published articles: kept at the request's content revision while it holds
/// (`Latest`), else read and kept.
pub async fn latest_page(scope: &RequestScope, filter: &LatestFilter<'_>, now: DateTime<Utc>) -> Result<Arc<Latest>> {
    let state = scope.state();
    let revision = scope.revisions().await?.content;
    let read = async {
        let until = if filter.free_only { queries::next_premium_end(&state.pool).await? } else { None };
        Ok::<_, sqlx::Error>(Arc::new(Latest { ids: queries::latest_ids(&state.pool, filter).await?, read_at: now, until }))
    };
    Ok(state.kept.latest_pages.find_or_read(filter.key(), revision, |latest| latest.holds_at(now), read).await?)
}

/// A channel's newest published articles since `since`, at most `limit`: kept at the request's
/// content revision (`Recent`), else read.
pub async fn recent_in_channel(scope: &RequestScope, channel_id: &str, since: DateTime<Utc>, limit: i64) -> Result<Arc<Recent>> {
    let state = scope.state();
    let revision = scope.revisions().await?.content;
    let read = async {
        let articles = queries::newest_in_channel(&state.pool, channel_id, since, limit).await?;
        Ok::<_, sqlx::Error>(Arc::new(Recent { since, articles }))
    };
    Ok(state.kept.channel_recent_articles.find_or_read(channel_id.to_owned(), revision, |recent| recent.covers(since), read).await?)
}

/// An article with everything its page shows: a published one kept at the request's content and
/// topics revisions (`page_weight` says why both), else read (and kept when published: the
/// content revision does not follow other articles).
pub async fn article_page(scope: &RequestScope, id: &str) -> Result<Option<Arc<ArticleRow>>> {
    let state = scope.state();
    let revisions = scope.revisions().await?;
    let revision = (revisions.content, revisions.topics);
    if let Some(row) = state.kept.article_pages.find(id, revision) {
        return Ok(Some(row));
    }
    let Some(row) = queries::article(&state.pool, id).await?.map(Arc::new) else {
        return Ok(None);
    };
    if row.state == ArticleState::Published.as_str() {
        state.kept.article_pages.keep(id.to_owned(), revision, row.clone());
    }
    Ok(Some(row))
}

/// The reader's recommended articles (a page of them, among their active `channels`): kept by
/// reader, page and channels at their reading and the content revisions, else read.
pub async fn recommended_for(scope: &RequestScope, reader: &Reader, channels: &[String], take: i64, skip: i64) -> Result<Vec<ArticleCard>> {
    let state = scope.state();
    let revisions = scope.revisions().await?;
    let key = format!("{}/{take}/{skip}/{}", reader.user_id, channels.join(","));
    let read = async { Ok::<_, sqlx::Error>(Arc::new(queries::recommended_ids(&state.pool, &reader.user_id, channels, take, skip).await?)) };
    let ids = state.kept.recommended.find_or_read(key, (revisions.reading, revisions.content), |_| true, read).await?;
    cards(scope, reader, &ids).await
}

/// The reader's followed topics (id and name) by name: kept at their reading and the topics'
/// revisions (names), else read.
pub async fn followed_topics_of(scope: &RequestScope, user_id: &str) -> Result<Arc<Vec<(String, String)>>> {
    let state = scope.state();
    let revisions = scope.revisions().await?;
    let read = async { Ok::<_, sqlx::Error>(Arc::new(queries::followed_topics(&state.pool, user_id).await?)) };
    Ok(state.kept.followed_topics.find_or_read(user_id.to_owned(), (revisions.reading, revisions.topics), |_| true, read).await?)
}

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
