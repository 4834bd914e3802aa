//! Feed links' SQL: the links, their scopes' names, and what a fetch reads and records.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

/// A feed link, with its scope's name now (none for `all`, or a scope deleted since).
#[derive(Debug, Clone)]
pub struct FeedLinkRow {
    pub feed_link_id: String,
    pub user_id: String,
    pub scope_kind: String,
    pub scope_id: Option<String>,
    pub scope_name: Option<String>,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// Whether the scope a link would follow exists: a channel, topic or desk, or a staff member.
pub async fn scope_exists(db: impl PgExecutor<'_>, kind: &str, id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select case $1
                  when 'channel' then exists(select 1 from channel where channel_id = $2)
                  when 'topic' then exists(select 1 from category where category_id = $2)
                  when 'desk' then exists(select 1 from desk where desk_id = $2)
                  when 'contributor' then exists(select 1 from users where user_id = $2
                                                   and scopes && array['insights:admin', 'insights:content-edit', 'insights:content-contribute'])
                  else false end as "exists!""#,
        kind,
        id
    )
    .fetch_one(db)
    .await
}

/// Locks the reader's active links (so that two requests count them one after the other) and
/// counts them.
pub async fn lock_active_links(conn: &mut PgConnection, user_id: &str) -> sqlx::Result<i64> {
    // The user's row is the lock: a reader with no link yet has no link row to lock.
    sqlx::query!("select user_id from users where user_id = $1 for update", user_id).fetch_optional(&mut *conn).await?;
    sqlx::query_scalar!(r#"select count(*) as "n!" from feed_link where user_id = $1 and revoked_at is null"#, user_id)
        .fetch_one(conn)
        .await
}

pub async fn insert_link(db: impl PgExecutor<'_>, id: &str, user_id: &str, kind: &str, scope_id: Option<&str>, hash: &[u8]) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into feed_link (feed_link_id, user_id, scope_kind, scope_id, secret_hash) values ($1, $2, $3, $4, $5)",
        id,
        user_id,
        kind,
        scope_id,
        hash
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn link(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<FeedLinkRow>> {
    sqlx::query_as!(
        FeedLinkRow,
        r#"select feed_link_id as "feed_link_id!", user_id as "user_id!", scope_kind as "scope_kind!", scope_id, scope_name,
                  created_at as "created_at!", last_used_at
           from feed_link_named l
           where l.feed_link_id = $1"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// A reader's active links, newest first.
pub async fn links_of(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<FeedLinkRow>> {
    sqlx::query_as!(
        FeedLinkRow,
        r#"select feed_link_id as "feed_link_id!", user_id as "user_id!", scope_kind as "scope_kind!", scope_id, scope_name,
                  created_at as "created_at!", last_used_at
           from feed_link_named l
           where l.user_id = $1 and l.revoked_at is null
           order by l.created_at desc, l.feed_link_id desc"#,
        user_id
    )
    .fetch_all(db)
    .await
}

/// Revokes an active link (of `user_id` when given); false when there is none.
pub async fn revoke_link(db: impl PgExecutor<'_>, id: &str, user_id: Option<&str>) -> sqlx::Result<bool> {
    let revoked = sqlx::query!(
        "update feed_link set revoked_at = now() where feed_link_id = $1 and revoked_at is null and ($2::text is null or user_id = $2)",
        id,
        user_id
    )
    .execute(db)
    .await?;
    Ok(revoked.rows_affected() == 1)
}

/// The active link a secret's hash names.
pub async fn active_link_by_hash(db: impl PgExecutor<'_>, hash: &[u8]) -> sqlx::Result<Option<FeedLinkRow>> {
    sqlx::query_as!(
        FeedLinkRow,
        r#"select feed_link_id as "feed_link_id!", user_id as "user_id!", scope_kind as "scope_kind!", scope_id, scope_name,
                  created_at as "created_at!", last_used_at
           from feed_link_named l
           where l.secret_hash = $1 and l.revoked_at is null"#,
        hash
    )
    .fetch_optional(db)
    .await
}

/// Stamps the link's last use, at most once a minute (a feed reader polls; each poll need not write).
pub async fn touch_link(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "update feed_link set last_used_at = now()
         where feed_link_id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')",
        id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// What an entry needs beyond its card: the body and the credited contributors.
#[derive(Debug, Clone)]
pub struct EntryRow {
    pub article_id: String,
    pub html: String,
    pub authors: Vec<String>,
}

pub async fn entries(db: impl PgExecutor<'_>, ids: &[String]) -> sqlx::Result<Vec<EntryRow>> {
    sqlx::query_as!(
        EntryRow,
        r#"select a.article_id, a.html,
                  array(select u.name::text from article_contributor x join users u on u.user_id = x.user_id
                        where x.article_id = a.article_id order by u.name, u.user_id) as "authors!"
           from article a where a.article_id = any($1) and a.state = 'Published'"#,
        ids
    )
    .fetch_all(db)
    .await
}
