//! SQL of the subscriptions area.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::{
    machine::{Card, Subscription, Terms},
    model::{SubscriptionAccess, SubscriptionState, SubscriptionType},
    subscribers::{SubscriberQuery, SubscriberView},
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
            starts_at: None,
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

// ---- Subscriber administration ----

/// A subscriber as the stats list shows them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SubscriberRow {
    pub user_id: String,
    pub subject: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub last_login: Option<DateTime<Utc>>,
}

/// The firm seats on a channel as the subscriber list sorts them: `s` with the columns of a
/// subscription the sorts read (the seat's assignment stands for the subscription's start).
const FIRM_SEATS_OF_CHANNEL: &str = "(select x.user_id, x.assigned_at as created_at, f.cancel_at
       from firm_subscription f join firm_seat x using (firm_subscription_id, firm_id) where f.channel_id = $1) s";

/// A page of a channel's subscribers in a view.
pub async fn subscriber_page(db: impl PgExecutor<'_>, q: &SubscriberQuery<'_>) -> sqlx::Result<Vec<SubscriberRow>> {
    let (from, in_view) = match q.view {
        SubscriberView::FirmSeats => (FIRM_SEATS_OF_CHANNEL, "$2::text is not null"),
        _ => ("channel_subscription s", "s.channel_id = $1 and subscription_in_view(s, $2)"),
    };
    let sql = format!(
        r#"select u.user_id, u.subject, u.name, u.email::text as email, u.company, u.last_login
           from {from} join users u on u.user_id = s.user_id
           where {in_view}
             and ($3::text is null or u.search_text like $3)
           order by {}
           limit $4 offset $5"#,
        q.sort.order_by(q.descending)
    );
    // Safe: FROM, WHERE and ORDER BY are constants (the sorts whitelisted by `SubscriberSortField::order_by`); values are bound.
    sqlx::query_as::<_, SubscriberRow>(sqlx::AssertSqlSafe(sql))
        .bind(q.channel_id)
        .bind(q.view.as_str())
        .bind(q.pattern)
        .bind(q.limit)
        .bind(q.offset)
        .fetch_all(db)
        .await
}

/// A channel's subscriber by the identity provider's subject (the edit screen's address).
pub async fn subscriber_by_subject(db: impl PgExecutor<'_>, channel_id: &str, subject: &str) -> sqlx::Result<Option<SubscriberRow>> {
    sqlx::query_as!(
        SubscriberRow,
        r#"select u.user_id, u.subject, u.name, u.email as "email: String", u.company, u.last_login
           from users u join channel_subscription s on s.user_id = u.user_id and s.channel_id = $1
           where u.subject = $2"#,
        channel_id,
        subject
    )
    .fetch_optional(db)
    .await
}

/// How many subscribers a view holds; the users are read only for a search.
pub async fn subscriber_count(db: impl PgExecutor<'_>, channel_id: &str, view: SubscriberView, pattern: Option<&str>) -> sqlx::Result<i64> {
    if view == SubscriberView::FirmSeats {
        return sqlx::query_scalar!(
            r#"select count(*) as "n!" from firm_subscription f join firm_seat x using (firm_subscription_id, firm_id)
               where f.channel_id = $1
                 and ($2::text is null or exists (select 1 from users u where u.user_id = x.user_id and u.search_text like $2))"#,
            channel_id,
            pattern,
        )
        .fetch_one(db)
        .await;
    }
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from channel_subscription s
           where s.channel_id = $1 and subscription_in_view(s, $2)
             and ($3::text is null or exists (select 1 from users u where u.user_id = s.user_id and u.search_text like $3))"#,
        channel_id,
        view.as_str(),
        pattern,
    )
    .fetch_one(db)
    .await
}

/// How many subscribers each view holds, in one pass over the channel's subscriptions.
pub async fn subscriber_view_counts(db: impl PgExecutor<'_>, channel_id: &str) -> sqlx::Result<Vec<(SubscriberView, i64)>> {
    let row = sqlx::query!(
        r#"select count(*) as "all!",
                  count(*) filter (where subscription_in_view(s, 'Trial')) as "trial!",
                  count(*) filter (where subscription_in_view(s, 'Paid')) as "paid!",
                  count(*) filter (where subscription_in_view(s, 'PaymentFailed')) as "payment_failed!",
                  count(*) filter (where subscription_in_view(s, 'Expired')) as "expired!",
                  count(*) filter (where subscription_in_view(s, 'NonCharge')) as "non_charge!",
                  count(*) filter (where subscription_in_view(s, 'Unsubscribed')) as "unsubscribed!",
                  count(*) filter (where subscription_in_view(s, 'Requests')) as "requests!",
                  (select count(*) from firm_subscription f join firm_seat x using (firm_subscription_id, firm_id)
                    where f.channel_id = $1) as "firm_seats!"
           from channel_subscription s where s.channel_id = $1"#,
        channel_id
    )
    .fetch_one(db)
    .await?;
    Ok(vec![
        (SubscriberView::All, row.all),
        (SubscriberView::Trial, row.trial),
        (SubscriberView::Paid, row.paid),
        (SubscriberView::PaymentFailed, row.payment_failed),
        (SubscriberView::Expired, row.expired),
        (SubscriberView::NonCharge, row.non_charge),
        (SubscriberView::Unsubscribed, row.unsubscribed),
        (SubscriberView::Requests, row.requests),
        (SubscriberView::FirmSeats, row.firm_seats),
    ])
}

/// Full reads of the channel's articles by each of `user_ids` (one statement for a page), as the
/// article stats count them.
pub async fn article_views_by_channel(db: impl PgExecutor<'_>, channel_id: &str, user_ids: &[String]) -> sqlx::Result<Vec<(String, i64)>> {
    let rows = sqlx::query!(
        r#"select e.user_id, count(*) as "views!"
           from article_view_event e join article a on a.article_id = e.article_id
           where e.user_id = any($2) and a.premium_channel_id = $1 and e.kind = 'full'
           group by e.user_id"#,
        channel_id,
        user_ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|row| (row.user_id, row.views)).collect())
}

/// One entry of a subscription's audit log.
#[derive(Debug, Clone)]
pub struct AuditRow {
    pub changed_at: DateTime<Utc>,
    pub actor_id: Option<String>,
    pub actor_name: Option<String>,
    pub actor_email: Option<String>,
    pub route: String,
    pub action: String,
    pub from_type: Option<String>,
    pub from_state: Option<String>,
    pub to_type: Option<String>,
    pub to_state: Option<String>,
    pub to_cancel_at: Option<DateTime<Utc>>,
    pub notes: Option<String>,
}

/// A reader's subscription history on a channel, newest first: the trail's rows of its changes
/// (`store::audit`), through the `subscription_audit` view.
pub async fn audit_log(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str, limit: i64) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as!(
        AuditRow,
        r#"select a.changed_at as "changed_at!", a.actor_id, u.name as "actor_name?", u.email as "actor_email?: String",
                  a.route as "route!", a.action as "action!", a.from_type, a.from_state, a.to_type, a.to_state, a.to_cancel_at, a.notes
           from subscription_audit a left join users u on u.user_id = a.actor_id
           where a.channel_id = $1 and a.user_id = $2
           order by a.changed_at desc, a.audit_id desc
           limit $3"#,
        channel_id,
        user_id,
        limit
    )
    .fetch_all(db)
    .await
}

/// A user the bulk check found by email.
#[derive(Debug, Clone)]
pub struct CandidateRow {
    pub user_id: String,
    pub subject: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub signed_in: bool,
    /// Live or waiting for staff on this channel.
    pub subscribed: bool,
    pub subscription_type: Option<String>,
    pub subscription_state: Option<String>,
}

/// The users with these emails (ignoring case; the most recent sign-in when two share one), with
/// their subscription to the channel.
pub async fn candidates_by_email(db: impl PgExecutor<'_>, channel_id: &str, emails: &[String]) -> sqlx::Result<Vec<CandidateRow>> {
    sqlx::query_as!(
        CandidateRow,
        r#"select distinct on (lower(u.email collate "default"))
                  u.user_id, u.subject, u.name, u.email as "email: String", u.company,
                  u.last_login is not null as "signed_in!",
                  coalesce(subscription_live_or_pending(s), false) as "subscribed!",
                  s.subscription_type as "subscription_type?", s.subscription_state as "subscription_state?"
           from users u
           left join channel_subscription s on s.channel_id = $1 and s.user_id = u.user_id
           where lower(u.email collate "default") = any(select lower(e) from unnest($2::text[]) as e)
           order by lower(u.email collate "default"), u.last_login desc nulls last, u.user_id"#,
        channel_id,
        emails
    )
    .fetch_all(db)
    .await
}

/// The users among `user_ids` who have signed in, with whether they are subscribed to the channel.
pub async fn candidates_by_id(db: impl PgExecutor<'_>, channel_id: &str, user_ids: &[String]) -> sqlx::Result<Vec<CandidateRow>> {
    sqlx::query_as!(
        CandidateRow,
        r#"select u.user_id, u.subject, u.name, u.email as "email: String", u.company,
                  u.last_login is not null as "signed_in!",
                  coalesce(subscription_live_or_pending(s), false) as "subscribed!",
                  s.subscription_type as "subscription_type?", s.subscription_state as "subscription_state?"
           from users u
           left join channel_subscription s on s.channel_id = $1 and s.user_id = u.user_id
           where u.user_id = any($2)"#,
        channel_id,
        user_ids
    )
    .fetch_all(db)
    .await
}

// ---- The expiry sweep ----

/// A subscription of one reader to one channel, by its key.
#[derive(Debug, Clone)]
pub struct SubscriptionKey {
    pub channel_id: String,
    pub user_id: String,
}

/// Locks up to `limit` live subscriptions whose end has come by `now`, the longest ended first;
/// those another sweep holds are skipped.
pub async fn lock_due_to_end(conn: &mut PgConnection, now: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<SubscriptionKey>> {
    sqlx::query_as!(
        SubscriptionKey,
        "select channel_id, user_id from channel_subscription
         where subscription_state in ('active', 'paymentFailed') and cancel_at is not null and cancel_at <= $1
         order by cancel_at
         limit $2
         for update skip locked",
        now,
        limit
    )
    .fetch_all(&mut *conn)
    .await
}

/// An active trial and when it ends.
#[derive(Debug, Clone)]
pub struct EndingTrial {
    pub channel_id: String,
    pub user_id: String,
    pub cancel_at: DateTime<Utc>,
}

/// The active trials ending after `after` and by `by`.
pub async fn trials_ending(conn: &mut PgConnection, after: DateTime<Utc>, by: DateTime<Utc>) -> sqlx::Result<Vec<EndingTrial>> {
    sqlx::query_as!(
        EndingTrial,
        r#"select s.channel_id, s.user_id, s.cancel_at as "cancel_at!"
           from channel_subscription s
           where s.subscription_state = 'active' and s.subscription_type = 'trial'
             and s.cancel_at > $1 and s.cancel_at <= $2"#,
        after,
        by
    )
    .fetch_all(&mut *conn)
    .await
}
