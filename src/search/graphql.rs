//! `searchArticles`: the reader's search and every filtered article list of the reader pages.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    cursor::Cursor,
    queries::{self, MARK_END, MARK_START, Ranking, SearchFilter},
};
use crate::{
    error::{Error, Result},
    graphql::app_state,
    reading::{ArticleCard, PageInfo, Reader, cards, page_size},
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
    /// The matching text with the matched words in <mark>…</mark> (HTML-escaped otherwise); taken
    /// from the body only when the caller may read the article in full. Null without a search query.
    highlight: Option<String>,
}

pub struct SearchArticlesResult {
    filter: SearchFilter,
    documents: Vec<SearchDocument>,
    page_info: PageInfo,
}

#[Object]
impl SearchArticlesResult {
    /// Every match, counted from the match index (not ranked), only when asked for.
    async fn total_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(queries::count(&app_state(ctx).pool, &self.filter).await?)
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
        let mut query = params.search_query.as_deref().map(str::trim).filter(|q| !q.is_empty()).map(str::to_owned);
        if let Some(words) = &query
            && !queries::is_meaningful(pool, words).await?
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
        let mut hits = queries::page(pool, &filter, ranking(ctx).await?, after.as_ref(), limit + 1).await?;
        let has_next_page = hits.len() as i64 > limit;
        hits.truncate(limit as usize);
        let end_cursor = hits.last().map(|hit| hit.cursor.encode());
        let ids: Vec<String> = hits.into_iter().map(|hit| hit.article_id).collect();
        let found = cards(ctx, &reader, &ids).await?;
        let mut snippets = match &filter.query {
            Some(words) if !found.is_empty() => {
                let ids: Vec<String> = found.iter().map(|card| card.id.clone()).collect();
                let with_body: Vec<bool> = found.iter().map(|card| card.can_see_full_version).collect();
                queries::snippets(pool, &ids, &with_body, words).await?.into_iter().collect()
            }
            _ => std::collections::HashMap::new(),
        };
        let documents = found
            .into_iter()
            .map(|article| {
                let highlight = snippets.remove(&article.id).map(|s| highlight_html(&s));
                SearchDocument { article, highlight }
            })
            .collect();
        Ok(SearchArticlesResult { filter, documents, page_info: PageInfo { end_cursor, has_next_page } })
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
