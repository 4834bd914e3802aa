//! GraphQL of the taxonomy area: topics (`Category`), tags, follows.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use tokio::sync::OnceCell;

use super::{
    model::{Category, Tag, TopicCounts},
    queries, service,
    service::{CategoryChange, TagChange},
};
use crate::{
    kept::RequestScope,
    auth::{ALL_ROLES, STAFF},
    error::{Error, Result},
    graphql::{DEFAULT_PAGE_SIZE, DeleteResult, Page, PageParams, SortDirection, app_state, contains_pattern, total_from_page, viewer},
};

#[derive(SimpleObject, Clone)]
#[graphql(name = "PromotionalContentSummary")]
pub struct PromotionalContentSummary {
    #[graphql(name = "_id")]
    pub id: ID,
    pub name: String,
    pub link: Option<String>,
    pub article_image: Option<String>,
}

/// A topic. `children` is filled by `categoriesAsTree` only.
#[derive(SimpleObject, Clone)]
#[graphql(name = "Category", complex)]
pub struct CategoryObject {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    description: String,
    /// The parent topic's id; null for a root.
    parent: Option<ID>,
    /// A sector (always a root).
    is_featured: bool,
    /// Card image: a file name from `POST /upload`, served at `/uploads/{name}`.
    small_image: Option<String>,
    /// Cover image.
    large_image: Option<String>,
    promotional_content_id: Option<ID>,
    promotional_content: Option<PromotionalContentSummary>,
    is_locked: bool,
    is_premium: bool,
    version: i32,
    /// 1 for a root, up to 5.
    level: i32,
    /// Whether the signed-in user follows this topic.
    is_following: bool,
    children: Vec<CategoryObject>,
    #[graphql(skip)]
    counts: CountsSource,
}

/// Where a topic's counts come from: read with the topic, or the shared counts of every topic,
/// loaded by the first count a list's answer selects (a list that shows none never loads them).
#[derive(Clone)]
enum CountsSource {
    Read(TopicCounts),
    Shared(Arc<OnceCell<Arc<HashMap<String, TopicCounts>>>>),
}

#[async_graphql::ComplexObject]
impl CategoryObject {
    async fn article_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.counts(ctx).await?.article_count)
    }

    /// Followers.
    async fn subscribers_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.counts(ctx).await?.subscribers_count)
    }

    async fn contributors_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.counts(ctx).await?.contributors_count)
    }

    async fn views(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.counts(ctx).await?.views)
    }
}

impl CategoryObject {
    fn new(c: Category, is_following: bool, counts: CountsSource) -> Self {
        let promotional_content = match (&c.promotional_content_id, c.promotional_content_name) {
            (Some(id), Some(name)) => Some(PromotionalContentSummary {
                id: ID(id.clone()),
                name,
                link: c.promotional_content_link,
                article_image: c.promotional_content_article_image,
            }),
            _ => None,
        };
        CategoryObject {
            id: ID(c.category_id),
            name: c.name,
            description: c.description,
            parent: c.parent_id.map(ID),
            is_featured: c.is_featured,
            small_image: c.small_image,
            large_image: c.large_image,
            promotional_content_id: c.promotional_content_id.map(ID),
            promotional_content,
            is_locked: c.is_locked,
            is_premium: c.is_premium,
            version: c.version,
            level: c.level,
            is_following,
            children: Vec::new(),
            counts,
        }
    }

    async fn counts(&self, ctx: &Context<'_>) -> Result<TopicCounts> {
        match &self.counts {
            CountsSource::Read(counts) => Ok(*counts),
            CountsSource::Shared(cell) => {
                let state = app_state(ctx);
                let all = cell.get_or_try_init(|| super::read::counts(state)).await?;
                Ok(all.get(self.id.as_str()).copied().unwrap_or_default())
            }
        }
    }
}

/// The shared topic list with the viewer's follows marked.
async fn topic_list(ctx: &Context<'_>, roots_only: bool) -> Result<Vec<CategoryObject>> {
    let viewer = viewer(ctx)?;
    viewer.require(ALL_ROLES)?;
    let state = app_state(ctx);
    let topics = RequestScope::of(ctx).topics().await?;
    let followed: HashSet<String> = queries::followed_categories(&state.pool, &viewer.user.user_id).await?.into_iter().collect();
    let counts = Arc::new(OnceCell::new());
    Ok(topics
        .list
        .iter()
        .filter(|c| !roots_only || c.parent_id.is_none())
        .map(|c| CategoryObject::new(c.clone(), followed.contains(&c.category_id), CountsSource::Shared(counts.clone())))
        .collect())
}

/// Nests a flat, name-ordered list under its roots, keeping the order among siblings.
fn build_tree(categories: Vec<CategoryObject>) -> Vec<CategoryObject> {
    let mut by_parent: HashMap<Option<String>, Vec<CategoryObject>> = HashMap::new();
    for category in categories {
        by_parent.entry(category.parent.as_ref().map(|id| id.to_string())).or_default().push(category);
    }
    fn attach(node: &mut CategoryObject, by_parent: &mut HashMap<Option<String>, Vec<CategoryObject>>) {
        if let Some(mut children) = by_parent.remove(&Some(node.id.to_string())) {
            for child in &mut children {
                attach(child, by_parent);
            }
            node.children = children;
        }
    }
    let mut roots = by_parent.remove(&None).unwrap_or_default();
    for root in &mut roots {
        attach(root, &mut by_parent);
    }
    roots
}

#[derive(InputObject)]
#[graphql(name = "CategoryInput")]
pub struct CategoryInput {
    /// Required by `editCategory`, ignored by `addCategory`.
    #[graphql(name = "_id")]
    id: Option<ID>,
    name: String,
    description: String,
    parent: Option<ID>,
    is_featured: Option<bool>,
    small_image: Option<String>,
    large_image: Option<String>,
    promotional_content_id: Option<ID>,
    is_locked: Option<bool>,
    is_premium: Option<bool>,
    /// Required by `editCategory`: the version the edit is based on.
    version: Option<i32>,
}

impl From<CategoryInput> for CategoryChange {
    fn from(i: CategoryInput) -> Self {
        CategoryChange {
            id: i.id.map(|id| id.0),
            name: i.name,
            description: i.description,
            parent: i.parent.map(|id| id.0),
            is_featured: i.is_featured.unwrap_or(false),
            small_image: i.small_image,
            large_image: i.large_image,
            promotional_content_id: i.promotional_content_id.map(|id| id.0),
            is_locked: i.is_locked.unwrap_or(false),
            is_premium: i.is_premium.unwrap_or(false),
            version: i.version,
        }
    }
}

#[derive(SimpleObject)]
#[graphql(name = "Tag")]
pub struct TagObject {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    description: String,
    version: i32,
    article_count: i64,
    views: i64,
}

impl From<Tag> for TagObject {
    fn from(t: Tag) -> Self {
        TagObject {
            id: ID(t.tag_id),
            name: t.name,
            description: t.description,
            version: t.version,
            article_count: t.article_count,
            views: t.views,
        }
    }
}

#[derive(InputObject)]
pub struct TagInput {
    #[graphql(name = "_id")]
    id: Option<ID>,
    name: String,
    description: String,
    version: Option<i32>,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum TagFilter {
    #[default]
    All,
    /// Tags used by no article.
    Empty,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum TagSortField {
    #[default]
    Name,
    Description,
    ArticleCount,
    Views,
}

#[derive(InputObject)]
pub struct TagListParams {
    /// 1-based page number.
    #[graphql(default = 1)]
    page: i32,
    /// One of 15, 30, 50, 100, 200.
    #[graphql(default = 15)]
    page_size: i32,
    /// Matched anywhere in the name or description, ignoring case.
    search_query: Option<String>,
    #[graphql(default)]
    filter: TagFilter,
    #[graphql(default)]
    sort_field: TagSortField,
    #[graphql(default)]
    sort_direction: SortDirection,
}

#[derive(SimpleObject)]
pub struct Follower {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    email: String,
    company: Option<String>,
    followed_at: chrono::DateTime<chrono::Utc>,
}

impl Default for TagListParams {
    /// The first page of the list, as an admin grid opens it.
    fn default() -> Self {
        TagListParams {
            page: 1,
            page_size: DEFAULT_PAGE_SIZE,
            search_query: None,
            filter: TagFilter::All,
            sort_field: TagSortField::Name,
            sort_direction: SortDirection::Asc,
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum FollowEntityType {
    Category,
}

#[derive(InputObject)]
pub struct FollowInput {
    entity_id: ID,
    entity_type: FollowEntityType,
    /// True to follow, false to unfollow.
    is_add: bool,
    /// The follower; when given it must be the signed-in user.
    user_id: Option<ID>,
    /// The entity's name, as the client knows it (informational).
    name: Option<String>,
}

#[derive(SimpleObject)]
pub struct FollowResult {
    entity_id: ID,
    is_following: bool,
    subscribers_count: i64,
}

async fn load_category(ctx: &Context<'_>, id: &str) -> Result<CategoryObject> {
    let viewer = viewer(ctx)?;
    if !crate::ids::is_valid_id(id) {
        return Err(Error::NotFound("Topic"));
    }
    let (category, counts, is_following) =
        queries::find_category(&app_state(ctx).pool, id, &viewer.user.user_id).await?.ok_or(Error::NotFound("Topic"))?;
    Ok(CategoryObject::new(category, is_following, CountsSource::Read(counts)))
}

async fn load_tag(ctx: &Context<'_>, id: &str) -> Result<TagObject> {
    if !crate::ids::is_valid_id(id) {
        return Err(Error::NotFound("Tag"));
    }
    Ok(queries::find_tag(&app_state(ctx).pool, id).await?.ok_or(Error::NotFound("Tag"))?.into())
}

#[derive(Default)]
pub struct TaxonomyQuery;

#[Object]
impl TaxonomyQuery {
    /// Every topic, flat, ordered by name.
    async fn categories(&self, ctx: &Context<'_>) -> Result<Vec<CategoryObject>> {
        topic_list(ctx, false).await
    }

    /// The root topics, ordered by name.
    async fn root_categories(&self, ctx: &Context<'_>) -> Result<Vec<CategoryObject>> {
        topic_list(ctx, true).await
    }

    async fn find_category_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<CategoryObject> {
        viewer(ctx)?.require(ALL_ROLES)?;
        load_category(ctx, &id).await
    }

    /// The root topics with their sub-topics nested (up to 5 levels), each with its counts and level.
    async fn categories_as_tree(&self, ctx: &Context<'_>) -> Result<Vec<CategoryObject>> {
        Ok(build_tree(topic_list(ctx, false).await?))
    }

    /// The followers of a topic, newest first (staff).
    async fn category_followers(
        &self,
        ctx: &Context<'_>,
        category_id: ID,
        #[graphql(default = 1)] page: i32,
        #[graphql(default = 15)] page_size: i32,
    ) -> Result<Page<Follower>> {
        viewer(ctx)?.require(STAFF)?;
        let pool = &app_state(ctx).pool;
        load_category(ctx, &category_id).await?;
        let (limit, offset) = PageParams { page, page_size }.limit_offset()?;
        let rows = queries::list_followers(pool, &category_id, limit, offset).await?;
        let total = match rows.first() {
            Some(row) => row.total,
            None => queries::count_followers(pool, &category_id).await?,
        };
        let items = rows
            .into_iter()
            .map(|r| Follower { id: ID(r.user_id), name: r.name, email: r.email, company: r.company, followed_at: r.followed_at })
            .collect();
        Ok(Page { items, total })
    }

    /// A page of tags with their counts, searched, filtered and sorted in the database.
    async fn tags(&self, ctx: &Context<'_>, params: Option<TagListParams>) -> Result<Page<TagObject>> {
        viewer(ctx)?.require(ALL_ROLES)?;
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search_query.as_deref());
        let sort = match params.sort_field {
            TagSortField::Name => "name",
            TagSortField::Description => "description",
            TagSortField::ArticleCount => "articles",
            TagSortField::Views => "views",
        };
        let query = queries::TagQuery {
            pattern: pattern.as_deref(),
            only_empty: params.filter == TagFilter::Empty,
            sort,
            descending: params.sort_direction == SortDirection::Desc,
            limit,
            offset,
        };
        let pool = &app_state(ctx).pool;
        let rows = match sort {
            "articles" | "views" => queries::list_tags_by_count(pool, &query).await?,
            _ => queries::list_tags_by_text(pool, &query).await?,
        };
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count_tags(pool, query.pattern, query.only_empty).await?,
        };
        let items = rows
            .into_iter()
            .map(|r| TagObject {
                id: ID(r.tag_id),
                name: r.name,
                description: r.description,
                version: r.version,
                article_count: r.article_count,
                views: r.views,
            })
            .collect();
        Ok(Page { items, total })
    }

    async fn find_tag_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<TagObject> {
        viewer(ctx)?.require(ALL_ROLES)?;
        load_tag(ctx, &id).await
    }
}

#[derive(Default)]
pub struct TaxonomyMutation;

#[Object]
impl TaxonomyMutation {
    async fn add_category(&self, ctx: &Context<'_>, item: CategoryInput) -> Result<CategoryObject> {
        viewer(ctx)?.require(STAFF)?;
        let id = service::add_category(&app_state(ctx).pool, &item.into()).await?;
        load_category(ctx, &id).await
    }

    async fn edit_category(&self, ctx: &Context<'_>, item: CategoryInput) -> Result<CategoryObject> {
        viewer(ctx)?.require(STAFF)?;
        let id = service::edit_category(&app_state(ctx).pool, &item.into()).await?;
        load_category(ctx, &id).await
    }

    /// Deletes a topic that has no sub-topics; its articles lose it.
    async fn delete_category(&self, ctx: &Context<'_>, id: ID) -> Result<DeleteResult> {
        viewer(ctx)?.require(STAFF)?;
        let state = app_state(ctx);
        let noun = if state.config.features.premium_channels { "topic" } else { "category" };
        let name = service::delete_category(&state.pool, &id, noun).await?;
        Ok(DeleteResult { id, name })
    }

    async fn add_tag(&self, ctx: &Context<'_>, item: TagInput) -> Result<TagObject> {
        viewer(ctx)?.require(STAFF)?;
        let change = TagChange { id: None, name: item.name, description: item.description, version: None };
        let id = service::add_tag(&app_state(ctx).pool, &change).await?;
        load_tag(ctx, &id).await
    }

    async fn edit_tag(&self, ctx: &Context<'_>, item: TagInput) -> Result<TagObject> {
        viewer(ctx)?.require(STAFF)?;
        let change = TagChange { id: item.id.map(|id| id.0), name: item.name, description: item.description, version: item.version };
        let id = service::edit_tag(&app_state(ctx).pool, &change).await?;
        load_tag(ctx, &id).await
    }

    /// Deletes a tag; its articles lose it.
    async fn delete_tag(&self, ctx: &Context<'_>, id: ID) -> Result<DeleteResult> {
        viewer(ctx)?.require(STAFF)?;
        let name = service::delete_tag(&app_state(ctx).pool, &id).await?;
        Ok(DeleteResult { id, name })
    }

    /// Follows or unfollows a topic for the signed-in user.
    async fn follow_entity(&self, ctx: &Context<'_>, item: FollowInput) -> Result<FollowResult> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        if let Some(user_id) = &item.user_id {
            if user_id.as_str() != viewer.user.user_id && user_id.as_str() != viewer.user.subject {
                return Err(Error::Forbidden);
            }
        }
        let _ = (item.entity_type, item.name);
        let count = service::set_following(&app_state(ctx).pool, &item.entity_id, &viewer.user.user_id, item.is_add).await?;
        Ok(FollowResult { entity_id: item.entity_id, is_following: item.is_add, subscribers_count: count })
    }
}
