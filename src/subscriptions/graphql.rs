//! GraphQL of the subscriptions area: the ChannelSubscription object and the caller's
//! subscriptions, read once per request.

use std::sync::Arc;

use async_graphql::{Context, Object};
use chrono::{DateTime, Utc};
use tokio::sync::OnceCell;

use super::{
    model::{SubscriptionAccess, SubscriptionState, SubscriptionType},
    queries::{self, SubscriptionRow},
};
use crate::{
    channels::{ChannelObject, channels_by_ids},
    error::{Error, Result},
    graphql::{app_state, viewer},
};

/// The caller's subscriptions, every state, by channel name.
pub struct ViewerSubscriptions {
    pub rows: Vec<SubscriptionRow>,
}

impl ViewerSubscriptions {
    pub fn find(&self, channel_id: &str) -> Option<&SubscriptionRow> {
        self.rows.iter().find(|row| row.channel_id == channel_id)
    }

    /// The access the caller's subscription to `channel_id` gives, if they have one.
    pub fn access(&self, channel_id: &str) -> Option<SubscriptionAccess> {
        self.find(channel_id).map(SubscriptionRow::access)
    }

    /// Channels the caller is actively subscribed to now.
    pub fn active_channel_ids(&self, now: DateTime<Utc>) -> Vec<String> {
        self.rows.iter().filter(|row| row.access().is_active(now)).map(|row| row.channel_id.clone()).collect()
    }
}

/// Request data: the caller's subscriptions, loaded by the first field that needs them.
#[derive(Default)]
pub struct ViewerSubscriptionsCell(OnceCell<Arc<ViewerSubscriptions>>);

/// The caller's subscriptions: one statement per request, whatever asks for them.
pub async fn viewer_subscriptions(ctx: &Context<'_>) -> Result<Arc<ViewerSubscriptions>> {
    let user_id = viewer(ctx)?.user.user_id.clone();
    let pool = app_state(ctx).pool.clone();
    let load = || async move {
        let rows = queries::of_user(&pool, &user_id).await?;
        Ok::<_, Error>(Arc::new(ViewerSubscriptions { rows }))
    };
    match ctx.data_opt::<ViewerSubscriptionsCell>() {
        Some(cell) => cell.0.get_or_try_init(load).await.cloned(),
        None => load().await,
    }
}

pub struct ChannelSubscriptionObject {
    row: SubscriptionRow,
    /// Loaded with a list of subscriptions; else on demand.
    channel: Option<ChannelObject>,
}

impl ChannelSubscriptionObject {
    pub fn new(row: SubscriptionRow) -> Self {
        ChannelSubscriptionObject { row, channel: None }
    }

    /// Objects for `rows` with their channels, read in one statement.
    pub async fn with_channels(ctx: &Context<'_>, rows: Vec<SubscriptionRow>) -> Result<Vec<Self>> {
        let ids: Vec<String> = rows.iter().map(|r| r.channel_id.clone()).collect();
        let mut channels = channels_by_ids(ctx, &ids).await?;
        Ok(rows.into_iter().map(|row| ChannelSubscriptionObject { channel: channels.remove(&row.channel_id), row }).collect())
    }
}

#[Object(name = "ChannelSubscription")]
impl ChannelSubscriptionObject {
    async fn channel_id(&self) -> &str {
        &self.row.channel_id
    }

    async fn channel(&self, ctx: &Context<'_>) -> Result<ChannelObject> {
        if let Some(channel) = &self.channel {
            return Ok(channel.clone());
        }
        let mut channels = channels_by_ids(ctx, std::slice::from_ref(&self.row.channel_id)).await?;
        channels.remove(&self.row.channel_id).ok_or(Error::NotFound("Channel"))
    }

    async fn subscription_type(&self) -> SubscriptionType {
        SubscriptionType::parse(&self.row.subscription_type)
    }

    async fn subscription_state(&self) -> SubscriptionState {
        SubscriptionState::parse(&self.row.subscription_state)
    }

    async fn subscribed(&self) -> bool {
        self.row.subscribed
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn updated_at(&self) -> DateTime<Utc> {
        self.row.updated_at
    }

    async fn cancel_at(&self) -> Option<DateTime<Utc>> {
        self.row.cancel_at
    }

    async fn cancel_requested_at(&self) -> Option<DateTime<Utc>> {
        self.row.cancel_requested_at
    }

    async fn cancel_at_period_end(&self) -> bool {
        self.row.cancel_at_period_end
    }

    /// False: the subscription gives article summaries only.
    async fn is_full_article_content(&self) -> bool {
        self.row.is_full_article_content
    }

    async fn trial_duration(&self) -> Option<i32> {
        self.row.trial_duration
    }

    async fn email_notifications(&self) -> bool {
        self.row.email_notifications
    }

    async fn next_payment(&self) -> Option<DateTime<Utc>> {
        self.row.next_payment
    }

    /// Dollars per month with 2 decimals; null: the channel's price.
    async fn price_per_month(&self) -> Option<&str> {
        self.row.price_per_month.as_deref()
    }

    async fn acknowledged_non_charge_sub_expired(&self) -> bool {
        self.row.acknowledged_non_charge_sub_expired
    }

    async fn added_by_admin(&self) -> bool {
        self.row.added_by_admin
    }

    /// State active and not past cancelAt: it gives access now.
    async fn is_active(&self) -> bool {
        self.row.access().is_active(Utc::now())
    }
}
