//! `searchArticles`: the reader's search and every filtered article list of the reader pages.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    cursor::Cursor,
    queries::SearchFilter,
    read::{self, Asked, Document, Found},
};
use crate::{
    error::{Error, Result},
    kept::RequestScope,
    reading::{ArticleCard, PageInfo, Reader, page_size},
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

impl From<Found> for SearchArticlesResult {
    fn from(found: Found) -> Self {
        let documents = found.documents.into_iter().map(|Document { article, highlight }| SearchDocument { article, highlight }).collect();
        SearchArticlesResult { filter: found.filter, matches: found.matches, documents, page_info: found.page_info }
    }
}

#[Object]
impl SearchArticlesResult {
    /// Every match, counted from the match index (not ranked), only when asked for.
    async fn total_count(&self, ctx: &Context<'_>) -> Result<i64> {
        match self.matches {
            Some(count) => Ok(count),
            None => read::count(RequestScope::of(ctx), &self.filter).await,
        }
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

impl SearchArticlesParams {
    /// What the parameters ask for, checked.
    fn asked(self) -> Result<Asked> {
        let query = super::search_text("searchQuery", self.search_query.as_deref())?;
        let topic = filter_id(self.category_id, "Category")?;
        let filter = SearchFilter {
            query,
            channel: filter_id(self.premium_channel_id, "Channel")?,
            date_from: self.date_from,
            date_to: self.date_to,
            tag: filter_id(self.tag_id, "Tag")?,
            desk: filter_id(self.desk_id, "Desk")?,
            contributor: filter_id(self.contributor_id, "Contributor")?,
            free_only: self.free_only,
            premium_only: self.premium_only,
            charts_only: self.display_in_chart_section,
            pinned_first: self.pinned_first,
            ..SearchFilter::default()
        };
        if filter.free_only && filter.premium_only {
            return Err(Error::field("freeOnly", "Choose free or premium, not both"));
        }
        Ok(Asked { filter, topic, only_my_subscriptions: self.only_my_subscriptions })
    }
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
        let asked = params.unwrap_or_default().asked()?;
        Ok(read::search(RequestScope::of(ctx), &reader, asked, after.as_ref(), limit).await?.into())
    }
}
