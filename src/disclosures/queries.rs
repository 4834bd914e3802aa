//! Disclosures' SQL: the current version per channel and desk, new versions, and the versions an
//! article's revision was saved under.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Debug, Clone)]
pub struct DisclosureRow {
    pub scope_type: String,
    pub scope_id: String,
    /// The channel's or desk's name now.
    pub scope_name: Option<String>,
    pub version: i32,
    pub html: String,
    pub created_at: DateTime<Utc>,
    pub created_by_name: Option<String>,
}

/// Every channel's and desk's current disclosure (the latest version, empty ones included: a
/// withdrawn disclosure), by kind and name.
pub async fn current(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"select d.scope_type as "scope_type!", d.scope_id as "scope_id!", coalesce(c.name::text, k.name::text) as scope_name,
                  d.version as "version!", d.html as "html!", d.created_at as "created_at!", u.name as "created_by_name?"
           from (select distinct on (scope_type, scope_id) * from disclosure order by scope_type, scope_id, version desc) d
           left join channel c on d.scope_type = 'channel' and c.channel_id = d.scope_id
           left join desk k on d.scope_type = 'desk' and k.desk_id = d.scope_id
           left join users u on u.user_id = d.created_by
           order by d.scope_type, lower(coalesce(c.name::text, k.name::text))"#
    )
    .fetch_all(db)
    .await
}

/// The current version of one channel's or desk's disclosure (0: none yet).
pub async fn current_version(db: impl PgExecutor<'_>, scope_type: &str, scope_id: &str) -> sqlx::Result<i32> {
    let version = sqlx::query_scalar!("select max(version) from disclosure where scope_type = $1 and scope_id = $2", scope_type, scope_id)
        .fetch_one(db)
        .await?;
    Ok(version.unwrap_or(0))
}

/// Adds the next version when the current one is `version` (0: none yet); false when it is not.
pub async fn add(db: impl PgExecutor<'_>, scope_type: &str, scope_id: &str, html: &str, version: i32, by: &str) -> sqlx::Result<bool> {
    let added = sqlx::query!(
        "insert into disclosure (scope_type, scope_id, version, html, created_by)
         select $1, $2, $4 + 1, $3, $5
         where coalesce((select max(version) from disclosure where scope_type = $1 and scope_id = $2), 0) = $4
         on conflict do nothing",
        scope_type,
        scope_id,
        html,
        version,
        by
    )
    .execute(db)
    .await?;
    Ok(added.rows_affected() == 1)
}

/// Whether the channel or desk exists.
pub async fn scope_exists(db: impl PgExecutor<'_>, scope_type: &str, scope_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select case $1 when 'channel' then exists(select 1 from channel where channel_id = $2)
                          else exists(select 1 from desk where desk_id = $2) end as "exists!""#,
        scope_type,
        scope_id
    )
    .fetch_one(db)
    .await
}

/// The disclosures a revision was saved under (its pinned versions), with their texts.
pub async fn of_revision(db: impl PgExecutor<'_>, revision_id: &str) -> sqlx::Result<Vec<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"select d.scope_type, d.scope_id, coalesce(c.name::text, k.name::text) as scope_name, d.version, d.html, d.created_at,
                  u.name as "created_by_name?"
           from article_revision r
           cross join lateral jsonb_to_recordset(r.disclosures) as x("scopeType" text, "scopeId" text, version int)
           join disclosure d on d.scope_type = x."scopeType" and d.scope_id = x."scopeId" and d.version = x.version
           left join channel c on d.scope_type = 'channel' and c.channel_id = d.scope_id
           left join desk k on d.scope_type = 'desk' and k.desk_id = d.scope_id
           left join users u on u.user_id = d.created_by
           where r.revision_id = $1
           order by d.scope_type"#,
        revision_id
    )
    .fetch_all(db)
    .await
}

/// The disclosures a published article shows: those its latest published revision was saved under.
pub async fn of_published_article(db: impl PgExecutor<'_>, article_id: &str) -> sqlx::Result<Vec<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"select d.scope_type, d.scope_id, coalesce(c.name::text, k.name::text) as scope_name, d.version, d.html, d.created_at,
                  u.name as "created_by_name?"
           from (select r.disclosures from article_revision r where r.article_id = $1 and r.state = 'Published'
                 order by r.number desc limit 1) r
           cross join lateral jsonb_to_recordset(r.disclosures) as x("scopeType" text, "scopeId" text, version int)
           join disclosure d on d.scope_type = x."scopeType" and d.scope_id = x."scopeId" and d.version = x.version
           left join channel c on d.scope_type = 'channel' and c.channel_id = d.scope_id
           left join desk k on d.scope_type = 'desk' and k.desk_id = d.scope_id
           left join users u on u.user_id = d.created_by
           order by d.scope_type"#,
        article_id
    )
    .fetch_all(db)
    .await
}
