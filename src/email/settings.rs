//! A reader's email settings: the global On/Off of channel emails and the time zone digests are
//! sent in (on the user), and per subscribed channel whether its emails come and how often.

use sqlx::PgPool;

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
    let row = sqlx::query!("select channel_notifications, time_zone from users where user_id = $1", user_id)
        .fetch_optional(pool)
        .await?
        .ok_or(Error::NotFound("User"))?;
    Ok(Settings { channel_notifications: row.channel_notifications, time_zone: row.time_zone })
}

pub async fn change(pool: &PgPool, user_id: &str, change: &SettingsChange) -> Result<Settings> {
    if let Some(zone) = &change.time_zone
        && zone.parse::<chrono_tz::Tz>().is_err()
    {
        return Err(Error::field("timeZone", "Choose a time zone from the list."));
    }
    let row = sqlx::query!(
        "update users set channel_notifications = coalesce($2, channel_notifications), time_zone = coalesce($3, time_zone)
          where user_id = $1 returning channel_notifications, time_zone",
        user_id,
        change.channel_notifications,
        change.time_zone,
    )
    .fetch_optional(pool)
    .await?
    .ok_or(Error::NotFound("User"))?;
    Ok(Settings { channel_notifications: row.channel_notifications, time_zone: row.time_zone })
}

/// Turns a subscribed channel's emails on or off (None: the other way round); NOT_FOUND when the
/// reader has no subscription to it.
pub async fn set_channel(pool: &PgPool, user_id: &str, channel_id: &str, on: Option<bool>) -> Result<()> {
    let done = sqlx::query!(
        "update channel_subscription set email_notifications = coalesce($3, not email_notifications)
          where user_id = $1 and channel_id = $2",
        user_id,
        channel_id,
        on,
    )
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound("Subscription"));
    }
    Ok(())
}

/// How a subscribed channel's new articles are emailed: immediate, daily or weekly.
pub async fn set_frequency(pool: &PgPool, user_id: &str, channel_id: &str, frequency: &str) -> Result<()> {
    let done = sqlx::query!(
        "update channel_subscription set email_frequency = $3 where user_id = $1 and channel_id = $2",
        user_id,
        channel_id,
        frequency,
    )
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound("Subscription"));
    }
    Ok(())
}

/// Emails on for exactly the listed channels among the reader's subscriptions, off for the others.
pub async fn set_channels(pool: &PgPool, user_id: &str, channel_ids: &[String]) -> Result<()> {
    sqlx::query!(
        "update channel_subscription set email_notifications = (channel_id = any($2))
          where user_id = $1 and email_notifications is distinct from (channel_id = any($2))",
        user_id,
        channel_ids,
    )
    .execute(pool)
    .await?;
    Ok(())
}
