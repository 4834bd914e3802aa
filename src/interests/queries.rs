//! The SQL of registered interest: recording it, and the filtered list (a page, its total, or
//! every row for the CSV export) with the names of the reader and the item joined in.

use chrono::{DateTime, NaiveDate, Utc};
use futures_util::stream::BoxStream;
use sqlx::{PgExecutor, PgPool};

use super::{Delivery, InterestKind};

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
