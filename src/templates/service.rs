//! The rules of templates (spec 2 §2 "Templates", §5, §6): Editors add, edit and delete them; a
//! title and a channel they may publish to are required; the body is sanitised like an article's.

use super::queries;
use crate::{
    articles::service::{ARCHIVED_CHANNEL_MESSAGE, TITLE_MAX, one_line},
    channels::queries::publishing_channel,
    auth::Role,
    error::{Error, FieldErrors, Result, ResultExt},
    ids,
    state::AppState,
    users::queries as users,
    validation::{id_list, max_length_message, optional_id},
};

/// The template form's required message (spec 2 §5 spells it with a full stop).
pub const REQUIRED: &str = "This field is required.";

#[derive(Debug, Clone, Default)]
pub struct TemplateChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub title: String,
    pub html: Option<String>,
    pub premium_channel_id: Option<String>,
    pub contributors: Vec<String>,
    pub categories: Vec<String>,
    pub tags: Vec<String>,
}

/// Template add/edit/delete is for Editors (spec 2 §6).
pub fn may_change(role: Role) -> bool {
    role == Role::Editor
}

struct ValidTemplate {
    title: String,
    html: String,
    channel_id: String,
    contributors: Vec<String>,
    categories: Vec<String>,
    tags: Vec<String>,
}

async fn validate(state: &AppState, user_id: &str, change: &TemplateChange) -> Result<ValidTemplate> {
    let mut fields = FieldErrors::new();
    let title = one_line(&change.title);
    if title.is_empty() {
        fields.insert("title".to_owned(), REQUIRED.to_owned());
    } else if title.chars().count() > TITLE_MAX {
        fields.insert("title".to_owned(), max_length_message(TITLE_MAX));
    }
    let channel_id = optional_id(change.premium_channel_id.as_deref(), "Channel")?;
    if channel_id.is_none() {
        fields.insert("premiumChannelId".to_owned(), REQUIRED.to_owned());
    }
    let contributors = id_list(&change.contributors, "User")?;
    if !contributors.is_empty() && !users::non_staff_among(&state.pool, &contributors).await?.is_empty() {
        fields.insert("contributors".to_owned(), "Choose contributors among the staff users".to_owned());
    }
    let (Some(channel_id), true) = (channel_id, fields.is_empty()) else {
        return Err(Error::invalid(fields));
    };
    let channel = publishing_channel(&state.pool, &channel_id, user_id).await?.ok_or(Error::NotFound("Channel"))?;
    if channel.state == "archived" {
        return Err(Error::Conflict(ARCHIVED_CHANNEL_MESSAGE.to_owned()));
    }
    if !channel.may_publish {
        return Err(Error::Forbidden);
    }
    Ok(ValidTemplate {
        title,
        html: state.sanitizer.clean(change.html.as_deref().unwrap_or_default()),
        channel_id,
        contributors,
        categories: id_list(&change.categories, "Category")?,
        tags: id_list(&change.tags, "Tag")?,
    })
}

async fn save_links(conn: &mut sqlx::PgConnection, id: &str, valid: &ValidTemplate) -> Result<()> {
    queries::set_links(conn, id, &valid.contributors, &valid.categories, &valid.tags)
        .await
        .on_constraint("template_category_category_id_fkey", || Error::field("categories", "Choose existing topics"))
        .on_constraint("template_tag_tag_id_fkey", || Error::field("tags", "Choose existing tags"))
        .on_constraint("template_contributor_user_id_fkey", || {
            Error::field("contributors", "Choose contributors among the staff users")
        })
}

#[tracing::instrument(skip_all)]
pub async fn add_template(state: &AppState, (user_id, role): (&str, Role), change: &TemplateChange) -> Result<String> {
    if !may_change(role) {
        return Err(Error::Forbidden);
    }
    let valid = validate(state, user_id, change).await?;
    let id = ids::new_id();
    let mut tx = state.pool.begin().await?;
    queries::insert_template(&mut tx, &id, user_id, &valid.title, &valid.html, &valid.channel_id).await?;
    save_links(&mut tx, &id, &valid).await?;
    tx.commit().await?;
    Ok(id)
}

#[tracing::instrument(skip_all)]
pub async fn edit_template(state: &AppState, (user_id, role): (&str, Role), change: &TemplateChange) -> Result<String> {
    if !may_change(role) {
        return Err(Error::Forbidden);
    }
    let id = optional_id(change.id.as_deref(), "Template")?.ok_or_else(|| Error::field("_id", REQUIRED))?;
    let version = change.version.ok_or_else(|| Error::field("version", REQUIRED))?;
    let valid = validate(state, user_id, change).await?;
    let mut tx = state.pool.begin().await?;
    let stored = queries::lock_template_version(&mut tx, &id).await?;
    Error::check_version(stored, version, "Template")?;
    queries::update_template(&mut tx, &id, &valid.title, &valid.html, &valid.channel_id).await?;
    save_links(&mut tx, &id, &valid).await?;
    tx.commit().await?;
    Ok(id)
}

/// Deletes a template; returns its id and title.
#[tracing::instrument(skip(state))]
pub async fn delete_template(state: &AppState, role: Role, id: &str) -> Result<(String, String)> {
    if !may_change(role) {
        return Err(Error::Forbidden);
    }
    let id = optional_id(Some(id), "Template")?.ok_or(Error::NotFound("Template"))?;
    let mut tx = state.pool.begin().await?;
    let title = queries::delete_template(&mut tx, &id).await?.ok_or(Error::NotFound("Template"))?;
    tx.commit().await?;
    Ok((id, title))
}
