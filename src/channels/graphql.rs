//! GraphQL of the channels area: the admin list, the reader lists, one channel, the counts, the
//! owner picker, and add/edit/archive.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{
    Context, Enum, ID, InputObject, Object, SimpleObject,
    dataloader::{DataLoader, Loader},
};
use chrono::{DateTime, Utc};

use super::{
    read::{AllChannels, every_channel},
    model::{ChannelState, ChannelType, OwnerType},
    queries::{self, ChannelCounts, ChannelFilter, ChannelRow},
    random_pick::RandomPick,
    service::{self, ArchivedBy, ChannelChange},
};
use crate::subscriptions::{ChannelSubscriptionObject, ReaderChannelCard, reader_card};
use crate::{
    kept::RequestScope,
    auth::{ALL_ROLES, Role, STAFF},
    desks::queries as desks,
    error::{Error, Result},
    graphql::{Page, PageParams, SortDirection, app_state, contains_pattern, total_from_page, viewer},
    users::{UserSummary, queries as users},
    validation::optional_id,
};

#[derive(SimpleObject, Clone)]
pub struct ChannelOwner {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    r#type: OwnerType,
}

#[derive(Clone)]
pub struct ChannelObject {
    row: Arc<ChannelRow>,
    /// Loaded with the list when the request selects them; else on demand.
    admins: Option<Vec<UserSummary>>,
    /// Staff see the billing and admin fields; readers do not.
    staff_view: bool,
    can_edit: bool,
}

// `serial`: the fields are in memory or batched across the list's channels; one task per field
// costs more than it saves.
#[Object(name = "Channel", serial)]
impl ChannelObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.channel_id
    }

    async fn name(&self) -> &str {
        &self.row.name
    }

    async fn description(&self) -> Option<&str> {
        self.row.description.as_deref()
    }

    async fn url(&self) -> Option<&str> {
        self.row.url.as_deref()
    }

    /// An uploaded image's file name (served under /uploads/).
    async fn profile_image(&self) -> Option<&str> {
        self.row.profile_image.as_deref()
    }

    async fn cover_image(&self) -> Option<&str> {
        self.row.cover_image.as_deref()
    }

    /// Staff only (null for readers).
    async fn gl_account(&self) -> Option<&str> {
        self.row.gl_account.as_deref().filter(|_| self.staff_view)
    }

    /// Dollars per month with 2 decimals, e.g. "49.00"; null for free channels.
    async fn price(&self) -> Option<&str> {
        self.row.price.as_deref()
    }

    async fn r#type(&self) -> ChannelType {
        ChannelType::parse(&self.row.channel_type)
    }

    async fn owner_type(&self) -> OwnerType {
        OwnerType::parse(&self.row.owner_type)
    }

    async fn owner_id(&self) -> &str {
        &self.row.owner_id
    }

    async fn owner(&self) -> ChannelOwner {
        ChannelOwner { id: self.row.owner_id.clone(), name: self.row.owner_name.clone(), r#type: OwnerType::parse(&self.row.owner_type) }
    }

    /// Staff only (empty for readers).
    async fn admin_users(&self, ctx: &Context<'_>) -> Result<Vec<UserSummary>> {
        if !self.staff_view {
            return Ok(Vec::new());
        }
        if let Some(admins) = &self.admins {
            return Ok(admins.clone());
        }
        let ids = [self.row.channel_id.clone()];
        Ok(queries::admins_of(&app_state(ctx).pool, &ids).await?.into_iter().map(|(_, user)| user).collect())
    }

    async fn default_trial_duration_days(&self) -> Option<i32> {
        self.row.default_trial_duration_days
    }

    async fn hide_disclaimer(&self) -> bool {
        self.row.hide_disclaimer
    }

    async fn state(&self) -> ChannelState {
        ChannelState::parse(&self.row.state)
    }

    /// Articles of the channel that are not archived.
    async fn article_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(counts(ctx, &self.row.channel_id).await?.article_count)
    }

    async fn archived_article_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(counts(ctx, &self.row.channel_id).await?.archived_article_count)
    }

    async fn template_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(counts(ctx, &self.row.channel_id).await?.template_count)
    }

    /// Subscriptions in state active that have not reached their end.
    async fn channel_active_users_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(counts(ctx, &self.row.channel_id).await?.active_users)
    }

    /// The caller holds an active subscription to it (state active, not past cancelAt), their own
    /// or a seat of their firm's.
    async fn is_current_user_subscribed(&self, ctx: &Context<'_>) -> Result<bool> {
        let subscriptions = RequestScope::of(ctx).viewer_subscriptions().await?;
        Ok(subscriptions.is_active(&self.row.channel_id, chrono::Utc::now()))
    }

    /// The caller's subscription to it, in whatever state; null when they never had one.
    async fn user_channel_subscription(&self, ctx: &Context<'_>) -> Result<Option<ChannelSubscriptionObject>> {
        let subscriptions = RequestScope::of(ctx).viewer_subscriptions().await?;
        Ok(subscriptions.find(&self.row.channel_id).cloned().map(ChannelSubscriptionObject::new))
    }

    /// What the caller's card for this channel offers (spec 3 §4 'Channel card for a reader').
    async fn reader_card(&self, ctx: &Context<'_>) -> Result<ReaderChannelCard> {
        reader_card(ctx, &self.row.channel_id, ChannelType::parse(&self.row.channel_type)).await
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn created_by(&self) -> Option<UserSummary> {
        UserSummary::from_columns(&self.row.created_by_id, &self.row.created_by_name, &self.row.created_by_email)
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    /// Whether the caller may edit (and archive) it: an Administrator, or an Editor among its
    /// admins; never once archived.
    async fn can_edit(&self) -> bool {
        self.can_edit
    }
}

/// The counts of channels, loaded together for every channel of a response that asks for one.
pub struct ChannelCountsLoader(pub sqlx::PgPool);

impl Loader<String> for ChannelCountsLoader {
    type Value = ChannelCounts;
    type Error = Arc<sqlx::Error>;

    async fn load(&self, keys: &[String]) -> std::result::Result<HashMap<String, ChannelCounts>, Self::Error> {
        let counts = queries::counts_of(&self.0, keys).await.map_err(Arc::new)?;
        Ok(counts.into_iter().map(|c| (c.channel_id.clone(), c)).collect())
    }
}

async fn counts(ctx: &Context<'_>, channel_id: &str) -> Result<ChannelCounts> {
    let loader = ctx.data_unchecked::<DataLoader<ChannelCountsLoader>>();
    let counts = loader.load_one(channel_id.to_owned()).await.map_err(|e| Error::shared_database(&e, "channel counts"))?;
    counts.ok_or(Error::NotFound("Channel"))
}

/// Turns rows into objects, loading the admins of all of them in one statement when the request
/// asks for them (`admins_selected`, from the field's look-ahead).
/// `rows` as the caller sees them; `is_admin` tells whether the caller administers a row's channel.
async fn channel_objects(
    ctx: &Context<'_>,
    rows: Vec<Arc<ChannelRow>>,
    is_admin: impl Fn(&ChannelRow) -> bool,
    admins_selected: bool,
) -> Result<Vec<ChannelObject>> {
    let viewer = viewer(ctx)?;
    let staff_view = viewer.role.is_some_and(Role::is_staff);
    let mut admins: Option<HashMap<String, Vec<UserSummary>>> = None;
    if staff_view && admins_selected && !rows.is_empty() {
        let ids: Vec<String> = rows.iter().map(|r| r.channel_id.clone()).collect();
        let mut by_channel: HashMap<String, Vec<UserSummary>> = HashMap::new();
        for (channel_id, user) in queries::admins_of(&app_state(ctx).pool, &ids).await? {
            by_channel.entry(channel_id).or_default().push(user);
        }
        admins = Some(by_channel);
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let can_edit = row.state == "active" && service::may_change(viewer.role, is_admin(&row));
            let admins = admins.as_mut().map(|by_channel| by_channel.remove(&row.channel_id).unwrap_or_default());
            ChannelObject { admins, row, staff_view, can_edit }
        })
        .collect())
}

/// Channels read by a statement of their own (the admin list's filters and sorts).
async fn from_rows(ctx: &Context<'_>, rows: Vec<ChannelRow>, admins_selected: bool) -> Result<Vec<ChannelObject>> {
    channel_objects(ctx, rows.into_iter().map(Arc::new).collect(), |row| row.viewer_is_admin, admins_selected).await
}

/// The kept channels (`read`) that `keep` chooses, in name order.
async fn kept_channels(ctx: &Context<'_>, keep: impl Fn(&ChannelRow) -> bool) -> Result<Vec<ChannelObject>> {
    let all = every_channel(RequestScope::of(ctx)).await?;
    let rows = all.channels.iter().filter(|row| keep(row)).cloned().collect();
    kept_objects(ctx, &all, rows).await
}

/// Objects for `rows` of the kept channels `all`.
async fn kept_objects(ctx: &Context<'_>, all: &AllChannels, rows: Vec<Arc<ChannelRow>>) -> Result<Vec<ChannelObject>> {
    let viewer = &viewer(ctx)?.user.user_id;
    channel_objects(ctx, rows, |row| all.is_admin(&row.channel_id, viewer), ctx.look_ahead().field("adminUsers").exists()).await
}

/// Channels by id (archived ones included), from memory; those missing are left out.
pub async fn channels_by_ids(ctx: &Context<'_>, ids: &[String]) -> Result<HashMap<String, ChannelObject>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let channels = kept_channels(ctx, |row| ids.contains(&row.channel_id)).await?;
    Ok(channels.into_iter().map(|c| (c.row.channel_id.clone(), c)).collect())
}

async fn load_channel(ctx: &Context<'_>, id: &str) -> Result<ChannelObject> {
    let id = optional_id(Some(id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
    kept_channels(ctx, |row| row.channel_id == id).await?.pop().ok_or(Error::NotFound("Channel"))
}

/// The active channels `user_id` may publish to (`me.channelsToPublish`).
pub async fn channels_to_publish(ctx: &Context<'_>, user_id: &str, role: Option<Role>) -> Result<Vec<ChannelObject>> {
    let publisher = match role {
        Some(Role::Administrator) => None,
        Some(Role::Editor | Role::Contributor) => Some(user_id),
        _ => return Ok(Vec::new()),
    };
    let viewer = &viewer(ctx)?.user.user_id;
    let filter = ChannelFilter { state: Some("active"), publisher, viewer, sort: "name", ..Default::default() };
    let rows = queries::select_channels(&app_state(ctx).pool, &filter).await?;
    from_rows(ctx, rows, ctx.look_ahead().field("adminUsers").exists()).await
}

/// The admin list toolbar: every active channel, the caller's, or the archived ones.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(name = "ChannelFilter", rename_items = "PascalCase")]
pub enum ChannelFilterChoice {
    #[default]
    All,
    MyChannels,
    Archived,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(name = "ChannelTypeFilter", rename_items = "PascalCase")]
pub enum ChannelTypeChoice {
    #[default]
    All,
    Premium,
    Free,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum ChannelSortField {
    #[default]
    Name,
    Type,
    Owner,
    Price,
    CreatedAt,
    ArticleCount,
    ActiveUsers,
}

#[derive(InputObject)]
pub struct ChannelListParams {
    /// 1-based page number.
    #[graphql(default = 1)]
    page: i32,
    /// One of 15, 30, 50, 100, 200.
    #[graphql(default = 15)]
    page_size: i32,
    #[graphql(default)]
    filter: ChannelFilterChoice,
    #[graphql(default)]
    r#type: ChannelTypeChoice,
    /// Matched anywhere in the name, ignoring case.
    search_query: Option<String>,
    #[graphql(default)]
    sort_field: ChannelSortField,
    #[graphql(default)]
    sort_direction: SortDirection,
}

impl Default for ChannelListParams {
    fn default() -> Self {
        let page = PageParams::default();
        ChannelListParams {
            page: page.page,
            page_size: page.page_size,
            filter: ChannelFilterChoice::All,
            r#type: ChannelTypeChoice::All,
            search_query: None,
            sort_field: ChannelSortField::Name,
            sort_direction: SortDirection::Asc,
        }
    }
}

#[derive(Default)]
pub struct ChannelsQuery;

#[Object]
impl ChannelsQuery {
    /// Staff: the admin grid, paged, filtered and sorted in the database.
    async fn channels(&self, ctx: &Context<'_>, params: Option<ChannelListParams>) -> Result<Page<ChannelObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(STAFF)?;
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search_query.as_deref());
        let types: Vec<String> = match params.r#type {
            ChannelTypeChoice::All => Vec::new(),
            ChannelTypeChoice::Premium => vec!["premium".to_owned()],
            ChannelTypeChoice::Free => vec!["freeOpen".to_owned(), "freeClosed".to_owned()],
        };
        let user_id = viewer.user.user_id.as_str();
        let filter = ChannelFilter {
            state: Some(if params.filter == ChannelFilterChoice::Archived { "archived" } else { "active" }),
            types: &types,
            admin: (params.filter == ChannelFilterChoice::MyChannels).then_some(user_id),
            pattern: pattern.as_deref(),
            viewer: user_id,
            sort: match params.sort_field {
                ChannelSortField::Name => "name",
                ChannelSortField::Type => "type",
                ChannelSortField::Owner => "owner",
                ChannelSortField::Price => "price",
                ChannelSortField::CreatedAt => "createdAt",
                ChannelSortField::ArticleCount => "articles",
                ChannelSortField::ActiveUsers => "activeUsers",
            },
            descending: params.sort_direction == SortDirection::Desc,
            limit: Some(limit),
            offset,
            ..Default::default()
        };
        let pool = &app_state(ctx).pool;
        let rows = queries::select_channels(pool, &filter).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count_channels(pool, &filter).await?,
        };
        let admins_selected = ctx.look_ahead().field("items").field("adminUsers").exists();
        Ok(Page { items: from_rows(ctx, rows, admins_selected).await?, total })
    }

    /// Active premium channels by name; with `pick`, a few of them at random, those the caller
    /// holds (subscribed, or asked for) last.
    async fn premium_channels(&self, ctx: &Context<'_>, pick: Option<RandomPick>) -> Result<Vec<ChannelObject>> {
        active_of_types(ctx, &["premium"], pick).await
    }

    /// Active free channels by name; with `pick`, a few of them at random, those the caller holds
    /// (subscribed, or asked for) last.
    async fn free_channels(&self, ctx: &Context<'_>, pick: Option<RandomPick>) -> Result<Vec<ChannelObject>> {
        active_of_types(ctx, &["freeOpen", "freeClosed"], pick).await
    }

    /// Every active channel by name.
    async fn all_channels(&self, ctx: &Context<'_>) -> Result<Vec<ChannelObject>> {
        active_of_types(ctx, &[], None).await
    }

    /// One channel, archived ones included.
    async fn channel(&self, ctx: &Context<'_>, id: ID) -> Result<ChannelObject> {
        viewer(ctx)?.require(ALL_ROLES)?;
        load_channel(ctx, &id).await
    }

    /// Staff: the channel's active subscriptions.
    async fn get_subscribers_count(&self, ctx: &Context<'_>, channel_id: ID) -> Result<i64> {
        viewer(ctx)?.require(STAFF)?;
        let channel = load_channel(ctx, &channel_id).await?;
        Ok(counts(ctx, &channel.row.channel_id).await?.active_users)
    }

    /// Staff: desks or contributors whose name matches, for the channel owner picker.
    async fn channel_owner_candidates(
        &self,
        ctx: &Context<'_>,
        owner_type: OwnerType,
        search_query: Option<String>,
        #[graphql(default = 20)] limit: i32,
    ) -> Result<Vec<ChannelOwner>> {
        viewer(ctx)?.require(STAFF)?;
        let pattern = contains_pattern(search_query.as_deref());
        let limit = i64::from(limit.clamp(1, 100));
        let pool = &app_state(ctx).pool;
        let found = match owner_type {
            OwnerType::Desk => desks::search_desks(pool, pattern.as_deref(), limit).await?,
            OwnerType::Contributor => users::search_contributors(pool, pattern.as_deref(), limit).await?,
        };
        Ok(found.into_iter().map(|(id, name)| ChannelOwner { id, name, r#type: owner_type }).collect())
    }
}

async fn active_of_types(ctx: &Context<'_>, types: &[&str], pick: Option<RandomPick>) -> Result<Vec<ChannelObject>> {
    let viewer = viewer(ctx)?;
    viewer.require(ALL_ROLES)?;
    let of_types = |row: &ChannelRow| row.state == "active" && (types.is_empty() || types.contains(&row.channel_type.as_str()));
    let Some(pick) = pick else {
        return kept_channels(ctx, of_types).await;
    };
    // Picked before they become objects: only the few picked are built and resolved.
    let all = every_channel(RequestScope::of(ctx)).await?;
    let subscriptions = RequestScope::of(ctx).viewer_subscriptions().await?;
    let now = Utc::now();
    let rows = all.channels.iter().filter(|row| of_types(row)).cloned().collect();
    let picked = pick.pick(rows, |row| row.channel_id.as_str(), |row| subscriptions.holds(&row.channel_id, now))?;
    kept_objects(ctx, &all, picked).await
}

/// A channel as a client wants it to be (add or edit).
#[derive(InputObject)]
pub struct ChannelInput {
    /// Required by `editChannel`, ignored by `addChannel`.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Required by `editChannel`: the version the edit is based on.
    version: Option<i32>,
    name: String,
    description: Option<String>,
    url: Option<String>,
    /// An uploaded image's file name (png or jpeg, at most 2 MB).
    profile_image: Option<String>,
    cover_image: Option<String>,
    /// Required for premium, max 32.
    gl_account: Option<String>,
    /// Required for premium: digits with at most 2 decimals.
    price: Option<String>,
    /// Cannot change after creation.
    r#type: ChannelType,
    owner_type: OwnerType,
    /// Cannot change after creation.
    owner_id: String,
    /// User ids of staff users; the creator is always added by `addChannel`.
    admin_users: Vec<String>,
    default_trial_duration_days: Option<i32>,
    #[graphql(default)]
    hide_disclaimer: bool,
}

impl From<ChannelInput> for ChannelChange {
    fn from(input: ChannelInput) -> Self {
        ChannelChange {
            id: input.id.map(|id| id.0),
            version: input.version,
            name: input.name,
            description: input.description,
            url: input.url,
            profile_image: input.profile_image,
            cover_image: input.cover_image,
            gl_account: input.gl_account,
            price: input.price,
            channel_type: input.r#type,
            owner_type: input.owner_type,
            owner_id: input.owner_id,
            admin_users: input.admin_users,
            default_trial_duration_days: input.default_trial_duration_days,
            hide_disclaimer: input.hide_disclaimer,
        }
    }
}

#[derive(Default)]
pub struct ChannelsMutation;

#[Object]
impl ChannelsMutation {
    /// Administrator, Editor.
    async fn add_channel(&self, ctx: &Context<'_>, item: ChannelInput) -> Result<ChannelObject> {
        let viewer = viewer(ctx)?;
        viewer.require(&[Role::Administrator, Role::Editor])?;
        let state = app_state(ctx);
        let id = service::add_channel(&state.pool, &viewer.user.user_id, &item.into(), &state.uploads).await?;
        load_channel(ctx, &id).await
    }

    /// An Administrator, or an Editor among the channel's admins; archived channels are read-only.
    async fn edit_channel(&self, ctx: &Context<'_>, item: ChannelInput) -> Result<ChannelObject> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(&[Role::Administrator, Role::Editor])?;
        let state = app_state(ctx);
        let id = service::edit_channel(&state.pool, (&viewer.user.user_id, Some(role)), &item.into(), &state.uploads).await?;
        load_channel(ctx, &id).await
    }

    /// Same rights as editing. Refused while the channel has active subscribers; otherwise for
    /// good: its articles are archived and its templates unlinked.
    async fn archive_channel(&self, ctx: &Context<'_>, id: ID) -> Result<ChannelObject> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(&[Role::Administrator, Role::Editor])?;
        service::archive_channel(&app_state(ctx).pool, &id, ArchivedBy::User(&viewer.user.user_id, Some(role))).await?;
        load_channel(ctx, &id).await
    }
}
