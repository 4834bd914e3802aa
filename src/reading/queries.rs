//! SQL of the reader side: published articles as cards and in full, the reader lists (each cuts
//! its page from ids, then reads the cards of that page in one statement), views,
//! campaigns, and the browse pages' facts.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, types::Json};

use crate::articles::queries::Named;

/// A published article as a list shows it: never its body. (The card and page statements read the
/// names of an article's topics and tags by their keys: a join would hash the whole table for each
/// article. Whether an article is locked comes from the cached topic list, not from SQL.)
#[derive(Debug, Clone)]
pub struct CardRow {
    pub article_id: String,
    pub card_revision: i64,
    pub title: String,
    pub summary: Option<String>,
    pub publish_date: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub first_published_at: Option<DateTime<Utc>>,
    pub content_updated_at: Option<DateTime<Utc>>,
    pub is_premium: bool,
    pub premium_expires_at: Option<DateTime<Utc>>,
    pub is_pinned: bool,
    pub display_in_chart_section: bool,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub channel_type: Option<String>,
    pub channel_state: Option<String>,
    /// 'desk' or 'contributor'.
    pub publisher_type: Option<String>,
    pub publisher_id: Option<String>,
    pub publisher_name: Option<String>,
    pub categories: Json<Vec<Named>>,
    pub tags: Json<Vec<Named>>,
}

/// The cards of published articles among `ids` (in no particular order: callers keep theirs).
pub async fn card_rows(db: impl PgExecutor<'_>, ids: &[String]) -> sqlx::Result<Vec<CardRow>> {
    sqlx::query_as!(
        CardRow,
        r#"select a.article_id, a.card_revision, a.title, a.summary, a.publish_date as "publish_date!", a.updated_at,
                  a.first_published_at, a.content_updated_at, a.is_premium,
                  a.premium_expires_at, a.is_pinned, a.display_in_chart_section, a.premium_channel_id,
                  c.name::text as channel_name, c.type as "channel_type?", c.state as "channel_state?",
                  case when a.published_by_desk_id is not null then 'desk'
                       when a.published_by_user_id is not null then 'contributor' end as publisher_type,
                  coalesce(a.published_by_desk_id, a.published_by_user_id) as publisher_id,
                  coalesce(d.name::text, pu.name) as publisher_name,
                  coalesce((select jsonb_agg(jsonb_build_object('_id', t.category_id, 'name', t.name) order by lower(t.name collate "default"))
                            from article_category x
                            cross join lateral (select t.category_id, t.name from category t where t.category_id = x.category_id offset 0) t
                            where x.article_id = a.article_id), '[]') as "categories!: Json<Vec<Named>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', t.tag_id, 'name', t.name) order by lower(t.name collate "default"))
                            from article_tag x
                            cross join lateral (select t.tag_id, t.name from tag t where t.tag_id = x.tag_id offset 0) t
                            where x.article_id = a.article_id), '[]') as "tags!: Json<Vec<Named>>"
           from article a
           left join channel c on c.channel_id = a.premium_channel_id
           left join desk d on d.desk_id = a.published_by_desk_id
           left join users pu on pu.user_id = a.published_by_user_id
           where a.article_id = any($1) and a.state = 'Published'"#,
        ids
    )
    .fetch_all(db)
    .await
}

/// A contributor as an article credits them.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct CreditedContributor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub position: Option<String>,
    pub phone: Option<String>,
    pub has_picture: bool,
}

/// A promotional content an article shows in its sidebar.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct SidebarPromotion {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub link: Option<String>,
    pub sidebar_image: Option<String>,
    /// Set when it opens a promotion page (its target is then the landing page).
    #[serde(default)]
    pub promotion_page_id: Option<String>,
    pub expiry_date: Option<DateTime<Utc>>,
}

/// A published article in full, as its page shows it.
pub struct ArticleRow {
    pub article_id: String,
    pub title: String,
    pub html: String,
    pub summary: Option<String>,
    pub state: String,
    pub publish_date: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
    pub first_published_at: Option<DateTime<Utc>>,
    pub content_updated_at: Option<DateTime<Utc>>,
    pub version: i32,
    pub is_premium: bool,
    pub premium_expiry_offset: Option<String>,
    pub premium_expires_at: Option<DateTime<Utc>>,
    pub show_watermark: bool,
    pub display_in_chart_section: bool,
    pub is_pinned: bool,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub channel_type: Option<String>,
    pub channel_state: Option<String>,
    pub publisher_type: Option<String>,
    pub publisher_id: Option<String>,
    pub publisher_name: Option<String>,
    pub desk_email: Option<String>,
    pub contributors: Json<Vec<CreditedContributor>>,
    pub categories: Json<Vec<Named>>,
    pub tags: Json<Vec<Named>>,
    /// Its own and its topics' promotional content, expired or not (the page picks one in time).
    pub promotions: Json<Vec<SidebarPromotion>>,
}

/// One article with everything its page shows, in one prepared statement (any state: the caller
/// decides what a state means for the reader). Each topic and tag is found by its key (`offset 0`
/// keeps the planner from hashing the whole table for an article's three); the root topics come
/// from the kept topic list.
pub async fn article(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<ArticleRow>> {
    sqlx::query_as!(
        ArticleRow,
        r#"select a.article_id, a.title, a.html, a.summary, a.state, a.publish_date, a.updated_at, a.first_published_at,
                  a.content_updated_at, a.version, a.is_premium,
                  a.premium_expiry_offset, a.premium_expires_at, a.show_watermark, a.display_in_chart_section, a.is_pinned,
                  a.premium_channel_id, c.name::text as channel_name, c.type as "channel_type?", c.state as "channel_state?",
                  case when a.published_by_desk_id is not null then 'desk'
                       when a.published_by_user_id is not null then 'contributor' end as publisher_type,
                  coalesce(a.published_by_desk_id, a.published_by_user_id) as publisher_id,
                  coalesce(d.name::text, pu.name) as publisher_name,
                  d.email as "desk_email?",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', u.user_id, 'name', u.name, 'position', u.position,
                                                                'phone', u.phone,
                                                                'has_picture', u.display_avatar and u.profile_picture is not null)
                                             order by lower(u.name))
                            from article_contributor x join users u on u.user_id = x.user_id
                            where x.article_id = a.article_id), '[]') as "contributors!: Json<Vec<CreditedContributor>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', t.category_id, 'name', t.name) order by lower(t.name collate "default"))
                            from article_category x
                            cross join lateral (select t.category_id, t.name from category t where t.category_id = x.category_id offset 0) t
                            where x.article_id = a.article_id), '[]') as "categories!: Json<Vec<Named>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', t.tag_id, 'name', t.name) order by lower(t.name collate "default"))
                            from article_tag x
                            cross join lateral (select t.tag_id, t.name from tag t where t.tag_id = x.tag_id offset 0) t
                            where x.article_id = a.article_id), '[]') as "tags!: Json<Vec<Named>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', p.promotional_content_id, 'name', p.name, 'link', p.link,
                                                                'sidebar_image', p.sidebar_image, 'promotion_page_id', p.promotion_page_id,
                                                                'expiry_date', p.expiry_date) order by p.promotional_content_id)
                            from promotional_content p
                            where p.promotional_content_id in (select x.promotional_content_id from article_promotional_content x
                                                               where x.article_id = a.article_id)
                               or p.promotional_content_id in (select t.promotional_content_id
                                                               from article_category x
                                                               cross join lateral (select t.promotional_content_id from category t
                                                                                   where t.category_id = x.category_id offset 0) t
                                                               where x.article_id = a.article_id)), '[]')
                    as "promotions!: Json<Vec<SidebarPromotion>>"
           from article a
           left join channel c on c.channel_id = a.premium_channel_id
           left join desk d on d.desk_id = a.published_by_desk_id
           left join users pu on pu.user_id = a.published_by_user_id
           where a.article_id = $1"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// An article a list statement found: its id and its card revision.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Listed {
    pub article_id: String,
    pub card_revision: i64,
}

/// Published articles newest first, page by page: mine (in `channels`), not mine, free only.
pub struct LatestFilter<'a> {
    /// The caller's actively subscribed channels.
    pub channels: &'a [String],
    pub only_mine: bool,
    pub exclude_mine: bool,
    pub free_only: bool,
    pub limit: i64,
    pub offset: i64,
}

impl LatestFilter<'_> {
    /// What tells one kept page from another (`reading::read::Latest`).
    pub fn key(&self) -> String {
        let LatestFilter { channels, only_mine, exclude_mine, free_only, limit, offset } = self;
        format!("{}{}{}/{limit}/{offset}/{}", *only_mine as u8, *exclude_mine as u8, *free_only as u8, channels.join(","))
    }
}

/// When the next premium period of a published article ends (none ahead: None).
pub async fn next_premium_end(db: impl PgExecutor<'_>) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!(
        "select min(premium_expires_at) from article where state = 'Published' and is_premium and premium_expires_at > now()"
    )
    .fetch_one(db)
    .await
}

pub async fn latest_ids(db: impl PgExecutor<'_>, f: &LatestFilter<'_>) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select a.article_id, a.card_revision from article a
           left join channel c on c.channel_id = a.premium_channel_id
           where a.state = 'Published'
             and (not $2 or a.premium_channel_id = any($1))
             and (not $3 or a.premium_channel_id is null or a.premium_channel_id <> all($1))
             and (not $4 or c.type is null or c.type = 'freeOpen' or not a.is_premium or a.premium_expires_at <= now())
           order by a.publish_date desc, a.article_id desc
           limit $5 offset $6"#,
        f.channels,
        f.only_mine,
        f.exclude_mine,
        f.free_only,
        f.limit,
        f.offset,
    )
    .fetch_all(db)
    .await
}

pub async fn count_latest(db: impl PgExecutor<'_>, f: &LatestFilter<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from article a
           left join channel c on c.channel_id = a.premium_channel_id
           where a.state = 'Published'
             and (not $2 or a.premium_channel_id = any($1))
             and (not $3 or a.premium_channel_id is null or a.premium_channel_id <> all($1))
             and (not $4 or c.type is null or c.type = 'freeOpen' or not a.is_premium or a.premium_expires_at <= now())"#,
        f.channels,
        f.only_mine,
        f.exclude_mine,
        f.free_only,
    )
    .fetch_one(db)
    .await
}

/// Published articles of the caller's channels and followed topics, newest first, without those
/// they have read twice or more: one walk down the newest published articles that stops at the
/// page (the read-twice and followed sets are read once, not probed for each article). A reader
/// with neither channels nor follows is answered without the walk (a one-time filter).
pub async fn recommended_ids(
    db: impl PgExecutor<'_>,
    user_id: &str,
    channels: &[String],
    take: i64,
    skip: i64,
) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"with read_twice as (select coalesce(array_agg(article_id), '{}') as ids from article_view where user_id = $1 and views >= 2),
                followed as (select coalesce(array_agg(category_id), '{}') as ids from category_follow where user_id = $1)
           select a.article_id, a.card_revision from article a, read_twice r, followed f
           where a.state = 'Published'
             and (cardinality($2::text[]) > 0 or exists(select 1 from category_follow where user_id = $1))
             and (a.premium_channel_id = any($2)
                  or exists(select 1 from article_category x where x.article_id = a.article_id and x.category_id = any(f.ids)))
             and a.article_id <> all(r.ids)
           order by a.publish_date desc, a.article_id desc
           limit $3 offset $4"#,
        user_id,
        channels,
        take,
        skip,
    )
    .fetch_all(db)
    .await
}

/// An article a list found, with its publish date.
#[derive(Debug, Clone)]
pub struct Dated {
    pub listed: Listed,
    pub publish_date: DateTime<Utc>,
}

/// Up to `limit` of a channel's articles published since `since`, newest first.
pub async fn newest_in_channel(
    db: impl PgExecutor<'_>,
    channel_id: &str,
    since: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Dated>> {
    let rows = sqlx::query!(
        r#"select article_id, card_revision, publish_date as "publish_date!" from article
           where premium_channel_id = $1 and state = 'Published' and publish_date >= $2
           order by publish_date desc, article_id desc limit $3"#,
        channel_id,
        since,
        limit,
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Dated { listed: Listed { article_id: r.article_id, card_revision: r.card_revision }, publish_date: r.publish_date })
        .collect())
}

/// Published articles of a channel flagged for the chart section, newest first.
pub async fn chart_ids(db: impl PgExecutor<'_>, channel_id: &str, limit: i64) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select article_id, card_revision from article
           where premium_channel_id = $1 and state = 'Published' and display_in_chart_section
           order by publish_date desc, article_id desc limit $2"#,
        channel_id,
        limit,
    )
    .fetch_all(db)
    .await
}

/// A topic and every topic under it.
pub async fn topic_subtree(db: impl PgExecutor<'_>, category_id: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"with recursive down (category_id) as (
               select category_id from category where category_id = $1
               union
               select c.category_id from down join category c on c.parent_id = down.category_id)
           select category_id as "category_id!" from down"#,
        category_id
    )
    .fetch_all(db)
    .await
}

/// The most viewed published articles since `since` (full reads and previews), optionally of a
/// channel or under some topics.
pub async fn trending_ids(
    db: impl PgExecutor<'_>,
    since: DateTime<Utc>,
    channel_id: Option<&str>,
    topics: Option<&[String]>,
    limit: i64,
) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select v.article_id, a.card_revision from article_view_day v
           join article a on a.article_id = v.article_id
           where v.day >= ($1::timestamptz at time zone 'UTC')::date and a.state = 'Published'
             and ($2::text is null or a.premium_channel_id = $2)
             and ($3::text[] is null or v.article_id in (select x.article_id from article_category x where x.category_id = any($3)))
           group by v.article_id, a.card_revision
           order by sum(v.full_views + v.preview_views) desc, v.article_id desc
           limit $4"#,
        since,
        channel_id,
        topics,
        limit,
    )
    .fetch_all(db)
    .await
}

/// Views (full and previews) of a channel's articles since `since`.
pub async fn channel_views(db: impl PgExecutor<'_>, channel_id: &str, since: DateTime<Utc>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select coalesce(sum(v.full_views + v.preview_views), 0)::bigint as "views!" from article_view_day v
           join article a on a.article_id = v.article_id
           where a.premium_channel_id = $1 and v.day >= ($2::timestamptz at time zone 'UTC')::date"#,
        channel_id,
        since,
    )
    .fetch_one(db)
    .await
}

/// A view to record.
pub struct NewView<'a> {
    pub article_id: &'a str,
    pub user_id: &'a str,
    pub session_id: &'a str,
    /// 'full' or 'preview'.
    pub kind: &'a str,
    pub view_type: &'a str,
    pub source: Option<&'a str>,
    pub source_id: Option<&'a str>,
    pub source_detail: Option<&'a str>,
    /// A campaign id to attribute the view to (kept only when it is a campaign of this article).
    pub campaign_id: Option<&'a str>,
}

/// Records a view once per article, reader, session and kind, in one statement: the event, its
/// day's total, and for a full read the reader's count and last view (the stats page). False when
/// the session had already been counted.
pub async fn record_view(db: impl PgExecutor<'_>, v: &NewView<'_>) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"with event as (
               insert into article_view_event (article_id, user_id, session_id, kind, view_type, source, source_id,
                                               source_detail, campaign_id)
               values ($1, $2, $3, $4, $5, $6, $7, $8,
                       (select campaign_id from campaign where campaign_id = $9 and article_id = $1))
               on conflict on constraint article_view_event_session_key do nothing
               returning viewed_at),
           day as (
               insert into article_view_day (article_id, day, full_views, preview_views)
               select $1, (viewed_at at time zone 'UTC')::date, (case when $4 = 'full' then 1 else 0 end),
                      (case when $4 = 'preview' then 1 else 0 end)
               from event
               on conflict (article_id, day) do update
                   set full_views = article_view_day.full_views + excluded.full_views,
                       preview_views = article_view_day.preview_views + excluded.preview_views
               returning 1),
           reader as (
               insert into article_view (article_id, user_id, views, last_viewed)
               select $1, $2, 1, viewed_at from event where $4 = 'full'
               on conflict (article_id, user_id) do update
                   set views = article_view.views + 1, last_viewed = excluded.last_viewed
               returning 1)
           select exists(select 1 from event) as "counted!""#,
        v.article_id,
        v.user_id,
        v.session_id,
        v.kind,
        v.view_type,
        v.source,
        v.source_id,
        v.source_detail,
        v.campaign_id,
    )
    .fetch_one(db)
    .await
}

/// Records articles that reached a reader other than through the web: delivered in full by a
/// private feed (`feed`) or read by their AI assistant (`agent`). Once per article and `session`
/// (the feed link, the MCP session), however often; not counted as the web's full reads.
pub async fn record_source_reads(db: impl PgExecutor<'_>, user_id: &str, kind: &str, session: &str, article_ids: &[String]) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into article_view_event (article_id, user_id, session_id, kind, view_type, source, source_id)
         select id, $1, $2 || ':' || $3, $2, $2, $2, $3 from unnest($4::text[]) as id
         on conflict on constraint article_view_event_session_key do nothing",
        user_id,
        kind,
        session,
        article_ids
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn insert_campaign(db: impl PgExecutor<'_>, id: &str, article_id: &str, campaign_type: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into campaign (campaign_id, article_id, campaign_type) values ($1, $2, $3)", id, article_id, campaign_type)
        .execute(db)
        .await?;
    Ok(())
}

/// Desks, tags and channels of the published articles under `topics` (all articles: none).
pub struct BrowseFacts {
    pub desks: Json<Vec<DeskFact>>,
    pub tags: Json<Vec<Named>>,
    pub channels: Json<Vec<ChannelFact>>,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct DeskFact {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct ChannelFact {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub channel_type: String,
    pub state: String,
}

/// The desks that published under the topics, their 20 most used tags, and the active channels
/// holding their articles.
pub async fn browse_facts(db: impl PgExecutor<'_>, topics: Option<&[String]>) -> sqlx::Result<BrowseFacts> {
    sqlx::query_as!(
        BrowseFacts,
        r#"with scope as (
               select a.article_id, a.published_by_desk_id, a.premium_channel_id from article a
               where a.state = 'Published'
                 and ($1::text[] is null or a.article_id in (select x.article_id from article_category x where x.category_id = any($1))))
           select
             coalesce((select jsonb_agg(jsonb_build_object('_id', d.desk_id, 'name', d.name, 'email', d.email) order by lower(d.name))
                       from desk d where d.desk_id in (select published_by_desk_id from scope)), '[]') as "desks!: Json<Vec<DeskFact>>",
             coalesce((select jsonb_agg(jsonb_build_object('_id', t.tag_id, 'name', t.name) order by n.uses desc, lower(t.name))
                       from (select x.tag_id, count(*) as uses from article_tag x where x.article_id in (select article_id from scope)
                             group by x.tag_id order by uses desc, x.tag_id limit 20) n
                       join tag t on t.tag_id = n.tag_id), '[]') as "tags!: Json<Vec<Named>>",
             coalesce((select jsonb_agg(jsonb_build_object('_id', c.channel_id, 'name', c.name, 'type', c.type, 'state', c.state)
                                        order by lower(c.name collate "default"))
                       from channel c where c.state = 'active' and c.channel_id in (select premium_channel_id from scope)), '[]')
               as "channels!: Json<Vec<ChannelFact>>""#,
        topics,
    )
    .fetch_one(db)
    .await
}

pub struct MonthRow {
    pub date_id: String,
    pub article_count: i64,
}

/// Months (UTC, 'YYYY-MM') with published articles, newest first, optionally under some topics.
pub async fn months_with_articles(db: impl PgExecutor<'_>, topics: Option<&[String]>) -> sqlx::Result<Vec<MonthRow>> {
    sqlx::query_as!(
        MonthRow,
        r#"select to_char(a.publish_date at time zone 'UTC', 'YYYY-MM') as "date_id!", count(*) as "article_count!"
           from article a
           where a.state = 'Published'
             and ($1::text[] is null or a.article_id in (select x.article_id from article_category x where x.category_id = any($1)))
           group by 1 order by 1 desc"#,
        topics,
    )
    .fetch_all(db)
    .await
}

/// A contributor's public facts.
pub struct ContributorRow {
    pub user_id: String,
    pub name: String,
    pub position: Option<String>,
    pub phone: Option<String>,
    pub has_picture: bool,
    pub channels: Json<Vec<ChannelFact>>,
    pub desks: Json<Vec<DeskFact>>,
}

/// Staff credited on published articles (or one of them), by name, with their active channels
/// (owned, or published in) and desks.
pub async fn contributors(db: impl PgExecutor<'_>, only: Option<&str>) -> sqlx::Result<Vec<ContributorRow>> {
    sqlx::query_as!(
        ContributorRow,
        r#"select u.user_id, u.name, u.position, u.phone, (u.display_avatar and u.profile_picture is not null) as "has_picture!",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', c.channel_id, 'name', c.name, 'type', c.type, 'state', c.state)
                                             order by lower(c.name collate "default"))
                            from channel c
                            where c.state = 'active'
                              and (c.owner_user_id = u.user_id
                                   or c.channel_id in (select a.premium_channel_id from article_contributor x
                                                       join article a on a.article_id = x.article_id
                                                       where x.user_id = u.user_id and a.state = 'Published'))), '[]')
                    as "channels!: Json<Vec<ChannelFact>>",
                  coalesce((select jsonb_agg(jsonb_build_object('_id', d.desk_id, 'name', d.name, 'email', d.email) order by lower(d.name))
                            from desk_contributor dc join desk d on d.desk_id = dc.desk_id where dc.user_id = u.user_id), '[]')
                    as "desks!: Json<Vec<DeskFact>>"
           from users u
           where ($1::text is null or u.user_id = $1)
             and u.role in ('Administrator', 'Editor', 'Contributor')
             and exists(select 1 from article_contributor x join article a on a.article_id = x.article_id
                        where x.user_id = u.user_id and a.state = 'Published')
           order by lower(u.name), u.user_id"#,
        only,
    )
    .fetch_all(db)
    .await
}

/// The topics a user follows (id, name), by name.
pub async fn followed_topics(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        r#"select c.category_id, c.name as "name: String" from category_follow f join category c on c.category_id = f.category_id
           where f.user_id = $1 order by lower(c.name collate "default"), c.category_id"#,
        user_id
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.category_id, r.name)).collect())
}

/// One line of a reader's reading statement.
#[derive(Debug, Clone)]
pub struct StatementRow {
    pub article_id: String,
    pub title: String,
    pub channel_name: Option<String>,
    pub first_read: DateTime<Utc>,
    pub reads: i64,
    pub full: bool,
    /// How it reached the reader: `web`, `feed` (a private feed), `agent` (their AI assistant).
    pub sources: Vec<String>,
}

/// What a reader read in [from, to): each article once, with its channel, first read, reads, and
/// whether any read was of the full article (else previews only; a feed and an assistant get the
/// full article), and how it reached them, in order of first read.
pub async fn reading_statement(db: impl PgExecutor<'_>, user_id: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> sqlx::Result<Vec<StatementRow>> {
    sqlx::query_as!(
        StatementRow,
        r#"select e.article_id, a.title, c.name::text as "channel_name?", min(e.viewed_at) as "first_read!",
                  count(*) as "reads!", bool_or(e.kind <> 'preview') as "full!",
                  array_agg(distinct case when e.kind in ('full', 'preview') then 'web' else e.kind end) as "sources!"
           from article_view_event e
           join article a on a.article_id = e.article_id
           left join channel c on c.channel_id = a.premium_channel_id
           where e.user_id = $1 and e.viewed_at >= $2 and e.viewed_at < $3
           group by e.article_id, a.title, c.name
           order by min(e.viewed_at), e.article_id"#,
        user_id,
        from,
        to
    )
    .fetch_all(db)
    .await
}
