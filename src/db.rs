//! Database pool, creation of a missing database, and migrations.

use std::{str::FromStr, time::Duration};

use anyhow::Context;
use sqlx::{
    ConnectOptions, Connection, PgConnection, PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Connects to `database_url`, creating the database first when it does not exist yet.
pub async fn connect(database_url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    let options = PgConnectOptions::from_str(database_url).context("parse DATABASE_URL")?;
    create_database_if_missing(&options).await?;
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
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
