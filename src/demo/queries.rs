//! SQL of the demo seed: what it checks before writing, and the rows that have no service yet
//! (users as sign-in creates them, channel subscriptions, topic follows, views). Everything else
//! goes through the areas' services.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

/// How much content a database holds (what `seed demo` refuses to mix with unless forced).
pub async fn content(db: impl PgExecutor<'_>) -> sqlx::Result<(i64, i64, i64)> {
    let row = sqlx::query!(
        r#"select (select count(*) from article) as "articles!",
                  (select count(*) from channel) as "channels!",
                  (select count(*) from desk) as "desks!""#
    )
    .fetch_one(db)
    .await?;
    Ok((row.articles, row.channels, row.desks))
}

/// Whether a published article has this title (the demo's last write marks a finished seed).
pub async fn published_title_exists(db: impl PgExecutor<'_>, title: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select exists(select 1 from article where title = $1 and state = 'Published') as "found!""#, title)
        .fetch_one(db)
        .await
}

/// A user row as sign-in writes it (`users::queries::upsert_from_identity`), plus the profile
/// fields sign-in leaves alone and the dates that make the demo's history.
pub struct NewUser<'a> {
    pub user_id: &'a str,
    pub subject: &'a str,
    pub email: &'a str,
    pub name: &'a str,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub company: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub position: Option<&'a str>,
    pub scopes: &'a [String],
    pub role: Option<&'a str>,
    pub is_internal: bool,
    pub first_login: DateTime<Utc>,
    pub last_login: Option<DateTime<Utc>>,
}

/// Inserts the user unless its subject is taken; returns the stored id and whether it was added.
pub async fn insert_user(conn: &mut PgConnection, u: &NewUser<'_>) -> sqlx::Result<(String, bool)> {
    let row = sqlx::query!(
        r#"with added as (
               insert into users (user_id, subject, email, name, first_name, last_name, company, phone, position,
                                  scopes, role, is_internal, first_login, last_login)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
               on conflict (subject) do nothing
               returning user_id)
           select user_id as "user_id!", true as "added!" from added
           union all
           select user_id, false from users where subject = $2 and not exists(select 1 from added)"#,
        u.user_id,
        u.subject,
        u.email,
        u.name,
        u.first_name,
        u.last_name,
        u.company,
        u.phone,
        u.position,
        u.scopes,
        u.role,
        u.is_internal,
        u.first_login,
        u.last_login,
    )
    .fetch_one(conn)
    .await?;
    Ok((row.user_id, row.added))
}

pub async fn desk_id_by_name(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select desk_id from desk where name = $1", name).fetch_optional(db).await
}

/// Of `titles`, those some article already has.
pub async fn existing_titles(db: impl PgExecutor<'_>, titles: &[String]) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(r#"select distinct title as "title!" from article where title = any($1)"#, titles).fetch_all(db).await
}

/// Dates an article's creation back to when the demo says it was written (the service stamps
/// the time of the seed).
pub async fn set_created_at(db: impl PgExecutor<'_>, ids: &[String], created: &[DateTime<Utc>]) -> sqlx::Result<u64> {
    let done = sqlx::query!(
        "update article a set created_at = c.created_at
         from unnest($1::text[], $2::timestamptz[]) as c(article_id, created_at)
         where a.article_id = c.article_id",
        ids,
        created
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// A channel subscription; which columns go with which type follows the checks of migration 0005.
#[derive(Debug, Clone)]
pub struct Subscription {
    pub channel_id: String,
    pub user_id: String,
    pub subscription_type: &'static str,
    pub subscription_state: &'static str,
    pub subscribed: bool,
    pub created_at: DateTime<Utc>,
    pub cancel_at: Option<DateTime<Utc>>,
    pub cancel_requested_at: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub notes: Option<String>,
    pub price_per_month: Option<f64>,
    pub account_number: Option<String>,
    pub rebate: bool,
    pub billing_method: Option<&'static str>,
    pub trial_duration: Option<i32>,
    pub email_notifications: bool,
    pub next_payment: Option<DateTime<Utc>>,
    pub payment_method_type: Option<&'static str>,
    pub payment_method_details: Option<String>,
    pub subscription_id: Option<String>,
    pub added_by_admin: bool,
}

/// Inserts the subscription unless the reader already has one to the channel; whether it was added.
pub async fn insert_subscription(conn: &mut PgConnection, s: &Subscription) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "insert into channel_subscription
             (channel_id, user_id, subscription_type, subscription_state, subscribed, created_at, cancel_at,
              cancel_requested_at, cancel_at_period_end, notes, price_per_month, account_number, rebate, billing_method,
              trial_duration, email_notifications, next_payment, payment_method_type, payment_method_details,
              subscription_id, added_by_admin)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::float8::numeric(12, 2), $12, $13, $14, $15, $16, $17, $18,
                 $19, $20, $21)
         on conflict (channel_id, user_id) do nothing",
        s.channel_id,
        s.user_id,
        s.subscription_type,
        s.subscription_state,
        s.subscribed,
        s.created_at,
        s.cancel_at,
        s.cancel_requested_at,
        s.cancel_at_period_end,
        s.notes,
        s.price_per_month,
        s.account_number,
        s.rebate,
        s.billing_method,
        s.trial_duration,
        s.email_notifications,
        s.next_payment,
        s.payment_method_type,
        s.payment_method_details,
        s.subscription_id,
        s.added_by_admin,
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Topic follows (category, user, since); those that exist are kept. Returns how many were added.
pub async fn insert_follows(
    db: impl PgExecutor<'_>,
    categories: &[String],
    users: &[String],
    since: &[DateTime<Utc>],
) -> sqlx::Result<u64> {
    let done = sqlx::query!(
        "insert into category_follow (category_id, user_id, created_at)
         select * from unnest($1::text[], $2::text[], $3::timestamptz[])
         on conflict do nothing",
        categories,
        users,
        since
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// View events, one per array index, in one statement with what they add up to: the article's
/// views per UTC day (trending) and each reader's count of full views and last view of it. A
/// session already counted for an article and kind is skipped, in the totals too. Returns the
/// events added.
#[allow(clippy::too_many_arguments)]
pub async fn insert_views(
    db: impl PgExecutor<'_>,
    articles: &[String],
    users: &[String],
    sessions: &[String],
    kinds: &[&str],
    sources: &[Option<&str>],
    viewed_at: &[DateTime<Utc>],
) -> sqlx::Result<i64> {
    let kinds: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
    // An array of nullable text does not bind as `text[]` here; '' stands for "no source".
    let sources: Vec<String> = sources.iter().map(|s| s.unwrap_or_default().to_owned()).collect();
    sqlx::query_scalar!(
        r#"with event as (
               insert into article_view_event (article_id, user_id, session_id, kind, view_type, source, viewed_at)
               select e.article_id, e.user_id, e.session_id, e.kind, 'article', nullif(e.source, ''), e.viewed_at
               from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
                    as e(article_id, user_id, session_id, kind, source, viewed_at)
               on conflict (article_id, user_id, session_id, kind) do nothing
               returning article_id, user_id, kind, viewed_at),
           per_day as (
               insert into article_view_day (article_id, day, full_views, preview_views)
               select article_id, (viewed_at at time zone 'UTC')::date,
                      (count(*) filter (where kind = 'full'))::int, (count(*) filter (where kind = 'preview'))::int
               from event group by 1, 2
               on conflict (article_id, day) do update
                   set full_views = article_view_day.full_views + excluded.full_views,
                       preview_views = article_view_day.preview_views + excluded.preview_views),
           per_reader as (
               insert into article_view (article_id, user_id, views, last_viewed)
               select article_id, user_id, count(*)::int, max(viewed_at) from event where kind = 'full' group by 1, 2
               on conflict (article_id, user_id) do update
                   set views = article_view.views + excluded.views,
                       last_viewed = greatest(article_view.last_viewed, excluded.last_viewed))
           select count(*) as "events!" from event"#,
        articles,
        users,
        sessions,
        &kinds,
        &sources,
        viewed_at,
    )
    .fetch_one(db)
    .await
}

/// (channel, user) of the active subscriptions of `users` (cancelled at a later date counts).
pub async fn active_subscriptions(db: impl PgExecutor<'_>, users: &[String]) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        "select channel_id, user_id from channel_subscription
         where user_id = any($1) and subscription_state = 'active' and (cancel_at is null or cancel_at > now())",
        users
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.channel_id, r.user_id)).collect())
}
