//! SQL of the articles area.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::{PgConnection, PgExecutor, Postgres, QueryBuilder, types::Json};

use super::model::ArticleSortField;
use crate::users::UserSummary;

/// An article as the list and the editor read it. `html` only when asked for (it can be large).
#[derive(sqlx::FromRow)]
pub struct ArticleRow {
    pub article_id: String,
    pub title: String,
    pub html: Option<String>,
    pub summary: Option<String>,
    pub state: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: i32,
    /// Moves with every change to the article's links and to the names they show (0018, 0022).
    pub card_revision: i64,
    pub publish_date: Option<DateTime<Utc>>,
    pub first_published_at: Option<DateTime<Utc>>,
    pub content_updated_at: Option<DateTime<Utc>>,
    pub was_published_previously: bool,
    pub is_premium: bool,
    pub premium_expiry_offset: Option<String>,
    pub show_watermark: bool,
    pub display_in_chart_section: bool,
    pub is_pinned: bool,
    pub is_timeless: bool,
    pub template_id: Option<String>,
    pub send_emails: bool,
    pub author_id: Option<String>,
    pub author_name: Option<String>,
    pub author_email: Option<String>,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub channel_type: Option<String>,
    pub channel_state: Option<String>,
    /// 'desk' or 'contributor'.
    pub publisher_type: Option<String>,
    pub publisher_id: Option<String>,
    pub publisher_name: Option<String>,
    pub views: i64,
    pub unique_views: i64,
    /// The asking user is a contributor, an admin of its channel or a member of its desk.
    pub viewer_has_access: bool,
}

/// Which articles a read wants; every filter is optional.
#[derive(Default)]
pub struct ArticleFilter<'a> {
    pub id: Option<&'a str>,
    pub state: Option<&'a str>,
    /// Edited (publishing is an edit) since this instant.
    pub changed_since: Option<DateTime<Utc>>,
    /// Authored by or credited to this user.
    pub mine: Option<&'a str>,
    pub categories: &'a [String],
    pub publishers: &'a [String],
    pub tags: &'a [String],
    pub channels: &'a [String],
    pub promotional_content: &'a [String],
    /// Words for `websearch_to_tsquery`.
    pub search: Option<&'a str>,
    /// The asking user (for `viewer_has_access`).
    pub viewer: &'a str,
    pub sort: ArticleSortField,
    pub descending: bool,
    pub limit: Option<i64>,
    pub offset: i64,
}

/// The list is the one query built from its parts: a filter left out is absent from the SQL rather
/// than disabled by a parameter, so PostgreSQL plans each combination for what it is (a semi-join
/// for a topic, the created index for the default order) instead of one plan for every case.
fn push_filters(q: &mut QueryBuilder<Postgres>, f: &ArticleFilter<'_>) {
    q.push(" where true");
    if let Some(id) = f.id {
        q.push(" and a.article_id = ").push_bind(id.to_owned());
    }
    if let Some(state) = f.state {
        q.push(" and a.state = ").push_bind(state.to_owned());
    }
    if let Some(since) = f.changed_since {
        q.push(" and a.updated_at >= ").push_bind(since);
    }
    if let Some(user) = f.mine {
        q.push(" and a.article_id in (select article_id from article_contributor where user_id = ")
            .push_bind(user.to_owned())
            .push(" union all select article_id from article where author_id = ")
            .push_bind(user.to_owned())
            .push(" offset 0)");
    }
    // `offset 0` keeps each link subquery whole: PostgreSQL then reads a topic's few hundred links
    // by their index and looks the articles up, rather than walking every article by date and
    // probing its links one by one until a page is found.
    if !f.categories.is_empty() {
        q.push(" and a.article_id in (select article_id from article_category where category_id = any(")
            .push_bind(f.categories.to_vec())
            .push(") offset 0)");
    }
    if !f.publishers.is_empty() {
        q.push(" and (a.published_by_desk_id = any(")
            .push_bind(f.publishers.to_vec())
            .push(") or a.published_by_user_id = any(")
            .push_bind(f.publishers.to_vec())
            .push("))");
    }
    if !f.tags.is_empty() {
        q.push(" and a.article_id in (select article_id from article_tag where tag_id = any(")
            .push_bind(f.tags.to_vec())
            .push(") offset 0)");
    }
    if !f.channels.is_empty() {
        q.push(" and a.premium_channel_id = any(").push_bind(f.channels.to_vec()).push(")");
    }
    if !f.promotional_content.is_empty() {
        q.push(" and a.article_id in (select article_id from article_promotional_content where promotional_content_id = any(")
            .push_bind(f.promotional_content.to_vec())
            .push(") offset 0)");
    }
    if let Some(search) = f.search {
        q.push(" and a.search_vector @@ websearch_to_tsquery('english', ").push_bind(search.to_owned()).push(")");
    }
}

/// ORDER BY for a sort field, ending with the id so pages never overlap. Each matches an index of
/// migration 0006 where one makes sense.
fn order_by(sort: ArticleSortField, descending: bool) -> String {
    let dir = if descending { "desc" } else { "asc" };
    let nulls = if descending { "nulls last" } else { "nulls first" };
    let key = match sort {
        ArticleSortField::Title => format!("lower(a.title) {dir}"),
        ArticleSortField::PublishedBy => {
            format!("lower(coalesce(d.name::text, pu.name)) {dir} nulls last")
        }
        ArticleSortField::Views => {
            format!("(select count(*) from article_view v where v.article_id = a.article_id) {dir}")
        }
        ArticleSortField::PublishDate => format!("a.publish_date {dir} {nulls}"),
        ArticleSortField::LastEdited => format!("a.updated_at {dir}"),
        ArticleSortField::Premium => format!("a.is_premium {dir}, a.created_at {dir}"),
        ArticleSortField::Created => format!("a.created_at {dir}"),
    };
    format!(" order by {key}, a.article_id {dir}")
}

/// One page of the list: its article ids in order, and the number of matches when the query
/// counted them on the way (a filter that is not answered by the kept counts).
pub struct Page {
    pub ids: Vec<String>,
    pub total: Option<i64>,
}

/// The ids of one page, from a query built for its filters. It is unnamed, so PostgreSQL plans
/// it with its values each time (a generic plan is blind to how selective a topic or a search
/// term is) — and it is small, so planning it is cheap. When the total cannot come from the kept
/// counts, `count(*) over ()` gives it from the same scan rather than a second query (link filters).
pub async fn select_page(db: impl PgExecutor<'_>, f: &ArticleFilter<'_>) -> sqlx::Result<Page> {
    // Not with a search term: counting every match in the page's order walks the date index and
    // tests each article's text (1.4 s for a word in 6 % of 100,000); `count_articles` uses the
    // text index instead.
    let counted = !counts_kept(f) && f.search.is_none();
    let mut q = QueryBuilder::<Postgres>::new("select a.article_id, ");
    q.push(if counted { "count(*) over ()" } else { "null::bigint" }).push(" from article a");
    if f.sort == ArticleSortField::PublishedBy {
        q.push(PUBLISHER_JOINS);
    }
    push_filters(&mut q, f);
    q.push(order_by(f.sort, f.descending));
    if let Some(limit) = f.limit {
        q.push(" limit ").push_bind(limit);
    }
    q.push(" offset ").push_bind(f.offset);
    let rows: Vec<(String, Option<i64>)> = q.build_query_as().persistent(false).fetch_all(db).await?;
    let total = rows.first().and_then(|(_, total)| *total);
    Ok(Page { ids: rows.into_iter().map(|(id, _)| id).collect(), total })
}

/// Articles by id, in the order given, with their channel, publisher and view counts; `html` when
/// asked for. One prepared statement for a page of the list and for the editor's single article.
pub async fn articles_by_ids(db: impl PgExecutor<'_>, ids: &[String], viewer: &str, with_html: bool) -> sqlx::Result<Vec<ArticleRow>> {
    sqlx::query_as(
        "select a.article_id, a.title, case when $3 then a.html end as html, a.summary, a.state,
                a.created_at, a.updated_at, a.version, a.card_revision, a.publish_date, a.first_published_at,
                a.content_updated_at, a.was_published_previously,
                a.is_premium, a.premium_expiry_offset, a.show_watermark, a.display_in_chart_section,
                a.is_pinned, a.is_timeless, a.template_id, a.send_emails,
                a.author_id, au.name as author_name, au.email::text as author_email,
                a.premium_channel_id, c.name::text as channel_name, c.type as channel_type, c.state as channel_state,
                case when a.published_by_desk_id is not null then 'desk'
                     when a.published_by_user_id is not null then 'contributor' end as publisher_type,
                coalesce(a.published_by_desk_id, a.published_by_user_id) as publisher_id,
                coalesce(d.name::text, pu.name) as publisher_name,
                coalesce(v.views, 0)::bigint as views, coalesce(v.readers, 0) as unique_views,
                (exists(select 1 from article_contributor ac where ac.article_id = a.article_id and ac.user_id = $2)
                 or exists(select 1 from channel_admin ca where ca.channel_id = a.premium_channel_id and ca.user_id = $2)
                 or exists(select 1 from desk_contributor dc where dc.desk_id = a.published_by_desk_id and dc.user_id = $2))
                  as viewer_has_access
         from unnest($1::text[]) with ordinality as page(article_id, n)
         join article a on a.article_id = page.article_id
         left join users au on au.user_id = a.author_id
         left join channel c on c.channel_id = a.premium_channel_id
         left join desk d on d.desk_id = a.published_by_desk_id
         left join users pu on pu.user_id = a.published_by_user_id
         left join lateral (select sum(v.views) as views, count(*) as readers from article_view v where v.article_id = a.article_id) v on true
         order by page.n",
    )
    .bind(ids)
    .bind(viewer)
    .bind(with_html)
    .fetch_all(db)
    .await
}

/// One article by id, with its html (the editor's read).
pub async fn article_by_id(db: impl PgExecutor<'_>, id: &str, viewer: &str) -> sqlx::Result<Option<ArticleRow>> {
    Ok(articles_by_ids(db, &[id.to_owned()], viewer, true).await?.pop())
}

const PUBLISHER_JOINS: &str = " left join desk d on d.desk_id = a.published_by_desk_id
    left join users pu on pu.user_id = a.published_by_user_id";

/// Whether the list's total comes from the trigger-kept counts (no filter beyond the state).
fn counts_kept(f: &ArticleFilter<'_>) -> bool {
    f.id.is_none()
        && f.changed_since.is_none()
        && f.mine.is_none()
        && f.categories.is_empty()
        && f.publishers.is_empty()
        && f.tags.is_empty()
        && f.channels.is_empty()
        && f.promotional_content.is_empty()
        && f.search.is_none()
}

/// How many articles the filter matches (the list's total, when its page did not tell).
pub async fn count_articles(db: impl PgExecutor<'_>, f: &ArticleFilter<'_>) -> sqlx::Result<i64> {
    if counts_kept(f) {
        return sqlx::query_scalar!(
            r#"select coalesce(sum(articles), 0)::bigint as "count!" from article_state_count where ($1::text is null or state = $1)"#,
            f.state
        )
        .fetch_one(db)
        .await;
    }
    let mut q = QueryBuilder::<Postgres>::new("select count(*) from article a");
    push_filters(&mut q, f);
    q.build_query_scalar().persistent(false).fetch_one(db).await
}

/// A topic, tag or promotional content as an article names it.
#[derive(Debug, Clone, Deserialize)]
pub struct Named {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub article_image: Option<String>,
}

/// The linked records of one article (or template).
#[derive(Default)]
pub struct Relations {
    pub contributors: Vec<UserSummary>,
    pub categories: Vec<Named>,
    pub tags: Vec<Named>,
    pub promotional_content: Vec<Named>,
}

/// Contributors, topics, tags and promotional content of several articles, in one prepared
/// statement: plain rows (no JSON to build in PostgreSQL and parse again here), each kind in name
/// order, gathered per article. Each name is looked up by its key (`lateral … offset 0`): a join
/// would hash the whole users, topic or tag table for every request; names sort by their
/// lowercase bytes, as the reader side's cards do.
pub async fn relations_of(db: impl PgExecutor<'_>, article_ids: &[String]) -> sqlx::Result<HashMap<String, Relations>> {
    #[derive(sqlx::FromRow)]
    struct Link {
        article_id: String,
        kind: i32,
        id: String,
        name: String,
        email: Option<String>,
        link: Option<String>,
        article_image: Option<String>,
    }
    let links: Vec<Link> = sqlx::query_as(
        "select x.article_id, 0 as kind, u.user_id as id, u.name, u.email::text as email, null as link, null as article_image,
                lower(u.name collate \"default\") as sort_key
         from article_contributor x
         cross join lateral (select u.user_id, u.name, u.email from users u where u.user_id = x.user_id offset 0) u
         where x.article_id = any($1)
         union all
         select x.article_id, 1, t.category_id, t.name, null, null, null, lower(t.name collate \"default\")
         from article_category x
         cross join lateral (select t.category_id, t.name from category t where t.category_id = x.category_id offset 0) t
         where x.article_id = any($1)
         union all
         select x.article_id, 2, t.tag_id, t.name, null, null, null, lower(t.name collate \"default\")
         from article_tag x
         cross join lateral (select t.tag_id, t.name from tag t where t.tag_id = x.tag_id offset 0) t
         where x.article_id = any($1)
         union all
         select x.article_id, 3, p.promotional_content_id, p.name, null, p.link, p.article_image, lower(p.name collate \"default\")
         from article_promotional_content x
         cross join lateral (select p.promotional_content_id, p.name, p.link, p.article_image from promotional_content p
                             where p.promotional_content_id = x.promotional_content_id offset 0) p
         where x.article_id = any($1)
         order by 1, 2, 8",
    )
    .bind(article_ids)
    .fetch_all(db)
    .await?;
    let mut relations: HashMap<String, Relations> = HashMap::with_capacity(article_ids.len());
    for link in links {
        let of = relations.entry(link.article_id.clone()).or_default();
        let named = |link: Link| Named { id: link.id, name: link.name, link: link.link, article_image: link.article_image };
        match link.kind {
            0 => of.contributors.push(UserSummary { user_id: link.id, name: link.name, email: link.email.unwrap_or_default() }),
            1 => of.categories.push(named(link)),
            2 => of.tags.push(named(link)),
            _ => of.promotional_content.push(named(link)),
        }
    }
    Ok(relations)
}

/// What the rules need of a stored article, read under a row lock.
pub struct LockedArticle {
    pub state: String,
    pub version: i32,
    pub publish_date: Option<DateTime<Utc>>,
    pub was_published_previously: bool,
    pub premium_channel_id: Option<String>,
    pub display_in_chart_section: bool,
    pub is_premium: bool,
    pub premium_expiry_offset: Option<String>,
}

pub async fn lock_article(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<LockedArticle>> {
    sqlx::query_as!(
        LockedArticle,
        "select state, version, publish_date, was_published_previously, premium_channel_id, display_in_chart_section,
                is_premium, premium_expiry_offset
         from article where article_id = $1 for update",
        id
    )
    .fetch_optional(conn)
    .await
}

/// Whether `user_id` may open the article as one of its contributors, an admin of its channel or
/// a member of its publishing desk.
pub async fn has_access(db: impl PgExecutor<'_>, article_id: &str, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select 1 from article_contributor where article_id = $1 and user_id = $2)
               or exists(select 1 from article a join channel_admin ca on ca.channel_id = a.premium_channel_id
                         where a.article_id = $1 and ca.user_id = $2)
               or exists(select 1 from article a join desk_contributor dc on dc.desk_id = a.published_by_desk_id
                         where a.article_id = $1 and dc.user_id = $2) as "allowed!""#,
        article_id,
        user_id
    )
    .fetch_one(db)
    .await
}

/// The stored columns of an article (add or edit).
pub struct ArticleValues<'a> {
    pub title: &'a str,
    pub html: &'a str,
    pub body_text: &'a str,
    pub summary: Option<&'a str>,
    pub state: &'a str,
    pub publish_date: Option<DateTime<Utc>>,
    pub was_published_previously: bool,
    pub premium_channel_id: Option<&'a str>,
    pub published_by_desk_id: Option<&'a str>,
    pub published_by_user_id: Option<&'a str>,
    pub is_premium: bool,
    pub premium_expiry_offset: Option<&'a str>,
    pub show_watermark: bool,
    pub display_in_chart_section: bool,
    pub is_pinned: bool,
    pub is_timeless: bool,
    pub send_emails: bool,
}

pub async fn insert_article(
    conn: &mut PgConnection,
    id: &str,
    author_id: &str,
    template_id: Option<&str>,
    v: &ArticleValues<'_>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into article (article_id, author_id, template_id, title, html, body_text, summary, state, publish_date,
                              was_published_previously, premium_channel_id, published_by_desk_id, published_by_user_id,
                              is_premium, premium_expiry_offset, show_watermark, display_in_chart_section, is_pinned,
                              is_timeless, send_emails, first_published_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 case when $8 = 'Published' then now() end)",
        id,
        author_id,
        template_id,
        v.title,
        v.html,
        v.body_text,
        v.summary,
        v.state,
        v.publish_date,
        v.was_published_previously,
        v.premium_channel_id,
        v.published_by_desk_id,
        v.published_by_user_id,
        v.is_premium,
        v.premium_expiry_offset,
        v.show_watermark,
        v.display_in_chart_section,
        v.is_pinned,
        v.is_timeless,
        v.send_emails,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes an edit. A publication sets when the article first reached readers (once: a trigger
/// keeps it), and when it changes what readers saw at its last publication (title, summary or
/// body, from its last published revision), the time of that update.
pub async fn update_article(conn: &mut PgConnection, id: &str, v: &ArticleValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "update article set title = $2, html = $3, body_text = $4, summary = $5, state = $6, publish_date = $7,
                was_published_previously = $8, premium_channel_id = $9, published_by_desk_id = $10,
                published_by_user_id = $11, is_premium = $12, premium_expiry_offset = $13, show_watermark = $14,
                display_in_chart_section = $15, is_pinned = $16, is_timeless = $17, send_emails = $18,
                version = version + 1,
                first_published_at = case when $6 = 'Published' then coalesce(first_published_at, now()) else first_published_at end,
                content_updated_at = case
                    when $6 = 'Published' and first_published_at is not null and exists (
                        select 1 from (select r.title, r.summary, r.body_hash from article_revision r
                                       where r.article_id = $1 and r.state = 'Published' order by r.number desc limit 1) last
                        where (last.title, last.summary, last.body_hash) is distinct from ($2, $5, sha256(convert_to($3, 'UTF8'))))
                    then now() else content_updated_at end
         where article_id = $1",
        id,
        v.title,
        v.html,
        v.body_text,
        v.summary,
        v.state,
        v.publish_date,
        v.was_published_previously,
        v.premium_channel_id,
        v.published_by_desk_id,
        v.published_by_user_id,
        v.is_premium,
        v.premium_expiry_offset,
        v.show_watermark,
        v.display_in_chart_section,
        v.is_pinned,
        v.is_timeless,
        v.send_emails,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps the article as it now is (after a write in this transaction) as its next revision: its
/// body once per distinct text, the rest in the revision row, with the disclosures in force.
pub async fn record_revision(
    conn: &mut PgConnection,
    revision_id: &str,
    article_id: &str,
    created_by: &str,
    action: &str,
    restored_from: Option<i32>,
) -> sqlx::Result<()> {
    sqlx::query!(
        r#"with body as (
               insert into article_body (body_hash, html)
               select sha256(convert_to(html, 'UTF8')), html from article where article_id = $2
               on conflict (body_hash) do nothing
           )
           insert into article_revision (revision_id, article_id, number, created_by, action, article_version, state, title,
                                         summary, body_hash, premium_channel_id, is_premium, premium_expiry_offset,
                                         publish_date, topics, tags, contributors, restored_from, disclosures)
           select $1, a.article_id,
                  coalesce((select max(r.number) from article_revision r where r.article_id = a.article_id), 0) + 1,
                  $3, $4, a.version, a.state, a.title, a.summary, sha256(convert_to(a.html, 'UTF8')), a.premium_channel_id,
                  a.is_premium, a.premium_expiry_offset, a.publish_date,
                  array(select c.category_id from article_category c where c.article_id = a.article_id order by c.category_id),
                  array(select t.tag_id from article_tag t where t.article_id = a.article_id order by t.tag_id),
                  array(select x.user_id from article_contributor x where x.article_id = a.article_id order by x.user_id),
                  $5,
                  -- The disclosures in force for its channel and desk, pinned by version.
                  (select coalesce(jsonb_agg(jsonb_build_object('scopeType', d.scope_type, 'scopeId', d.scope_id, 'version', d.version)
                                             order by d.scope_type), '[]')
                   from (select distinct on (x.scope_type, x.scope_id) x.scope_type, x.scope_id, x.version, x.html
                         from disclosure x
                         where (x.scope_type = 'channel' and x.scope_id = a.premium_channel_id)
                            or (x.scope_type = 'desk' and x.scope_id = a.published_by_desk_id)
                         order by x.scope_type, x.scope_id, x.version desc) d
                   where d.html <> '')
           from article a where a.article_id = $2"#,
        revision_id,
        article_id,
        created_by,
        action,
        restored_from,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A revision as the history lists it (its body and relations are read when one is opened).
#[derive(Debug, Clone)]
pub struct RevisionSummary {
    pub revision_id: String,
    pub number: i32,
    pub created_at: DateTime<Utc>,
    pub created_by: Option<String>,
    pub created_by_name: Option<String>,
    pub action: String,
    pub article_version: i32,
    pub state: String,
    pub title: String,
    pub restored_from: Option<i32>,
}

/// An article's revisions, newest first.
pub async fn revisions_of(db: impl PgExecutor<'_>, article_id: &str) -> sqlx::Result<Vec<RevisionSummary>> {
    sqlx::query_as!(
        RevisionSummary,
        r#"select r.revision_id, r.number, r.created_at, r.created_by, u.name as "created_by_name?", r.action, r.article_version,
                  r.state, r.title, r.restored_from
           from article_revision r left join users u on u.user_id = r.created_by
           where r.article_id = $1
           order by r.number desc"#,
        article_id
    )
    .fetch_all(db)
    .await
}

/// One revision in full.
#[derive(Debug, Clone)]
pub struct Revision {
    pub revision_id: String,
    pub article_id: String,
    pub number: i32,
    pub created_at: DateTime<Utc>,
    pub created_by: Option<String>,
    pub created_by_name: Option<String>,
    pub action: String,
    pub article_version: i32,
    pub state: String,
    pub title: String,
    pub summary: Option<String>,
    pub html: String,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub is_premium: bool,
    pub premium_expiry_offset: Option<String>,
    pub publish_date: Option<DateTime<Utc>>,
    /// Topics, tags and contributors by id with their names now (a deleted one has none).
    pub topics: Json<Vec<NamedId>>,
    pub tags: Json<Vec<NamedId>>,
    pub contributors: Json<Vec<NamedId>>,
    pub restored_from: Option<i32>,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct NamedId {
    pub id: String,
    pub name: Option<String>,
}

pub async fn revision(db: impl PgExecutor<'_>, revision_id: &str) -> sqlx::Result<Option<Revision>> {
    sqlx::query_as!(
        Revision,
        r#"select r.revision_id, r.article_id, r.number, r.created_at, r.created_by, u.name as "created_by_name?", r.action,
                  r.article_version, r.state, r.title, r.summary, b.html, r.premium_channel_id, c.name::text as "channel_name?",
                  r.is_premium, r.premium_expiry_offset, r.publish_date, r.restored_from,
                  (select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', t.name) order by x.n), '[]')
                   from unnest(r.topics) with ordinality x(id, n) left join category t on t.category_id = x.id)
                      as "topics!: Json<Vec<NamedId>>",
                  (select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', t.name) order by x.n), '[]')
                   from unnest(r.tags) with ordinality x(id, n) left join tag t on t.tag_id = x.id)
                      as "tags!: Json<Vec<NamedId>>",
                  (select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', p.name) order by x.n), '[]')
                   from unnest(r.contributors) with ordinality x(id, n) left join users p on p.user_id = x.id)
                      as "contributors!: Json<Vec<NamedId>>"
           from article_revision r
           join article_body b on b.body_hash = r.body_hash
           left join users u on u.user_id = r.created_by
           left join channel c on c.channel_id = r.premium_channel_id
           where r.revision_id = $1"#,
        revision_id
    )
    .fetch_optional(db)
    .await
}

pub async fn set_state(conn: &mut PgConnection, id: &str, state: &str) -> sqlx::Result<()> {
    sqlx::query!("update article set state = $2, version = version + 1 where article_id = $1", id, state).execute(conn).await?;
    Ok(())
}

/// Replaces the article's contributors, topics, tags and promotional content.
pub async fn set_relations(
    conn: &mut PgConnection,
    id: &str,
    contributors: &[String],
    categories: &[String],
    tags: &[String],
    promotional_content: &[String],
) -> sqlx::Result<()> {
    sqlx::query!(
        "with gone_contributors as (delete from article_contributor where article_id = $1 and user_id <> all($2)),
              gone_categories as (delete from article_category where article_id = $1 and category_id <> all($3)),
              gone_tags as (delete from article_tag where article_id = $1 and tag_id <> all($4)),
              gone_promotions as (delete from article_promotional_content where article_id = $1 and promotional_content_id <> all($5))
         select 1 as done",
        id,
        contributors,
        categories,
        tags,
        promotional_content,
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "insert into article_contributor (article_id, user_id) select $1, unnest($2::text[]) on conflict do nothing",
        id,
        contributors
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "insert into article_category (article_id, category_id) select $1, unnest($2::text[]) on conflict do nothing",
        id,
        categories
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("insert into article_tag (article_id, tag_id) select $1, unnest($2::text[]) on conflict do nothing", id, tags)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "insert into article_promotional_content (article_id, promotional_content_id)
         select $1, unnest($2::text[]) on conflict do nothing",
        id,
        promotional_content
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Records that subscribers are to be notified of a publish, or of an update of an article
/// published before (`is_update`); the notification job writes the emails.
pub async fn request_notification(conn: &mut PgConnection, article_id: &str, requested_by: &str, is_update: bool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "insert into article_notification_request (article_id, requested_by, is_update) values ($1, $2, $3) returning request_id",
        article_id,
        requested_by,
        is_update
    )
    .fetch_one(conn)
    .await
}

pub struct Viewer {
    pub user_id: String,
    pub name: String,
    pub email: String,
    /// `web` (full reads on the article page), `feed` (delivered in full by a private feed: once
    /// per feed link) or `agent` (read by the reader's AI assistant: once per session).
    pub source: String,
    pub views: i32,
    pub last_viewed: DateTime<Utc>,
}

/// An article's viewers by source, last viewed first: the web's full reads (the spec's counts),
/// then the feeds' and assistants' from their events.
pub async fn viewers_of(db: impl PgExecutor<'_>, article_id: &str) -> sqlx::Result<Vec<Viewer>> {
    sqlx::query_as!(
        Viewer,
        r#"select u.user_id as "user_id!", u.name as "name!", u.email::text as "email!", r.source as "source!", r.views as "views!",
                  r.last_viewed as "last_viewed!"
           from (select v.user_id, 'web' as source, v.views, v.last_viewed from article_view v where v.article_id = $1
                 union all
                 select e.user_id, e.kind, count(*)::int, max(e.viewed_at) from article_view_event e
                 where e.article_id = $1 and e.kind in ('feed', 'agent') group by e.user_id, e.kind) r
           join users u on u.user_id = r.user_id
           order by r.last_viewed desc, u.user_id, r.source"#,
        article_id
    )
    .fetch_all(db)
    .await
}
