//! SQL of the taxonomy area. Lists compute their counts in the same statement, so a page costs
//! one statement whatever its size.

use std::collections::HashMap;

use sqlx::{PgConnection, PgExecutor};

use super::model::{Category, Tag, TopicCounts};

/// The topics `user_id` follows.
pub async fn followed_categories(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!("select category_id from category_follow where user_id = $1", user_id).fetch_all(db).await
}

/// Every topic (level 0: the caller derives levels from the parent links), ordered by name. Sorting
/// uses the deterministic default collation: the case-insensitive ICU one costs ten times more per
/// comparison.
pub async fn list_categories(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<Category>> {
    sqlx::query_as(
        r#"select c.category_id, c.name, c.description, c.parent_id, c.is_featured, c.small_image, c.large_image,
                  c.promotional_content_id, p.name as promotional_content_name, p.link as promotional_content_link,
                  p.article_image as promotional_content_article_image, c.is_locked, c.is_premium, c.version, 0 as level
           from category c
           left join promotional_content p on p.promotional_content_id = c.promotional_content_id
           order by lower(c.name collate "default"), c.category_id"#,
    )
    .fetch_all(db)
    .await
}

/// The counts of every topic that has any, each aggregate in one pass over its table.
pub async fn list_topic_counts(db: impl PgExecutor<'_>) -> sqlx::Result<HashMap<String, TopicCounts>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        category_id: String,
        #[sqlx(flatten)]
        counts: TopicCounts,
    }
    let rows: Vec<Row> = sqlx::query_as(
        r#"with articles as (select category_id, count(*) as n from article_category group by category_id),
           views as (
               select ac.category_id, sum(v.views) as n
               from article_category ac join article_view v using (article_id) group by ac.category_id
           ),
           contributors as (
               select ac.category_id, count(distinct ctr.user_id) as n
               from article_category ac join article_contributor ctr using (article_id) group by ac.category_id
           ),
           followers as (select category_id, count(*) as n from category_follow group by category_id)
           select category_id, coalesce(articles.n, 0) as article_count, coalesce(followers.n, 0) as subscribers_count,
                  coalesce(contributors.n, 0) as contributors_count, coalesce(views.n, 0)::bigint as views
           from articles
           full join followers using (category_id)
           left join views using (category_id)
           left join contributors using (category_id)"#,
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|row| (row.category_id, row.counts)).collect())
}

/// One topic with its level, its counts and whether `viewer` follows it.
pub async fn find_category(db: impl PgExecutor<'_>, id: &str, viewer: &str) -> sqlx::Result<Option<(Category, TopicCounts, bool)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(flatten)]
        category: Category,
        #[sqlx(flatten)]
        counts: TopicCounts,
        is_following: bool,
    }
    let row: Option<Row> = sqlx::query_as(
        r#"with recursive ancestors as (
               select category_id, parent_id, 1 as depth from category where category_id = $1
               union all
               select c.category_id, c.parent_id, a.depth + 1 from category c join ancestors a on c.category_id = a.parent_id
           )
           select c.category_id, c.name, c.description, c.parent_id, c.is_featured, c.small_image, c.large_image,
                  c.promotional_content_id, p.name as promotional_content_name, p.link as promotional_content_link,
                  p.article_image as promotional_content_article_image, c.is_locked, c.is_premium, c.version,
                  (select max(depth) from ancestors) as level,
                  (select count(*) from article_category ac where ac.category_id = c.category_id) as article_count,
                  (select count(*) from category_follow f where f.category_id = c.category_id) as subscribers_count,
                  (select count(distinct ctr.user_id) from article_category ac
                     join article_contributor ctr using (article_id) where ac.category_id = c.category_id) as contributors_count,
                  (select coalesce(sum(v.views), 0) from article_category ac
                     join article_view v using (article_id) where ac.category_id = c.category_id)::bigint as views,
                  exists(select 1 from category_follow f where f.category_id = c.category_id and f.user_id = $2) as is_following
           from category c
           left join promotional_content p on p.promotional_content_id = c.promotional_content_id
           where c.category_id = $1"#,
    )
    .bind(id)
    .bind(viewer)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.category, r.counts, r.is_following)))
}

/// The stored fields an edit starts from, locked until the transaction ends.
pub struct CategoryForUpdate {
    pub name: String,
    pub parent_id: Option<String>,
    pub version: i32,
}

pub async fn lock_category(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<CategoryForUpdate>> {
    sqlx::query_as!(
        CategoryForUpdate,
        r#"select name as "name: String", parent_id, version from category where category_id = $1 for update"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Serialises changes to the tree's shape, so two concurrent moves cannot make a cycle.
pub async fn lock_tree(conn: &mut PgConnection) -> sqlx::Result<()> {
    sqlx::query!("select pg_advisory_xact_lock(hashtext('insights.category_tree'))").execute(conn).await?;
    Ok(())
}

/// The level of `id` (1 for a root), or none when it does not exist.
pub async fn level_of(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!(
        r#"with recursive ancestors as (
               select category_id, parent_id, 1 as depth from category where category_id = $1
               union all
               select c.category_id, c.parent_id, a.depth + 1 from category c join ancestors a on c.category_id = a.parent_id
           )
           select max(depth) from ancestors"#,
        id
    )
    .fetch_one(conn)
    .await
}

/// `id` and every topic below it, with their depth below `id` (0 for `id` itself).
pub async fn subtree(conn: &mut PgConnection, id: &str) -> sqlx::Result<Vec<(String, i32)>> {
    let rows = sqlx::query!(
        r#"with recursive below as (
               select category_id, 0 as depth from category where category_id = $1
               union all
               select c.category_id, b.depth + 1 from category c join below b on c.parent_id = b.category_id
           )
           select category_id as "category_id!", depth as "depth!" from below"#,
        id
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.category_id, r.depth)).collect())
}

pub struct CategoryValues<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub parent_id: Option<&'a str>,
    pub is_featured: bool,
    pub small_image: Option<&'a str>,
    pub large_image: Option<&'a str>,
    pub promotional_content_id: Option<&'a str>,
    pub is_locked: bool,
    pub is_premium: bool,
}

pub async fn insert_category(conn: &mut PgConnection, id: &str, v: &CategoryValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into category (category_id, name, description, parent_id, is_featured, small_image, large_image,
                               promotional_content_id, is_locked, is_premium)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        id,
        v.name,
        v.description,
        v.parent_id,
        v.is_featured,
        v.small_image,
        v.large_image,
        v.promotional_content_id,
        v.is_locked,
        v.is_premium,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes an edit if `version` is still current; returns whether it was.
pub async fn update_category(conn: &mut PgConnection, id: &str, version: i32, v: &CategoryValues<'_>) -> sqlx::Result<bool> {
    let result = sqlx::query!(
        "update category set name = $3, description = $4, parent_id = $5, is_featured = $6, small_image = $7,
                large_image = $8, promotional_content_id = $9, is_locked = $10, is_premium = $11, version = version + 1
         where category_id = $1 and version = $2",
        id,
        version,
        v.name,
        v.description,
        v.parent_id,
        v.is_featured,
        v.small_image,
        v.large_image,
        v.promotional_content_id,
        v.is_locked,
        v.is_premium,
    )
    .execute(conn)
    .await?;
    Ok(result.rows_affected() == 1)
}

pub async fn count_children(conn: &mut PgConnection, id: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"select count(*) as "n!" from category where parent_id = $1"#, id).fetch_one(conn).await
}

pub async fn delete_category(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from category where category_id = $1", id).execute(conn).await?;
    Ok(())
}

pub async fn promotional_content_exists(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select exists(select 1 from promotional_content where promotional_content_id = $1) as "e!""#, id)
        .fetch_one(conn)
        .await
}

pub struct Follower {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub followed_at: chrono::DateTime<chrono::Utc>,
    pub total: i64,
}

/// A page of a topic's followers, newest first, with the total.
pub async fn list_followers(db: impl PgExecutor<'_>, category_id: &str, limit: i64, offset: i64) -> sqlx::Result<Vec<Follower>> {
    sqlx::query_as!(
        Follower,
        r#"select u.user_id, u.name, u.email as "email: String", u.company, f.created_at as followed_at,
                  count(*) over () as "total!"
           from category_follow f join users u using (user_id)
           where f.category_id = $1
           order by f.created_at desc, u.user_id
           limit $2 offset $3"#,
        category_id,
        limit,
        offset,
    )
    .fetch_all(db)
    .await
}

pub async fn count_followers(db: impl PgExecutor<'_>, category_id: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"select count(*) as "n!" from category_follow where category_id = $1"#, category_id).fetch_one(db).await
}

pub async fn follow(conn: &mut PgConnection, category_id: &str, user_id: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into category_follow (category_id, user_id) values ($1, $2) on conflict do nothing", category_id, user_id)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn unfollow(conn: &mut PgConnection, category_id: &str, user_id: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from category_follow where category_id = $1 and user_id = $2", category_id, user_id).execute(conn).await?;
    Ok(())
}

pub async fn category_exists(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select exists(select 1 from category where category_id = $1) as "e!""#, id).fetch_one(conn).await
}

// ---- tags ----

pub struct TagPageRow {
    pub tag_id: String,
    pub name: String,
    pub description: String,
    pub version: i32,
    pub article_count: i64,
    pub views: i64,
}

/// What a tag list asks for; `sort` is one of the whitelisted column names.
pub struct TagQuery<'a> {
    /// A LIKE pattern over lower-cased "name description", already escaped.
    pub pattern: Option<&'a str>,
    pub only_empty: bool,
    pub sort: &'a str,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

/// A page of tags sorted by name or description: the page is chosen first (by index for a name
/// sort, by the trigram index for a search), then counts are computed for its rows alone.
pub async fn list_tags_by_text(db: impl PgExecutor<'_>, q: &TagQuery<'_>) -> sqlx::Result<Vec<TagPageRow>> {
    sqlx::query_as!(
        TagPageRow,
        r#"select page.tag_id, page.name as "name: String", page.description, page.version,
                  (select count(*) from article_tag at where at.tag_id = page.tag_id) as "article_count!",
                  (select coalesce(sum(v.views), 0) from article_tag at
                     join article_view v using (article_id) where at.tag_id = page.tag_id)::bigint as "views!"
           from (
               select t.tag_id, t.name, t.description, t.version, lower(t.name collate "default") as name_key
               from tag t
               where ($1::text is null or t.search_text like $1)
                 and (not $2 or not exists(select 1 from article_tag at where at.tag_id = t.tag_id))
               order by
                 case when $3 = 'name' and not $4 then lower(t.name collate "default") end asc,
                 case when $3 = 'name' and $4 then lower(t.name collate "default") end desc,
                 case when $3 = 'description' and not $4 then lower(t.description) end asc,
                 case when $3 = 'description' and $4 then lower(t.description) end desc,
                 lower(t.name collate "default"), t.tag_id
               limit $5 offset $6
           ) page
           order by
             case when $3 = 'name' and not $4 then page.name_key end asc,
             case when $3 = 'name' and $4 then page.name_key end desc,
             case when $3 = 'description' and not $4 then lower(page.description) end asc,
             case when $3 = 'description' and $4 then lower(page.description) end desc,
             page.name_key, page.tag_id"#,
        q.pattern,
        q.only_empty,
        q.sort,
        q.descending,
        q.limit,
        q.offset,
    )
    .fetch_all(db)
    .await
}

/// A page of tags sorted by article count or views, which needs every filtered tag's counts.
pub async fn list_tags_by_count(db: impl PgExecutor<'_>, q: &TagQuery<'_>) -> sqlx::Result<Vec<TagPageRow>> {
    sqlx::query_as!(
        TagPageRow,
        r#"with articles as (select tag_id, count(*) as n from article_tag group by tag_id),
                views as (
                    select at.tag_id, sum(v.views) as n
                    from article_tag at join article_view v using (article_id) group by at.tag_id
                )
           select t.tag_id, t.name as "name: String", t.description, t.version,
                  coalesce(articles.n, 0) as "article_count!", coalesce(views.n, 0)::bigint as "views!"
           from tag t
           left join articles using (tag_id)
           left join views using (tag_id)
           where ($1::text is null or t.search_text like $1)
             and (not $2 or articles.n is null)
           order by
             case when $3 = 'articles' and not $4 then coalesce(articles.n, 0) end asc,
             case when $3 = 'articles' and $4 then coalesce(articles.n, 0) end desc,
             case when $3 = 'views' and not $4 then coalesce(views.n, 0) end asc,
             case when $3 = 'views' and $4 then coalesce(views.n, 0) end desc,
             lower(t.name collate "default"), t.tag_id
           limit $5 offset $6"#,
        q.pattern,
        q.only_empty,
        q.sort,
        q.descending,
        q.limit,
        q.offset,
    )
    .fetch_all(db)
    .await
}

/// The total of a filtered tag list.
pub async fn count_tags(db: impl PgExecutor<'_>, pattern: Option<&str>, only_empty: bool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from tag t
           where ($1::text is null or t.search_text like $1)
             and (not $2 or not exists(select 1 from article_tag at where at.tag_id = t.tag_id))"#,
        pattern,
        only_empty,
    )
    .fetch_one(db)
    .await
}

pub async fn find_tag(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<Tag>> {
    sqlx::query_as!(
        Tag,
        r#"select t.tag_id, t.name as "name: String", t.description, t.version,
                  (select count(*) from article_tag at where at.tag_id = t.tag_id) as "article_count!",
                  (select coalesce(sum(v.views), 0) from article_tag at
                     join article_view v using (article_id) where at.tag_id = t.tag_id)::bigint as "views!"
           from tag t where t.tag_id = $1"#,
        id
    )
    .fetch_optional(db)
    .await
}

pub async fn insert_tag(conn: &mut PgConnection, id: &str, name: &str, description: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into tag (tag_id, name, description) values ($1, $2, $3)", id, name, description).execute(conn).await?;
    Ok(())
}

/// The tag's version, locking the row for an edit; none when it does not exist.
pub async fn lock_tag_version(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from tag where tag_id = $1 for update", id).fetch_optional(conn).await
}

pub async fn update_tag(conn: &mut PgConnection, id: &str, name: &str, description: &str) -> sqlx::Result<()> {
    sqlx::query!("update tag set name = $2, description = $3, version = version + 1 where tag_id = $1", id, name, description)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes a tag (its article links go with it); returns its name, or none when missing.
pub async fn delete_tag(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(r#"delete from tag where tag_id = $1 returning name as "name: String""#, id).fetch_optional(conn).await
}

// ---- seeding ----

/// A stored topic as the seed compares it.
pub struct StoredCategory {
    pub category_id: String,
    pub name: String,
    pub parent_id: Option<String>,
    pub description: String,
    pub is_featured: bool,
    pub small_image: Option<String>,
    pub large_image: Option<String>,
    pub promotional_content_id: Option<String>,
    pub is_locked: bool,
    pub is_premium: bool,
    pub version: i32,
}

pub async fn all_categories(conn: &mut PgConnection) -> sqlx::Result<Vec<StoredCategory>> {
    sqlx::query_as!(
        StoredCategory,
        r#"select category_id, name as "name: String", parent_id, description, is_featured, small_image, large_image,
                  promotional_content_id, is_locked, is_premium, version
           from category"#
    )
    .fetch_all(conn)
    .await
}

pub struct StoredTag {
    pub tag_id: String,
    pub name: String,
    pub description: String,
    pub version: i32,
}

pub async fn all_tags(conn: &mut PgConnection) -> sqlx::Result<Vec<StoredTag>> {
    sqlx::query_as!(StoredTag, r#"select tag_id, name as "name: String", description, version from tag"#).fetch_all(conn).await
}
