//! SQL of the built-in provider: authorization codes and refresh tokens, stored hashed, and its
//! signing keys.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

pub struct Grant {
    pub client_id: String,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub nonce: Option<String>,
    pub subject: String,
    pub scope: String,
    pub claims: serde_json::Value,
    pub expires_at: DateTime<Utc>,
}

pub async fn insert_code(db: impl PgExecutor<'_>, code_hash: &str, grant: &Grant) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into oidc_authorization_code
             (code_hash, client_id, redirect_uri, code_challenge, nonce, subject, scope, claims, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        code_hash,
        grant.client_id,
        grant.redirect_uri,
        grant.code_challenge,
        grant.nonce,
        grant.subject,
        grant.scope,
        grant.claims,
        grant.expires_at,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Takes a code out of the table: a code is good for one exchange only.
pub async fn take_code(db: impl PgExecutor<'_>, code_hash: &str) -> sqlx::Result<Option<Grant>> {
    sqlx::query_as!(
        Grant,
        "delete from oidc_authorization_code where code_hash = $1
         returning client_id, redirect_uri, code_challenge, nonce, subject, scope, claims, expires_at",
        code_hash
    )
    .fetch_optional(db)
    .await
}

pub struct RefreshGrant {
    pub client_id: String,
    pub subject: String,
    pub scope: String,
    pub claims: serde_json::Value,
    pub expires_at: DateTime<Utc>,
}

pub async fn insert_refresh_token(db: impl PgExecutor<'_>, token_hash: &str, grant: &RefreshGrant) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into oidc_refresh_token (token_hash, client_id, subject, scope, claims, expires_at)
         values ($1, $2, $3, $4, $5, $6)",
        token_hash,
        grant.client_id,
        grant.subject,
        grant.scope,
        grant.claims,
        grant.expires_at,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Takes a refresh token out of the table: each use rotates it.
pub async fn take_refresh_token(db: impl PgExecutor<'_>, token_hash: &str) -> sqlx::Result<Option<RefreshGrant>> {
    sqlx::query_as!(
        RefreshGrant,
        "delete from oidc_refresh_token where token_hash = $1
         returning client_id, subject, scope, claims, expires_at",
        token_hash
    )
    .fetch_optional(db)
    .await
}

/// Deletes one refresh token of `client_id`, by its hash.
pub async fn revoke_refresh_token(db: impl PgExecutor<'_>, token_hash: &str, client_id: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from oidc_refresh_token where token_hash = $1 and client_id = $2", token_hash, client_id).execute(db).await?;
    Ok(())
}

pub async fn revoke_refresh_tokens(db: impl PgExecutor<'_>, subject: &str) -> sqlx::Result<u64> {
    Ok(sqlx::query!("delete from oidc_refresh_token where subject = $1", subject)
        .execute(db)
        .await?
        .rows_affected())
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Purged {
    pub codes: u64,
    pub refresh_tokens: u64,
    pub clients: u64,
}

/// Deletes expired codes and refresh tokens, then the registered clients (MCP clients, which register
/// themselves) holding neither after their first day: a client in use always holds a refresh token,
/// as each use rotates it, so this keeps anonymous registrations from piling up.
pub async fn purge_expired(db: &sqlx::PgPool, now: DateTime<Utc>) -> sqlx::Result<Purged> {
    let codes = sqlx::query!("delete from oidc_authorization_code where expires_at <= $1", now)
        .execute(db)
        .await?
        .rows_affected();
    let refresh_tokens = sqlx::query!("delete from oidc_refresh_token where expires_at <= $1", now)
        .execute(db)
        .await?
        .rows_affected();
    let clients = sqlx::query!(
        "delete from oidc_client c
         where c.created_at <= $1::timestamptz - interval '1 day'
           and not exists (select 1 from oidc_refresh_token r where r.client_id = c.client_id)
           and not exists (select 1 from oidc_authorization_code a where a.client_id = c.client_id)",
        now
    )
    .execute(db)
    .await?
    .rows_affected();
    Ok(Purged { codes, refresh_tokens, clients })
}

/// A signing key of the provider: its id and its private key (PKCS#8 PEM).
#[derive(Debug, Clone)]
pub struct StoredSigningKey {
    pub kid: String,
    pub private_key_pem: String,
}

/// The newest signing key (the one that signs), if any.
pub async fn newest_signing_key(db: impl PgExecutor<'_>) -> sqlx::Result<Option<StoredSigningKey>> {
    sqlx::query_as!(StoredSigningKey, "select kid, private_key_pem from oidc_signing_key order by created_at desc, kid desc limit 1")
        .fetch_optional(db)
        .await
}

/// Every signing key, oldest first (the JWKS publishes them all for validation).
pub async fn signing_keys(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<StoredSigningKey>> {
    sqlx::query_as!(StoredSigningKey, "select kid, private_key_pem from oidc_signing_key order by created_at").fetch_all(db).await
}

/// Stores a new ES256 signing key.
/// Stores `kid` as the first signing key, unless one is there: concurrent first sign-ins (a fresh
/// database) take turns on the table's lock, so one key is made, not one each, which would leave
/// tokens signed with a key the validator had not read yet.
pub async fn insert_first_signing_key(pool: &PgPool, kid: &str, private_key_pem: &str) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    sqlx::query!("lock table oidc_signing_key in share row exclusive mode").execute(&mut *tx).await?;
    sqlx::query!(
        "insert into oidc_signing_key (kid, algorithm, private_key_pem)
         select $1, 'ES256', $2 where not exists (select 1 from oidc_signing_key)",
        kid,
        private_key_pem
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

pub async fn insert_signing_key(db: impl PgExecutor<'_>, kid: &str, private_key_pem: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into oidc_signing_key (kid, algorithm, private_key_pem) values ($1, 'ES256', $2)",
        kid,
        private_key_pem
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A client that registered itself (RFC 7591).
#[derive(Debug, Clone)]
pub struct ClientRow {
    pub client_id: String,
    pub client_name: Option<String>,
    pub redirect_uris: Vec<String>,
    pub created_at: DateTime<Utc>,
}

pub async fn insert_client(db: impl PgExecutor<'_>, client_id: &str, client_name: Option<&str>, redirect_uris: &[String]) -> sqlx::Result<ClientRow> {
    sqlx::query_as!(
        ClientRow,
        "insert into oidc_client (client_id, client_name, redirect_uris) values ($1, $2, $3)
         returning client_id, client_name, redirect_uris, created_at",
        client_id,
        client_name,
        redirect_uris
    )
    .fetch_one(db)
    .await
}

pub async fn client(db: impl PgExecutor<'_>, client_id: &str) -> sqlx::Result<Option<ClientRow>> {
    sqlx::query_as!(ClientRow, "select client_id, client_name, redirect_uris, created_at from oidc_client where client_id = $1", client_id)
        .fetch_optional(db)
        .await
}
