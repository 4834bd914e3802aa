//! SQL of the templates area.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, types::Json};

use crate::{articles::queries::Named, users::UserSummary};

pub struct TemplateRow {
    pub template_id: String,
    pub title: String,
    pub html: String,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub channel_type: Option<String>,
    pub channel_state: Option<String>,
    pub publisher_type: Option<String>,
    pub publisher_id: Option<String>,
    pub publisher_name: Option<String>,
    pub author_id: Option<String>,
    pub author_name: Option<String>,
    pub author_email: Option<String>,
    pub used_articles: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: i32,
    pub contributors: Json<Vec<UserSummary>>,
    pub categories: Json<Vec<Named>>,
    pub tags: Json<Vec<Named>>,
}

/// Templates (one by id, or all by title) with their channel, publisher, usage and links; the
/// table is small by nature (a desk keeps a handful), so the list is not paged.
pub async fn select_templates(db: impl PgExecutor<'_>, id: Option<&str>) -> sqlx::Result<Vec<TemplateRow>> {
    sqlx::query_as!(
        TemplateRow,
        r#"select t.template_id, t.title, t.html, t.premium_channel_id,
                  c.name::text as "channel_name?", c.type as "channel_type?", c.state as "channel_state?",
                  c.owner_type as "publisher_type?", coalesce(c.owner_desk_id, c.owner_user_id) as publisher_id,
                  coalesce(d.name::text, ou.name) as publisher_name,
                  t.author_id, au.name as "author_name?", au.email::text as "author_email?",
                  (select count(*) from article a where a.template_id = t.template_id) as "used_articles!",
                  t.created_at, t.updated_at, t.version,
                  coalesce((select jsonb_agg(jsonb_build_object('_id', u.user_id, 'name', u.name, 'email', u.email) order by lower(u.name))
                            from template_contributor x join users u on u.user_id = x.user_id where x.template_id = t.template_id), '[]')
                    as "contributors!: Json<Vec<UserSummary>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', g.category_id, 'name', g.name) order by lower(g.name))
                            from template_category x join category g on g.category_id = x.category_id where x.template_id = t.template_id), '[]')
                    as "categories!: Json<Vec<Named>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', g.tag_id, 'name', g.name) order by lower(g.name))
                            from template_tag x join tag g on g.tag_id = x.tag_id where x.template_id = t.template_id), '[]')
                    as "tags!: Json<Vec<Named>>"
           from template t
           left join channel c on c.channel_id = t.premium_channel_id
           left join desk d on d.desk_id = c.owner_desk_id
           left join users ou on ou.user_id = c.owner_user_id
           left join users au on au.user_id = t.author_id
           where ($1::text is null or t.template_id = $1)
           order by lower(t.title), t.template_id"#,
        id
    )
    .fetch_all(db)
    .await
}

pub async fn lock_template_version(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from template where template_id = $1 for update", id).fetch_optional(conn).await
}

pub async fn insert_template(conn: &mut PgConnection, id: &str, author_id: &str, title: &str, html: &str, channel_id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into template (template_id, author_id, title, html, premium_channel_id) values ($1, $2, $3, $4, $5)",
        id,
        author_id,
        title,
        html,
        channel_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn update_template(conn: &mut PgConnection, id: &str, title: &str, html: &str, channel_id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "update template set title = $2, html = $3, premium_channel_id = $4, version = version + 1 where template_id = $1",
        id,
        title,
        html,
        channel_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces the template's contributors, topics and tags.
pub async fn set_links(conn: &mut PgConnection, id: &str, contributors: &[String], categories: &[String], tags: &[String]) -> sqlx::Result<()> {
    sqlx::query!(
        "with gone_contributors as (delete from template_contributor where template_id = $1 and user_id <> all($2)),
              gone_categories as (delete from template_category where template_id = $1 and category_id <> all($3)),
              gone_tags as (delete from template_tag where template_id = $1 and tag_id <> all($4))
         select 1 as done",
        id,
        contributors,
        categories,
        tags
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "insert into template_contributor (template_id, user_id) select $1, unnest($2::text[]) on conflict do nothing",
        id,
        contributors
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "insert into template_category (template_id, category_id) select $1, unnest($2::text[]) on conflict do nothing",
        id,
        categories
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("insert into template_tag (template_id, tag_id) select $1, unnest($2::text[]) on conflict do nothing", id, tags)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Deletes a template; articles started from it keep their content (their link is cleared).
pub async fn delete_template(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("delete from template where template_id = $1 returning title", id).fetch_optional(conn).await
}

/// Unlinks the templates of a channel being archived; returns how many.
pub async fn unlink_channel(conn: &mut PgConnection, channel_id: &str) -> sqlx::Result<u64> {
    let done = sqlx::query!("update template set premium_channel_id = null, version = version + 1 where premium_channel_id = $1", channel_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected())
}
