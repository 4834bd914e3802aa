//! Database pool, creation of a missing database, and migrations.

use std::{str::FromStr, time::Duration};

use anyhow::Context;
use sqlx::{
    ConnectOptions, Connection, PgConnection, PgPool, Postgres,
    pool::PoolConnection,
    postgres::{PgConnectOptions, PgPoolOptions},
};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How long a request waits for a connection unless configured (`INSIGHTS_DB_ACQUIRE_TIMEOUT_MS`).
pub const DEFAULT_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// Connects to the configured database, creating it first when it does not exist yet. Its
/// statements run as long as they take: for operators' commands, the workers and migrations.
pub async fn connect_with(config: &crate::Config) -> anyhow::Result<PgPool> {
    let options = PgConnectOptions::from_str(&config.database_url).context("parse DATABASE_URL")?;
    connect_waiting(options, config.db_max_connections, Duration::from_millis(config.db_acquire_timeout_ms)).await
}

/// `connect_with`, every connection acting as `actor` for the audit trail (the CLI's command, the
/// workers): a startup parameter, so it costs no statement.
pub async fn connect_as(config: &crate::Config, actor: &crate::audit::Actor) -> anyhow::Result<PgPool> {
    let options = PgConnectOptions::from_str(&config.database_url).context("parse DATABASE_URL")?;
    let options = options.options([crate::audit::connection_setting(actor)]);
    connect_waiting(options, config.db_max_connections, Duration::from_millis(config.db_acquire_timeout_ms)).await
}

/// The pool of the HTTP server's requests: `connect_with`, with every statement stopped by
/// PostgreSQL past `INSIGHTS_STATEMENT_TIMEOUT_MS` (SQLSTATE 57014, answered as a request that took
/// too long; 0: no limit). A request is abandoned after 60 s at most; without a limit its
/// statement ran on for minutes, holding a connection.
pub async fn connect_for_requests(config: &crate::Config) -> anyhow::Result<PgPool> {
    let options = PgConnectOptions::from_str(&config.database_url)
        .context("parse DATABASE_URL")?
        .options([("statement_timeout", config.statement_timeout_ms.to_string())]);
    connect_waiting(options, config.db_max_connections, Duration::from_millis(config.db_acquire_timeout_ms)).await
}

/// Connects to `database_url`, creating the database first when it does not exist yet.
pub async fn connect(database_url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    let options = PgConnectOptions::from_str(database_url).context("parse DATABASE_URL")?;
    connect_waiting(options, max_connections, DEFAULT_ACQUIRE_TIMEOUT).await
}

/// Runs `work` on a connection of `pool` whose statement PostgreSQL is asked to cancel
/// (`pg_cancel_backend`) when the future is dropped before `work` ends: the client went away, or
/// the request timed out. sqlx sends no cancel request of its own, and would wait on the
/// connection for the statement to end. For the statements a reader can make long (the search);
/// it costs a round trip for the connection's backend id.
pub async fn cancel_if_dropped<T>(pool: &PgPool, work: impl AsyncFnOnce(&mut PgConnection) -> sqlx::Result<T>) -> sqlx::Result<T> {
    /// The connection while `work` runs, and its backend.
    struct Running {
        conn: Option<PoolConnection<Postgres>>,
        backend: i32,
        pool: PgPool,
    }
    impl Drop for Running {
        fn drop(&mut self) {
            let Some(conn) = self.conn.take() else { return };
            let (pool, backend) = (self.pool.clone(), self.backend);
            tokio::spawn(async move {
                // Held until the cancel is sent, so that its backend runs nothing else meanwhile.
                // (This statement and the backend id below are the pool's plumbing, not an area's
                // data: they stay with the pool.)
                if let Err(error) = sqlx::query("select pg_cancel_backend($1)").bind(backend).execute(&pool).await {
                    tracing::warn!(%error, backend, "could not cancel the statement of a dropped request");
                }
                drop(conn);
            });
        }
    }
    let mut conn = pool.acquire().await?;
    let backend: i32 = sqlx::query_scalar("select pg_backend_pid()").fetch_one(&mut *conn).await?;
    let mut running = Running { conn: Some(conn), backend, pool: pool.clone() };
    let conn: &mut PgConnection = running.conn.as_mut().expect("held until the end");
    let result = work(conn).await;
    // Finished (well or not): back to the pool.
    drop(running.conn.take());
    result
}

/// Connections idle this long are pinged before they are handed out.
const PING_IF_IDLE_FOR: Duration = Duration::from_secs(1);

/// The pool behind `connect`: a request waits at most `acquire_timeout` for a connection, so
/// while PostgreSQL is down or restarting it fails fast (503, `error::is_database_unreachable`)
/// instead of piling up, and the pool reconnects by itself when it is back.
///
/// Dead connections: sqlx already pings each connection when it is released and drops it if
/// broken. Pinging again on every acquire (its `test_before_acquire`) cost about a quarter of the
/// pool's throughput on short queries here (select 1 from 32 tasks: ~8,000/s against ~11,000/s),
/// so only connections idle for a second or more are pinged: those a restart may have killed
/// unnoticed. One that dies while in steady use fails its next request once (SQLSTATE 57P01:
/// a 503 with `Retry-After`), and is dropped.
async fn connect_waiting(options: PgConnectOptions, max_connections: u32, acquire_timeout: Duration) -> anyhow::Result<PgPool> {
    create_database_if_missing(&options).await?;
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(acquire_timeout)
        .test_before_acquire(false)
        .before_acquire(|conn, meta| Box::pin(async move { Ok(meta.idle_for < PING_IF_IDLE_FOR || conn.ping().await.is_ok()) }))
        .connect_with(options.log_statements(tracing::log::LevelFilter::Trace))
        .await
        .context("connect to PostgreSQL")
}

async fn create_database_if_missing(options: &PgConnectOptions) -> anyhow::Result<()> {
    let Some(name) = options.get_database().map(str::to_owned) else { return Ok(()) };
    let maintenance = options.clone().database("postgres");
    let mut conn = PgConnection::connect_with(&maintenance)
        .await
        .with_context(|| format!("connect to PostgreSQL at {}:{}", options.get_host(), options.get_port()))?;
    // Set-up before any area exists (on the maintenance database): these statements stay here.
    let exists: bool = sqlx::query_scalar("select exists(select 1 from pg_database where datname = $1)")
        .bind(&name)
        .fetch_one(&mut conn)
        .await?;
    if !exists {
        // Identifiers cannot be bound as parameters; quote it the way PostgreSQL does.
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("create database {quoted}")))
            .execute(&mut conn)
            .await
            .or_else(|error| match &error {
                // Another process created it meanwhile.
                sqlx::Error::Database(db) if db.code().as_deref() == Some("42P04") => Ok(Default::default()),
                _ => Err(error),
            })
            .with_context(|| format!("create database {name}"))?;
        tracing::info!(database = %name, "created database");
    }
    conn.close().await.ok();
    Ok(())
}

/// Applies the pending migrations of `migrations/`.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await.context("run database migrations")
}
