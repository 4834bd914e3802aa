//! SQL of the desks area.

use sqlx::{PgConnection, PgExecutor};

use crate::users::UserSummary;

/// A desk with its counts: the articles it published and their views.
pub struct DeskRow {
    pub desk_id: String,
    pub name: String,
    pub description: Option<String>,
    pub email: Option<String>,
    pub version: i32,
    pub article_count: i64,
    pub views: i64,
}

/// Desks by name; with `member`, only the desks that user belongs to; with `id`, that desk.
pub async fn list_desks(db: impl PgExecutor<'_>, id: Option<&str>, member: Option<&str>) -> sqlx::Result<Vec<DeskRow>> {
    sqlx::query_as!(
        DeskRow,
        r#"select d.desk_id, d.name as "name: String", d.description, d.email, d.version,
                  (select count(*) from article a where a.published_by_desk_id = d.desk_id) as "article_count!",
                  (select coalesce(sum(v.views), 0) from article a join article_view v using (article_id)
                     where a.published_by_desk_id = d.desk_id)::bigint as "views!"
           from desk d
           where ($1::text is null or d.desk_id = $1)
             and ($2::text is null or exists(select 1 from desk_contributor dc where dc.desk_id = d.desk_id and dc.user_id = $2))
           order by lower(d.name collate "default"), d.desk_id"#,
        id,
        member,
    )
    .fetch_all(db)
    .await
}

/// The contributors of each of `desk_ids`, by name (one statement for a whole list).
pub async fn contributors_of(db: impl PgExecutor<'_>, desk_ids: &[String]) -> sqlx::Result<Vec<(String, UserSummary)>> {
    let rows = sqlx::query!(
        r#"select dc.desk_id, u.user_id, u.name, u.email as "email: String"
           from desk_contributor dc join users u using (user_id)
           where dc.desk_id = any($1) order by lower(u.name), u.user_id"#,
        desk_ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.desk_id, UserSummary { user_id: r.user_id, name: r.name, email: r.email })).collect())
}

pub struct OwnedChannel {
    pub desk_id: String,
    pub channel_id: String,
    pub name: String,
}

/// The channels each of `desk_ids` owns, by name.
pub async fn channels_of(db: impl PgExecutor<'_>, desk_ids: &[String]) -> sqlx::Result<Vec<OwnedChannel>> {
    sqlx::query_as!(
        OwnedChannel,
        r#"select c.owner_desk_id as "desk_id!", c.channel_id, c.name as "name: String"
           from channel c where c.owner_desk_id = any($1) order by lower(c.name collate "default")"#,
        desk_ids
    )
    .fetch_all(db)
    .await
}

pub async fn exists(db: impl PgExecutor<'_>, desk_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select exists(select 1 from desk where desk_id = $1) as "exists!""#, desk_id).fetch_one(db).await
}

pub async fn is_member(db: impl PgExecutor<'_>, desk_id: &str, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select 1 from desk_contributor where desk_id = $1 and user_id = $2) as "member!""#,
        desk_id,
        user_id
    )
    .fetch_one(db)
    .await
}

pub async fn insert_desk(conn: &mut PgConnection, id: &str, name: &str, description: Option<&str>, email: Option<&str>) -> sqlx::Result<()> {
    sqlx::query!("insert into desk (desk_id, name, description, email) values ($1, $2, $3, $4)", id, name, description, email)
        .execute(conn)
        .await?;
    Ok(())
}

/// The desk's version, locking the row for an edit; none when it does not exist.
pub async fn lock_desk_version(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from desk where desk_id = $1 for update", id).fetch_optional(conn).await
}

pub async fn update_desk(conn: &mut PgConnection, id: &str, name: &str, description: Option<&str>, email: Option<&str>) -> sqlx::Result<()> {
    sqlx::query!(
        "update desk set name = $2, description = $3, email = $4, version = version + 1 where desk_id = $1",
        id,
        name,
        description,
        email
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Makes `user_ids` the desk's contributors.
pub async fn set_contributors(conn: &mut PgConnection, desk_id: &str, user_ids: &[String]) -> sqlx::Result<()> {
    sqlx::query!("delete from desk_contributor where desk_id = $1 and not (user_id = any($2))", desk_id, user_ids)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "insert into desk_contributor (desk_id, user_id) select $1, unnest($2::text[]) on conflict do nothing",
        desk_id,
        user_ids
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The desk's name and the number of channels it owns, locking the desk; none when missing.
pub async fn lock_for_delete(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<(String, i64)>> {
    let row = sqlx::query!(
        r#"select d.name as "name: String", (select count(*) from channel c where c.owner_desk_id = d.desk_id) as "channels!"
           from desk d where d.desk_id = $1 for update"#,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| (r.name, r.channels)))
}

pub async fn delete_desk(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from desk where desk_id = $1", id).execute(conn).await?;
    Ok(())
}

/// Desks whose name matches, by name (the channel owner picker).
pub async fn search_desks(db: impl PgExecutor<'_>, pattern: Option<&str>, limit: i64) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        r#"select desk_id, name as "name: String" from desk
           where $1::text is null or lower(name collate "default") like $1
           order by lower(name collate "default"), desk_id limit $2"#,
        pattern,
        limit
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.desk_id, r.name)).collect())
}
