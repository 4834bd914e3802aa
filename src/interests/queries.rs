//! The SQL of registered interest: recording it, and the filtered list (a page, its total, or
//! every row for the CSV export) with the names of the reader and the item joined in.

use chrono::{DateTime, NaiveDate, Utc};
use futures_util::stream::BoxStream;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::{Delivery, InterestKind, teams::Due};

/// Records an interest for today (UTC) unless it exists; its id when new.
pub async fn insert(
    db: impl PgExecutor<'_>,
    kind: InterestKind,
    item_id: &str,
    user_id: &str,
    delivery: Delivery,
) -> sqlx::Result<Option<i64>> {
    let (method, delivered_to) = match delivery {
        Delivery::Email => ("email", None),
        Delivery::Teams => ("teams", Some("Microsoft Teams")),
    };
    sqlx::query_scalar!(
        "insert into interest (kind, article_id, channel_id, promotional_content_id, user_id, delivery_method, delivered_to)
         values ($1, case when $1 = 'Article' then $2 end, case when $1 = 'Channel' then $2 end,
                 case when $1 = 'PromotionalContent' then $2 end, $3, $4, $5)
         on conflict on constraint interest_once_a_day do nothing
         returning interest_id",
        kind.as_str(),
        item_id,
        user_id,
        method,
        delivered_to,
    )
    .fetch_optional(db)
    .await
}

/// A promotional content a reader may register interest in: not expired, with its page's Teams
/// channel (none when it does not lead to a promotion page).
pub struct LiveContent {
    pub promotional_content_id: String,
    pub teams_channel: Option<String>,
}

pub async fn live_content(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<LiveContent>> {
    sqlx::query_as!(
        LiveContent,
        r#"select p.promotional_content_id, g.teams_channel as "teams_channel?"
             from promotional_content p
             left join promotion_page g on g.promotion_page_id = p.promotion_page_id
            where p.promotional_content_id = $1 and (p.expiry_date is null or p.expiry_date > now())"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// The admin list's filters (all optional).
#[derive(Debug, Default, Clone)]
pub struct InterestFilter {
    pub kind: Option<InterestKind>,
    pub item_id: Option<String>,
    /// Registered on or after this UTC day.
    pub from: Option<NaiveDate>,
    /// Registered on or before this UTC day.
    pub to: Option<NaiveDate>,
    /// A LIKE pattern over the reader's name, email and company (`contains_pattern`).
    pub pattern: Option<String>,
}

/// One interest as Administrators see it.
#[derive(Debug, Clone)]
pub struct InterestRow {
    pub interest_id: i64,
    pub kind: String,
    pub item_id: String,
    pub item_name: String,
    pub user_id: String,
    pub user_name: String,
    pub user_email: String,
    pub user_company: Option<String>,
    pub registered_at: DateTime<Utc>,
    pub delivered_to: Option<String>,
    pub delivery_state: String,
    pub last_error: Option<String>,
}

/// The list, newest first, with the reader's and the item's names joined in: one statement for
/// a page (`limit`) or for every row (`limit` null: the export streams it). The date range is on
/// `registered_at`, so the newest-first indexes serve it.
macro_rules! list {
    ($filter:expr, $limit:expr, $offset:expr) => {
        sqlx::query_as!(
            InterestRow,
            r#"select i.interest_id, i.kind, i.item_id,
                      coalesce(a.title, c.name, p.name, '') as "item_name!",
                      i.user_id, u.name as user_name, u.email::text as "user_email!", u.company as user_company,
                      i.registered_at, i.delivered_to, i.delivery_state, i.last_error
                 from interest i
                 join users u on u.user_id = i.user_id
                 left join article a on a.article_id = i.article_id
                 left join channel c on c.channel_id = i.channel_id
                 left join promotional_content p on p.promotional_content_id = i.promotional_content_id
                where ($1::text is null or i.kind = $1)
                  and ($2::text is null or i.item_id = $2)
                  and ($3::date is null or i.registered_at >= $3::date::timestamp at time zone 'UTC')
                  and ($4::date is null or i.registered_at < ($4::date + 1)::timestamp at time zone 'UTC')
                  and ($5::text is null or u.search_text like $5)
                order by i.registered_at desc, i.interest_id desc
                limit $6 offset $7"#,
            $filter.kind.map(InterestKind::as_str),
            $filter.item_id.as_deref(),
            $filter.from,
            $filter.to,
            $filter.pattern.as_deref(),
            $limit,
            $offset,
        )
    };
}

pub async fn page(db: impl PgExecutor<'_>, filter: &InterestFilter, limit: i64, offset: i64) -> sqlx::Result<Vec<InterestRow>> {
    list!(filter, Some(limit), offset).fetch_all(db).await
}

/// Every row of the list, as the database returns them.
pub fn stream<'a>(pool: &'a PgPool, filter: &'a InterestFilter) -> BoxStream<'a, sqlx::Result<InterestRow>> {
    list!(filter, None::<i64>, 0i64).fetch(pool)
}

/// How many interests the filters match (the reader is joined only for a search).
pub async fn count(db: impl PgExecutor<'_>, filter: &InterestFilter) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from interest i
            where ($1::text is null or i.kind = $1)
              and ($2::text is null or i.item_id = $2)
              and ($3::date is null or i.registered_at >= $3::date::timestamp at time zone 'UTC')
              and ($4::date is null or i.registered_at < ($4::date + 1)::timestamp at time zone 'UTC')
              and ($5::text is null or exists (select 1 from users u where u.user_id = i.user_id and u.search_text like $5))"#,
        filter.kind.map(InterestKind::as_str),
        filter.item_id.as_deref(),
        filter.from,
        filter.to,
        filter.pattern.as_deref(),
    )
    .fetch_one(db)
    .await
}

/// A reader's interests in an item still waiting for their emails (from before interest was
/// written to the outbox when registered).
pub async fn waiting_for_emails(db: impl PgExecutor<'_>, kind: InterestKind, item_id: &str, user_id: &str) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        "select i.interest_id from interest i
          where i.item_id = $2 and i.kind = $1 and i.user_id = $3 and i.delivery_method = 'email' and i.delivery_state = 'pending'
            and not exists (select 1 from email_outbox o where o.interest_id = i.interest_id)
          order by i.interest_id",
        kind.as_str(),
        item_id,
        user_id,
    )
    .fetch_all(db)
    .await
}

// ---- Microsoft Teams delivery ----

/// Locks the next due Teams interest, or interest `only` if it is due (skipping those another
/// attempt holds).
pub async fn lock_due_teams_interest(conn: &mut PgConnection, now: DateTime<Utc>, only: Option<i64>) -> sqlx::Result<Option<Due>> {
    sqlx::query_as!(
        Due,
        r#"select i.interest_id, i.attempts, i.registered_at, u.name as reader_name, u.email::text as "reader_email!",
                  u.company as reader_company, p.name as content_name, g.name as "page_name?", g.teams_channel as "teams_channel?"
             from interest i
             join users u on u.user_id = i.user_id
             join promotional_content p on p.promotional_content_id = i.promotional_content_id
             left join promotion_page g on g.promotion_page_id = p.promotion_page_id
            where i.delivery_method = 'teams' and i.delivery_state in ('pending', 'retrying')
              -- The database's clock too: an interest registered a moment ago is due whatever the skew.
              and i.next_attempt_at <= greatest($1, now())
              and ($2::bigint is null or i.interest_id = $2)
            order by i.next_attempt_at, i.interest_id
            limit 1
            for update of i skip locked"#,
        now,
        only,
    )
    .fetch_optional(conn)
    .await
}

/// Records a Teams attempt: the state it leaves ('delivered', 'failed' or 'retrying'), the
/// attempts made, the error and when the next attempt is due.
pub async fn record_teams_attempt(
    conn: &mut PgConnection,
    interest_id: i64,
    state: &str,
    attempts: i32,
    error: Option<&str>,
    next_attempt_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update interest
            set delivery_state = $2, attempts = $3, last_error = $4, next_attempt_at = $5,
                delivered_at = case when $2 = 'delivered' then now() end
          where interest_id = $1",
        interest_id,
        state,
        attempts,
        error,
        next_attempt_at,
    )
    .execute(conn)
    .await?;
    Ok(())
}

// ---- Campaigns ----

/// A campaign of an article, with the views and readers it brought.
#[derive(Debug, Clone)]
pub struct CampaignViews {
    pub campaign_id: String,
    pub campaign_type: String,
    pub created_at: DateTime<Utc>,
    pub views: i64,
    pub readers: i64,
}

/// The campaigns of an article, newest first, with their views and readers: one statement, the
/// views counted from `article_view_event_campaign_id_idx` alone.
pub async fn campaign_views(db: impl PgExecutor<'_>, article_id: &str) -> sqlx::Result<Vec<CampaignViews>> {
    sqlx::query_as!(
        CampaignViews,
        r#"select c.campaign_id, c.campaign_type, c.created_at, coalesce(v.views, 0) as "views!", coalesce(v.readers, 0) as "readers!"
             from campaign c
             left join lateral (select count(*) as views, count(distinct e.user_id) as readers
                                  from article_view_event e where e.campaign_id = c.campaign_id) v on true
            where c.article_id = $1
            order by c.created_at desc, c.campaign_id desc"#,
        article_id
    )
    .fetch_all(db)
    .await
}
