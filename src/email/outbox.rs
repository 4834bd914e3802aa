//! The outbox table: emails written with the change that causes them, claimed and delivered by
//! the workers. Writes are set-based (one statement for one email or a 100,000-reader fan-out);
//! the unique delivery key makes every write idempotent.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgPool};

use super::{
    Kind,
    queries::{self, Claimed},
};
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
    queries::insert_emails(conn, emails).await
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
    queries::record_attempt(pool, email.email_id, state, error, next).await
}

/// The wait before attempt `attempts + 1`: 30 s, 1 min, 2 min, … at most an hour.
pub fn backoff(attempts: i32) -> chrono::Duration {
    let doublings = (attempts.max(1) - 1).min(10) as u32;
    chrono::Duration::seconds((30i64 << doublings).min(3600))
}

/// Deletes delivered and failed emails older than `days` (and content no email uses any more).
pub async fn purge(pool: &PgPool, days: u32) -> sqlx::Result<u64> {
    let deleted = queries::delete_finished_emails(pool, days).await?;
    queries::delete_unused_content(pool, days).await?;
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
