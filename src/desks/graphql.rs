//! GraphQL of the desks area: the list (with counts, members and channels batched per list), the
//! form's reads and the add/edit/delete mutations with their rules (spec 2 §2, §4, §5).

use std::collections::HashMap;

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};

use super::queries::{self, DeskRow};
use crate::{
    auth::{Role, STAFF, Viewer},
    error::{Error, FieldErrors, Result, ResultExt},
    graphql::{DeleteResult, app_state, viewer},
    ids,
    users::{UserSummary, queries as users},
    validation::{optional_email, optional_id, optional_text, required_text},
};

const NAME_MAX: usize = 50;
const EMAIL_MAX: usize = 50;
const DESCRIPTION_MAX: usize = 500;

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
            let can_edit = may_edit(viewer, &contributors);
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

fn may_edit(viewer: &Viewer, contributors: &[UserSummary]) -> bool {
    viewer.role == Some(Role::Administrator) || contributors.iter().any(|u| u.user_id == viewer.user.user_id)
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
    /// Staff: desks by name; with `getOnlyUsersDesks`, only those the caller is a member of.
    async fn desks(&self, ctx: &Context<'_>, #[graphql(default)] get_only_users_desks: bool) -> Result<Vec<DeskObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(STAFF)?;
        let member = get_only_users_desks.then_some(viewer.user.user_id.as_str());
        let rows = queries::list_desks(&app_state(ctx).pool, None, member).await?;
        desk_objects(ctx, rows).await
    }

    async fn find_desk_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<DeskObject> {
        viewer(ctx)?.require(STAFF)?;
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

struct ValidDesk {
    name: String,
    description: Option<String>,
    email: Option<String>,
    contributors: Vec<String>,
}

async fn validate(ctx: &Context<'_>, item: &DeskInput) -> Result<ValidDesk> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &item.name, NAME_MAX);
    let description = optional_text(&mut fields, "description", item.description.as_deref(), DESCRIPTION_MAX);
    let email = optional_email(&mut fields, "email", item.email.as_deref(), EMAIL_MAX);
    let mut contributors: Vec<String> = item.contributors.iter().map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect();
    contributors.sort();
    contributors.dedup();
    if contributors.is_empty() {
        fields.insert("contributors".to_owned(), crate::error::REQUIRED_MESSAGE.to_owned());
    } else if contributors.iter().any(|c| !ids::is_valid_id(c))
        || !users::non_staff_among(&app_state(ctx).pool, &contributors).await?.is_empty()
    {
        fields.insert("contributors".to_owned(), "Choose contributors among the staff users".to_owned());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(ValidDesk { name, description, email, contributors })
}

fn duplicate_name() -> Error {
    Error::Duplicate { field: "name".to_owned() }
}

/// The desk `id`, if the caller may change it: an Administrator, or one of its members.
async fn editable_desk_id(ctx: &Context<'_>, id: Option<&str>) -> Result<String> {
    let viewer = viewer(ctx)?;
    viewer.require(STAFF)?;
    let id = optional_id(id, "Desk")?.ok_or_else(|| Error::field("_id", crate::error::REQUIRED_MESSAGE))?;
    let pool = &app_state(ctx).pool;
    if viewer.role != Some(Role::Administrator) && !queries::is_member(pool, &id, &viewer.user.user_id).await? {
        // Only members learn whether a desk exists beyond its listing; missing desks are NOT_FOUND.
        return match queries::list_desks(pool, Some(&id), None).await?.is_empty() {
            true => Err(Error::NotFound("Desk")),
            false => Err(Error::Forbidden),
        };
    }
    Ok(id)
}

#[derive(Default)]
pub struct DesksMutation;

#[Object]
impl DesksMutation {
    /// Staff.
    async fn add_desk(&self, ctx: &Context<'_>, item: DeskInput) -> Result<DeskObject> {
        viewer(ctx)?.require(STAFF)?;
        let desk = validate(ctx, &item).await?;
        let id = ids::new_id();
        let mut tx = app_state(ctx).pool.begin().await?;
        queries::insert_desk(&mut tx, &id, &desk.name, desk.description.as_deref(), desk.email.as_deref())
            .await
            .on_constraint("desk_name_key", duplicate_name)?;
        queries::set_contributors(&mut tx, &id, &desk.contributors).await?;
        tx.commit().await?;
        load_desk(ctx, &id).await
    }

    /// An Administrator or a member of the desk.
    async fn edit_desk(&self, ctx: &Context<'_>, item: DeskInput) -> Result<DeskObject> {
        let id = editable_desk_id(ctx, item.id.as_ref().map(|id| id.as_str())).await?;
        let version = item.version.ok_or_else(|| Error::field("version", crate::error::REQUIRED_MESSAGE))?;
        let desk = validate(ctx, &item).await?;
        let mut tx = app_state(ctx).pool.begin().await?;
        let written = queries::update_desk(&mut tx, &id, version, &desk.name, desk.description.as_deref(), desk.email.as_deref())
            .await
            .on_constraint("desk_name_key", duplicate_name)?;
        match written {
            None => return Err(Error::NotFound("Desk")),
            Some(false) => return Err(Error::stale_version()),
            Some(true) => {}
        }
        queries::set_contributors(&mut tx, &id, &desk.contributors).await?;
        tx.commit().await?;
        load_desk(ctx, &id).await
    }

    /// An Administrator or a member of the desk; refused while the desk owns a channel.
    async fn delete_desk(&self, ctx: &Context<'_>, id: ID) -> Result<DeleteResult> {
        let id = editable_desk_id(ctx, Some(&id)).await?;
        let mut tx = app_state(ctx).pool.begin().await?;
        let (name, channels) = queries::lock_for_delete(&mut tx, &id).await?.ok_or(Error::NotFound("Desk"))?;
        if channels > 0 {
            let noun = if channels == 1 { "channel" } else { "channels" };
            return Err(Error::Conflict(format!(
                "The desk {name} owns {channels} {noun}: it can be deleted only when it owns no channel."
            )));
        }
        queries::delete_desk(&mut tx, &id).await?;
        tx.commit().await?;
        Ok(DeleteResult { id: ID(id), name })
    }
}
