//! SQL of the subscriptions area.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::{
    machine::{Card, Subscription, Terms},
    model::{SubscriptionAccess, SubscriptionState, SubscriptionType},
};

/// The SQL twin of `SubscriptionAccess::is_active`, for filters over `channel_subscription s`.
pub const ACTIVE: &str = "s.subscription_state = 'active' and (s.cancel_at is null or s.cancel_at > now())";

/// A channel subscription row, as the reader's views show it.
#[derive(Debug, Clone)]
pub struct SubscriptionRow {
    pub channel_id: String,
    pub user_id: String,
    pub channel_name: String,
    pub channel_type: String,
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
    /// immediate, daily or weekly (how new articles are emailed).
    pub email_frequency: String,
    pub next_payment: Option<DateTime<Utc>>,
    pub price_per_month: Option<String>,
    pub acknowledged_non_charge_sub_expired: bool,
    pub added_by_admin: bool,
    pub notes: Option<String>,
    pub account_number: Option<String>,
    pub rebate: bool,
    pub billing_method: Option<String>,
    pub payment_method_type: Option<String>,
    pub payment_method_details: Option<String>,
    pub subscription_id: Option<String>,
    pub legal_entity_name: Option<String>,
    pub billing_email_address: Option<String>,
}

impl SubscriptionRow {
    pub fn access(&self) -> SubscriptionAccess {
        SubscriptionAccess {
            state: SubscriptionState::parse(&self.subscription_state),
            cancel_at: self.cancel_at,
            is_full_article_content: self.is_full_article_content,
        }
    }

    /// The subscription as the state machine reads it.
    pub fn machine(&self) -> Subscription {
        Subscription {
            subscription_type: SubscriptionType::parse(&self.subscription_type),
            state: SubscriptionState::parse(&self.subscription_state),
            cancel_at: self.cancel_at,
            cancel_at_period_end: self.cancel_at_period_end,
            cancel_requested_at: self.cancel_requested_at,
            subscribed: self.subscribed,
            acknowledged_non_charge_sub_expired: self.acknowledged_non_charge_sub_expired,
            next_payment: self.next_payment,
            card: self.subscription_id.as_ref().map(|id| Card {
                subscription_id: id.clone(),
                payment_method_type: self.payment_method_type.clone(),
                payment_method_details: self.payment_method_details.clone(),
            }),
            terms: Terms {
                account_number: self.account_number.clone(),
                price_per_month: self.price_per_month.clone(),
                rebate: self.rebate,
                billing_method: self.billing_method.clone(),
                trial_duration: self.trial_duration,
                notes: self.notes.clone(),
                is_full_article_content: self.is_full_article_content,
                added_by_admin: self.added_by_admin,
                legal_entity_name: self.legal_entity_name.clone(),
                billing_email_address: self.billing_email_address.clone(),
            },
        }
    }
}

/// `query_as!` of `SubscriptionRow`s: the select list over `channel_subscription s join channel c`,
/// then the rest of the query.
macro_rules! select_subscriptions {
    ($rest:literal, $($arg:expr),* $(,)?) => {
        sqlx::query_as!(SubscriptionRow, r#"select s.channel_id, s.user_id, c.name as "channel_name: String", c.type as channel_type, s.subscription_type,
           s.subscription_state, s.subscribed, s.created_at, s.updated_at, s.cancel_at, s.cancel_requested_at,
           s.cancel_at_period_end, s.is_full_article_content, s.trial_duration, s.email_notifications, s.email_frequency, s.next_payment,
           s.price_per_month::text as price_per_month, s.acknowledged_non_charge_sub_expired, s.added_by_admin, s.notes,
           s.account_number, s.rebate, s.billing_method, s.payment_method_type, s.payment_method_details, s.subscription_id,
           s.legal_entity_name, s.billing_email_address "# + $rest, $($arg),*)
    };
}

/// Every subscription of a user, in any state, by channel name.
pub async fn of_user(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<SubscriptionRow>> {
    select_subscriptions!(
        r#"from channel_subscription s join channel c on c.channel_id = s.channel_id
           where s.user_id = $1
           order by lower(c.name collate "default"), s.channel_id"#,
        user_id
    )
    .fetch_all(db)
    .await
}

/// One reader's subscription to a channel.
pub async fn of_channel_user(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str) -> sqlx::Result<Option<SubscriptionRow>> {
    select_subscriptions!(
        "from channel_subscription s join channel c on c.channel_id = s.channel_id
         where s.channel_id = $1 and s.user_id = $2",
        channel_id,
        user_id
    )
    .fetch_optional(db)
    .await
}

/// The subscriptions of `user_ids` to a channel (a page of subscriber stats).
pub async fn of_channel_users(db: impl PgExecutor<'_>, channel_id: &str, user_ids: &[String]) -> sqlx::Result<Vec<SubscriptionRow>> {
    select_subscriptions!(
        "from channel_subscription s join channel c on c.channel_id = s.channel_id
         where s.channel_id = $1 and s.user_id = any($2)",
        channel_id,
        user_ids
    )
    .fetch_all(db)
    .await
}

/// Locks the subscriptions of `user_ids` to a channel (their rows, not the channel's) for the
/// caller's transaction.
pub async fn lock_of_channel_users(conn: &mut PgConnection, channel_id: &str, user_ids: &[String]) -> sqlx::Result<Vec<SubscriptionRow>> {
    select_subscriptions!(
        "from channel_subscription s join channel c on c.channel_id = s.channel_id
         where s.channel_id = $1 and s.user_id = any($2)
         for update of s",
        channel_id,
        user_ids
    )
    .fetch_all(conn)
    .await
}

/// A channel as subscription changes read it.
pub struct ChannelRow {
    pub channel_id: String,
    pub name: String,
    pub channel_type: String,
    pub state: String,
    pub price: Option<String>,
    pub default_trial_duration_days: Option<i32>,
}

/// Reads a channel under a share lock: archiving (which locks it for update) waits for the change.
pub async fn share_lock_channel(conn: &mut PgConnection, channel_id: &str) -> sqlx::Result<Option<ChannelRow>> {
    sqlx::query_as!(
        ChannelRow,
        r#"select channel_id, name as "name: String", type as channel_type, state, price::text as price, default_trial_duration_days
           from channel where channel_id = $1 for share"#,
        channel_id
    )
    .fetch_optional(conn)
    .await
}

/// What the subscription rules read of a user: their scopes and first sign-in (a trial reader's
/// account trial).
pub struct ReaderRow {
    pub user_id: String,
    pub scopes: Vec<String>,
    pub first_login: DateTime<Utc>,
}

pub async fn readers(conn: &mut PgConnection, user_ids: &[String]) -> sqlx::Result<Vec<ReaderRow>> {
    sqlx::query_as!(ReaderRow, "select user_id, scopes, first_login from users where user_id = any($1)", user_ids).fetch_all(conn).await
}

/// Whether a user has signed in at least once; none for an unknown user.
pub async fn user_signed_in(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<bool>> {
    Ok(sqlx::query_scalar!("select last_login is not null from users where user_id = $1", user_id).fetch_optional(db).await?.flatten())
}

