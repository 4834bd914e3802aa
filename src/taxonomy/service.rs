//! The rules of changing the taxonomy (spec 1 §4–§5 and the issue): validation, the tree's shape
//! (no cycles, at most 5 levels, sectors are roots), unique names, versions, safe deletion.

use sqlx::PgPool;

use super::{
    model::{CATEGORY_NAME_MAX, DESCRIPTION_MAX, MAX_LEVEL, TAG_NAME_MAX},
    queries::{self, CategoryValues},
};
use crate::{
    error::{Error, FieldErrors, Result, ResultExt},
    ids,
    validation::{optional_file, optional_id, required_text},
};

/// A topic as a client wants it to be (add or edit).
#[derive(Debug, Clone, Default)]
pub struct CategoryChange {
    pub id: Option<String>,
    pub name: String,
    pub description: String,
    pub parent: Option<String>,
    pub is_featured: bool,
    pub small_image: Option<String>,
    pub large_image: Option<String>,
    pub promotional_content_id: Option<String>,
    pub is_locked: bool,
    pub is_premium: bool,
    pub version: Option<i32>,
}

struct ValidCategory {
    name: String,
    description: String,
    parent_id: Option<String>,
    is_featured: bool,
    small_image: Option<String>,
    large_image: Option<String>,
    promotional_content_id: Option<String>,
    is_locked: bool,
    is_premium: bool,
}

impl ValidCategory {
    fn parse(change: &CategoryChange) -> Result<ValidCategory> {
        let mut fields = FieldErrors::new();
        let name = required_text(&mut fields, "name", &change.name, CATEGORY_NAME_MAX);
        let description = required_text(&mut fields, "description", &change.description, DESCRIPTION_MAX);
        let small_image = optional_file(&mut fields, "smallImage", change.small_image.as_deref());
        let large_image = optional_file(&mut fields, "largeImage", change.large_image.as_deref());
        if !fields.is_empty() {
            return Err(Error::invalid(fields));
        }
        let parent_id = optional_id(change.parent.as_deref(), "Parent topic")?;
        Ok(ValidCategory {
            // Setting a parent clears the sector flag: sectors are roots.
            is_featured: change.is_featured && parent_id.is_none(),
            parent_id,
            name,
            description,
            small_image,
            large_image,
            promotional_content_id: optional_id(change.promotional_content_id.as_deref(), "Promotional content")?,
            is_locked: change.is_locked,
            is_premium: change.is_premium,
        })
    }

    fn values(&self) -> CategoryValues<'_> {
        CategoryValues {
            name: &self.name,
            description: &self.description,
            parent_id: self.parent_id.as_deref(),
            is_featured: self.is_featured,
            small_image: self.small_image.as_deref(),
            large_image: self.large_image.as_deref(),
            promotional_content_id: self.promotional_content_id.as_deref(),
            is_locked: self.is_locked,
            is_premium: self.is_premium,
        }
    }
}

fn duplicate_name() -> Error {
    Error::Duplicate { field: "name".to_owned() }
}

fn parent_error(message: &str) -> Error {
    Error::field("parent", message)
}

async fn check_references(conn: &mut sqlx::PgConnection, valid: &ValidCategory) -> Result<()> {
    if let Some(promo) = &valid.promotional_content_id {
        if !queries::promotional_content_exists(conn, promo).await? {
            return Err(Error::NotFound("Promotional content"));
        }
    }
    Ok(())
}

/// The level the topic would get under `parent` (1 without a parent); NOT_FOUND when the parent is missing.
async fn level_under(conn: &mut sqlx::PgConnection, parent: Option<&str>) -> Result<i32> {
    match parent {
        None => Ok(1),
        Some(parent) => Ok(queries::level_of(conn, parent).await?.ok_or(Error::NotFound("Parent topic"))? + 1),
    }
}

#[tracing::instrument(skip_all)]
pub async fn add_category(pool: &PgPool, change: &CategoryChange) -> Result<String> {
    let valid = ValidCategory::parse(change)?;
    let mut tx = pool.begin().await?;
    queries::lock_tree(&mut tx).await?;
    check_references(&mut tx, &valid).await?;
    if level_under(&mut tx, valid.parent_id.as_deref()).await? > MAX_LEVEL {
        return Err(parent_error(&format!("Topics nest at most {MAX_LEVEL} levels deep")));
    }
    let id = ids::new_id();
    queries::insert_category(&mut tx, &id, &valid.values()).await.on_constraint("category_sibling_name_key", duplicate_name)?;
    tx.commit().await?;
    Ok(id)
}

#[tracing::instrument(skip_all, fields(id = ?change.id))]
pub async fn edit_category(pool: &PgPool, change: &CategoryChange) -> Result<String> {
    let id = optional_id(change.id.as_deref(), "Topic")?.ok_or_else(|| Error::field("_id", crate::error::REQUIRED_MESSAGE))?;
    let version = change.version.ok_or_else(|| Error::field("version", crate::error::REQUIRED_MESSAGE))?;
    let valid = ValidCategory::parse(change)?;
    if valid.parent_id.as_deref() == Some(id.as_str()) {
        return Err(parent_error("A topic cannot be its own parent"));
    }
    let mut tx = pool.begin().await?;
    queries::lock_tree(&mut tx).await?;
    let current = queries::lock_category(&mut tx, &id).await?.ok_or(Error::NotFound("Topic"))?;
    if current.version != version {
        return Err(Error::stale_version());
    }
    check_references(&mut tx, &valid).await?;
    if current.parent_id != valid.parent_id {
        let subtree = queries::subtree(&mut tx, &id).await?;
        if let Some(parent) = &valid.parent_id {
            if subtree.iter().any(|(below, _)| below == parent) {
                return Err(parent_error("A topic cannot be moved under one of its sub-topics"));
            }
        }
        let height = subtree.iter().map(|(_, depth)| *depth).max().unwrap_or(0);
        if level_under(&mut tx, valid.parent_id.as_deref()).await? + height > MAX_LEVEL {
            return Err(parent_error(&format!("Topics nest at most {MAX_LEVEL} levels deep")));
        }
    }
    let written = queries::update_category(&mut tx, &id, version, &valid.values())
        .await
        .on_constraint("category_sibling_name_key", duplicate_name)?;
    if !written {
        return Err(Error::stale_version());
    }
    tx.commit().await?;
    Ok(id)
}

/// Deletes a topic without sub-topics; its articles lose it, its followers stop following it.
/// `noun` is the product's wording: "topic", or "category" when premium channels are off.
#[tracing::instrument(skip_all, fields(%id))]
pub async fn delete_category(pool: &PgPool, id: &str, noun: &str) -> Result<String> {
    let id = optional_id(Some(id), "Topic")?.ok_or(Error::NotFound("Topic"))?;
    let mut tx = pool.begin().await?;
    queries::lock_tree(&mut tx).await?;
    let current = queries::lock_category(&mut tx, &id).await?.ok_or(Error::NotFound("Topic"))?;
    let children = queries::count_children(&mut tx, &id).await?;
    if children > 0 {
        let sub = match (noun, children) {
            ("category", 1) => "sub-category",
            ("category", _) => "sub-categories",
            (_, 1) => "sub-topic",
            _ => "sub-topics",
        };
        return Err(Error::Conflict(format!(
            "The {noun} {} has {children} {sub}: delete them or move them to another {noun} first.",
            current.name
        )));
    }
    queries::delete_category(&mut tx, &id).await?;
    tx.commit().await?;
    Ok(current.name)
}

/// A tag as a client wants it to be (add or edit).
#[derive(Debug, Clone, Default)]
pub struct TagChange {
    pub id: Option<String>,
    pub name: String,
    pub description: String,
    pub version: Option<i32>,
}

fn parse_tag(change: &TagChange) -> Result<(String, String)> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &change.name, TAG_NAME_MAX);
    let description = required_text(&mut fields, "description", &change.description, DESCRIPTION_MAX);
    if fields.is_empty() { Ok((name, description)) } else { Err(Error::invalid(fields)) }
}

pub async fn add_tag(pool: &PgPool, change: &TagChange) -> Result<String> {
    let (name, description) = parse_tag(change)?;
    let id = ids::new_id();
    let mut conn = pool.acquire().await?;
    queries::insert_tag(&mut conn, &id, &name, &description).await.on_constraint("tag_name_key", duplicate_name)?;
    Ok(id)
}

pub async fn edit_tag(pool: &PgPool, change: &TagChange) -> Result<String> {
    let id = optional_id(change.id.as_deref(), "Tag")?.ok_or_else(|| Error::field("_id", crate::error::REQUIRED_MESSAGE))?;
    let version = change.version.ok_or_else(|| Error::field("version", crate::error::REQUIRED_MESSAGE))?;
    let (name, description) = parse_tag(change)?;
    let mut tx = pool.begin().await?;
    Error::check_version(queries::lock_tag_version(&mut tx, &id).await?, version, "Tag")?;
    queries::update_tag(&mut tx, &id, &name, &description).await.on_constraint("tag_name_key", duplicate_name)?;
    tx.commit().await?;
    Ok(id)
}

pub async fn delete_tag(pool: &PgPool, id: &str) -> Result<String> {
    let id = optional_id(Some(id), "Tag")?.ok_or(Error::NotFound("Tag"))?;
    let mut conn = pool.acquire().await?;
    queries::delete_tag(&mut conn, &id).await?.ok_or(Error::NotFound("Tag"))
}

/// Follows or unfollows a topic for `user_id`; returns the new follower count.
pub async fn set_following(pool: &PgPool, category_id: &str, user_id: &str, follow: bool) -> Result<i64> {
    let category_id = optional_id(Some(category_id), "Topic")?.ok_or(Error::NotFound("Topic"))?;
    let mut tx = pool.begin().await?;
    if !queries::category_exists(&mut tx, &category_id).await? {
        return Err(Error::NotFound("Topic"));
    }
    if follow {
        queries::follow(&mut tx, &category_id, user_id).await?;
    } else {
        queries::unfollow(&mut tx, &category_id, user_id).await?;
    }
    let count = queries::count_followers(&mut *tx, &category_id).await?;
    tx.commit().await?;
    Ok(count)
}
