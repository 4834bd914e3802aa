//! What `insights-cli jobs` shows and does: the queue by kind and state, failed jobs with their
//! last error, retrying them, and purging finished ones. Reads apalis' tables (schema `apalis`),
//! where every `JobRequest` is a JSON payload tagged with its `kind`. The queries are checked at
//! run time: apalis owns that schema and creates it at start, not our migrations.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

use crate::QUEUE;

/// How many jobs of a kind are in a state.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueueCount {
    pub kind: String,
    pub status: String,
    pub count: i64,
}

/// A job that failed (and may be retried), with its last error.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FailedJob {
    pub id: String,
    pub kind: String,
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: DateTime<Utc>,
    pub done_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub payload: String,
}

/// The queue by kind and state.
pub async fn queue_counts(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<QueueCount>> {
    sqlx::query_as(
        "select coalesce(convert_from(job, 'UTF8')::jsonb ->> 'kind', '?') as kind, status, count(*) as count
           from apalis.jobs where job_type = $1
          group by 1, 2 order by 1, 2",
    )
    .bind(QUEUE)
    .fetch_all(db)
    .await
}

/// Jobs that failed: out of attempts (or killed), and those failing that will be retried.
pub async fn failed(db: impl PgExecutor<'_>, limit: i64) -> sqlx::Result<Vec<FailedJob>> {
    sqlx::query_as(
        "select id, coalesce(convert_from(job, 'UTF8')::jsonb ->> 'kind', '?') as kind, status, attempts, max_attempts, run_at,
                done_at, coalesce(last_result ->> 'Err', last_result::text) as last_error, convert_from(job, 'UTF8') as payload
           from apalis.jobs
          where job_type = $1 and status in ('Failed', 'Killed')
          order by coalesce(done_at, run_at) desc
          limit $2",
    )
    .bind(QUEUE)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Runs failed jobs again from their first attempt: one by id, or all of them. Returns how many.
pub async fn retry(db: impl PgExecutor<'_>, id: Option<&str>) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "update apalis.jobs set status = 'Pending', attempts = 0, run_at = now(), lock_by = null, lock_at = null, done_at = null
          where job_type = $1 and status in ('Failed', 'Killed') and ($2::text is null or id = $2)",
    )
    .bind(QUEUE)
    .bind(id)
    .execute(db)
    .await?
    .rows_affected())
}

/// Deletes jobs that finished (done, or failed for good) more than `days` ago.
pub async fn purge_finished(pool: &PgPool, days: u32) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "delete from apalis.jobs
          where job_type = $1 and done_at < now() - make_interval(days => $2)
            and (status in ('Done', 'Killed') or (status = 'Failed' and attempts >= max_attempts))",
    )
    .bind(QUEUE)
    .bind(days as i32)
    .execute(pool)
    .await?
    .rows_affected())
}
