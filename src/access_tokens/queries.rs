//! Personal access tokens' SQL.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

#[derive(Debug, Clone)]
pub struct AccessTokenRow {
    pub access_token_id: String,
    pub user_id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// Locks the reader's row (two requests then count their tokens one after the other) and counts
/// their active tokens.
pub async fn lock_active_tokens(conn: &mut PgConnection, user_id: &str) -> sqlx::Result<i64> {
    sqlx::query!("select user_id from users where user_id = $1 for update", user_id).fetch_optional(&mut *conn).await?;
    sqlx::query_scalar!(r#"select count(*) as "n!" from access_token where user_id = $1 and revoked_at is null"#, user_id)
        .fetch_one(conn)
        .await
}

pub async fn insert(db: impl PgExecutor<'_>, id: &str, user_id: &str, name: &str, hash: &[u8]) -> sqlx::Result<AccessTokenRow> {
    sqlx::query_as!(
        AccessTokenRow,
        "insert into access_token (access_token_id, user_id, name, secret_hash) values ($1, $2, $3, $4)
         returning access_token_id, user_id, name, created_at, last_used_at",
        id,
        user_id,
        name,
        hash
    )
    .fetch_one(db)
    .await
}

/// A reader's active tokens, newest first.
pub async fn tokens_of(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<AccessTokenRow>> {
    sqlx::query_as!(
        AccessTokenRow,
        "select access_token_id, user_id, name, created_at, last_used_at from access_token
         where user_id = $1 and revoked_at is null order by created_at desc, access_token_id desc",
        user_id
    )
    .fetch_all(db)
    .await
}

/// Revokes an active token (of `user_id` when given); false when there is none.
pub async fn revoke(db: impl PgExecutor<'_>, id: &str, user_id: Option<&str>) -> sqlx::Result<bool> {
    let revoked = sqlx::query!(
        "update access_token set revoked_at = now() where access_token_id = $1 and revoked_at is null and ($2::text is null or user_id = $2)",
        id,
        user_id
    )
    .execute(db)
    .await?;
    Ok(revoked.rows_affected() == 1)
}

/// The active token a secret's hash names, its last use stamped (at most once a minute).
pub async fn use_token(db: impl PgExecutor<'_>, hash: &[u8]) -> sqlx::Result<Option<AccessTokenRow>> {
    sqlx::query_as!(
        AccessTokenRow,
        r#"with found as (select * from access_token where secret_hash = $1 and revoked_at is null),
           stamped as (update access_token t set last_used_at = now() from found
                       where t.access_token_id = found.access_token_id
                         and (found.last_used_at is null or found.last_used_at < now() - interval '1 minute'))
           select access_token_id as "access_token_id!", user_id as "user_id!", name as "name!", created_at as "created_at!", last_used_at
           from found"#,
        hash
    )
    .fetch_optional(db)
    .await
}
