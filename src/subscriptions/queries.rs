//! SQL of the subscriptions area.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use super::model::{SubscriptionAccess, SubscriptionState};

/// The SQL twin of `SubscriptionAccess::is_active`, for filters over `channel_subscription s`.
pub const ACTIVE: &str = "s.subscription_state = 'active' and (s.cancel_at is null or s.cancel_at > now())";

/// A channel subscription row, as the reader's views show it.
#[derive(Debug, Clone)]
pub struct SubscriptionRow {
    pub channel_id: String,
    pub channel_name: String,
    pub subscription_type: String,
    pub subscription_state: String,
    pub subscribed: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub cancel_at: Option<DateTime<Utc>>,
    pub cancel_requested_at: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub is_full_article_content: bool,
    pub trial_duration: Option<i32>,
    pub email_notifications: bool,
    pub next_payment: Option<DateTime<Utc>>,
    pub price_per_month: Option<String>,
    pub acknowledged_non_charge_sub_expired: bool,
    pub added_by_admin: bool,
}

impl SubscriptionRow {
    pub fn access(&self) -> SubscriptionAccess {
        SubscriptionAccess {
            state: SubscriptionState::parse(&self.subscription_state),
            cancel_at: self.cancel_at,
            is_full_article_content: self.is_full_article_content,
        }
    }
}

/// Every subscription of a user, in any state, by channel name.
pub async fn of_user(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<SubscriptionRow>> {
    sqlx::query_as!(
        SubscriptionRow,
        r#"select s.channel_id, c.name as "channel_name: String", s.subscription_type, s.subscription_state, s.subscribed,
                  s.created_at, s.updated_at, s.cancel_at, s.cancel_requested_at, s.cancel_at_period_end,
                  s.is_full_article_content, s.trial_duration, s.email_notifications, s.next_payment,
                  s.price_per_month::text as price_per_month, s.acknowledged_non_charge_sub_expired, s.added_by_admin
           from channel_subscription s join channel c on c.channel_id = s.channel_id
           where s.user_id = $1
           order by lower(c.name collate "default"), s.channel_id"#,
        user_id
    )
    .fetch_all(db)
    .await
}
