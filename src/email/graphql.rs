//! GraphQL of the reader's email settings (spec 3 §7 'Email settings').

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};

use super::settings::{self, Settings, SettingsChange};
use crate::{
    auth::ALL_ROLES,
    error::Result,
    graphql::{app_state, viewer},
    subscriptions::{ChannelSubscriptionObject, queries as subscription_queries},
};

/// How a channel's new articles are emailed.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum EmailFrequency {
    /// Each article as it is published.
    Immediate,
    /// One email a day listing the day's articles.
    Daily,
    /// One email a week (Monday) listing the week's articles.
    Weekly,
}

impl EmailFrequency {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailFrequency::Immediate => "immediate",
            EmailFrequency::Daily => "daily",
            EmailFrequency::Weekly => "weekly",
        }
    }

    pub fn parse(value: &str) -> EmailFrequency {
        match value {
            "daily" => EmailFrequency::Daily,
            "weekly" => EmailFrequency::Weekly,
            _ => EmailFrequency::Immediate,
        }
    }
}

/// The global email settings (`User.emailNotificationSettings`).
#[derive(SimpleObject, Clone, Debug)]
pub struct EmailNotificationSettings {
    /// Channel emails on or off, whatever each channel's checkbox says.
    pub channel_notifications: bool,
    /// IANA time zone digests are sent in, e.g. "Europe/London" (default UTC).
    pub time_zone: String,
}

impl From<Settings> for EmailNotificationSettings {
    fn from(settings: Settings) -> Self {
        EmailNotificationSettings { channel_notifications: settings.channel_notifications, time_zone: settings.time_zone }
    }
}

#[derive(InputObject)]
pub struct EmailNotificationSettingsInput {
    pub channel_notifications: Option<bool>,
    pub time_zone: Option<String>,
}

/// The caller's settings (any signed-in role).
pub async fn of_viewer(ctx: &Context<'_>) -> Result<EmailNotificationSettings> {
    let viewer = viewer(ctx)?;
    Ok(settings::of_user(&app_state(ctx).pool, &viewer.user.user_id).await?.into())
}

#[derive(Default)]
pub struct EmailMutation;

/// The caller's subscription to a channel, after a change.
/// The reader's own subscription to a channel after a change of its settings; none when they
/// hold the channel only through a firm seat (the change went to the seat: `me.firmSeats`).
async fn subscription(ctx: &Context<'_>, user_id: &str, channel_id: &str) -> Result<Option<ChannelSubscriptionObject>> {
    let row = subscription_queries::of_channel_user(&app_state(ctx).pool, channel_id, user_id).await?;
    Ok(row.map(ChannelSubscriptionObject::new))
}

#[Object]
impl EmailMutation {
    /// The global settings: channel emails On/Off and the digest time zone.
    async fn set_user_email_notification_settings(
        &self,
        ctx: &Context<'_>,
        item: EmailNotificationSettingsInput,
    ) -> Result<EmailNotificationSettings> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let change = SettingsChange { channel_notifications: item.channel_notifications, time_zone: item.time_zone };
        Ok(settings::change(&app_state(ctx).pool, &viewer.user.user_id, &change).await?.into())
    }

    /// Turns a subscribed channel's emails on or off (the other way round when `enabled` is
    /// omitted: the spec's toggle), for the reader's own subscription and firm seat alike.
    /// NOT_FOUND when they hold the channel neither way; null when only through a firm seat.
    async fn set_premium_channel_email_notification_settings(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        enabled: Option<bool>,
    ) -> Result<Option<ChannelSubscriptionObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        settings::set_channel(&app_state(ctx).pool, &viewer.user.user_id, &channel_id, enabled).await?;
        subscription(ctx, &viewer.user.user_id, &channel_id).await
    }

    /// How a subscribed channel's new articles are emailed: at once, or in a daily or weekly digest
    /// (own subscription and firm seat alike; null when the channel comes only through a seat).
    async fn change_email_preference(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        frequency: EmailFrequency,
    ) -> Result<Option<ChannelSubscriptionObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        settings::set_frequency(&app_state(ctx).pool, &viewer.user.user_id, &channel_id, frequency.as_str()).await?;
        subscription(ctx, &viewer.user.user_id, &channel_id).await
    }

    /// Emails on for exactly the listed channels among the caller's subscriptions, off for the
    /// others; returns every subscription of the caller.
    async fn set_subscriptions(&self, ctx: &Context<'_>, channel_ids: Vec<ID>) -> Result<Vec<ChannelSubscriptionObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let ids: Vec<String> = channel_ids.into_iter().map(|id| id.0).collect();
        let pool = &app_state(ctx).pool;
        settings::set_channels(pool, &viewer.user.user_id, &ids).await?;
        let rows = subscription_queries::of_user(pool, &viewer.user.user_id).await?;
        ChannelSubscriptionObject::with_channels(ctx, rows).await
    }
}
