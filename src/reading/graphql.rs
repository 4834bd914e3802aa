//! GraphQL of the reader side (spec 3 §7): the article page, the marketing page, the reader lists,
//! browse facts, contributors, views, campaigns and registered interest. Every article answer
//! goes through `entitlement::can_see_full_version`; the body never leaves the server for a
//! reader who may not read it.

use std::sync::Arc;

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Duration, Months, NaiveDate, Utc};
use rand::seq::SliceRandom;

use super::{
    entitlement::{ArticleFacts, can_see_full_version},
    queries::{self, ArticleRow, CardRow, ChannelFact, DeskFact, LatestFilter, Listed, NewView},
    read, service,
};
use crate::{
    articles::{ArticleChannel, ArticlePublisher, ArticleTag, ArticleTopic, channel, model::ArticleState, publisher, tags, topics},
    auth::{ALL_ROLES, Role, STAFF},
    channels::{ChannelObject, ChannelType, channels_by_ids},
    error::{Error, Result},
    graphql::{app_state, viewer},
    ids,
    promotions::{self, PromotionalContentCard},
    kept::RequestScope,
    subscriptions::ViewerSubscriptions,
    taxonomy::read::Topics,
    validation::optional_id,
};

/// Recent channel articles: up to 20 from the last month (spec 3 §9).
const RECENT_CHANNEL_ARTICLES: i64 = 20;
/// Trending: most viewed in the last 30 days.
const TRENDING_DAYS: i64 = 30;
const TRENDING_SIZE: i64 = 10;
/// The largest page a reader list serves.
pub const MAX_PAGE_SIZE: i64 = 50;

/// The caller as the entitlement rule sees them: their role and, for readers, their subscriptions.
pub struct Reader {
    pub role: Role,
    pub user_id: String,
    /// Read only for readers (staff see every published article in full).
    pub subscriptions: Option<Arc<ViewerSubscriptions>>,
    pub now: DateTime<Utc>,
}

impl Reader {
    /// The signed-in caller with a role (readers and staff alike).
    pub async fn of(ctx: &Context<'_>) -> Result<Reader> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(ALL_ROLES)?;
        Reader::in_scope(RequestScope::of(ctx), role, &viewer.user.user_id).await
    }

    /// The caller with `role` and the subscriptions `scope` reads for them (outside GraphQL too:
    /// a private feed, the MCP server).
    pub async fn in_scope(scope: &RequestScope, role: Role, user_id: &str) -> Result<Reader> {
        let subscriptions = if role.is_staff() { None } else { Some(scope.viewer_subscriptions().await?) };
        Ok(Reader { role, user_id: user_id.to_owned(), subscriptions, now: Utc::now() })
    }

    pub fn can_see(&self, article: &ArticleFacts<'_>) -> bool {
        let subscription = article.channel_id.zip(self.subscriptions.as_ref()).and_then(|(channel, subs)| subs.access(channel, self.now));
        can_see_full_version(Some(self.role), subscription, article, self.now)
    }

    /// Beyond the articles open to all, the channels whose articles the caller may read in full;
    /// none: every article (staff). `can_see` for a query that must decide it in SQL (the search's match).
    pub fn full_channels(&self) -> Option<Vec<String>> {
        self.subscriptions.as_ref().map(|subscriptions| subscriptions.full_channel_ids(self.now))
    }

    /// The channels the caller is actively subscribed to (staff: none of their own).
    pub async fn active_channels(&self, scope: &RequestScope) -> Result<Vec<String>> {
        let subscriptions = match &self.subscriptions {
            Some(subscriptions) => subscriptions.clone(),
            None => scope.viewer_subscriptions().await?,
        };
        Ok(subscriptions.active_channel_ids(self.now))
    }
}

fn facts<'a>(
    state: &str,
    channel_id: Option<&'a str>,
    channel_type: Option<&str>,
    is_premium: bool,
    expires: Option<DateTime<Utc>>,
) -> ArticleFacts<'a> {
    ArticleFacts {
        state: ArticleState::parse(state),
        channel_id,
        channel_type: channel_type.map(ChannelType::parse),
        is_premium,
        premium_expires_at: expires,
    }
}

/// A published article in a list. Never carries the body.
// `serial`: its fields are in memory, so they resolve one after another; resolving them concurrently
// costs a task per field (For You resolves ~1,500 fields).
#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct ArticleCard {
    #[graphql(name = "_id")]
    pub id: String,
    pub title: String,
    pub summary: Option<String>,
    pub published_by: Option<ArticlePublisher>,
    pub categories: Vec<ArticleTopic>,
    pub tags: Vec<ArticleTag>,
    pub publish_date: DateTime<Utc>,
    pub last_edited: DateTime<Utc>,
    /// When it first reached readers (never changes, even after archive and republish).
    pub first_published_at: Option<DateTime<Utc>>,
    /// When a later publication last changed what readers see (title, summary, body); null when none has.
    pub updated_at: Option<DateTime<Utc>>,
    pub is_premium: bool,
    pub is_premium_active: bool,
    pub premium_channel: Option<ArticleChannel>,
    /// The caller may read it in full (the server's entitlement rule).
    pub can_see_full_version: bool,
    /// Under a locked topic.
    pub is_locked: bool,
    pub is_pinned: bool,
    pub display_in_chart_section: bool,
}

impl ArticleCard {
    pub fn new(row: &CardRow, reader: &Reader, all_topics: &Topics) -> ArticleCard {
        let facts =
            facts("Published", row.premium_channel_id.as_deref(), row.channel_type.as_deref(), row.is_premium, row.premium_expires_at);
        ArticleCard {
            can_see_full_version: reader.can_see(&facts),
            is_premium_active: facts.is_premium_active(reader.now),
            published_by: publisher(row.publisher_type.as_deref(), row.publisher_id.as_deref(), row.publisher_name.as_deref()),
            premium_channel: channel(
                row.premium_channel_id.as_deref(),
                row.channel_name.as_deref(),
                row.channel_type.as_deref(),
                row.channel_state.as_deref(),
            ),
            is_locked: all_topics.any_locked(row.categories.iter().map(|c| c.id.as_str())),
            categories: topics(&row.categories),
            tags: tags(&row.tags),
            id: row.article_id.clone(),
            title: row.title.clone(),
            summary: row.summary.clone(),
            publish_date: row.publish_date,
            last_edited: row.updated_at,
            first_published_at: row.first_published_at,
            updated_at: row.content_updated_at,
            is_premium: row.is_premium,
            is_pinned: row.is_pinned,
            display_in_chart_section: row.display_in_chart_section,
        }
    }
}

/// A contributor as readers see them.
#[derive(SimpleObject, Clone)]
pub struct ArticleContributor {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    position: Option<String>,
    phone: Option<String>,
    /// A photo is served at /contributor-profile-picture/{_id}.
    has_profile_picture: bool,
}

#[derive(SimpleObject, Clone)]
pub struct RandomisedPromotionalContent {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    link: Option<String>,
    sidebar_image: Option<String>,
}

/// An article as a reader sees it (spec 3 §3 'Article (reader view)').
pub struct PublishedArticle {
    row: Arc<ArticleRow>,
    can_see: bool,
    now: DateTime<Utc>,
}

impl PublishedArticle {
    fn facts(&self) -> ArticleFacts<'_> {
        row_facts(&self.row)
    }
}

/// What the entitlement rule needs of an article's page row.
pub fn row_facts(row: &ArticleRow) -> ArticleFacts<'_> {
    facts(&row.state, row.premium_channel_id.as_deref(), row.channel_type.as_deref(), row.is_premium, row.premium_expires_at)
}

/// A published article and whether the caller may read it; ARTICLE_NOT_FOUND for a bad id, an
/// unknown article, or one that is not published.
async fn published(ctx: &Context<'_>, reader: &Reader, id: &str) -> Result<(Arc<ArticleRow>, bool)> {
    let id = optional_id(Some(id), "Article").map_err(|_| Error::ArticleNotFound)?.ok_or(Error::ArticleNotFound)?;
    let row = read::article_page(RequestScope::of(ctx), &id).await?.ok_or(Error::ArticleNotFound)?;
    if row.state != ArticleState::Published.as_str() {
        return Err(Error::ArticleNotFound);
    }
    let can_see = reader.can_see(&row_facts(&row));
    Ok((row, can_see))
}

/// A body the caller may read, with its links to uploads signed for them: the kept page is the
/// same for every reader, so the signing happens here, after it is read.
async fn signed_html(ctx: &Context<'_>, html: &str, now: DateTime<Utc>) -> Result<String> {
    if !html.contains("/uploads/") {
        return Ok(html.to_owned());
    }
    let state = app_state(ctx);
    let key = state.upload_access.key(&state.pool).await?;
    Ok(crate::uploads::access::sign_links(html, &viewer(ctx)?.user.user_id, key, now).into_owned())
}

#[Object]
impl PublishedArticle {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.article_id
    }

    async fn title(&self) -> &str {
        &self.row.title
    }

    /// The sanitised body; null when canSeeFullVersion is false (it never leaves the server then).
    /// Its links to uploads are signed for the caller (`uploads::access`).
    async fn html(&self, ctx: &Context<'_>) -> Result<Option<String>> {
        if !self.can_see {
            return Ok(None);
        }
        Ok(Some(signed_html(ctx, &self.row.html, self.now).await?))
    }

    /// The text of each PDF page its body shows, for screen readers (null when canSeeFullVersion
    /// is false, like the body).
    async fn page_texts(&self, ctx: &Context<'_>) -> Result<Option<Vec<ArticlePageText>>> {
        if !self.can_see {
            return Ok(None);
        }
        Ok(Some(page_texts(ctx, &self.row.html).await?))
    }

    async fn summary(&self) -> Option<&str> {
        self.row.summary.as_deref()
    }

    async fn published_by(&self) -> Option<ArticlePublisher> {
        let row = &self.row;
        publisher(row.publisher_type.as_deref(), row.publisher_id.as_deref(), row.publisher_name.as_deref())
    }

    async fn contributors(&self) -> Vec<ArticleContributor> {
        self.row
            .contributors
            .iter()
            .map(|c| ArticleContributor {
                id: c.id.clone(),
                name: c.name.clone(),
                position: c.position.clone(),
                phone: c.phone.clone(),
                has_profile_picture: c.has_picture,
            })
            .collect()
    }

    async fn categories(&self) -> Vec<ArticleTopic> {
        topics(&self.row.categories)
    }

    /// The root topics of its topics.
    // From the kept topic list: walking up the tree in SQL was a third of the page's statement.
    async fn root_categories(&self, ctx: &Context<'_>) -> Result<Vec<ArticleTopic>> {
        let topics = RequestScope::of(ctx).topics().await?;
        let roots = topics.roots_of(self.row.categories.iter().map(|c| c.id.as_str()));
        Ok(roots.into_iter().map(|root| ArticleTopic { id: root.category_id.clone(), name: root.name.clone() }).collect())
    }

    async fn tags(&self) -> Vec<ArticleTag> {
        tags(&self.row.tags)
    }

    async fn publish_date(&self) -> DateTime<Utc> {
        self.row.publish_date.unwrap_or(self.row.updated_at)
    }

    async fn last_edited(&self) -> DateTime<Utc> {
        self.row.updated_at
    }

    /// When it first reached readers (never changes, even after archive and republish).
    async fn first_published_at(&self) -> Option<DateTime<Utc>> {
        self.row.first_published_at
    }

    /// Its channel's and desk's disclosures, at the versions it was last published under.
    async fn disclosures(&self, ctx: &Context<'_>) -> Result<Vec<crate::disclosures::Disclosure>> {
        let rows = crate::disclosures::queries::of_published_article(&app_state(ctx).pool, &self.row.article_id).await?;
        Ok(crate::disclosures::disclosures(rows))
    }

    /// When a later publication last changed what readers see (title, summary, body); null when none has.
    async fn updated_at(&self) -> Option<DateTime<Utc>> {
        self.row.content_updated_at
    }

    async fn state(&self) -> ArticleState {
        ArticleState::parse(&self.row.state)
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    async fn is_premium(&self) -> bool {
        self.row.is_premium
    }

    async fn is_premium_active(&self) -> bool {
        self.facts().is_premium_active(self.now)
    }

    async fn premium_expiry_offset(&self) -> Option<&str> {
        self.row.premium_expiry_offset.as_deref()
    }

    async fn premium_channel(&self) -> Option<ArticleChannel> {
        let row = &self.row;
        channel(row.premium_channel_id.as_deref(), row.channel_name.as_deref(), row.channel_type.as_deref(), row.channel_state.as_deref())
    }

    /// The channel card: the channel with the caller's subscription.
    async fn premium_channel_details(&self, ctx: &Context<'_>) -> Result<Option<ChannelObject>> {
        let Some(channel_id) = &self.row.premium_channel_id else {
            return Ok(None);
        };
        Ok(channels_by_ids(ctx, std::slice::from_ref(channel_id)).await?.remove(channel_id))
    }

    async fn display_in_chart_section(&self) -> bool {
        self.row.display_in_chart_section
    }

    async fn can_see_full_version(&self) -> bool {
        self.can_see
    }

    /// One of its promotional contents (or its topics') that has not expired, picked at random;
    /// null when none. Its `link` is where a click goes (the link, or its landing page).
    async fn randomised_promotional_content(&self) -> Option<RandomisedPromotionalContent> {
        let live: Vec<_> = self.row.promotions.iter().filter(|p| p.expiry_date.is_none_or(|expiry| expiry > self.now)).collect();
        live.choose(&mut rand::thread_rng()).map(|p| RandomisedPromotionalContent {
            id: ID(p.id.clone()),
            name: p.name.clone(),
            link: promotions::service::target(&p.id, p.link.as_deref(), p.promotion_page_id.as_deref()),
            sidebar_image: p.sidebar_image.clone(),
        })
    }

    /// The promotional content its body's blocks show that has not expired (none when the body is
    /// not shown to the caller); a block whose content is not listed renders nothing.
    async fn embedded_promotional_content(&self, ctx: &Context<'_>) -> Result<Vec<PromotionalContentCard>> {
        if !self.can_see {
            return Ok(Vec::new());
        }
        promotions::embedded_cards(ctx, &self.row.html).await
    }

    /// The contact email of its publishing desk.
    async fn desk_email(&self) -> Option<&str> {
        self.row.desk_email.as_deref()
    }

    /// Under a locked topic (or a sub-topic of one).
    async fn is_locked(&self, ctx: &Context<'_>) -> Result<bool> {
        let topics = RequestScope::of(ctx).topics().await?;
        Ok(topics.any_locked(self.row.categories.iter().map(|c| c.id.as_str())))
    }

    async fn show_watermark(&self) -> bool {
        self.row.show_watermark
    }

    /// Copy and the context menu are blocked on the page (watermarked or premium articles).
    async fn block_copy(&self) -> bool {
        self.row.show_watermark || self.facts().is_premium_active(self.now)
    }

    async fn is_pinned(&self) -> bool {
        self.row.is_pinned
    }

    /// Up to 20 other articles of its channel published in the last month, newest first.
    async fn recent_channel_articles(&self, ctx: &Context<'_>) -> Result<Vec<ArticleCard>> {
        let Some(channel_id) = &self.row.premium_channel_id else {
            return Ok(Vec::new());
        };
        let reader = Reader::of(ctx).await?;
        let since = reader.now - Months::new(1);
        let recent = read::recent_in_channel(RequestScope::of(ctx), channel_id, since, RECENT_CHANNEL_ARTICLES + 1).await?;
        let others: Vec<Listed> = recent
            .articles
            .iter()
            .filter(|article| article.publish_date >= since && article.listed.article_id != self.row.article_id)
            .take(RECENT_CHANNEL_ARTICLES as usize)
            .map(|article| article.listed.clone())
            .collect();
        read::cards(RequestScope::of(ctx), &reader, &others).await
    }
}

/// The text of one PDF page shown as an image in an article's body (extracted at upload).
#[derive(SimpleObject)]
pub struct ArticlePageText {
    /// The upload name of the page's image, as the body links it.
    file_name: String,
    /// The page's number in its PDF.
    page: i32,
    text: String,
}

/// The texts of the PDF pages `html` (a body the caller may read) shows, in order.
async fn page_texts(ctx: &Context<'_>, html: &str) -> Result<Vec<ArticlePageText>> {
    let pages = crate::uploads::page_texts(&app_state(ctx).pool, html).await?;
    Ok(pages.into_iter().map(|page| ArticlePageText { file_name: page.name, page: page.page, text: page.text }).collect())
}

/// An article reached from a campaign link (spec 2 'Marketing article').
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct MarketingArticle {
    #[graphql(name = "_id")]
    id: String,
    title: String,
    /// Null when canSeeFullVersion is false.
    html: Option<String>,
    published_by: Option<ArticlePublisher>,
    tags: Vec<ArticleTag>,
    categories: Vec<ArticleTopic>,
    summary: Option<String>,
    publish_date: DateTime<Utc>,
    last_edited: DateTime<Utc>,
    /// When it first reached readers (never changes, even after archive and republish).
    first_published_at: Option<DateTime<Utc>>,
    /// When a later publication last changed what readers see; null when none has.
    updated_at: Option<DateTime<Utc>>,
    version: i32,
    state: ArticleState,
    can_see_full_version: bool,
    premium_channel: Option<ArticleChannel>,
    show_watermark: bool,
}

#[async_graphql::ComplexObject]
impl MarketingArticle {
    /// The text of each PDF page its body shows (null when the body is not shown to the caller).
    async fn page_texts(&self, ctx: &Context<'_>) -> Result<Option<Vec<ArticlePageText>>> {
        match &self.html {
            Some(html) => Ok(Some(page_texts(ctx, html).await?)),
            None => Ok(None),
        }
    }

    /// The promotional content its body's blocks show that has not expired (none when the body is
    /// not shown to the caller).
    async fn embedded_promotional_content(&self, ctx: &Context<'_>) -> Result<Vec<PromotionalContentCard>> {
        match &self.html {
            Some(html) => promotions::embedded_cards(ctx, html).await,
            None => Ok(Vec::new()),
        }
    }
}

#[derive(SimpleObject)]
pub struct PageInfo {
    pub end_cursor: Option<String>,
    pub has_next_page: bool,
}

#[derive(InputObject, Default)]
pub struct GetArticlesParams {
    #[graphql(default)]
    only_my_subscriptions: bool,
    #[graphql(default)]
    exclude_my_subscriptions: bool,
    #[graphql(default)]
    free_only: bool,
}

/// A page of a reader list; `total` is counted only when asked for.
pub struct ReaderArticlePage {
    articles: Vec<ArticleCard>,
    has_more: bool,
    channels: Vec<String>,
    params: GetArticlesParams,
}

#[Object]
impl ReaderArticlePage {
    async fn articles(&self) -> &[ArticleCard] {
        &self.articles
    }

    /// Another page follows (known without counting).
    async fn has_more(&self) -> bool {
        self.has_more
    }

    /// Every matching article: a count, so ask for it only where it is shown.
    async fn total(&self, ctx: &Context<'_>) -> Result<i64> {
        let filter = latest_filter(&self.channels, &self.params, 0, 0);
        Ok(queries::count_latest(&app_state(ctx).pool, &filter).await?)
    }
}

fn latest_filter<'a>(channels: &'a [String], params: &GetArticlesParams, limit: i64, offset: i64) -> LatestFilter<'a> {
    LatestFilter {
        channels,
        only_mine: params.only_my_subscriptions,
        exclude_mine: params.exclude_my_subscriptions,
        free_only: params.free_only,
        limit,
        offset,
    }
}

#[derive(SimpleObject)]
pub struct DeskSummary {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    email: Option<String>,
}

impl From<DeskFact> for DeskSummary {
    fn from(d: DeskFact) -> Self {
        DeskSummary { id: d.id, name: d.name, email: d.email }
    }
}

fn article_channel(c: ChannelFact) -> ArticleChannel {
    ArticleChannel { id: c.id, name: c.name, r#type: ChannelType::parse(&c.channel_type), state: c.state }
}

#[derive(SimpleObject)]
pub struct BrowseStat {
    desks: Vec<DeskSummary>,
    tags: Vec<ArticleTag>,
    /// Most viewed in the last 30 days.
    trending_articles: Vec<ArticleCard>,
    channels: Vec<ArticleChannel>,
}

#[derive(SimpleObject)]
pub struct ArchiveMonth {
    /// year-month, e.g. 2026-11
    date_id: String,
    year: i32,
    month: i32,
    article_count: i64,
}

#[derive(InputObject)]
pub struct ChannelStatsQuery {
    channel_id: ID,
    /// Default: 30 days ago.
    from: Option<DateTime<Utc>>,
}

#[derive(SimpleObject)]
pub struct ChannelStats {
    channel_id: String,
    /// Full reads and previews of its articles since `from`.
    views: i64,
    /// Most viewed since `from`.
    trending_articles: Vec<ArticleCard>,
}

/// A contributor's public page.
#[derive(SimpleObject)]
pub struct Contributor {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    position: Option<String>,
    phone: Option<String>,
    has_profile_picture: bool,
    /// Active channels they own or have published in.
    channels: Vec<ArticleChannel>,
    /// Desks they are a member of.
    desks: Vec<DeskSummary>,
}

impl From<queries::ContributorRow> for Contributor {
    fn from(row: queries::ContributorRow) -> Self {
        Contributor {
            id: row.user_id,
            name: row.name,
            position: row.position,
            phone: row.phone,
            has_profile_picture: row.has_picture,
            channels: row.channels.0.into_iter().map(article_channel).collect(),
            desks: row.desks.0.into_iter().map(DeskSummary::from).collect(),
        }
    }
}

/// A topic id's subtree, or NOT_FOUND ("A category not found throws an error", spec 3 §8).
async fn subtree(ctx: &Context<'_>, category_id: Option<&ID>) -> Result<Option<Vec<String>>> {
    let Some(id) = optional_id(category_id.map(|id| id.as_str()), "Category")? else {
        return Ok(None);
    };
    let topics = queries::topic_subtree(&app_state(ctx).pool, &id).await?;
    if topics.is_empty() {
        return Err(Error::NotFound("Category"));
    }
    Ok(Some(topics))
}

/// A page size for reader lists: 1 to 50.
pub fn page_size(first: i32) -> Result<i64> {
    match i64::from(first) {
        n @ 1..=MAX_PAGE_SIZE => Ok(n),
        _ => Err(Error::field("first", format!("Must be between 1 and {MAX_PAGE_SIZE}"))),
    }
}

#[derive(Default)]
pub struct ReadingQuery;

#[Object]
impl ReadingQuery {
    /// The caller's reading statement for `month` (yyyy-mm, UTC): each article they opened, with
    /// its channel, first read, reads, and whether any read was in full. (CSV:
    /// `GET /export/reading-statement.csv?month=`.)
    async fn my_reading_statement(&self, ctx: &Context<'_>, month: String) -> Result<Vec<super::statement::ReadingStatementLine>> {
        let viewer = viewer(ctx)?;
        viewer.require(crate::auth::ALL_ROLES)?;
        super::statement::lines(&app_state(ctx).pool, &viewer.user.user_id, &month).await
    }

    /// Published articles newest first, by page (from 1).
    async fn get_articles(
        &self,
        ctx: &Context<'_>,
        params: Option<GetArticlesParams>,
        #[graphql(default = 9)] first: i32,
        #[graphql(default = 1)] page: i32,
    ) -> Result<ReaderArticlePage> {
        let reader = Reader::of(ctx).await?;
        let limit = page_size(first)?;
        if page < 1 {
            return Err(Error::field("page", "Must be 1 or more"));
        }
        let params = params.unwrap_or_default();
        let channels =
            if params.only_my_subscriptions || params.exclude_my_subscriptions { reader.active_channels(RequestScope::of(ctx)).await? } else { Vec::new() };
        // One more id than the page tells whether another page follows.
        let filter = latest_filter(&channels, &params, limit + 1, limit * i64::from(page - 1));
        let latest = read::latest_page(RequestScope::of(ctx), &filter, reader.now).await?;
        let has_more = latest.ids.len() as i64 > limit;
        let articles = read::cards(RequestScope::of(ctx), &reader, &latest.ids[..latest.ids.len().min(limit as usize)]).await?;
        Ok(ReaderArticlePage { articles, has_more, channels, params })
    }

    /// A published article (ARTICLE_NOT_FOUND otherwise); the body only when the caller may read it.
    async fn find_published_article_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<PublishedArticle> {
        let reader = Reader::of(ctx).await?;
        let (row, can_see) = published(ctx, &reader, &id).await?;
        Ok(PublishedArticle { row, can_see, now: reader.now })
    }

    async fn find_marketing_article_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<MarketingArticle> {
        let reader = Reader::of(ctx).await?;
        let (row, can_see) = published(ctx, &reader, &id).await?;
        let html = if can_see { Some(signed_html(ctx, &row.html, reader.now).await?) } else { None };
        Ok(MarketingArticle {
            html,
            published_by: publisher(row.publisher_type.as_deref(), row.publisher_id.as_deref(), row.publisher_name.as_deref()),
            premium_channel: channel(
                row.premium_channel_id.as_deref(),
                row.channel_name.as_deref(),
                row.channel_type.as_deref(),
                row.channel_state.as_deref(),
            ),
            tags: tags(&row.tags),
            categories: topics(&row.categories),
            publish_date: row.publish_date.unwrap_or(row.updated_at),
            id: row.article_id.clone(),
            title: row.title.clone(),
            summary: row.summary.clone(),
            last_edited: row.updated_at,
            first_published_at: row.first_published_at,
            updated_at: row.content_updated_at,
            version: row.version,
            state: ArticleState::parse(&row.state),
            can_see_full_version: can_see,
            show_watermark: row.show_watermark,
        })
    }

    /// Desks, tags, channels and trending articles of a topic (and its sub-topics), or of everything.
    async fn get_browse_stat(&self, ctx: &Context<'_>, category_id: Option<ID>) -> Result<BrowseStat> {
        let reader = Reader::of(ctx).await?;
        let topics = subtree(ctx, category_id.as_ref()).await?;
        let pool = &app_state(ctx).pool;
        let facts = queries::browse_facts(pool, topics.as_deref()).await?;
        let since = reader.now - Duration::days(TRENDING_DAYS);
        let trending = queries::trending_ids(pool, since, None, topics.as_deref(), TRENDING_SIZE).await?;
        Ok(BrowseStat {
            desks: facts.desks.0.into_iter().map(DeskSummary::from).collect(),
            tags: tags(&facts.tags),
            channels: facts.channels.0.into_iter().map(article_channel).collect(),
            trending_articles: read::cards(RequestScope::of(ctx), &reader, &trending).await?,
        })
    }

    /// Months with published articles, newest first.
    async fn get_last_months_with_articles(&self, ctx: &Context<'_>, category_id: Option<ID>) -> Result<Vec<ArchiveMonth>> {
        viewer(ctx)?.require(ALL_ROLES)?;
        let topics = subtree(ctx, category_id.as_ref()).await?;
        let months = queries::months_with_articles(&app_state(ctx).pool, topics.as_deref()).await?;
        Ok(months
            .into_iter()
            .filter_map(|m| {
                let date = NaiveDate::parse_from_str(&format!("{}-01", m.date_id), "%Y-%m-%d").ok()?;
                Some(ArchiveMonth {
                    year: date.format("%Y").to_string().parse().ok()?,
                    month: date.format("%m").to_string().parse().ok()?,
                    date_id: m.date_id,
                    article_count: m.article_count,
                })
            })
            .collect())
    }

    /// Published articles of the channel flagged for the chart section, newest first.
    async fn get_charts_articles(&self, ctx: &Context<'_>, premium_channel_id: ID) -> Result<Vec<ArticleCard>> {
        let reader = Reader::of(ctx).await?;
        let channel_id = optional_id(Some(&premium_channel_id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
        let ids = queries::chart_ids(&app_state(ctx).pool, &channel_id, MAX_PAGE_SIZE).await?;
        read::cards(RequestScope::of(ctx), &reader, &ids).await
    }

    async fn get_stats_by_channel(&self, ctx: &Context<'_>, query: ChannelStatsQuery) -> Result<ChannelStats> {
        let reader = Reader::of(ctx).await?;
        let channel_id = optional_id(Some(&query.channel_id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
        let since = query.from.unwrap_or(reader.now - Duration::days(TRENDING_DAYS));
        let pool = &app_state(ctx).pool;
        let views = queries::channel_views(pool, &channel_id, since).await?;
        let trending = queries::trending_ids(pool, since, Some(&channel_id), None, TRENDING_SIZE).await?;
        Ok(ChannelStats { channel_id, views, trending_articles: read::cards(RequestScope::of(ctx), &reader, &trending).await? })
    }

    /// The caller holds an active subscription to the channel.
    async fn is_subscribed_to(&self, ctx: &Context<'_>, channel_id: ID) -> Result<bool> {
        let reader = Reader::of(ctx).await?;
        let channel_id = optional_id(Some(&channel_id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
        Ok(reader.active_channels(RequestScope::of(ctx)).await?.contains(&channel_id))
    }

    async fn find_contributor_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<Contributor> {
        viewer(ctx)?.require(ALL_ROLES)?;
        let id = optional_id(Some(&id), "Contributor")?.ok_or(Error::NotFound("Contributor"))?;
        let mut found = queries::contributors(&app_state(ctx).pool, Some(&id)).await?;
        found.pop().map(Contributor::from).ok_or(Error::NotFound("Contributor"))
    }

    /// Staff with published articles, by name.
    async fn contributors(&self, ctx: &Context<'_>) -> Result<Vec<Contributor>> {
        viewer(ctx)?.require(ALL_ROLES)?;
        Ok(queries::contributors(&app_state(ctx).pool, None).await?.into_iter().map(Contributor::from).collect())
    }
}

/// Views of published articles and their readers, for `me.recommendedArticles`.
pub async fn recommended_articles(ctx: &Context<'_>, take: i32, skip: i32) -> Result<Vec<ArticleCard>> {
    let reader = Reader::of(ctx).await?;
    let scope = RequestScope::of(ctx);
    let channels = reader.active_channels(scope).await?;
    read::recommended_for(scope, &reader, &channels, page_size(take)?, i64::from(skip.max(0))).await
}

#[derive(InputObject)]
pub struct ArticleViewStatInput {
    article_id: ID,
    /// Where it was viewed: 'article' or 'marketing-article'.
    r#type: String,
    /// e.g. 'campaign', 'email', 'search', 'for-you'.
    source: Option<String>,
    /// With source 'campaign': the campaign id.
    source_id: Option<String>,
    source_detail: Option<String>,
    /// The browser session (a reload in the same session is not counted again).
    session: String,
}

#[derive(async_graphql::Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum ArticleViewKind {
    /// The whole article was shown.
    Full,
    /// Only the teaser was shown.
    Preview,
}

#[derive(SimpleObject)]
pub struct ArticleViewResult {
    /// False when this session had already been counted for this article and kind.
    counted: bool,
    kind: ArticleViewKind,
}

#[derive(SimpleObject)]
pub struct Campaign {
    #[graphql(name = "_id")]
    id: String,
    /// The article page link that attributes views to this campaign.
    article_link: String,
    /// The same on the marketing article page (no app header).
    marketing_article_link: String,
    article_id: String,
    campaign_type: String,
}

#[derive(InputObject)]
pub struct ArticleInterestInput {
    article_id: ID,
}

#[derive(Default)]
pub struct ReadingMutation;

#[Object]
impl ReadingMutation {
    /// Records a view by the caller: full when they may read the article in full, else a preview.
    async fn add_article_view_stat(&self, ctx: &Context<'_>, item: ArticleViewStatInput) -> Result<ArticleViewResult> {
        let reader = Reader::of(ctx).await?;
        let (row, can_see) = published(ctx, &reader, &item.article_id).await?;
        let stat = service::view_stat(
            &item.r#type,
            &item.session,
            item.source.as_deref(),
            item.source_id.as_deref(),
            item.source_detail.as_deref(),
        )?;
        let kind = if can_see { ArticleViewKind::Full } else { ArticleViewKind::Preview };
        let view = NewView {
            article_id: &row.article_id,
            user_id: &reader.user_id,
            session_id: &stat.session,
            kind: if can_see { "full" } else { "preview" },
            view_type: &stat.view_type,
            source: stat.source.as_deref(),
            source_id: stat.source_id.as_deref(),
            source_detail: stat.source_detail.as_deref(),
            campaign_id: stat.campaign_id(),
        };
        let counted = queries::record_view(&app_state(ctx).pool, &view).await?;
        Ok(ArticleViewResult { counted, kind })
    }

    /// Staff: a campaign link to a published article.
    async fn create_campaign(&self, ctx: &Context<'_>, article_id: ID, campaign_type: String) -> Result<Campaign> {
        let viewer = viewer(ctx)?;
        viewer.require(STAFF)?;
        let reader = Reader::of(ctx).await?;
        let (row, _) = published(ctx, &reader, &article_id).await?;
        let campaign_type = service::campaign_type(&campaign_type)?;
        let id = ids::new_id();
        queries::insert_campaign(&app_state(ctx).pool, &id, &row.article_id, &campaign_type).await?;
        let (article_link, marketing_article_link) =
            crate::interests::campaigns::links(app_state(ctx).config.public_url(), &row.article_id, &id, &campaign_type);
        Ok(Campaign { id, article_link, marketing_article_link, article_id: row.article_id.clone(), campaign_type })
    }

    /// Records the caller's interest in a premium article (once a day) and emails it to the desk.
    async fn notify_registered_interest_in_article(&self, ctx: &Context<'_>, item: ArticleInterestInput) -> Result<bool> {
        let reader = Reader::of(ctx).await?;
        let (row, _) = published(ctx, &reader, &item.article_id).await?;
        let state = app_state(ctx);
        let mut tx = state.pool.begin().await?;
        let (kind, delivery) = (crate::interests::InterestKind::Article, crate::interests::Delivery::Email);
        crate::interests::register(&mut tx, state.jobs.as_ref(), kind, &row.article_id, &reader.user_id, delivery).await?;
        tx.commit().await?;
        Ok(true)
    }
}
