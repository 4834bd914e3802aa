//! The trial policy's SQL: the policy row, the terms' versions, acceptances, and the earlier
//! arrangements the cool-off looks at.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

#[derive(Debug, Clone)]
pub struct PolicyRow {
    pub max_days: i32,
    pub cool_off_days: i32,
    pub terms_required: bool,
    pub version: i32,
    pub updated_at: DateTime<Utc>,
}

pub async fn policy(db: impl PgExecutor<'_>) -> sqlx::Result<PolicyRow> {
    sqlx::query_as!(PolicyRow, "select max_days, cool_off_days, terms_required, version, updated_at from trial_policy").fetch_one(db).await
}

/// Writes the policy when it is at `version`; false when it is not (someone saved since).
pub async fn update_policy(
    db: impl PgExecutor<'_>,
    max_days: i32,
    cool_off_days: i32,
    terms_required: bool,
    version: i32,
    by: &str,
) -> sqlx::Result<bool> {
    let updated = sqlx::query!(
        "update trial_policy set max_days = $1, cool_off_days = $2, terms_required = $3, version = version + 1,
                updated_at = now(), updated_by = $5
         where version = $4",
        max_days,
        cool_off_days,
        terms_required,
        version,
        by
    )
    .execute(db)
    .await?;
    Ok(updated.rows_affected() == 1)
}

#[derive(Debug, Clone)]
pub struct TermsRow {
    pub version: i32,
    pub html: String,
    pub created_at: DateTime<Utc>,
}

/// The current terms: the latest version.
pub async fn current_terms(db: impl PgExecutor<'_>) -> sqlx::Result<TermsRow> {
    sqlx::query_as!(TermsRow, "select version, html, created_at from trial_terms order by version desc limit 1").fetch_one(db).await
}

/// Adds the next version of the terms when the current one is `version`; false when it is not.
pub async fn add_terms(db: impl PgExecutor<'_>, html: &str, version: i32, by: &str) -> sqlx::Result<bool> {
    let added = sqlx::query!(
        "insert into trial_terms (version, html, created_by)
         select $2 + 1, $1, $3 where (select max(version) from trial_terms) = $2
         on conflict (version) do nothing",
        html,
        version,
        by
    )
    .execute(db)
    .await?;
    Ok(added.rows_affected() == 1)
}

pub async fn record_acceptance(conn: &mut PgConnection, channel_id: &str, user_id: &str, terms_version: i32) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into trial_acceptance (channel_id, user_id, terms_version) values ($1, $2, $3)",
        channel_id,
        user_id,
        terms_version
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The latest terms a reader accepted for a channel's trial, and when.
pub async fn acceptance(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str) -> sqlx::Result<Option<(i32, DateTime<Utc>)>> {
    let row = sqlx::query!(
        "select terms_version, accepted_at from trial_acceptance where user_id = $2 and channel_id = $1
         order by accepted_at desc limit 1",
        channel_id,
        user_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|row| (row.terms_version, row.accepted_at)))
}

/// A trial or subscription of a channel that ended within the cool-off.
#[derive(Debug, Clone)]
pub struct EndedArrangement {
    pub user_id: String,
    pub subscription_type: String,
    pub ended_at: DateTime<Utc>,
    /// The reader's firm when the arrangement was a colleague's.
    pub firm_name: Option<String>,
}

/// The latest trial or subscription of `channel_id` that started and ended after `since`, the
/// reader's own or one of a reader of their firm. (A request withdrawn or declined never started;
/// a live one is the state machine's to refuse.)
pub async fn ended_since(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str, since: DateTime<Utc>) -> sqlx::Result<Option<EndedArrangement>> {
    sqlx::query_as!(
        EndedArrangement,
        r#"with colleagues as (
               select $2::text as user_id
               union
               select m.user_id from firm_member m where m.firm_id = (select f.firm_id from firm_member f where f.user_id = $2)
           )
           select s.user_id, s.subscription_type, coalesce(s.cancel_at, s.updated_at) as "ended_at!",
                  case when s.user_id <> $2 then (select f.name::text from firm_member m join firm f on f.firm_id = m.firm_id
                                                  where m.user_id = $2) end as firm_name
           from channel_subscription s
           where s.channel_id = $1 and s.user_id in (select user_id from colleagues)
             and s.subscription_state in ('expired', 'canceled')
             and (s.subscription_type <> 'trial' or s.trial_duration is not null)
             and s.cancel_at is not null
             and coalesce(s.cancel_at, s.updated_at) > $3
             and coalesce(s.cancel_at, s.updated_at) <= now()
           order by (s.user_id = $2) desc, coalesce(s.cancel_at, s.updated_at) desc
           limit 1"#,
        channel_id,
        user_id,
        since
    )
    .fetch_optional(db)
    .await
}

/// `ended_since` for many readers at once (a bulk trial): each reader's latest such arrangement,
/// keyed by the reader.
pub async fn ended_since_for(
    db: impl PgExecutor<'_>,
    channel_id: &str,
    user_ids: &[String],
    since: DateTime<Utc>,
) -> sqlx::Result<Vec<(String, EndedArrangement)>> {
    let rows = sqlx::query!(
        r#"with readers as (select unnest($2::text[]) as reader_id),
           colleagues as (
               select reader_id, reader_id as user_id from readers
               union
               select r.reader_id, other.user_id
               from readers r join firm_member mine on mine.user_id = r.reader_id
                    join firm_member other on other.firm_id = mine.firm_id
           )
           select distinct on (c.reader_id) c.reader_id as "reader_id!", s.user_id, s.subscription_type,
                  coalesce(s.cancel_at, s.updated_at) as "ended_at!",
                  case when s.user_id <> c.reader_id then (select f.name::text from firm_member m join firm f on f.firm_id = m.firm_id
                                                           where m.user_id = c.reader_id) end as firm_name
           from colleagues c join channel_subscription s on s.channel_id = $1 and s.user_id = c.user_id
           where s.subscription_state in ('expired', 'canceled')
             and (s.subscription_type <> 'trial' or s.trial_duration is not null)
             and s.cancel_at is not null
             and coalesce(s.cancel_at, s.updated_at) > $3
             and coalesce(s.cancel_at, s.updated_at) <= now()
           order by c.reader_id, (s.user_id = c.reader_id) desc, coalesce(s.cancel_at, s.updated_at) desc"#,
        channel_id,
        user_ids,
        since
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let ended = EndedArrangement { user_id: row.user_id, subscription_type: row.subscription_type, ended_at: row.ended_at, firm_name: row.firm_name };
            (row.reader_id, ended)
        })
        .collect())
}
