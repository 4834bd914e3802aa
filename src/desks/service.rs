//! The rules of changing desks (spec 2 §2, §4, §5): validation with the spec's messages, unique
//! names, versions, who may change a desk (an Administrator or one of its members), and deletion
//! only while the desk owns no channel.

use sqlx::PgPool;

use super::queries;
use crate::{
    auth::Role,
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result, ResultExt},
    ids,
    users::queries as users,
    validation::{optional_email, optional_id, optional_text, required_text},
};

const NAME_MAX: usize = 50;
const EMAIL_MAX: usize = 50;
const DESCRIPTION_MAX: usize = 500;

/// A desk as a client wants it to be (add or edit).
#[derive(Debug, Clone)]
pub struct DeskChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub name: String,
    pub description: Option<String>,
    pub email: Option<String>,
    pub contributors: Vec<String>,
}

struct ValidDesk {
    name: String,
    description: Option<String>,
    email: Option<String>,
    contributors: Vec<String>,
}

async fn validate(pool: &PgPool, change: &DeskChange) -> Result<ValidDesk> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &change.name, NAME_MAX);
    let description = optional_text(&mut fields, "description", change.description.as_deref(), DESCRIPTION_MAX);
    let email = optional_email(&mut fields, "email", change.email.as_deref(), EMAIL_MAX);
    let mut contributors: Vec<String> = change.contributors.iter().map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect();
    contributors.sort();
    contributors.dedup();
    if contributors.is_empty() {
        fields.insert("contributors".to_owned(), REQUIRED_MESSAGE.to_owned());
    } else if contributors.iter().any(|c| !ids::is_valid_id(c)) || !users::non_staff_among(pool, &contributors).await?.is_empty() {
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

/// Whether a user with `role` may change a desk: an Administrator, or one of its members.
pub fn may_change(role: Option<Role>, is_member: bool) -> bool {
    role == Some(Role::Administrator) || is_member
}

/// The desk `id` if `user_id` may change it; NOT_FOUND when it does not exist, else FORBIDDEN.
async fn changeable(pool: &PgPool, id: Option<&str>, (user_id, role): (&str, Option<Role>)) -> Result<String> {
    let id = optional_id(id, "Desk")?.ok_or_else(|| Error::field("_id", REQUIRED_MESSAGE))?;
    if !queries::exists(pool, &id).await? {
        return Err(Error::NotFound("Desk"));
    }
    if !may_change(role, queries::is_member(pool, &id, user_id).await?) {
        return Err(Error::Forbidden);
    }
    Ok(id)
}

/// Adds a desk; returns its id.
pub async fn add_desk(pool: &PgPool, change: &DeskChange) -> Result<String> {
    let desk = validate(pool, change).await?;
    let id = ids::new_id();
    let mut tx = pool.begin().await?;
    queries::insert_desk(&mut tx, &id, &desk.name, desk.description.as_deref(), desk.email.as_deref())
        .await
        .on_constraint("desk_name_key", duplicate_name)?;
    queries::set_contributors(&mut tx, &id, &desk.contributors).await?;
    tx.commit().await?;
    Ok(id)
}

/// Edits a desk the editor may change.
pub async fn edit_desk(pool: &PgPool, editor: (&str, Option<Role>), change: &DeskChange) -> Result<String> {
    let id = changeable(pool, change.id.as_deref(), editor).await?;
    let version = change.version.ok_or_else(|| Error::field("version", REQUIRED_MESSAGE))?;
    let desk = validate(pool, change).await?;
    let mut tx = pool.begin().await?;
    Error::check_version(queries::lock_desk_version(&mut tx, &id).await?, version, "Desk")?;
    queries::update_desk(&mut tx, &id, &desk.name, desk.description.as_deref(), desk.email.as_deref())
        .await
        .on_constraint("desk_name_key", duplicate_name)?;
    queries::set_contributors(&mut tx, &id, &desk.contributors).await?;
    tx.commit().await?;
    Ok(id)
}

/// Deletes a desk the editor may change, refused while it owns a channel; returns its id and name.
pub async fn delete_desk(pool: &PgPool, editor: (&str, Option<Role>), id: &str) -> Result<(String, String)> {
    let id = changeable(pool, Some(id), editor).await?;
    let mut tx = pool.begin().await?;
    let (name, channels) = queries::lock_for_delete(&mut tx, &id).await?.ok_or(Error::NotFound("Desk"))?;
    if channels > 0 {
        let noun = if channels == 1 { "channel" } else { "channels" };
        return Err(Error::Conflict(format!("The desk {name} owns {channels} {noun}: it can be deleted only when it owns no channel.")));
    }
    queries::delete_desk(&mut tx, &id).await?;
    tx.commit().await?;
    Ok((id, name))
}
