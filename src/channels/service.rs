//! The rules of changing channels (spec 3 §4–§6 and the issue): validation with the spec's
//! messages, immutable type and owner, unique names, versions, read-only archived channels, and
//! the archive routine.

use sqlx::PgPool;

use super::{
    model::{ChannelType, OwnerType},
    queries::{self, ChannelValues, NewChannel},
};
use crate::{
    auth::Role,
    config::{TRIAL_MAX_DAYS, TRIAL_MIN_DAYS},
    desks::queries as desks,
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result, ResultExt},
    ids,
    templates::queries as templates,
    uploads::UploadStore,
    users::queries as users,
    validation::{optional_file, optional_id, optional_text, required_text},
};

pub const NAME_MAX: usize = 100;
pub const DESCRIPTION_MAX: usize = 250;
pub const URL_MAX: usize = 100;
pub const GL_ACCOUNT_MAX: usize = 32;
/// Channel profile and cover images (spec 3 §5).
pub const IMAGE_MAX_BYTES: u64 = 2 * 1024 * 1024;
pub const ACTIVE_SUBSCRIBERS_MESSAGE: &str = "You cannot archive this channel because it has active subscribers.";
pub const ARCHIVED_MESSAGE: &str = "This channel is archived and can no longer be changed.";

/// A channel as a client wants it to be (add or edit).
#[derive(Debug, Clone)]
pub struct ChannelChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub name: String,
    pub description: Option<String>,
    pub url: Option<String>,
    pub profile_image: Option<String>,
    pub cover_image: Option<String>,
    pub gl_account: Option<String>,
    pub price: Option<String>,
    pub channel_type: ChannelType,
    pub owner_type: OwnerType,
    pub owner_id: String,
    pub admin_users: Vec<String>,
    pub default_trial_duration_days: Option<i32>,
    pub hide_disclaimer: bool,
}

struct ValidChannel {
    name: String,
    description: Option<String>,
    url: Option<String>,
    profile_image: Option<String>,
    cover_image: Option<String>,
    gl_account: Option<String>,
    price: Option<String>,
    owner_id: String,
    admins: Vec<String>,
    default_trial_duration_days: Option<i32>,
    hide_disclaimer: bool,
}

impl ValidChannel {
    fn values(&self) -> ChannelValues<'_> {
        ChannelValues {
            name: &self.name,
            description: self.description.as_deref(),
            url: self.url.as_deref(),
            profile_image: self.profile_image.as_deref(),
            cover_image: self.cover_image.as_deref(),
            gl_account: self.gl_account.as_deref(),
            price: self.price.as_deref(),
            default_trial_duration_days: self.default_trial_duration_days,
            hide_disclaimer: self.hide_disclaimer,
        }
    }
}

/// Most digits of a price before its point (spec 1 §5 "up to 18 digits, at most 2 decimals"), as
/// the web app's `PRICE_PATTERN` reads it; the price columns hold `numeric(20, 2)` (migration 0028).
pub const PRICE_MAX_DIGITS: usize = 18;

/// A price: 1 to 18 digits, then at most two decimals after a point, no sign: the one rule of the
/// channel's price and a bespoke subscriber price, on the server as in the web app.
pub fn is_valid_price(price: &str) -> bool {
    let (whole, decimals) = price.split_once('.').unwrap_or((price, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    (1..=PRICE_MAX_DIGITS).contains(&whole.len())
        && digits(whole)
        && digits(decimals)
        && decimals.len() <= 2
        && !(price.contains('.') && decimals.is_empty())
}

/// A channel image: an upload of ours, PNG or JPEG, at most 2 MB (UNAVAILABLE when the upload
/// store cannot say).
async fn channel_image(fields: &mut FieldErrors, field: &str, value: Option<&str>, uploads: &UploadStore) -> Result<Option<String>> {
    let Some(name) = optional_file(fields, field, value) else { return Ok(None) };
    if fields.contains_key(field) {
        return Ok(Some(name));
    }
    match uploads.head(&name).await? {
        None => {
            fields.insert(field.to_owned(), "Upload the image first".to_owned());
        }
        Some(_) if name.ends_with(".gif") => {
            fields.insert(field.to_owned(), "File format not supported: upload a PNG or JPEG image".to_owned());
        }
        Some(size) if size > IMAGE_MAX_BYTES => {
            fields.insert(field.to_owned(), "The image is larger than 2 MB".to_owned());
        }
        Some(_) => {}
    }
    Ok(Some(name))
}

async fn validate(pool: &PgPool, change: &ChannelChange, uploads: &UploadStore) -> Result<ValidChannel> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &change.name, NAME_MAX);
    let description = optional_text(&mut fields, "description", change.description.as_deref(), DESCRIPTION_MAX);
    let url = optional_text(&mut fields, "url", change.url.as_deref(), URL_MAX);
    let premium = change.channel_type == ChannelType::Premium;

    let gl_account = change.gl_account.as_deref().map(str::trim).filter(|g| !g.is_empty()).map(str::to_owned);
    match &gl_account {
        None if premium => {
            fields.insert("glAccount".to_owned(), REQUIRED_MESSAGE.to_owned());
        }
        Some(gl) if gl.chars().count() > GL_ACCOUNT_MAX => {
            fields.insert("glAccount".to_owned(), "Maximum 32 chars".to_owned());
        }
        _ => {}
    }
    // Free channels have no price.
    let price = change.price.as_deref().map(str::trim).filter(|p| !p.is_empty() && premium).map(str::to_owned);
    match &price {
        None if premium => {
            fields.insert("price".to_owned(), REQUIRED_MESSAGE.to_owned());
        }
        Some(p) if !is_valid_price(p) => {
            fields.insert("price".to_owned(), "Invalid price format".to_owned());
        }
        _ => {}
    }
    if let Some(days) = change.default_trial_duration_days
        && !(TRIAL_MIN_DAYS as i32..=TRIAL_MAX_DAYS as i32).contains(&days)
    {
        fields.insert(
            "defaultTrialDurationDays".to_owned(),
            format!("Enter a whole number of days from {TRIAL_MIN_DAYS} to {TRIAL_MAX_DAYS}"),
        );
    }
    let profile_image = channel_image(&mut fields, "profileImage", change.profile_image.as_deref(), uploads).await?;
    let cover_image = channel_image(&mut fields, "coverImage", change.cover_image.as_deref(), uploads).await?;

    let owner_id = change.owner_id.trim().to_owned();
    if owner_id.is_empty() {
        fields.insert("ownerId".to_owned(), REQUIRED_MESSAGE.to_owned());
    }
    let mut admins: Vec<String> = change.admin_users.iter().map(|a| a.trim().to_owned()).filter(|a| !a.is_empty()).collect();
    admins.sort();
    admins.dedup();
    if admins.is_empty() {
        fields.insert("adminUsers".to_owned(), REQUIRED_MESSAGE.to_owned());
    } else if admins.iter().any(|a| !ids::is_valid_id(a)) || !users::non_staff_among(pool, &admins).await?.is_empty() {
        fields.insert("adminUsers".to_owned(), "Choose admins among the staff users".to_owned());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(ValidChannel {
        name,
        description,
        url,
        profile_image,
        cover_image,
        gl_account,
        price,
        owner_id,
        admins,
        default_trial_duration_days: change.default_trial_duration_days,
        hide_disclaimer: change.hide_disclaimer,
    })
}

/// Checks that the owner exists and can own a channel: a desk, or a user with an editing scope.
async fn check_owner(pool: &PgPool, owner_type: OwnerType, owner_id: &str) -> Result<()> {
    let entity = match owner_type {
        OwnerType::Desk => "Desk",
        OwnerType::Contributor => "Contributor",
    };
    let id = optional_id(Some(owner_id), entity)?.ok_or(Error::NotFound(entity))?;
    let exists = match owner_type {
        OwnerType::Desk => desks::exists(pool, &id).await?,
        OwnerType::Contributor => users::is_contributor(pool, &id).await?,
    };
    if !exists {
        return Err(Error::NotFound(entity));
    }
    Ok(())
}

fn duplicate_name() -> Error {
    Error::Duplicate { field: "name".to_owned() }
}

/// Adds a channel; the creator is always one of its admins. Returns its id.
#[tracing::instrument(skip_all)]
pub async fn add_channel(pool: &PgPool, creator: &str, change: &ChannelChange, uploads: &UploadStore) -> Result<String> {
    let mut change = change.clone();
    change.admin_users.push(creator.to_owned());
    let valid = validate(pool, &change, uploads).await?;
    check_owner(pool, change.owner_type, &valid.owner_id).await?;
    let id = ids::new_id();
    let (owner_desk_id, owner_user_id) = match change.owner_type {
        OwnerType::Desk => (Some(valid.owner_id.as_str()), None),
        OwnerType::Contributor => (None, Some(valid.owner_id.as_str())),
    };
    let new = NewChannel {
        id: &id,
        channel_type: change.channel_type.as_str(),
        owner_type: change.owner_type.as_str(),
        owner_desk_id,
        owner_user_id,
        created_by: creator,
    };
    let mut tx = pool.begin().await?;
    queries::insert_channel(&mut tx, &new, &valid.values()).await.on_constraint("channel_name_key", duplicate_name)?;
    queries::set_admins(&mut tx, &id, &valid.admins).await?;
    tx.commit().await?;
    tracing::info!(channel = %id, "channel added");
    Ok(id)
}

/// Whether a user with `role` may change a channel: an Administrator, or an Editor among its admins.
pub fn may_change(role: Option<Role>, is_admin_of_channel: bool) -> bool {
    match role {
        Some(Role::Administrator) => true,
        Some(Role::Editor) => is_admin_of_channel,
        _ => false,
    }
}

/// Edits a channel the caller may change; type and owner stay as they were created.
#[tracing::instrument(skip_all)]
pub async fn edit_channel(pool: &PgPool, editor: (&str, Option<Role>), change: &ChannelChange, uploads: &UploadStore) -> Result<String> {
    let id = optional_id(change.id.as_deref(), "Channel")?.ok_or_else(|| Error::field("_id", REQUIRED_MESSAGE))?;
    // Permission before the input: a caller who may not change the channel is told only that.
    let (user_id, role) = editor;
    if !may_change(role, queries::is_admin(pool, &id, user_id).await?) {
        return Err(Error::Forbidden);
    }
    let version = change.version.ok_or_else(|| Error::field("version", REQUIRED_MESSAGE))?;
    let valid = validate(pool, change, uploads).await?;
    let mut tx = pool.begin().await?;
    let current = queries::lock_channel(&mut tx, &id).await?.ok_or(Error::NotFound("Channel"))?;
    if current.state == "archived" {
        return Err(Error::Conflict(ARCHIVED_MESSAGE.to_owned()));
    }
    let mut fields = FieldErrors::new();
    if current.channel_type != change.channel_type.as_str() {
        fields.insert("type".to_owned(), "The type of a channel cannot be changed".to_owned());
    }
    if current.owner_type != change.owner_type.as_str() || current.owner_id != valid.owner_id {
        fields.insert("ownerId".to_owned(), "The owner of a channel cannot be changed".to_owned());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Error::check_version(Some(current.version), version, "Channel")?;
    queries::update_channel(&mut tx, &id, &valid.values()).await.on_constraint("channel_name_key", duplicate_name)?;
    queries::set_admins(&mut tx, &id, &valid.admins).await?;
    tx.commit().await?;
    Ok(id)
}

/// What archiving a channel did.
#[derive(Debug)]
pub struct Archived {
    pub name: String,
    pub articles_archived: u64,
    pub templates_unlinked: u64,
}

/// Who archives a channel: a signed-in user, with the rights of an edit, or the operator's command.
#[derive(Debug, Clone, Copy)]
pub enum ArchivedBy<'a> {
    User(&'a str, Option<Role>),
    Operator,
}

/// Archives a channel, for good, in one transaction: refused while it has active subscribers; its
/// articles are archived and its templates unlinked. The web app and `insights-cli archive-channel`
/// both come here.
#[tracing::instrument(skip(pool))]
pub async fn archive_channel(pool: &PgPool, id: &str, by: ArchivedBy<'_>) -> Result<Archived> {
    let id = optional_id(Some(id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
    let mut tx = pool.begin().await?;
    let conn = &mut *tx;
    let current = queries::lock_channel(conn, &id).await?.ok_or(Error::NotFound("Channel"))?;
    if let ArchivedBy::User(user_id, role) = by
        && !may_change(role, queries::is_admin(&mut *conn, &id, user_id).await?)
    {
        return Err(Error::Forbidden);
    }
    let id = id.as_str();
    if current.state == "archived" {
        return Err(Error::Conflict(ARCHIVED_MESSAGE.to_owned()));
    }
    if queries::active_subscriptions(&mut *conn, id).await? > 0 {
        return Err(Error::Conflict(ACTIVE_SUBSCRIBERS_MESSAGE.to_owned()));
    }
    let articles_archived = queries::archive_articles(conn, id).await?;
    let templates_unlinked = templates::unlink_channel(conn, id).await?;
    queries::mark_archived(conn, id).await?;
    tx.commit().await?;
    tracing::info!(channel = %id, articles_archived, templates_unlinked, "channel archived");
    Ok(Archived { name: current.name, articles_archived, templates_unlinked })
}

/// The id of a channel given by id or by name (for the operator command).
pub async fn resolve(pool: &PgPool, id_or_name: &str) -> Result<String> {
    let value = id_or_name.trim();
    if ids::is_valid_id(value) {
        return Ok(value.to_owned());
    }
    queries::id_by_name(pool, value).await?.ok_or(Error::NotFound("Channel"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_have_digits_and_at_most_two_decimals() {
        for good in ["0", "49", "49.5", "49.50", "1234567890.99", "123456789012345678.99", "000000000000000001"] {
            assert!(is_valid_price(good), "{good}");
        }
        for bad in ["", "-1", "+1", "1.", ".5", "1.234", "1,5", "1e3", "1234567890123456789", "abc", " 1", "１"] {
            assert!(!is_valid_price(bad), "{bad}");
        }
    }
}
