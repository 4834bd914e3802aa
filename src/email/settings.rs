//! A reader's email settings: the global On/Off of channel emails and the time zone digests are
//! sent in (on the user), and per subscribed channel whether its emails come and how often.

use sqlx::PgPool;

use super::queries;
use crate::error::{Error, Result};

/// The global settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub channel_notifications: bool,
    pub time_zone: String,
}

/// A change of the global settings; what is None stays as it is.
#[derive(Debug, Clone, Default)]
pub struct SettingsChange {
    pub channel_notifications: Option<bool>,
    pub time_zone: Option<String>,
}

pub async fn of_user(pool: &PgPool, user_id: &str) -> Result<Settings> {
    queries::settings(pool, user_id).await?.ok_or(Error::NotFound("User"))
}

pub async fn change(pool: &PgPool, user_id: &str, change: &SettingsChange) -> Result<Settings> {
    if let Some(zone) = &change.time_zone
        && zone.parse::<chrono_tz::Tz>().is_err()
    {
        return Err(Error::field("timeZone", "Choose a time zone from the list."));
    }
    queries::change_settings(pool, user_id, change.channel_notifications, change.time_zone.as_deref())
        .await?
        .ok_or(Error::NotFound("User"))
}

/// Turns a subscribed channel's emails on or off (None: the other way round); NOT_FOUND when the
/// reader has no subscription to it.
pub async fn set_channel(pool: &PgPool, user_id: &str, channel_id: &str, on: Option<bool>) -> Result<()> {
    if queries::set_channel_emails(pool, user_id, channel_id, on).await? == 0 {
        return Err(Error::NotFound("Subscription"));
    }
    Ok(())
}

/// How a subscribed channel's new articles are emailed: immediate, daily or weekly.
pub async fn set_frequency(pool: &PgPool, user_id: &str, channel_id: &str, frequency: &str) -> Result<()> {
    if queries::set_email_frequency(pool, user_id, channel_id, frequency).await? == 0 {
        return Err(Error::NotFound("Subscription"));
    }
    Ok(())
}

/// Emails on for exactly the listed channels among the reader's subscriptions, off for the others.
pub async fn set_channels(pool: &PgPool, user_id: &str, channel_ids: &[String]) -> Result<()> {
    Ok(queries::set_emails_of_channels(pool, user_id, channel_ids).await?)
}
