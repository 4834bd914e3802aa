//! Search read through what the server keeps (`kept`). Pages and totals are kept at the
//! published content's revision (migration 0019: every statement that changes a published article,
//! its links or anything its card shows moves it in the writing transaction): a channel page or a
//! popular search asked again is served without reading the articles; the first request after any
//! change reads them again. Snippets are kept at their article's card revision (0018), which moves
//! with every edit. Which words make a query at all never changes: kept without a revision.
//!
//! Filters that depend on the clock as well (free or premium only: a premium period ends by
//! itself) are never kept.
//!
//! A reader's search is keyed by the channels whose bodies it may match as well (the filter's
//! `body_channels`): staff, and readers opened to other channels, never share a page or a count.
//! The clock matters there too, but only one way: an article whose premium period ends becomes
//! matchable by its body, so a kept page misses such a match until the next change, and never
//! shows one the reader may not match.

use std::{collections::HashMap, sync::Arc};

use super::{
    cursor::Cursor,
    queries::{self, MARK_END, MARK_START, Page, Ranking, SearchFilter},
};
use crate::{
    db::cancel_if_dropped,
    error::Result,
    kept::RequestScope,
    reading::{self, ArticleCard, PageInfo, Reader, queries::Listed},
    state::AppState,
};

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

/// A snippet depends on the article's text (its card revision), the words searched and whether the
/// caller may read the body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SnippetKey {
    pub article_id: String,
    pub with_body: bool,
    pub words: String,
}

/// What a caller asks a search for, checked (ids are object ids, the words bounded): the filter
/// as far as the parameters say it, and what `filter` completes it with.
pub struct Asked {
    /// Its `topics`, `channels` and `body_channels` are left for `filter` to fill.
    pub filter: SearchFilter,
    /// A topic: the search selects it and its sub-topics.
    pub topic: Option<String>,
    pub only_my_subscriptions: bool,
}

/// A found article and its highlight.
pub struct Document {
    pub article: ArticleCard,
    /// The matching text with the matched words in <mark>…</mark> (HTML-escaped otherwise): none
    /// without words, or when no word matched there (the title alone: the card shows its summary).
    pub highlight: Option<String>,
}

/// A page of a search, and what it selected (for its total).
pub struct Found {
    pub filter: SearchFilter,
    pub documents: Vec<Document>,
    pub page_info: PageInfo,
    /// Every match's count, when reading the page took it.
    pub matches: Option<i64>,
}

/// The page of what `asked` selects after `after`, as `reader` sees it: the cards and, with words,
/// each one's highlight.
pub async fn search(scope: &RequestScope, reader: &Reader, asked: Asked, after: Option<&Cursor>, limit: i64) -> Result<Found> {
    let filter = filter(scope, reader, asked).await?;
    // One more row than the page tells whether another page follows.
    let page = kept_page(scope, &filter, after, limit + 1).await?;
    let mut hits = page.hits.clone();
    let has_next_page = hits.len() as i64 > limit;
    hits.truncate(limit as usize);
    let end_cursor = hits.last().map(|hit| hit.cursor.encode());
    let listed: Vec<Listed> = hits.into_iter().map(|hit| hit.article).collect();
    let found = reading::read::cards(scope, reader, &listed).await?;
    let mut snippets = match &filter.query {
        Some(words) if !found.is_empty() => kept_snippets(scope.state(), &listed, &found, words).await?,
        _ => HashMap::new(),
    };
    let documents = found
        .into_iter()
        .map(|article| {
            // Words matched in the title alone leave the snippet without a mark: the card then
            // shows its summary, as it does without a search.
            let highlight = snippets.remove(&article.id).filter(|s| s.contains(MARK_START)).map(|s| highlight_html(&s));
            Document { article, highlight }
        })
        .collect();
    Ok(Found { filter, documents, page_info: PageInfo { end_cursor, has_next_page }, matches: page.matches })
}

/// The filter of what `asked` selects for `reader`: stop words alone search as if nothing was
/// typed; a topic selects its sub-topics too; the words match the bodies only of what the reader
/// may read in full.
async fn filter(scope: &RequestScope, reader: &Reader, asked: Asked) -> Result<SearchFilter> {
    let state = scope.state();
    let mut filter = asked.filter;
    filter.query = match filter.query.take() {
        Some(words) if makes_query(state, &words).await? => Some(words),
        _ => None,
    };
    filter.topics = match &asked.topic {
        Some(id) => Some(reading::queries::topic_subtree(&state.pool, id).await?),
        None => None,
    };
    filter.channels = if asked.only_my_subscriptions { Some(reader.active_channels(scope).await?) } else { None };
    filter.body_channels = filter.query.as_ref().and_then(|_| reader.full_channels());
    Ok(filter)
}

/// Every match of `filter`, counted from the match index (not ranked): kept at the request's
/// content revision, else counted (and kept) unless the filter depends on the clock.
pub async fn count(scope: &RequestScope, filter: &SearchFilter) -> Result<i64> {
    let state = scope.state();
    let count = async || cancel_if_dropped(&state.pool, async |conn| queries::count(conn, filter).await).await;
    if !filter.is_timeless() {
        return Ok(count().await?);
    }
    let revision = scope.revisions().await?.content;
    let read = async { Ok::<_, sqlx::Error>(Arc::new(count().await?)) };
    Ok(*state.kept.search_counts.find_or_read(filter.clone(), revision, |_| true, read).await?)
}

/// A page of the search: kept at the request's content revision, else read (and kept, with its
/// count when reading it took one). Its statements stop when the request is dropped
/// (`cancel_if_dropped`).
async fn kept_page(scope: &RequestScope, filter: &SearchFilter, after: Option<&Cursor>, limit: i64) -> Result<Arc<Page>> {
    let state = scope.state();
    let ranking = ranking(state).await?;
    let read = async || cancel_if_dropped(&state.pool, async |conn| queries::page(conn, filter, ranking, after, limit).await).await;
    let Some(key) = PageKey::of(filter, ranking, after, limit) else {
        return Ok(Arc::new(read().await?));
    };
    let revision = scope.revisions().await?.content;
    let kept = &state.kept;
    let read = async {
        let page = Arc::new(read().await?);
        if let Some(count) = page.matches {
            kept.search_counts.keep(filter.clone(), revision, Arc::new(count));
        }
        Ok::<_, sqlx::Error>(page)
    };
    Ok(kept.search_pages.find_or_read(key, revision, |_| true, read).await?)
}

/// The snippets of `found` (listed at the revisions of `listed`) by article id: kept ones from
/// memory, the others read in one statement and kept.
async fn kept_snippets(state: &AppState, listed: &[Listed], found: &[ArticleCard], words: &str) -> Result<HashMap<String, Arc<str>>> {
    let revisions: HashMap<&str, i64> = listed.iter().map(|item| (item.article_id.as_str(), item.card_revision)).collect();
    let wanted = found.iter().filter_map(|card| {
        let key = SnippetKey { article_id: card.id.clone(), with_body: card.can_see_full_version, words: words.to_owned() };
        Some((key, *revisions.get(card.id.as_str())?))
    });
    let found = state
        .kept
        .search_snippets
        .find_all_or_read(wanted, async |missing: Vec<SnippetKey>| {
            let ids: Vec<String> = missing.iter().map(|key| key.article_id.clone()).collect();
            let with_body: Vec<bool> = missing.iter().map(|key| key.with_body).collect();
            let read = cancel_if_dropped(&state.pool, async |conn| queries::snippets(conn, &ids, &with_body, words).await).await?;
            Ok::<_, sqlx::Error>(
                read.into_iter()
                    .map(|(article_id, card_revision, with_body, snippet)| {
                        (SnippetKey { article_id, with_body, words: words.to_owned() }, card_revision, Arc::from(snippet))
                    })
                    .collect(),
            )
        })
        .await?;
    Ok(found.into_iter().map(|(key, snippet)| (key.article_id, snippet)).collect())
}

/// A snippet with its marks made `<mark>` tags and everything else HTML-escaped.
fn highlight_html(snippet: &str) -> String {
    html_escape::encode_text(snippet.trim()).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>")
}

/// Whether `words` make a query at all: asked of PostgreSQL's parser once per distinct words.
pub async fn makes_query(state: &AppState, words: &str) -> Result<bool> {
    let read = async { Ok::<_, sqlx::Error>(Arc::new(queries::is_meaningful(&state.pool, words).await?)) };
    Ok(*state.kept.search_words.find_or_read(words.to_owned(), (), |_| true, read).await?)
}

/// How this server ranks matches: found out on the first search (RUM index present or not).
pub async fn ranking(state: &AppState) -> Result<Ranking> {
    Ok(*state.search_ranking.get_or_try_init(|| queries::ranking_in_use(&state.pool)).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_escape_everything_but_their_marks() {
        let snippet = format!("a <b>&{MARK_START}copper{MARK_END} price");
        assert_eq!(highlight_html(&snippet), "a &lt;b&gt;&amp;<mark>copper</mark> price");
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
