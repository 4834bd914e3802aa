//! The outbox table: emails written with the change that causes them, claimed and delivered by
//! the workers. Writes are set-based (one statement for one email or a 100,000-reader fan-out);
//! the unique delivery key makes every write idempotent.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::Kind;
use crate::jobs::{JobQueue, JobRequest};

/// What an unsubscribe link in an email turns off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsubscribeScope {
    /// The emails of the email's channel.
    Channel,
    /// Every channel email (the global setting).
    All,
}

impl UnsubscribeScope {
    pub fn as_str(self) -> &'static str {
        match self {
            UnsubscribeScope::Channel => "channel",
            UnsubscribeScope::All => "all",
        }
    }
}

/// One email to write.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// Kind + recipient + subject entity + occasion: an email is written once per key.
    pub delivery_key: String,
    pub kind: Kind,
    pub user_id: Option<String>,
    pub recipient: String,
    pub channel_id: Option<String>,
    pub unsubscribe: Option<UnsubscribeScope>,
    /// Shared data (`email_content`) the row's own data is merged over.
    pub content_id: Option<i64>,
    pub data: Value,
}

/// Stores data many emails share; returns its id for `Outgoing::content_id`.
pub async fn add_content(conn: &mut PgConnection, data: &Value) -> sqlx::Result<i64> {
    sqlx::query_scalar!("insert into email_content (data) values ($1) returning content_id", data).fetch_one(&mut *conn).await
}

/// Writes emails (those whose key exists are left as they are) and, when any is new, enqueues
/// their delivery in the same transaction. Returns how many were new.
pub async fn write(conn: &mut PgConnection, jobs: &dyn JobQueue, emails: &[Outgoing]) -> anyhow::Result<u64> {
    let written = insert(conn, emails).await?;
    if written > 0 {
        jobs.enqueue(conn, JobRequest::DeliverEmails).await?;
    }
    Ok(written)
}

/// Writes emails without enqueuing their delivery (the caller enqueues once for many writes).
pub async fn insert(conn: &mut PgConnection, emails: &[Outgoing]) -> sqlx::Result<u64> {
    if emails.is_empty() {
        return Ok(0);
    }
    let keys: Vec<&str> = emails.iter().map(|e| e.delivery_key.as_str()).collect();
    let kinds: Vec<&str> = emails.iter().map(|e| e.kind.as_str()).collect();
    let users: Vec<Option<&str>> = emails.iter().map(|e| e.user_id.as_deref()).collect();
    let recipients: Vec<&str> = emails.iter().map(|e| e.recipient.as_str()).collect();
    let channels: Vec<Option<&str>> = emails.iter().map(|e| e.channel_id.as_deref()).collect();
    let unsubscribe: Vec<Option<&str>> = emails.iter().map(|e| e.unsubscribe.map(UnsubscribeScope::as_str)).collect();
    let contents: Vec<Option<i64>> = emails.iter().map(|e| e.content_id).collect();
    let data: Vec<&Value> = emails.iter().map(|e| &e.data).collect();
    let bulk: Vec<bool> = emails.iter().map(|e| e.kind.is_bulk()).collect();
    let written = sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, unsubscribe, content_id, data, bulk)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::jsonb[], $9::bool[])
         on conflict on constraint email_outbox_delivery_key do nothing",
        &keys as &[&str],
        &kinds as &[&str],
        &users as &[Option<&str>],
        &recipients as &[&str],
        &channels as &[Option<&str>],
        &unsubscribe as &[Option<&str>],
        &contents as &[Option<i64>],
        &data as &[&Value],
        &bulk,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(written)
}

/// An email claimed for delivery, with everything its rendering needs.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub email_id: i64,
    pub delivery_key: String,
    pub kind: String,
    pub user_id: Option<String>,
    pub recipient: String,
    pub unsubscribe: Option<String>,
    pub channel_id: Option<String>,
    /// The shared content with the row's own data merged over it.
    pub data: Value,
    /// This attempt's number (1 for the first).
    pub attempts: i32,
}

/// Claims up to `limit` due emails for `worker`: pending ones whose time has come, and those a
/// worker that is no longer alive was sending when it died; service emails before notifications. Others wait (SKIP LOCKED), so several
/// workers share the outbox without taking the same email.
pub async fn claim(pool: &PgPool, worker: Uuid, now: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<Claimed>> {
    sqlx::query_as!(
        Claimed,
        r#"with due as (
               select o.email_id from email_outbox o
                -- The database's clock too: an email written a moment ago is due whatever the skew.
                where o.state in ('pending', 'sending') and o.next_attempt_at <= greatest($2, now())
                  and (o.state = 'pending'
                       -- Claimed by a worker that died, or so long ago that the attempt cannot still be running.
                       or o.claimed_at < $2 - interval '10 minutes'
                       or not exists (select 1 from worker_process w where w.worker_id = o.claimed_by and worker_alive(w)))
                order by o.bulk, o.next_attempt_at, o.email_id
                limit $3
                for update skip locked)
           update email_outbox o
              set state = 'sending', claimed_by = $1, claimed_at = $2, attempts = o.attempts + 1
             from due
            where o.email_id = due.email_id
        returning o.email_id, o.delivery_key, o.kind, o.user_id, o.recipient, o.unsubscribe, o.channel_id, o.attempts,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!""#,
        worker,
        now,
        limit,
    )
    .fetch_all(pool)
    .await
}

/// Marks every due email as sent nowhere (no SMTP server is configured); returns how many.
pub async fn keep_unsent(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "update email_outbox set state = 'sentNowhere', sent_at = now(), claimed_by = null
          where state = 'pending' and next_attempt_at <= greatest($1, now())",
        now
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// What became of one delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// Worth trying again later (connection refused, a 4xx answer, a timeout).
    Temporary(String),
    /// Never worth trying again (a 5xx answer, an address that cannot be one).
    Permanent(String),
}

/// Records an attempt: sent; failed for good (permanent, or out of attempts); or pending again
/// after a backoff of 30 s doubling per attempt, at most an hour.
pub async fn record(pool: &PgPool, email: &Claimed, outcome: &Outcome, max_attempts: u32, now: DateTime<Utc>) -> sqlx::Result<()> {
    let (state, error, next) = match outcome {
        Outcome::Sent => ("sent", None, now),
        Outcome::Permanent(error) => ("failed", Some(error.as_str()), now),
        Outcome::Temporary(error) if email.attempts as u32 >= max_attempts => ("failed", Some(error.as_str()), now),
        Outcome::Temporary(error) => ("pending", Some(error.as_str()), now + backoff(email.attempts)),
    };
    sqlx::query!(
        "update email_outbox
            set state = $2, last_error = $3, next_attempt_at = $4, claimed_by = null,
                sent_at = case when $2 = 'sent' then now() end
          where email_id = $1 and state = 'sending'",
        email.email_id,
        state,
        error,
        next,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Gives back emails claimed but not attempted (the worker is stopping).
pub async fn release(pool: &PgPool, email_ids: &[i64]) -> sqlx::Result<()> {
    sqlx::query!(
        "update email_outbox set state = 'pending', claimed_by = null, attempts = attempts - 1
          where email_id = any($1) and state = 'sending'",
        email_ids
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The wait before attempt `attempts + 1`: 30 s, 1 min, 2 min, … at most an hour.
pub fn backoff(attempts: i32) -> chrono::Duration {
    let doublings = (attempts.max(1) - 1).min(10) as u32;
    chrono::Duration::seconds((30i64 << doublings).min(3600))
}

/// One row of `insights-cli outbox`.
#[derive(Debug, Clone)]
pub struct Listed {
    pub email_id: i64,
    pub created_at: DateTime<Utc>,
    pub kind: String,
    pub recipient: String,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub data: Value,
    pub user_id: Option<String>,
    pub channel_id: Option<String>,
    pub unsubscribe: Option<String>,
}

/// One email by id.
pub async fn find(db: impl PgExecutor<'_>, email_id: i64) -> sqlx::Result<Option<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select o.email_id, o.created_at, o.kind, o.recipient, o.state, o.attempts, o.next_attempt_at, o.sent_at, o.last_error,
                  o.user_id, o.channel_id, o.unsubscribe,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!"
             from email_outbox o
            where o.email_id = $1"#,
        email_id,
    )
    .fetch_optional(db)
    .await
}

/// The newest emails, optionally in one state.
pub async fn recent(db: impl PgExecutor<'_>, state: Option<&str>, limit: i64) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select o.email_id, o.created_at, o.kind, o.recipient, o.state, o.attempts, o.next_attempt_at, o.sent_at, o.last_error,
                  o.user_id, o.channel_id, o.unsubscribe,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!"
             from email_outbox o
            where $1::text is null or o.state = $1
            order by o.created_at desc, o.email_id desc
            limit $2"#,
        state,
        limit,
    )
    .fetch_all(db)
    .await
}

/// How many emails are in each state.
pub async fn counts(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<(String, i64)>> {
    let rows = sqlx::query!(r#"select state, count(*) as "count!" from email_outbox group by state order by state"#).fetch_all(db).await?;
    Ok(rows.into_iter().map(|r| (r.state, r.count)).collect())
}

/// Makes failed emails pending again (one, or all of them); returns how many.
pub async fn retry_failed(db: impl PgExecutor<'_>, email_id: Option<i64>) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "update email_outbox set state = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
          where state = 'failed' and ($1::bigint is null or email_id = $1)",
        email_id
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Deletes delivered and failed emails older than `days` (and content no email uses any more).
pub async fn purge(pool: &PgPool, days: u32) -> sqlx::Result<u64> {
    let deleted = sqlx::query!(
        "delete from email_outbox where state in ('sent', 'failed', 'sentNowhere') and created_at < now() - make_interval(days => $1)",
        days as i32
    )
    .execute(pool)
    .await?
    .rows_affected();
    sqlx::query!(
        "delete from email_content c where c.created_at < now() - make_interval(days => $1)
            and not exists (select 1 from email_outbox o where o.content_id = c.content_id)",
        days as i32
    )
    .execute(pool)
    .await?;
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_minute_to_an_hour() {
        let seconds: Vec<i64> = (1..=9).map(|n| backoff(n).num_seconds()).collect();
        assert_eq!(seconds, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(backoff(0).num_seconds(), 30);
        assert_eq!(backoff(40).num_seconds(), 3600);
    }
}
