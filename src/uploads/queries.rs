//! SQL of the uploads area.

use sqlx::{PgExecutor, PgPool};

/// Whether upload `name` is linked from something every visitor is shown (migration 0025).
pub async fn is_public(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<bool> {
    let public = sqlx::query_scalar!("select is_public from upload where name = $1", name).fetch_optional(db).await?;
    Ok(public.unwrap_or(false))
}

/// The key upload links are signed with: `fresh` unless a server stored one first.
pub async fn signing_key(pool: &PgPool, fresh: Vec<u8>) -> sqlx::Result<Vec<u8>> {
    sqlx::query!("insert into server_secret (name, secret) values ('uploads', $1) on conflict (name) do nothing", fresh)
        .execute(pool)
        .await?;
    sqlx::query_scalar!("select secret from server_secret where name = 'uploads'").fetch_one(pool).await
}
