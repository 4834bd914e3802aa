//! The registry of worker processes (`worker`, or `serve` running the workers): each records its
//! build version and beats while it runs, so operators see which are alive and on which version,
//! and work a process claimed (emails being sent) is taken up again when it dies.
//!
//! Its SQL stays here rather than in a `queries.rs`: the registry is one table that no domain
//! area owns, and this module is nothing but its five statements.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool, postgres::types::PgInterval};
use uuid::Uuid;

/// Registers this process; returns its id.
pub async fn register(pool: &PgPool, heartbeat_every: Duration) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    let host = hostname::get().map(|h| h.to_string_lossy().into_owned()).unwrap_or_else(|_| "unknown".to_owned());
    let every = PgInterval::try_from(heartbeat_every).unwrap_or(PgInterval { months: 0, days: 0, microseconds: 10_000_000 });
    sqlx::query!(
        "insert into worker_process (worker_id, hostname, pid, version, heartbeat_every) values ($1, $2, $3, $4, $5)",
        id,
        host,
        std::process::id() as i32,
        crate::config::build_version(),
        every,
    )
    .execute(pool)
    .await?;
    Ok(id)
}

/// Records that the process is alive.
pub async fn beat(pool: &PgPool, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("update worker_process set heartbeat_at = now() where worker_id = $1", id).execute(pool).await?;
    Ok(())
}

/// Records that the process stopped (it no longer counts as alive).
pub async fn stopped(pool: &PgPool, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("update worker_process set stopped_at = now() where worker_id = $1", id).execute(pool).await?;
    Ok(())
}

/// A worker process as `insights-cli jobs` shows it.
#[derive(Debug, Clone)]
pub struct WorkerProcess {
    pub worker_id: Uuid,
    pub hostname: String,
    pub pid: i32,
    pub version: String,
    pub started_at: DateTime<Utc>,
    pub heartbeat_at: DateTime<Utc>,
    pub stopped_at: Option<DateTime<Utc>>,
    pub alive: bool,
}

/// The processes alive, and those that stopped or died in the last `recent_hours`, newest first.
pub async fn list(db: impl PgExecutor<'_>, recent_hours: i32) -> sqlx::Result<Vec<WorkerProcess>> {
    sqlx::query_as!(
        WorkerProcess,
        r#"select w.worker_id, w.hostname, w.pid, w.version, w.started_at, w.heartbeat_at, w.stopped_at, worker_alive(w) as "alive!"
             from worker_process w
            where worker_alive(w) or w.heartbeat_at > now() - make_interval(hours => $1)
            order by worker_alive(w) desc, w.started_at desc"#,
        recent_hours
    )
    .fetch_all(db)
    .await
}

/// Forgets processes that have been gone for `days`.
pub async fn purge(pool: &PgPool, days: u32) -> sqlx::Result<u64> {
    Ok(sqlx::query!("delete from worker_process where heartbeat_at < now() - make_interval(days => $1)", days as i32)
        .execute(pool)
        .await?
        .rows_affected())
}
