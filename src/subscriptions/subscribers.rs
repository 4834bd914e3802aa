//! SQL of subscriber administration: a channel's subscribers by view (paged, searched and sorted
//! in the database), the views' counts, article views by channel for a page, the audit log, and
//! the bulk check's lookups.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

/// The subscriber stats views (spec 3 §2), plus the pending requests staff approve.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum SubscriberView {
    #[default]
    All,
    Trial,
    Paid,
    PaymentFailed,
    Expired,
    NonCharge,
    Unsubscribed,
    /// Trial and access requests waiting for approval.
    Requests,
}

impl SubscriberView {
    pub const ALL: [SubscriberView; 8] = [
        SubscriberView::All,
        SubscriberView::Trial,
        SubscriberView::Paid,
        SubscriberView::PaymentFailed,
        SubscriberView::Expired,
        SubscriberView::NonCharge,
        SubscriberView::Unsubscribed,
        SubscriberView::Requests,
    ];

    /// The name `subscription_in_view` (SQL) knows the view by.
    fn as_str(self) -> &'static str {
        match self {
            SubscriberView::All => "All",
            SubscriberView::Trial => "Trial",
            SubscriberView::Paid => "Paid",
            SubscriberView::PaymentFailed => "PaymentFailed",
            SubscriberView::Expired => "Expired",
            SubscriberView::NonCharge => "NonCharge",
            SubscriberView::Unsubscribed => "Unsubscribed",
            SubscriberView::Requests => "Requests",
        }
    }
}

/// The sorts of the subscriber list.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[graphql(rename_items = "camelCase")]
pub enum SubscriberSortField {
    Name,
    Email,
    Company,
    #[default]
    SubscribedAt,
    CancelAt,
}

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

pub struct SubscriberQuery<'a> {
    pub channel_id: &'a str,
    pub view: SubscriberView,
    /// A LIKE pattern over lower-cased "name email company".
    pub pattern: Option<&'a str>,
    pub sort: SubscriberSortField,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

impl SubscriberSortField {
    /// The ORDER BY of a sort, whitelisted here: one plain ordering per sort lets the planner walk
    /// `channel_subscription_channel_created_idx` for the default one instead of sorting the channel.
    fn order_by(self, descending: bool) -> &'static str {
        match (self, descending) {
            (SubscriberSortField::Name, false) => "lower(u.name) asc, s.created_at desc, s.user_id",
            (SubscriberSortField::Name, true) => "lower(u.name) desc, s.created_at desc, s.user_id",
            (SubscriberSortField::Email, false) => r#"lower(u.email collate "default") asc, s.user_id"#,
            (SubscriberSortField::Email, true) => r#"lower(u.email collate "default") desc, s.user_id"#,
            (SubscriberSortField::Company, false) => "lower(u.company) asc nulls first, s.created_at desc, s.user_id",
            (SubscriberSortField::Company, true) => "lower(u.company) desc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::CancelAt, false) => "s.cancel_at asc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::CancelAt, true) => "s.cancel_at desc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::SubscribedAt, false) => "s.created_at asc, s.user_id",
            (SubscriberSortField::SubscribedAt, true) => "s.created_at desc, s.user_id",
        }
    }
}

/// A page of a channel's subscribers in a view.
pub async fn page(db: impl PgExecutor<'_>, q: &SubscriberQuery<'_>) -> sqlx::Result<Vec<SubscriberRow>> {
    let sql = format!(
        r#"select u.user_id, u.subject, u.name, u.email::text as email, u.company, u.last_login
           from channel_subscription s join users u on u.user_id = s.user_id
           where s.channel_id = $1 and subscription_in_view(s, $2)
             and ($3::text is null or u.search_text like $3)
           order by {}
           limit $4 offset $5"#,
        q.sort.order_by(q.descending)
    );
    // Safe: the ORDER BY is one of the whitelisted constants above; values are bound.
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
pub async fn by_subject(db: impl PgExecutor<'_>, channel_id: &str, subject: &str) -> sqlx::Result<Option<SubscriberRow>> {
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
pub async fn count(db: impl PgExecutor<'_>, channel_id: &str, view: SubscriberView, pattern: Option<&str>) -> sqlx::Result<i64> {
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
pub async fn view_counts(db: impl PgExecutor<'_>, channel_id: &str) -> sqlx::Result<Vec<(SubscriberView, i64)>> {
    let row = sqlx::query!(
        r#"select count(*) as "all!",
                  count(*) filter (where subscription_in_view(s, 'Trial')) as "trial!",
                  count(*) filter (where subscription_in_view(s, 'Paid')) as "paid!",
                  count(*) filter (where subscription_in_view(s, 'PaymentFailed')) as "payment_failed!",
                  count(*) filter (where subscription_in_view(s, 'Expired')) as "expired!",
                  count(*) filter (where subscription_in_view(s, 'NonCharge')) as "non_charge!",
                  count(*) filter (where subscription_in_view(s, 'Unsubscribed')) as "unsubscribed!",
                  count(*) filter (where subscription_in_view(s, 'Requests')) as "requests!"
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

/// A reader's subscription history on a channel, newest first.
pub async fn audit_log(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str, limit: i64) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as!(
        AuditRow,
        r#"select a.changed_at, a.actor_id, u.name as "actor_name?", u.email as "actor_email?: String", a.route, a.action, a.from_type, a.from_state,
                  a.to_type, a.to_state, a.to_cancel_at, a.notes
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
