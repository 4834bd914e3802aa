//! GraphQL of the desks area: the list (with counts, members and channels batched per list), the
//! form's reads, and the add/edit/delete mutations (their rules are in `service`).

use std::collections::HashMap;

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};

use super::{
    queries::{self, DeskRow},
    service::{self, DeskChange},
};
use crate::{
    auth::{ALL_ROLES, STAFF},
    error::{Error, Result},
    graphql::{DeleteResult, app_state, viewer},
    users::UserSummary,
    validation::optional_id,
};

/// A channel as a desk lists it.
#[derive(SimpleObject, Clone)]
pub struct DeskChannel {
    #[graphql(name = "_id")]
    id: String,
    name: String,
}

#[derive(SimpleObject)]
#[graphql(name = "Desk")]
pub struct DeskObject {
    #[graphql(name = "_id")]
    id: String,
    name: String,
    description: Option<String>,
    email: Option<String>,
    version: i32,
    contributors: Vec<UserSummary>,
    /// The channels the desk owns.
    channels: Vec<DeskChannel>,
    /// Articles the desk published.
    article_count: i64,
    views: i64,
    /// Whether the caller may edit and delete it: an Administrator, or a member of the desk.
    can_edit: bool,
}

/// Turns desk rows into objects, loading members and channels for all of them in two statements.
async fn desk_objects(ctx: &Context<'_>, rows: Vec<DeskRow>) -> Result<Vec<DeskObject>> {
    let viewer = viewer(ctx)?;
    let pool = &app_state(ctx).pool;
    let ids: Vec<String> = rows.iter().map(|r| r.desk_id.clone()).collect();
    let mut members: HashMap<String, Vec<UserSummary>> = HashMap::new();
    for (desk_id, user) in queries::contributors_of(pool, &ids).await? {
        members.entry(desk_id).or_default().push(user);
    }
    let mut channels: HashMap<String, Vec<DeskChannel>> = HashMap::new();
    for channel in queries::channels_of(pool, &ids).await? {
        channels.entry(channel.desk_id).or_default().push(DeskChannel { id: channel.channel_id, name: channel.name });
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let contributors = members.remove(&row.desk_id).unwrap_or_default();
            let can_edit = service::may_change(viewer.role, contributors.iter().any(|u| u.user_id == viewer.user.user_id));
            DeskObject {
                channels: channels.remove(&row.desk_id).unwrap_or_default(),
                contributors,
                can_edit,
                id: row.desk_id,
                name: row.name,
                description: row.description,
                email: row.email,
                version: row.version,
                article_count: row.article_count,
                views: row.views,
            }
        })
        .collect())
}

async fn load_desk(ctx: &Context<'_>, id: &str) -> Result<DeskObject> {
    let id = optional_id(Some(id), "Desk")?.ok_or(Error::NotFound("Desk"))?;
    let rows = queries::list_desks(&app_state(ctx).pool, Some(&id), None).await?;
    desk_objects(ctx, rows).await?.pop().ok_or(Error::NotFound("Desk"))
}

#[derive(Default)]
pub struct DesksQuery;

#[Object]
impl DesksQuery {
    /// Desks by name (readers browse them too); with `getOnlyUsersDesks`, only those the caller is
    /// a member of.
    async fn desks(&self, ctx: &Context<'_>, #[graphql(default)] get_only_users_desks: bool) -> Result<Vec<DeskObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let member = get_only_users_desks.then_some(viewer.user.user_id.as_str());
        let rows = queries::list_desks(&app_state(ctx).pool, None, member).await?;
        desk_objects(ctx, rows).await
    }

    /// Readers see a desk's page too.
    async fn find_desk_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<DeskObject> {
        viewer(ctx)?.require(ALL_ROLES)?;
        load_desk(ctx, &id).await
    }
}

/// A desk as a client wants it to be (add or edit).
#[derive(InputObject)]
pub struct DeskInput {
    /// Required by `editDesk`, ignored by `addDesk`.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Required by `editDesk`: the version the edit is based on.
    version: Option<i32>,
    /// Required, max 50, unique ignoring case.
    name: String,
    description: Option<String>,
    /// A valid email address, max 50.
    email: Option<String>,
    /// User ids of staff users, at least one.
    contributors: Vec<String>,
}

impl From<DeskInput> for DeskChange {
    fn from(input: DeskInput) -> Self {
        DeskChange {
            id: input.id.map(|id| id.0),
            version: input.version,
            name: input.name,
            description: input.description,
            email: input.email,
            contributors: input.contributors,
        }
    }
}

#[derive(Default)]
pub struct DesksMutation;

#[Object]
impl DesksMutation {
    /// Staff.
    async fn add_desk(&self, ctx: &Context<'_>, item: DeskInput) -> Result<DeskObject> {
        viewer(ctx)?.require(STAFF)?;
        let id = service::add_desk(&app_state(ctx).pool, &item.into()).await?;
        load_desk(ctx, &id).await
    }

    /// An Administrator or a member of the desk.
    async fn edit_desk(&self, ctx: &Context<'_>, item: DeskInput) -> Result<DeskObject> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let id = service::edit_desk(&app_state(ctx).pool, (&viewer.user.user_id, Some(role)), &item.into()).await?;
        load_desk(ctx, &id).await
    }

    /// An Administrator or a member of the desk; refused while the desk owns a channel.
    async fn delete_desk(&self, ctx: &Context<'_>, id: ID) -> Result<DeleteResult> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let (id, name) = service::delete_desk(&app_state(ctx).pool, (&viewer.user.user_id, Some(role)), &id).await?;
        Ok(DeleteResult { id: ID(id), name })
    }
}
