//! SQL of the promotions area: promotional content with its counts, promotion pages, the content
//! that points to a page, reader cards and the per-day impression and click counters.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

/// A promotional content with what the admin list shows of it, and the size of the whole
/// (filtered) list.
#[derive(Debug, Clone)]
pub struct ContentRow {
    pub promotional_content_id: String,
    pub name: String,
    pub description: String,
    pub link: Option<String>,
    pub article_image: Option<String>,
    pub sidebar_image: Option<String>,
    pub promotion_page_id: Option<String>,
    pub expiry_date: Option<DateTime<Utc>>,
    pub expired: bool,
    pub version: i32,
    /// Topics that link to it.
    pub categories_count: i64,
    /// Articles that carry it.
    pub articles_count: i64,
    pub impressions: i64,
    pub clicks: i64,
    pub total: i64,
}

/// Which promotional content to read: one (`id`), or a page of those matching `pattern`.
pub struct ContentQuery<'a> {
    pub id: Option<&'a str>,
    /// A LIKE pattern (`graphql::contains_pattern`) matched in the name or the description.
    pub pattern: Option<&'a str>,
    /// 'name', 'expiry', 'categories', 'articles', 'impressions' or 'clicks'.
    pub sort: &'a str,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

/// A page of promotional content with its counts, searched and sorted here: one statement for the
/// whole page (the counts are a few index lookups per content; the table is small, so sorting by a
/// count may count every matching row).
pub async fn list_content(db: impl PgExecutor<'_>, q: &ContentQuery<'_>) -> sqlx::Result<Vec<ContentRow>> {
    sqlx::query_as!(
        ContentRow,
        r#"select p.promotional_content_id, p.name, p.description, p.link, p.article_image, p.sidebar_image,
                  p.promotion_page_id, p.expiry_date, coalesce(p.expiry_date <= now(), false) as "expired!", p.version,
                  c.n as "categories_count!", a.n as "articles_count!", d.impressions as "impressions!", d.clicks as "clicks!",
                  count(*) over () as "total!"
           from promotional_content p
           cross join lateral (select count(*) as n from category c where c.promotional_content_id = p.promotional_content_id) c
           cross join lateral (select count(*) as n from article_promotional_content x
                               where x.promotional_content_id = p.promotional_content_id) a
           cross join lateral (select coalesce(sum(d.impressions), 0)::bigint as impressions, coalesce(sum(d.clicks), 0)::bigint as clicks
                               from promotional_content_day d where d.promotional_content_id = p.promotional_content_id) d
           where ($1::text is null or p.promotional_content_id = $1)
             and ($2::text is null or p.name ilike $2 or p.description ilike $2)
           order by
             case when $3 = 'expiry' and not $4 then p.expiry_date end asc,
             case when $3 = 'expiry' and $4 then p.expiry_date end desc,
             case when $3 = 'categories' and not $4 then c.n end asc,
             case when $3 = 'categories' and $4 then c.n end desc,
             case when $3 = 'articles' and not $4 then a.n end asc,
             case when $3 = 'articles' and $4 then a.n end desc,
             case when $3 = 'impressions' and not $4 then d.impressions end asc,
             case when $3 = 'impressions' and $4 then d.impressions end desc,
             case when $3 = 'clicks' and not $4 then d.clicks end asc,
             case when $3 = 'clicks' and $4 then d.clicks end desc,
             case when $3 = 'name' and $4 then lower(p.name) end desc,
             lower(p.name), p.promotional_content_id
           limit $5 offset $6"#,
        q.id,
        q.pattern,
        q.sort,
        q.descending,
        q.limit,
        q.offset,
    )
    .fetch_all(db)
    .await
}

/// One promotional content with its counts.
pub async fn find_content(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<ContentRow>> {
    let query = ContentQuery { id: Some(id), pattern: None, sort: "name", descending: false, limit: 1, offset: 0 };
    Ok(list_content(db, &query).await?.pop())
}

/// How many promotional content match `pattern` (for a page past the end of the list).
pub async fn count_content(db: impl PgExecutor<'_>, pattern: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from promotional_content p where $1::text is null or p.name ilike $1 or p.description ilike $1"#,
        pattern
    )
    .fetch_one(db)
    .await
}

/// A promotional content as a short reference: the staff pickers, and the content using a page.
pub struct SummaryRow {
    pub promotional_content_id: String,
    pub name: String,
    pub link: Option<String>,
    pub article_image: Option<String>,
    /// The page it opens (the key when read per page).
    pub promotion_page_id: Option<String>,
}

/// The promotional content that has not expired, by name (what staff may link to).
pub async fn options(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<SummaryRow>> {
    sqlx::query_as!(
        SummaryRow,
        r#"select promotional_content_id, name, link, article_image, promotion_page_id from promotional_content
           where expiry_date is null or expiry_date > now()
           order by lower(name), promotional_content_id"#
    )
    .fetch_all(db)
    .await
}

/// The promotional content pointing to each of `page_ids`, by name (one statement for a list).
pub async fn content_of_pages(db: impl PgExecutor<'_>, page_ids: &[String]) -> sqlx::Result<Vec<SummaryRow>> {
    sqlx::query_as!(
        SummaryRow,
        r#"select promotional_content_id, name, link, article_image, promotion_page_id from promotional_content
           where promotion_page_id = any($1)
           order by lower(name), promotional_content_id"#,
        page_ids
    )
    .fetch_all(db)
    .await
}

/// What a reader sees of a promotional content.
pub struct CardRow {
    pub promotional_content_id: String,
    pub name: String,
    pub description: String,
    pub article_image: Option<String>,
    pub sidebar_image: Option<String>,
    pub link: Option<String>,
    pub promotion_page_id: Option<String>,
}

/// The content among `ids` that has not expired (in no particular order).
pub async fn live_cards(db: impl PgExecutor<'_>, ids: &[String]) -> sqlx::Result<Vec<CardRow>> {
    sqlx::query_as!(
        CardRow,
        r#"select promotional_content_id, name, description, article_image, sidebar_image, link, promotion_page_id
           from promotional_content
           where promotional_content_id = any($1) and (expiry_date is null or expiry_date > now())"#,
        ids
    )
    .fetch_all(db)
    .await
}

/// A promotional content's stored fields, as the rules made them.
pub struct ContentValues<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub article_image: Option<&'a str>,
    pub sidebar_image: Option<&'a str>,
    pub link: Option<&'a str>,
    pub promotion_page_id: Option<&'a str>,
    pub expiry_date: Option<DateTime<Utc>>,
}

pub async fn insert_content(conn: &mut PgConnection, id: &str, v: &ContentValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into promotional_content (promotional_content_id, name, description, article_image, sidebar_image, link,
                                          promotion_page_id, expiry_date)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
        id,
        v.name,
        v.description,
        v.article_image,
        v.sidebar_image,
        v.link,
        v.promotion_page_id,
        v.expiry_date,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The content's version, locking the row for an edit; none when it does not exist.
pub async fn lock_content_version(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from promotional_content where promotional_content_id = $1 for update", id)
        .fetch_optional(conn)
        .await
}

pub async fn update_content(conn: &mut PgConnection, id: &str, v: &ContentValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "update promotional_content
         set name = $2, description = $3, article_image = $4, sidebar_image = $5, link = $6, promotion_page_id = $7,
             expiry_date = $8, version = version + 1
         where promotional_content_id = $1",
        id,
        v.name,
        v.description,
        v.article_image,
        v.sidebar_image,
        v.link,
        v.promotion_page_id,
        v.expiry_date,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Deletes a promotional content (topics lose it, articles drop it, its counters go); false when
/// there was none.
pub async fn delete_content(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<bool> {
    let done = sqlx::query!("delete from promotional_content where promotional_content_id = $1", id).execute(db).await?;
    Ok(done.rows_affected() > 0)
}

/// Adds `impressions` and `clicks` to today's (UTC) counters of a content that exists and has not
/// expired; false otherwise.
pub async fn count_day(db: impl PgExecutor<'_>, id: &str, impressions: i64, clicks: i64) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "insert into promotional_content_day (promotional_content_id, day, impressions, clicks)
         select promotional_content_id, (now() at time zone 'utc')::date, $2, $3 from promotional_content
         where promotional_content_id = $1 and (expiry_date is null or expiry_date > now())
         on conflict (promotional_content_id, day) do update
         set impressions = promotional_content_day.impressions + excluded.impressions,
             clicks = promotional_content_day.clicks + excluded.clicks",
        id,
        impressions,
        clicks,
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A promotion page, whether content points to it, and the size of the whole (filtered) list.
#[derive(Debug, Clone)]
pub struct PageRow {
    pub promotion_page_id: String,
    pub name: String,
    pub html: String,
    pub teams_channel: String,
    pub page_summary: String,
    pub social_sharing_image_url: String,
    pub success_title: String,
    pub success_message: String,
    pub version: i32,
    pub in_use: bool,
    pub total: i64,
}

/// Promotion pages by name: those among `ids` when given, matching `pattern` (name or summary).
pub async fn list_pages(
    db: impl PgExecutor<'_>,
    ids: Option<&[String]>,
    pattern: Option<&str>,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<PageRow>> {
    sqlx::query_as!(
        PageRow,
        r#"select g.promotion_page_id, g.name, g.html, g.teams_channel, g.page_summary, g.social_sharing_image_url,
                  g.success_title, g.success_message, g.version,
                  exists(select 1 from promotional_content p where p.promotion_page_id = g.promotion_page_id) as "in_use!",
                  count(*) over () as "total!"
           from promotion_page g
           where ($1::text[] is null or g.promotion_page_id = any($1))
             and ($2::text is null or g.name ilike $2 or g.page_summary ilike $2)
           order by lower(g.name), g.promotion_page_id
           limit $3 offset $4"#,
        ids,
        pattern,
        limit,
        offset,
    )
    .fetch_all(db)
    .await
}

pub async fn count_pages(db: impl PgExecutor<'_>, pattern: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from promotion_page g where $1::text is null or g.name ilike $1 or g.page_summary ilike $1"#,
        pattern
    )
    .fetch_one(db)
    .await
}

/// A promotion page's stored fields, as the rules made them.
pub struct PageValues<'a> {
    pub name: &'a str,
    pub html: &'a str,
    pub teams_channel: &'a str,
    pub page_summary: &'a str,
    pub social_sharing_image_url: &'a str,
    pub success_title: &'a str,
    pub success_message: &'a str,
}

pub async fn insert_page(conn: &mut PgConnection, id: &str, v: &PageValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into promotion_page (promotion_page_id, name, html, teams_channel, page_summary, social_sharing_image_url,
                                     success_title, success_message)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
        id,
        v.name,
        v.html,
        v.teams_channel,
        v.page_summary,
        v.social_sharing_image_url,
        v.success_title,
        v.success_message,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The page's version, locking the row (an edit, or a delete that must not race content pointing
/// to it); none when it does not exist.
pub async fn lock_page_version(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from promotion_page where promotion_page_id = $1 for update", id).fetch_optional(conn).await
}

pub async fn update_page(conn: &mut PgConnection, id: &str, v: &PageValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "update promotion_page
         set name = $2, html = $3, teams_channel = $4, page_summary = $5, social_sharing_image_url = $6, success_title = $7,
             success_message = $8, version = version + 1
         where promotion_page_id = $1",
        id,
        v.name,
        v.html,
        v.teams_channel,
        v.page_summary,
        v.social_sharing_image_url,
        v.success_title,
        v.success_message,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// How many promotional content other than `except` point to the page.
pub async fn other_users_of_page(conn: &mut PgConnection, page_id: &str, except: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from promotional_content
           where promotion_page_id = $1 and ($2::text is null or promotional_content_id <> $2)"#,
        page_id,
        except
    )
    .fetch_one(conn)
    .await
}

/// Clears the page pointer of the content being edited when its page is deleted.
pub async fn detach_page(conn: &mut PgConnection, content_id: &str, page_id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "update promotional_content set promotion_page_id = null where promotional_content_id = $1 and promotion_page_id = $2",
        content_id,
        page_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn delete_page(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from promotion_page where promotion_page_id = $1", id).execute(conn).await?;
    Ok(())
}
