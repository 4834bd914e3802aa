//! `searchArticles`: the reader's search and every filtered article list of the reader pages.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    cache::PageKey,
    cursor::Cursor,
    queries::{self, MARK_END, MARK_START, Page, Ranking, SearchFilter},
    snippets::SnippetKey,
};
use crate::{
    db::cancel_if_dropped,
    error::{Error, Result},
    graphql::app_state,
    reading::{ArticleCard, PageInfo, Reader, cards, page_size, queries::Listed},
    revisions::request_revisions,
    validation::optional_id,
};

#[derive(InputObject, Default)]
pub struct SearchArticlesParams {
    category_id: Option<ID>,
    premium_channel_id: Option<ID>,
    date_from: Option<DateTime<Utc>>,
    date_to: Option<DateTime<Utc>>,
    tag_id: Option<ID>,
    desk_id: Option<ID>,
    contributor_id: Option<ID>,
    #[graphql(default)]
    only_my_subscriptions: bool,
    /// websearch syntax: "a phrase", OR, -word.
    search_query: Option<String>,
    #[graphql(default)]
    free_only: bool,
    #[graphql(default)]
    premium_only: bool,
    #[graphql(default)]
    display_in_chart_section: bool,
    #[graphql(default)]
    pinned_first: bool,
}

#[derive(SimpleObject)]
pub struct SearchDocument {
    article: ArticleCard,
    /// The matching text with the matched words in <mark>…</mark> (HTML-escaped otherwise): from
    /// the summary, and the body only when the caller may read the article in full. Null without a
    /// search query, or when no word matched there (the title alone: the card shows its summary).
    highlight: Option<String>,
}

pub struct SearchArticlesResult {
    filter: SearchFilter,
    /// Every match's count, when reading the page took it.
    matches: Option<i64>,
    documents: Vec<SearchDocument>,
    page_info: PageInfo,
}

#[Object]
impl SearchArticlesResult {
    /// Every match, counted from the match index (not ranked), only when asked for.
    async fn total_count(&self, ctx: &Context<'_>) -> Result<i64> {
        if let Some(count) = self.matches {
            return Ok(count);
        }
        let state = app_state(ctx);
        let count = async || cancel_if_dropped(&state.pool, async |conn| queries::count(conn, &self.filter).await).await;
        if !self.filter.is_timeless() {
            return Ok(count().await?);
        }
        let revision = request_revisions(ctx).await?.content;
        if let Some(count) = state.searches.count(revision, &self.filter) {
            return Ok(count);
        }
        let count = count().await?;
        state.searches.keep_count(revision, self.filter.clone(), count);
        Ok(count)
    }

    async fn page_info(&self) -> &PageInfo {
        &self.page_info
    }

    async fn documents(&self) -> &[SearchDocument] {
        &self.documents
    }
}

/// A filter id: NOT_FOUND when it is not an object id (it could match nothing).
fn filter_id(id: Option<ID>, entity: &'static str) -> Result<Option<String>> {
    optional_id(id.as_ref().map(|id| id.as_str()), entity)
}

/// A snippet with its marks made `<mark>` tags and everything else HTML-escaped.
fn highlight_html(snippet: &str) -> String {
    html_escape::encode_text(snippet.trim()).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>")
}

/// The snippets of `found` (listed at the revisions of `listed`) by article id: kept ones from
/// memory, the others read in one statement and kept.
async fn snippets(ctx: &Context<'_>, listed: &[Listed], found: &[ArticleCard], words: &str) -> Result<HashMap<String, Arc<str>>> {
    let state = app_state(ctx);
    let revisions: HashMap<&str, i64> = listed.iter().map(|item| (item.article_id.as_str(), item.card_revision)).collect();
    let keys = found
        .iter()
        .filter_map(|card| {
            Some(SnippetKey {
                article_id: card.id.clone(),
                card_revision: *revisions.get(card.id.as_str())?,
                with_body: card.can_see_full_version,
                words: words.to_owned(),
            })
        })
        .collect();
    let (mut kept, missing) = state.snippets.find(keys);
    if !missing.is_empty() {
        let ids: Vec<String> = missing.iter().map(|key| key.article_id.clone()).collect();
        let with_body: Vec<bool> = missing.iter().map(|key| key.with_body).collect();
        let read = cancel_if_dropped(&state.pool, async |conn| queries::snippets(conn, &ids, &with_body, words).await).await?;
        for (article_id, card_revision, with_body, snippet) in read {
            let snippet: Arc<str> = snippet.into();
            let key = SnippetKey { article_id: article_id.clone(), card_revision, with_body, words: words.to_owned() };
            state.snippets.keep(key, snippet.clone());
            kept.insert(article_id, snippet);
        }
    }
    Ok(kept)
}

/// A page of the search: kept at the request's content revision, else read (and kept). Its
/// statements stop when the request is dropped (`cancel_if_dropped`).
async fn read_page(ctx: &Context<'_>, filter: &SearchFilter, after: Option<&Cursor>, limit: i64) -> Result<Arc<Page>> {
    let state = app_state(ctx);
    let ranking = ranking(ctx).await?;
    let read = async || cancel_if_dropped(&state.pool, async |conn| queries::page(conn, filter, ranking, after, limit).await).await;
    let Some(key) = PageKey::of(filter, ranking, after, limit) else {
        return Ok(Arc::new(read().await?));
    };
    let revision = request_revisions(ctx).await?.content;
    if let Some(page) = state.searches.page(revision, &key) {
        return Ok(page);
    }
    let page = Arc::new(read().await?);
    state.searches.keep_page(revision, key, page.clone());
    Ok(page)
}

/// Whether `words` make a query at all: asked of PostgreSQL's parser once per distinct words.
async fn is_meaningful(ctx: &Context<'_>, words: &str) -> Result<bool> {
    let state = app_state(ctx);
    if let Some(meaningful) = state.searches.meaningful(words) {
        return Ok(meaningful);
    }
    let meaningful = queries::is_meaningful(&state.pool, words).await?;
    state.searches.keep_meaningful(words, meaningful);
    Ok(meaningful)
}

async fn ranking(ctx: &Context<'_>) -> Result<Ranking> {
    let state = app_state(ctx);
    Ok(*state.search_ranking.get_or_try_init(|| queries::ranking_in_use(&state.pool)).await?)
}

#[derive(Default)]
pub struct SearchQuery;

#[Object]
impl SearchQuery {
    /// Published articles: full-text search and filters; by relevance with a query, else newest
    /// first; keyset cursor paging (`after` is a previous `pageInfo.endCursor`).
    async fn search_articles(
        &self,
        ctx: &Context<'_>,
        params: Option<SearchArticlesParams>,
        #[graphql(default = 9)] first: i32,
        after: Option<String>,
    ) -> Result<SearchArticlesResult> {
        let reader = Reader::of(ctx).await?;
        let limit = page_size(first)?;
        let after = after.as_deref().filter(|a| !a.trim().is_empty()).map(Cursor::decode).transpose()?;
        let params = params.unwrap_or_default();
        let pool = &app_state(ctx).pool;
        let mut query = super::search_text("searchQuery", params.search_query.as_deref())?;
        if let Some(words) = &query
            && !is_meaningful(ctx, words).await?
        {
            // Stop words alone make an empty query: search as if nothing was typed.
            query = None;
        }
        let topics = match filter_id(params.category_id, "Category")? {
            Some(id) => Some(crate::reading::queries::topic_subtree(pool, &id).await?),
            None => None,
        };
        let channels = if params.only_my_subscriptions { Some(reader.active_channels(ctx).await?) } else { None };
        let filter = SearchFilter {
            topics,
            channel: filter_id(params.premium_channel_id, "Channel")?,
            date_from: params.date_from,
            date_to: params.date_to,
            tag: filter_id(params.tag_id, "Tag")?,
            desk: filter_id(params.desk_id, "Desk")?,
            contributor: filter_id(params.contributor_id, "Contributor")?,
            channels,
            body_channels: query.as_ref().and_then(|_| reader.full_channels()),
            query,
            free_only: params.free_only,
            premium_only: params.premium_only,
            charts_only: params.display_in_chart_section,
            pinned_first: params.pinned_first,
        };
        if filter.free_only && filter.premium_only {
            return Err(Error::field("freeOnly", "Choose free or premium, not both"));
        }
        // One more row than the page tells whether another page follows.
        let page = read_page(ctx, &filter, after.as_ref(), limit + 1).await?;
        let (mut hits, matches) = (page.hits.clone(), page.matches);
        let has_next_page = hits.len() as i64 > limit;
        hits.truncate(limit as usize);
        let end_cursor = hits.last().map(|hit| hit.cursor.encode());
        let listed: Vec<_> = hits.into_iter().map(|hit| hit.article).collect();
        let found = cards(ctx, &reader, &listed).await?;
        let mut snippets = match &filter.query {
            Some(words) if !found.is_empty() => snippets(ctx, &listed, &found, words).await?,
            _ => HashMap::new(),
        };
        let documents = found
            .into_iter()
            .map(|article| {
                // Words matched in the title alone leave the snippet without a mark: the card then
                // shows its summary, as it does without a search.
                let highlight = snippets.remove(&article.id).filter(|s| s.contains(MARK_START)).map(|s| highlight_html(&s));
                SearchDocument { article, highlight }
            })
            .collect();
        Ok(SearchArticlesResult { filter, matches, documents, page_info: PageInfo { end_cursor, has_next_page } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_escape_everything_but_their_marks() {
        let snippet = format!("a <b>&{MARK_START}copper{MARK_END} price");
        assert_eq!(highlight_html(&snippet), "a &lt;b&gt;&amp;<mark>copper</mark> price");
    }
}
