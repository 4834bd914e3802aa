//! The only code that reads revision tables (`map` says which columns move each). A request reads
//! them together in one statement (`RequestScope::revisions`); the topic counts' revision and the
//! topics' alone are read where a value kept under them is asked for outside a request's fields.

use sqlx::PgExecutor;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revisions {
    /// Topics and promotional content (`taxonomy_revision`).
    pub topics: i64,
    /// Published articles and everything reader lists select and order them by.
    pub content: i64,
    /// The caller's channel subscriptions (0 for a caller who never had one).
    pub subscriptions: i64,
    /// Every channel with its admins, owner's and creator's names.
    pub channels: i64,
    /// The caller's followed topics and the articles they have read twice (0 for a caller with none).
    pub reading: i64,
}

/// The revisions as of now, for `user_id` (the per-reader ones are 0 without a caller).
pub async fn read(db: impl PgExecutor<'_>, user_id: Option<&str>) -> sqlx::Result<Revisions> {
    sqlx::query_as!(
        Revisions,
        r#"select (select revision from taxonomy_revision) as "topics!",
                  (select revision from content_revision) as "content!",
                  coalesce((select revision from user_subscriptions_revision where user_id = $1), 0) as "subscriptions!",
                  (select revision from channels_revision) as "channels!",
                  coalesce((select revision from user_reading_revision where user_id = $1), 0) as "reading!""#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// The topics' revision alone (migration 0003), for the shared topic reads, answered before a
/// request's fields run.
pub async fn of_topics(db: impl PgExecutor<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!("select revision from taxonomy_revision").fetch_one(db).await
}

/// The revision of what topic counts are computed from (migration 0017).
pub async fn of_topic_counts(db: impl PgExecutor<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar("select revision from topic_counts_revision").fetch_one(db).await
}
