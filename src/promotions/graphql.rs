//! GraphQL of the promotions area: the promotional content grid with its counts, promotion pages,
//! the form reads and mutations (Administrators only, spec 1 §6), the landing page's read for
//! every signed-in user, the staff pickers, the reader cards and the impression and click counters.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{Context, Enum, ID, InputObject, Lookahead, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    queries::{self, CardRow, ContentQuery, ContentRow, PageRow, SummaryRow},
    service::{self, ContentChange, Destination, PageChange},
};
use crate::{
    auth::{ALL_ROLES, Role, STAFF},
    error::{Error, Result},
    graphql::{DEFAULT_PAGE_SIZE, Date, PageParams, SortDirection, app_state, contains_pattern, total_from_page, viewer},
    taxonomy::PromotionalContentSummary,
};

/// Managing promotional content and pages is for Administrators (spec 1 §6).
const ADMINISTRATOR: &[Role] = &[Role::Administrator];

impl From<SummaryRow> for PromotionalContentSummary {
    fn from(r: SummaryRow) -> Self {
        PromotionalContentSummary { id: ID(r.promotional_content_id), name: r.name, link: r.link, article_image: r.article_image }
    }
}

/// A promotional content. The counts are for Administrators (FORBIDDEN for anyone else).
pub struct PromotionalContentObject {
    row: ContentRow,
    page: Option<Arc<PromotionPageObject>>,
    admin: bool,
}

impl PromotionalContentObject {
    fn admin_only<T>(&self, value: T) -> Result<T> {
        if self.admin { Ok(value) } else { Err(Error::Forbidden) }
    }
}

#[Object(name = "PromotionalContent")]
impl PromotionalContentObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> ID {
        ID(self.row.promotional_content_id.clone())
    }

    async fn name(&self) -> &str {
        &self.row.name
    }

    /// '' when none.
    async fn description(&self) -> &str {
        &self.row.description
    }

    /// An upload name, served at /uploads/{name}.
    async fn article_image(&self) -> Option<&str> {
        self.row.article_image.as_deref()
    }

    async fn sidebar_image(&self) -> Option<&str> {
        self.row.sidebar_image.as_deref()
    }

    /// Set for ExternalLink.
    async fn link(&self) -> Option<&str> {
        self.row.link.as_deref()
    }

    /// Set for CustomLandingPage.
    async fn promotion_page_id(&self) -> Option<ID> {
        self.row.promotion_page_id.clone().map(ID)
    }

    /// The page it opens (read for the whole list at once); null when none.
    async fn promotion_page(&self) -> Option<&PromotionPageObject> {
        self.page.as_deref()
    }

    async fn destination(&self) -> Destination {
        Destination::of(self.row.link.as_deref(), self.row.promotion_page_id.as_deref())
    }

    /// Where a click goes: the link, or '/promotion/{_id}' for a promotion page; null for NotSelected.
    async fn target(&self) -> Option<String> {
        let row = &self.row;
        service::target(&row.promotional_content_id, row.link.as_deref(), row.promotion_page_id.as_deref())
    }

    /// 23:59:59 UTC of the chosen day.
    async fn expiry_date(&self) -> Option<DateTime<Utc>> {
        self.row.expiry_date
    }

    async fn expired(&self) -> bool {
        self.row.expired
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    /// Topics linking to it (Administrators).
    async fn categories_count(&self) -> Result<i64> {
        self.admin_only(self.row.categories_count)
    }

    /// Articles carrying it (Administrators).
    async fn articles_count(&self) -> Result<i64> {
        self.admin_only(self.row.articles_count)
    }

    /// Times an article sidebar showed it (Administrators).
    async fn impressions(&self) -> Result<i64> {
        self.admin_only(self.row.impressions)
    }

    /// Clicks on it (Administrators).
    async fn clicks(&self) -> Result<i64> {
        self.admin_only(self.row.clicks)
    }

    /// clicks / impressions; null without impressions (Administrators).
    async fn click_through_rate(&self) -> Result<Option<f64>> {
        self.admin_only(service::click_through_rate(self.row.impressions, self.row.clicks))
    }
}

/// A promotion page. The Teams channel (a secret), whether it is used and by what are for
/// Administrators (FORBIDDEN for anyone else).
pub struct PromotionPageObject {
    row: PageRow,
    /// Read only when the request selects it.
    users: Vec<PromotionalContentSummary>,
    admin: bool,
}

impl PromotionPageObject {
    fn admin_only<T>(&self, value: T) -> Result<T> {
        if self.admin { Ok(value) } else { Err(Error::Forbidden) }
    }
}

#[Object(name = "PromotionPage")]
impl PromotionPageObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> ID {
        ID(self.row.promotion_page_id.clone())
    }

    async fn name(&self) -> &str {
        &self.row.name
    }

    /// Sanitised like an article's body.
    async fn html(&self) -> &str {
        &self.row.html
    }

    async fn page_summary(&self) -> &str {
        &self.row.page_summary
    }

    /// An upload name (the image cropped to 2:1).
    async fn social_sharing_image_url(&self) -> &str {
        &self.row.social_sharing_image_url
    }

    async fn success_title(&self) -> &str {
        &self.row.success_title
    }

    async fn success_message(&self) -> &str {
        &self.row.success_message
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    /// A Teams incoming-webhook URL or an email address (Administrators).
    async fn teams_channel(&self) -> Result<&str> {
        self.admin_only(self.row.teams_channel.as_str())
    }

    /// Some promotional content opens it (Administrators).
    async fn in_use(&self) -> Result<bool> {
        self.admin_only(self.row.in_use)
    }

    /// The promotional content opening it, by name (Administrators).
    async fn promotional_content(&self) -> Result<&[PromotionalContentSummary]> {
        self.admin_only(self.users.as_slice())
    }
}

/// Turns page rows into objects; the content using them is read in one statement for all of them,
/// and only when `selection` asks for it (an Administrator's request).
async fn page_objects(ctx: &Context<'_>, rows: Vec<PageRow>, selection: Lookahead<'_>, admin: bool) -> Result<Vec<PromotionPageObject>> {
    let mut users: HashMap<String, Vec<PromotionalContentSummary>> = HashMap::new();
    if admin && selection.field("promotionalContent").exists() && !rows.is_empty() {
        let ids: Vec<String> = rows.iter().map(|r| r.promotion_page_id.clone()).collect();
        for row in queries::content_of_pages(&app_state(ctx).pool, &ids).await? {
            let page = row.promotion_page_id.clone().unwrap_or_default();
            users.entry(page).or_default().push(row.into());
        }
    }
    Ok(rows
        .into_iter()
        .map(|row| PromotionPageObject { users: users.remove(&row.promotion_page_id).unwrap_or_default(), row, admin })
        .collect())
}

/// Turns content rows into objects; their pages are read in one statement for all of them, and
/// only when `selection` asks for them.
async fn content_objects(
    ctx: &Context<'_>,
    rows: Vec<ContentRow>,
    selection: Lookahead<'_>,
    admin: bool,
) -> Result<Vec<PromotionalContentObject>> {
    let page_selection = selection.field("promotionPage");
    let mut pages: HashMap<String, Arc<PromotionPageObject>> = HashMap::new();
    if page_selection.exists() {
        let mut ids: Vec<String> = rows.iter().filter_map(|r| r.promotion_page_id.clone()).collect();
        ids.sort();
        ids.dedup();
        if !ids.is_empty() {
            let page_rows = queries::list_pages(&app_state(ctx).pool, Some(&ids), None, ids.len() as i64, 0).await?;
            for page in page_objects(ctx, page_rows, page_selection, admin).await? {
                pages.insert(page.row.promotion_page_id.clone(), Arc::new(page));
            }
        }
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let page = row.promotion_page_id.as_ref().and_then(|id| pages.get(id).cloned());
            PromotionalContentObject { row, page, admin }
        })
        .collect())
}

/// One promotional content for `admin` (any) or another signed-in user (only while not expired).
async fn load_content(ctx: &Context<'_>, id: &str, admin: bool) -> Result<PromotionalContentObject> {
    let not_found = || Error::NotFound("Promotional content");
    if !crate::ids::is_valid_id(id) {
        return Err(not_found());
    }
    let row = queries::find_content(&app_state(ctx).pool, id).await?.filter(|row| admin || !row.expired).ok_or_else(not_found)?;
    content_objects(ctx, vec![row], ctx.look_ahead(), admin).await?.pop().ok_or_else(not_found)
}

async fn load_page(ctx: &Context<'_>, id: &str) -> Result<PromotionPageObject> {
    let not_found = || Error::NotFound("Promotion page");
    if !crate::ids::is_valid_id(id) {
        return Err(not_found());
    }
    let rows = queries::list_pages(&app_state(ctx).pool, Some(&[id.to_owned()]), None, 1, 0).await?;
    page_objects(ctx, rows, ctx.look_ahead(), true).await?.pop().ok_or_else(not_found)
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum PromotionalContentSortField {
    #[default]
    Name,
    ExpiryDate,
    CategoriesCount,
    ArticlesCount,
    Impressions,
    Clicks,
}

#[derive(InputObject)]
pub struct PromotionalContentListParams {
    /// 1-based page number.
    #[graphql(default = 1)]
    page: i32,
    /// One of 15, 30, 50, 100, 200.
    #[graphql(default = 15)]
    page_size: i32,
    /// Matched anywhere in the name or the description, ignoring case.
    search_query: Option<String>,
    #[graphql(default)]
    sort_field: PromotionalContentSortField,
    #[graphql(default)]
    sort_direction: SortDirection,
}

impl Default for PromotionalContentListParams {
    fn default() -> Self {
        PromotionalContentListParams {
            page: 1,
            page_size: DEFAULT_PAGE_SIZE,
            search_query: None,
            sort_field: PromotionalContentSortField::Name,
            sort_direction: SortDirection::Asc,
        }
    }
}

#[derive(SimpleObject)]
pub struct PromotionalContentPage {
    promotional_content: Vec<PromotionalContentObject>,
    total: i64,
}

#[derive(InputObject)]
pub struct PromotionPageListParams {
    #[graphql(default = 1)]
    page: i32,
    #[graphql(default = 15)]
    page_size: i32,
    /// Matched anywhere in the name or the summary, ignoring case.
    search_query: Option<String>,
}

impl Default for PromotionPageListParams {
    fn default() -> Self {
        PromotionPageListParams { page: 1, page_size: DEFAULT_PAGE_SIZE, search_query: None }
    }
}

#[derive(SimpleObject)]
pub struct PromotionPagePage {
    pages: Vec<PromotionPageObject>,
    total: i64,
}

/// What readers see of a promotional content (an article's embedded blocks).
#[derive(SimpleObject, Clone)]
pub struct PromotionalContentCard {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    description: String,
    article_image: Option<String>,
    sidebar_image: Option<String>,
    /// Where a click goes: the link, or '/promotion/{_id}'.
    target: Option<String>,
}

impl From<CardRow> for PromotionalContentCard {
    fn from(r: CardRow) -> Self {
        PromotionalContentCard {
            target: service::target(&r.promotional_content_id, r.link.as_deref(), r.promotion_page_id.as_deref()),
            id: ID(r.promotional_content_id),
            name: r.name,
            description: r.description,
            article_image: r.article_image,
            sidebar_image: r.sidebar_image,
        }
    }
}

/// The live (not expired) promotional content an article body embeds, in the order of its blocks,
/// read in one statement; a block whose content is missing or expired is left out.
pub async fn embedded_cards(ctx: &Context<'_>, html: &str) -> Result<Vec<PromotionalContentCard>> {
    let ids = service::embedded_ids(html);
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut cards: HashMap<String, CardRow> =
        queries::live_cards(&app_state(ctx).pool, &ids).await?.into_iter().map(|c| (c.promotional_content_id.clone(), c)).collect();
    Ok(ids.iter().filter_map(|id| cards.remove(id)).map(PromotionalContentCard::from).collect())
}

#[derive(Default)]
pub struct PromotionsQuery;

#[Object]
impl PromotionsQuery {
    /// Administrator: the promotional content grid with its counts, paged, searched and sorted in
    /// the database.
    async fn promotional_content(&self, ctx: &Context<'_>, params: Option<PromotionalContentListParams>) -> Result<PromotionalContentPage> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search_query.as_deref());
        let sort = match params.sort_field {
            PromotionalContentSortField::Name => "name",
            PromotionalContentSortField::ExpiryDate => "expiry",
            PromotionalContentSortField::CategoriesCount => "categories",
            PromotionalContentSortField::ArticlesCount => "articles",
            PromotionalContentSortField::Impressions => "impressions",
            PromotionalContentSortField::Clicks => "clicks",
        };
        let query = ContentQuery {
            id: None,
            pattern: pattern.as_deref(),
            sort,
            descending: params.sort_direction == SortDirection::Desc,
            limit,
            offset,
        };
        let pool = &app_state(ctx).pool;
        let rows = queries::list_content(pool, &query).await?;
        let total = match (rows.first(), total_from_page(rows.len(), limit, offset)) {
            (Some(row), _) => row.total,
            (None, Some(total)) => total,
            (None, None) => queries::count_content(pool, query.pattern).await?,
        };
        let selection = ctx.look_ahead().field("promotionalContent");
        Ok(PromotionalContentPage { promotional_content: content_objects(ctx, rows, selection, true).await?, total })
    }

    /// Staff lookups (topic form, article editor): the promotional content that has not expired,
    /// by name.
    async fn promotional_content_options(&self, ctx: &Context<'_>) -> Result<Vec<PromotionalContentSummary>> {
        viewer(ctx)?.require(STAFF)?;
        Ok(queries::options(&app_state(ctx).pool).await?.into_iter().map(PromotionalContentSummary::from).collect())
    }

    /// Administrator: any. Others (signed in): only not expired (else NOT_FOUND); the landing page
    /// reads it.
    async fn find_promotional_content_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<PromotionalContentObject> {
        let role = viewer(ctx)?.require(ALL_ROLES)?;
        load_content(ctx, &id, role == Role::Administrator).await
    }

    /// Administrator: the promotion pages by name, paged and searched in the database.
    async fn all_pages(&self, ctx: &Context<'_>, params: Option<PromotionPageListParams>) -> Result<PromotionPagePage> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search_query.as_deref());
        let pool = &app_state(ctx).pool;
        let rows = queries::list_pages(pool, None, pattern.as_deref(), limit, offset).await?;
        let total = match (rows.first(), total_from_page(rows.len(), limit, offset)) {
            (Some(row), _) => row.total,
            (None, Some(total)) => total,
            (None, None) => queries::count_pages(pool, pattern.as_deref()).await?,
        };
        let selection = ctx.look_ahead().field("pages");
        Ok(PromotionPagePage { pages: page_objects(ctx, rows, selection, true).await?, total })
    }

    /// Administrator.
    async fn find_promotion_page_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<PromotionPageObject> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        load_page(ctx, &id).await
    }
}

/// A promotional content as a client wants it to be (add or edit).
#[derive(InputObject)]
pub struct PromotionalContentInput {
    /// Required by `editPromotionalContent`, ignored by `addPromotionalContent`.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Required by `editPromotionalContent`: the version the edit is based on.
    version: Option<i32>,
    /// Required, at most 50 characters.
    name: String,
    /// At most 250 characters.
    description: Option<String>,
    /// Upload names (`POST /upload`).
    article_image: Option<String>,
    sidebar_image: Option<String>,
    /// NotSelected is refused: 'Please choose a destination link'.
    destination: Destination,
    /// Required for ExternalLink: an http(s) URL or an app path ('/…').
    link: Option<String>,
    /// Required for CustomLandingPage.
    promotion_page_id: Option<ID>,
    /// Today or later; it expires at 23:59:59 UTC of that day.
    expiry_date: Option<Date>,
}

impl From<PromotionalContentInput> for ContentChange {
    fn from(i: PromotionalContentInput) -> Self {
        ContentChange {
            id: i.id.map(|id| id.0),
            version: i.version,
            name: i.name,
            description: i.description,
            article_image: i.article_image,
            sidebar_image: i.sidebar_image,
            destination: i.destination,
            link: i.link,
            promotion_page_id: i.promotion_page_id.map(|id| id.0),
            expiry_date: i.expiry_date.map(|d| d.0),
        }
    }
}

/// A promotion page as a client wants it to be (add or edit); every field is required.
#[derive(InputObject)]
pub struct PromotionPageInput {
    #[graphql(name = "_id")]
    id: Option<ID>,
    version: Option<i32>,
    name: String,
    /// Sanitised like an article's body.
    html: String,
    /// An email address or a Microsoft Teams incoming-webhook URL (https).
    teams_channel: String,
    /// At most 200 characters.
    page_summary: String,
    /// An upload name.
    social_sharing_image_url: String,
    success_title: String,
    /// At most 200 characters.
    success_message: String,
}

impl From<PromotionPageInput> for PageChange {
    fn from(i: PromotionPageInput) -> Self {
        PageChange {
            id: i.id.map(|id| id.0),
            version: i.version,
            name: i.name,
            html: i.html,
            teams_channel: i.teams_channel,
            page_summary: i.page_summary,
            social_sharing_image_url: i.social_sharing_image_url,
            success_title: i.success_title,
            success_message: i.success_message,
        }
    }
}

#[derive(InputObject)]
pub struct DeletePromotionPageInput {
    #[graphql(name = "_id")]
    id: ID,
    /// The content whose form deletes the page: its own use does not block the deletion.
    parent_content_id: Option<ID>,
}

#[derive(Default)]
pub struct PromotionsMutation;

#[Object]
impl PromotionsMutation {
    /// Administrator.
    async fn add_promotional_content(&self, ctx: &Context<'_>, item: PromotionalContentInput) -> Result<PromotionalContentObject> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let id = service::add_content(&app_state(ctx).pool, &item.into()).await?;
        load_content(ctx, &id, true).await
    }

    /// Administrator; `version` is the one the edit is based on.
    async fn edit_promotional_content(&self, ctx: &Context<'_>, item: PromotionalContentInput) -> Result<PromotionalContentObject> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let id = service::edit_content(&app_state(ctx).pool, &item.into()).await?;
        load_content(ctx, &id, true).await
    }

    /// Administrator. Topics lose it and articles drop it.
    async fn delete_promotional_content(&self, ctx: &Context<'_>, id: ID) -> Result<bool> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        service::delete_content(&app_state(ctx).pool, &id).await?;
        Ok(true)
    }

    /// Administrator.
    async fn add_promotion_page(&self, ctx: &Context<'_>, item: PromotionPageInput) -> Result<PromotionPageObject> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let state = app_state(ctx);
        let id = service::add_page(&state.pool, &state.sanitizer, &state.config.teams_webhook_test_hosts, &item.into()).await?;
        load_page(ctx, &id).await
    }

    /// Administrator; `version` is the one the edit is based on.
    async fn edit_promotion_page(&self, ctx: &Context<'_>, item: PromotionPageInput) -> Result<PromotionPageObject> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let state = app_state(ctx);
        let id = service::edit_page(&state.pool, &state.sanitizer, &state.config.teams_webhook_test_hosts, &item.into()).await?;
        load_page(ctx, &id).await
    }

    /// Administrator. Refused while content other than parentContentId uses it: 'This page is used
    /// by another Promotional Content, so it can’t be deleted.'
    async fn delete_promotion_page(&self, ctx: &Context<'_>, item: DeletePromotionPageInput) -> Result<bool> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        service::delete_page(&app_state(ctx).pool, &item.id, item.parent_content_id.as_ref().map(|id| id.as_str())).await?;
        Ok(true)
    }

    /// Any signed-in user: an article sidebar showed it (once per page view). Counted per content
    /// and day; an unknown or expired id gives false, never an error the reader sees.
    async fn log_promotional_content_impression(&self, ctx: &Context<'_>, promotional_content_id: ID) -> Result<bool> {
        viewer(ctx)?.require(ALL_ROLES)?;
        service::count(&app_state(ctx).pool, &promotional_content_id, 1, 0).await
    }

    /// Any signed-in user: they followed it. Counted like impressions.
    async fn log_promotional_content_click(&self, ctx: &Context<'_>, promotional_content_id: ID) -> Result<bool> {
        viewer(ctx)?.require(ALL_ROLES)?;
        service::count(&app_state(ctx).pool, &promotional_content_id, 0, 1).await
    }
}
