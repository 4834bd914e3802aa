//! GraphQL of the articles area: the list, one article, its stats, and the lifecycle mutations.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    model::{ArticleListType, ArticleSortField, ArticleState, premium_expires_at},
    queries::{self, ArticleFilter, ArticleRow, Named, Relations},
    service::{self, Action, ArticleChange, Author},
};
use crate::{
    auth::{Role, STAFF},
    channels::{ChannelType, OwnerType},
    error::{Error, Result},
    graphql::{DEFAULT_PAGE_SIZE, SortDirection, app_state, checked_limit_offset, id_strings, total_from_page, viewer},
    taxonomy::PromotionalContentSummary,
    users::UserSummary,
    validation::optional_id,
};

/// The publisher of an article or template: the owner of its channel.
#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct ArticlePublisher {
    #[graphql(name = "_id")]
    pub id: String,
    pub name: String,
    pub r#type: OwnerType,
}

#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct ArticleChannel {
    #[graphql(name = "_id")]
    pub id: String,
    pub name: String,
    pub r#type: ChannelType,
    /// 'active' or 'archived'.
    pub state: String,
}

#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct ArticleTopic {
    #[graphql(name = "_id")]
    pub id: String,
    pub name: String,
}

#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct ArticleTag {
    #[graphql(name = "_id")]
    pub id: String,
    pub name: String,
}

pub fn topics(named: &[Named]) -> Vec<ArticleTopic> {
    named.iter().map(|n| ArticleTopic { id: n.id.clone(), name: n.name.clone() }).collect()
}

pub fn tags(named: &[Named]) -> Vec<ArticleTag> {
    named.iter().map(|n| ArticleTag { id: n.id.clone(), name: n.name.clone() }).collect()
}

pub fn publisher(kind: Option<&str>, id: Option<&str>, name: Option<&str>) -> Option<ArticlePublisher> {
    Some(ArticlePublisher { id: id?.to_owned(), name: name?.to_owned(), r#type: OwnerType::parse(kind?) })
}

pub fn channel(id: Option<&str>, name: Option<&str>, kind: Option<&str>, state: Option<&str>) -> Option<ArticleChannel> {
    Some(ArticleChannel { id: id?.to_owned(), name: name?.to_owned(), r#type: ChannelType::parse(kind?), state: state?.to_owned() })
}

pub struct ArticleObject {
    row: ArticleRow,
    /// Selected relations: an article without links has none (not "not loaded").
    relations: Option<Arc<Relations>>,
    can_edit: bool,
}

#[Object(name = "Article")]
impl ArticleObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.article_id
    }

    async fn author(&self) -> Option<UserSummary> {
        UserSummary::from_columns(&self.row.author_id, &self.row.author_name, &self.row.author_email)
    }

    async fn title(&self) -> &str {
        &self.row.title
    }

    /// Sanitised HTML (read only when the request selects it: it can be large).
    async fn html(&self) -> Result<&str> {
        self.row.html.as_deref().ok_or_else(|| Error::Internal(anyhow::anyhow!("article html selected but not loaded")))
    }

    async fn summary(&self) -> Option<&str> {
        self.row.summary.as_deref()
    }

    async fn published_by(&self) -> Option<ArticlePublisher> {
        let row = &self.row;
        publisher(row.publisher_type.as_deref(), row.publisher_id.as_deref(), row.publisher_name.as_deref())
    }

    async fn contributors(&self) -> Vec<UserSummary> {
        self.relations.as_ref().map(|r| r.contributors.clone()).unwrap_or_default()
    }

    async fn categories(&self) -> Vec<ArticleTopic> {
        self.relations.as_ref().map(|r| topics(&r.categories)).unwrap_or_default()
    }

    async fn tags(&self) -> Vec<ArticleTag> {
        self.relations.as_ref().map(|r| tags(&r.tags)).unwrap_or_default()
    }

    async fn state(&self) -> ArticleState {
        ArticleState::parse(&self.row.state)
    }

    async fn created(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn last_edited(&self) -> DateTime<Utc> {
        self.row.updated_at
    }

    /// When it first reached readers (never changes, even after archive and republish).
    async fn first_published_at(&self) -> Option<DateTime<Utc>> {
        self.row.first_published_at
    }

    /// When a later publication last changed what readers see (title, summary, body); null when none has.
    async fn updated_at(&self) -> Option<DateTime<Utc>> {
        self.row.content_updated_at
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    async fn publish_date(&self) -> Option<DateTime<Utc>> {
        self.row.publish_date
    }

    /// Every view by every reader.
    async fn views(&self) -> i64 {
        self.row.views
    }

    /// Readers who viewed it (the list's 'Unique views').
    async fn unique_views(&self) -> i64 {
        self.row.unique_views
    }

    async fn was_published_previously(&self) -> bool {
        self.row.was_published_previously
    }

    async fn promotional_content_ids(&self) -> Vec<String> {
        let promotions = self.relations.as_ref().map(|r| r.promotional_content.as_slice()).unwrap_or_default();
        promotions.iter().map(|p| p.id.clone()).collect()
    }

    async fn promotional_content(&self) -> Vec<PromotionalContentSummary> {
        let promotions = self.relations.as_ref().map(|r| r.promotional_content.as_slice()).unwrap_or_default();
        promotions
            .iter()
            .map(|p| PromotionalContentSummary {
                id: ID(p.id.clone()),
                name: p.name.clone(),
                link: p.link.clone(),
                article_image: p.article_image.clone(),
            })
            .collect()
    }

    async fn premium_channel(&self) -> Option<ArticleChannel> {
        let row = &self.row;
        channel(row.premium_channel_id.as_deref(), row.channel_name.as_deref(), row.channel_type.as_deref(), row.channel_state.as_deref())
    }

    async fn is_premium(&self) -> bool {
        self.row.is_premium
    }

    /// One of '3d', '1w', '1m'; null: no expiry.
    async fn premium_expiry_offset(&self) -> Option<&str> {
        self.row.premium_expiry_offset.as_deref()
    }

    /// publishDate + premiumExpiryOffset (null: no expiry or not published).
    async fn premium_expires_at(&self) -> Option<DateTime<Utc>> {
        premium_expires_at(self.row.publish_date, self.row.premium_expiry_offset.as_deref())
    }

    /// Premium and not yet past premiumExpiresAt.
    async fn is_premium_active(&self) -> bool {
        let expires = premium_expires_at(self.row.publish_date, self.row.premium_expiry_offset.as_deref());
        self.row.is_premium && expires.is_none_or(|at| at > Utc::now())
    }

    async fn show_watermark(&self) -> bool {
        self.row.show_watermark
    }

    async fn display_in_chart_section(&self) -> bool {
        self.row.display_in_chart_section
    }

    async fn is_pinned(&self) -> bool {
        self.row.is_pinned
    }

    async fn is_timeless(&self) -> bool {
        self.row.is_timeless
    }

    async fn template_id(&self) -> Option<&str> {
        self.row.template_id.as_deref()
    }

    async fn send_emails(&self) -> bool {
        self.row.send_emails
    }

    /// The caller may open it in the editor: an Administrator, a contributor of it, an admin of
    /// its channel, a member of its publishing desk.
    async fn can_edit(&self) -> bool {
        self.can_edit
    }

    /// The caller may open its stats (same rule as canEdit).
    async fn can_view_stats(&self) -> bool {
        self.can_edit
    }
}

/// Turns rows into objects; their contributors, topics, tags and promotional content come in one
/// statement for the whole page, and only when the request selects one of them.
async fn article_objects(ctx: &Context<'_>, rows: Vec<ArticleRow>, role: Role) -> Result<Vec<ArticleObject>> {
    let look_ahead = ctx.look_ahead();
    let related = ["contributors", "categories", "tags", "promotionalContent", "promotionalContentIds"].iter().any(|field| {
        look_ahead.field(field).exists()
            || look_ahead.field("articles").field(field).exists()
            || look_ahead.field("article").field(field).exists()
    });
    let mut relations = if related { super::read::relations(app_state(ctx), &rows).await? } else { HashMap::new() };
    Ok(rows
        .into_iter()
        .map(|row| {
            let can_edit = service::may_open(role, row.viewer_has_access);
            let relations = related.then(|| relations.remove(&row.article_id).unwrap_or_default());
            ArticleObject { relations, row, can_edit }
        })
        .collect())
}

/// How `load_article` treats the caller's access.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// FORBIDDEN unless the caller may open the article.
    Required,
    /// Just written by the caller (who may have removed themself from it).
    Written,
}

/// One article (NOT_FOUND when missing).
async fn load_article(ctx: &Context<'_>, id: &str, access: Access) -> Result<ArticleObject> {
    let viewer = viewer(ctx)?;
    let role = viewer.require(STAFF)?;
    let id = optional_id(Some(id), "Article")?.ok_or(Error::NotFound("Article"))?;
    let row = queries::article_by_id(&app_state(ctx).pool, &id, &viewer.user.user_id).await?.ok_or(Error::NotFound("Article"))?;
    let article = article_objects(ctx, vec![row], role).await?.pop().ok_or(Error::NotFound("Article"))?;
    if access == Access::Required && !article.can_edit {
        return Err(Error::Forbidden);
    }
    Ok(article)
}

#[derive(SimpleObject)]
pub struct ArticlePage {
    articles: Vec<ArticleObject>,
    total: i64,
}

#[derive(InputObject)]
pub struct ArticleListParams {
    #[graphql(default)]
    r#type: ArticleListType,
    category_id: Option<Vec<ID>>,
    /// Desk or contributor ids (the publisher).
    published_by: Option<Vec<ID>>,
    tag_id: Option<Vec<ID>>,
    /// Channel ids.
    channel: Option<Vec<ID>>,
    promotional_content_id: Option<Vec<ID>>,
    /// Full-text search over title, summary and body.
    search_query: Option<String>,
    #[graphql(default)]
    sort_field: ArticleSortField,
    #[graphql(default_with = "SortDirection::Desc")]
    sort_direction: SortDirection,
    #[graphql(default_with = "DEFAULT_PAGE_SIZE")]
    limit: i32,
    #[graphql(default)]
    offset: i32,
}

impl Default for ArticleListParams {
    fn default() -> Self {
        ArticleListParams {
            r#type: ArticleListType::All,
            category_id: None,
            published_by: None,
            tag_id: None,
            channel: None,
            promotional_content_id: None,
            search_query: None,
            sort_field: ArticleSortField::Created,
            sort_direction: SortDirection::Desc,
            limit: DEFAULT_PAGE_SIZE,
            offset: 0,
        }
    }
}

#[derive(SimpleObject)]
pub struct ArticleViewer {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    email: String,
    /// How the reader read it: `web` (the article page), `feed` (a private feed delivered it in
    /// full) or `agent` (their AI assistant, through the MCP server).
    source: String,
    views: i32,
    last_viewed: DateTime<Utc>,
}

#[derive(SimpleObject)]
pub struct ArticleStats {
    article: ArticleObject,
    /// Sum of every viewer's views on the web (the article page).
    views: i64,
    /// Number of viewers on the web.
    users: i64,
    /// Each reader once per source (web, feed, agent), sorted by last view, newest first.
    viewers: Vec<ArticleViewer>,
    /// Its campaign links with the views they brought, newest first.
    campaigns: Vec<crate::interests::campaigns::CampaignStats>,
}

#[derive(Default)]
pub struct ArticlesQuery;

#[Object]
impl ArticlesQuery {
    /// Staff: a page of articles, filtered, searched and sorted in the database.
    async fn articles(&self, ctx: &Context<'_>, params: Option<ArticleListParams>) -> Result<ArticlePage> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let params = params.unwrap_or_default();
        let (limit, offset) = checked_limit_offset(params.limit, params.offset)?;
        let user_id = viewer.user.user_id.as_str();
        let tab = params.r#type.scope(user_id, Utc::now());
        let search = crate::search::search_text("searchQuery", params.search_query.as_deref())?;
        let (categories, publishers, tags, channels, promotions) = (
            id_strings(params.category_id),
            id_strings(params.published_by),
            id_strings(params.tag_id),
            id_strings(params.channel),
            id_strings(params.promotional_content_id),
        );
        let filter = ArticleFilter {
            state: tab.state.map(ArticleState::as_str),
            changed_since: tab.changed_since,
            mine: tab.mine,
            categories: &categories,
            publishers: &publishers,
            tags: &tags,
            channels: &channels,
            promotional_content: &promotions,
            search: search.as_deref(),
            viewer: user_id,
            sort: params.sort_field,
            descending: params.sort_direction == SortDirection::Desc,
            limit: Some(limit),
            offset,
            ..Default::default()
        };
        let pool = &app_state(ctx).pool;
        let page = queries::select_page(pool, &filter).await?;
        let total = match page.total.or_else(|| total_from_page(page.ids.len(), limit, offset)) {
            Some(total) => total,
            None => queries::count_articles(pool, &filter).await?,
        };
        let with_html = ctx.look_ahead().field("articles").field("html").exists();
        let rows = if page.ids.is_empty() { Vec::new() } else { queries::articles_by_ids(pool, &page.ids, user_id, with_html).await? };
        Ok(ArticlePage { articles: article_objects(ctx, rows, role).await?, total })
    }

    /// Staff allowed to open it (see Article.canEdit).
    async fn find_article_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<ArticleObject> {
        load_article(ctx, &id, Access::Required).await
    }

    /// Its revisions, newest first (staff who may open the article).
    async fn article_revisions(&self, ctx: &Context<'_>, article_id: ID) -> Result<Vec<ArticleRevisionSummary>> {
        let author = author(ctx)?;
        let article_id = optional_id(Some(&article_id), "Article")?.ok_or(Error::NotFound("Article"))?;
        let pool = &app_state(ctx).pool;
        service::require_may_open(pool, author, &article_id).await?;
        Ok(queries::revisions_of(pool, &article_id).await?.into_iter().map(ArticleRevisionSummary).collect())
    }

    /// One revision in full (staff who may open its article).
    async fn article_revision(&self, ctx: &Context<'_>, id: ID) -> Result<ArticleRevision> {
        Ok(ArticleRevision(service::revision(&app_state(ctx).pool, author(ctx)?, &id).await?))
    }

    /// Viewers of an article (same access as findArticleById).
    async fn find_article_stats(&self, ctx: &Context<'_>, id: ID) -> Result<ArticleStats> {
        let article = load_article(ctx, &id, Access::Required).await?;
        let state = app_state(ctx);
        let campaigns = if ctx.look_ahead().field("campaigns").exists() {
            crate::interests::campaigns::of_article(&state.pool, state.config.public_url(), &article.row.article_id).await?
        } else {
            Vec::new()
        };
        let viewers = queries::viewers_of(&state.pool, &article.row.article_id).await?;
        let web = viewers.iter().filter(|v| v.source == "web");
        let views = web.clone().map(|v| i64::from(v.views)).sum();
        let users = web.count() as i64;
        let viewers = viewers
            .into_iter()
            .map(|v| ArticleViewer { id: v.user_id, name: v.name, email: v.email, source: v.source, views: v.views, last_viewed: v.last_viewed })
            .collect();
        Ok(ArticleStats { article, views, users, viewers, campaigns })
    }
}

/// An article as the editor sends it (add/edit/publishAdd/publishEdit). The publisher is the
/// chosen channel's owner, set by the server.
#[derive(InputObject)]
pub struct ArticleInput {
    /// Edits only.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Edits only: the version the edit is based on (stale: CONFLICT).
    version: Option<i32>,
    title: String,
    html: Option<String>,
    summary: Option<String>,
    premium_channel_id: Option<ID>,
    contributors: Option<Vec<ID>>,
    categories: Option<Vec<ID>>,
    tags: Option<Vec<ID>>,
    promotional_content_ids: Option<Vec<ID>>,
    /// Stored only when the channel is not freeOpen (the inverse of open-to-all).
    is_premium: Option<bool>,
    /// '3d', '1w' or '1m'; null: no expiry.
    premium_expiry_offset: Option<String>,
    /// Custom (back-)date; publishers only; never in the future ('Invalid Publish Date').
    publish_date: Option<DateTime<Utc>>,
    show_watermark: Option<bool>,
    display_in_chart_section: Option<bool>,
    is_pinned: Option<bool>,
    is_timeless: Option<bool>,
    template_id: Option<ID>,
    /// Publish only: notify subscribers. Forced true for a fresh publish without a back-date.
    send_emails: Option<bool>,
}

impl From<ArticleInput> for ArticleChange {
    fn from(input: ArticleInput) -> Self {
        ArticleChange {
            id: input.id.map(|id| id.0),
            version: input.version,
            title: input.title,
            html: input.html,
            summary: input.summary,
            premium_channel_id: input.premium_channel_id.map(|id| id.0),
            contributors: id_strings(input.contributors),
            categories: id_strings(input.categories),
            tags: id_strings(input.tags),
            promotional_content_ids: id_strings(input.promotional_content_ids),
            is_premium: input.is_premium,
            premium_expiry_offset: input.premium_expiry_offset.filter(|o| !o.trim().is_empty()),
            publish_date: input.publish_date,
            show_watermark: input.show_watermark.unwrap_or(false),
            display_in_chart_section: input.display_in_chart_section.unwrap_or(false),
            is_pinned: input.is_pinned.unwrap_or(false),
            is_timeless: input.is_timeless.unwrap_or(false),
            template_id: input.template_id.map(|id| id.0),
            send_emails: input.send_emails,
        }
    }
}

/// The signed-in staff user as an author.
fn author<'a>(ctx: &Context<'a>) -> Result<Author<'a>> {
    let viewer = viewer(ctx)?;
    let role = viewer.require(STAFF)?;
    Ok(Author { user_id: &viewer.user.user_id, role, tableau_access: viewer.user.tableau_access })
}

async fn write(ctx: &Context<'_>, item: ArticleInput, action: Action, is_new: bool) -> Result<ArticleObject> {
    let id = service::write_article(app_state(ctx), author(ctx)?, &item.into(), action, is_new).await?;
    load_article(ctx, &id, Access::Written).await
}

/// An article's revision as its history lists it.
pub struct ArticleRevisionSummary(queries::RevisionSummary);

#[Object]
impl ArticleRevisionSummary {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.0.revision_id
    }
    /// 1, 2, 3... in the article's history.
    async fn number(&self) -> i32 {
        self.0.number
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    /// Who saved it; null for the article as it was when revisions began, or a user since removed.
    async fn created_by(&self) -> Option<UserRef> {
        UserRef::of(&self.0.created_by, &self.0.created_by_name)
    }
    /// add, save, publish, archive, restore, or migrated (the article when revisions began).
    async fn action(&self) -> &str {
        &self.0.action
    }
    /// The article's version this revision is.
    async fn article_version(&self) -> i32 {
        self.0.article_version
    }
    async fn state(&self) -> ArticleState {
        ArticleState::parse(&self.0.state)
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    /// The revision a restore brought back.
    async fn restored_from(&self) -> Option<i32> {
        self.0.restored_from
    }
}

/// A user a record names, by id and name now.
#[derive(SimpleObject)]
pub struct UserRef {
    #[graphql(name = "_id")]
    id: String,
    name: String,
}

impl UserRef {
    fn of(id: &Option<String>, name: &Option<String>) -> Option<UserRef> {
        Some(UserRef { id: id.clone()?, name: name.clone()? })
    }
}

/// A topic, tag or contributor a revision names: by id, with its name now (null: deleted since).
#[derive(SimpleObject)]
pub struct RevisionItem {
    #[graphql(name = "_id")]
    id: String,
    name: Option<String>,
}

/// One revision in full: what the article was.
pub struct ArticleRevision(queries::Revision);

#[Object]
impl ArticleRevision {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.0.revision_id
    }
    async fn article_id(&self) -> &str {
        &self.0.article_id
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn created_by(&self) -> Option<UserRef> {
        UserRef::of(&self.0.created_by, &self.0.created_by_name)
    }
    async fn action(&self) -> &str {
        &self.0.action
    }
    async fn article_version(&self) -> i32 {
        self.0.article_version
    }
    async fn state(&self) -> ArticleState {
        ArticleState::parse(&self.0.state)
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    async fn summary(&self) -> Option<&str> {
        self.0.summary.as_deref()
    }
    /// The sanitised body as it was.
    async fn html(&self) -> &str {
        &self.0.html
    }
    async fn premium_channel_id(&self) -> Option<&str> {
        self.0.premium_channel_id.as_deref()
    }
    /// The channel's name now.
    async fn premium_channel_name(&self) -> Option<&str> {
        self.0.channel_name.as_deref()
    }
    async fn is_premium(&self) -> bool {
        self.0.is_premium
    }
    async fn premium_expiry_offset(&self) -> Option<&str> {
        self.0.premium_expiry_offset.as_deref()
    }
    async fn publish_date(&self) -> Option<DateTime<Utc>> {
        self.0.publish_date
    }
    async fn categories(&self) -> Vec<RevisionItem> {
        items(&self.0.topics)
    }
    async fn tags(&self) -> Vec<RevisionItem> {
        items(&self.0.tags)
    }
    async fn contributors(&self) -> Vec<RevisionItem> {
        items(&self.0.contributors)
    }
    async fn restored_from(&self) -> Option<i32> {
        self.0.restored_from
    }
    /// The channel's and desk's disclosures it was saved under, at those versions.
    async fn disclosures(&self, ctx: &Context<'_>) -> Result<Vec<crate::disclosures::Disclosure>> {
        let rows = crate::disclosures::queries::of_revision(&app_state(ctx).pool, &self.0.revision_id).await?;
        Ok(crate::disclosures::disclosures(rows))
    }
}

fn items(named: &[queries::NamedId]) -> Vec<RevisionItem> {
    named.iter().map(|n| RevisionItem { id: n.id.clone(), name: n.name.clone() }).collect()
}

#[derive(Default)]
pub struct ArticlesMutation;

#[Object]
impl ArticlesMutation {
    /// Staff: stores a new draft (state Pending). Needs only a title.
    async fn add_article(&self, ctx: &Context<'_>, item: ArticleInput) -> Result<ArticleObject> {
        write(ctx, item, Action::Save, true).await
    }

    /// Stores the article as a draft (Pending): 'Update draft', 'Convert to draft', 'Update and
    /// unarchive'. Contributors change drafts only.
    async fn edit_article(&self, ctx: &Context<'_>, item: ArticleInput) -> Result<ArticleObject> {
        write(ctx, item, Action::Save, false).await
    }

    /// Editors (and Administrators): adds and publishes; refused with BAD_USER_INPUT and
    /// `extensions.gaps` when something is missing.
    async fn publish_add(&self, ctx: &Context<'_>, item: ArticleInput) -> Result<ArticleObject> {
        write(ctx, item, Action::Publish, true).await
    }

    /// Editors (and Administrators): publishes (or updates) an existing article.
    async fn publish_edit(&self, ctx: &Context<'_>, item: ArticleInput) -> Result<ArticleObject> {
        write(ctx, item, Action::Publish, false).await
    }

    /// Existing, non-archived articles the caller may change.
    async fn archive_article(&self, ctx: &Context<'_>, #[graphql(name = "_id")] id: ID, version: i32) -> Result<ArticleObject> {
        let id = service::archive_article(&app_state(ctx).pool, author(ctx)?, &id, version).await?;
        load_article(ctx, &id, Access::Written).await
    }

    /// Brings a revision back as a new one: a draft (Pending, like 'Update draft') with the
    /// revision's title, summary, body, channel, premium flags, topics, tags and contributors,
    /// based on the article's current `version` (CONFLICT when stale). Who may save the article may.
    async fn restore_article_revision(&self, ctx: &Context<'_>, article_id: ID, revision_id: ID, version: i32) -> Result<ArticleObject> {
        let id = service::restore_revision(app_state(ctx), author(ctx)?, &article_id, &revision_id, version).await?;
        load_article(ctx, &id, Access::Written).await
    }
}
