//! SQL of the channels area.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use crate::users::UserSummary;

/// A channel with its owner and creator, as every read returns it (counts: `counts_of`).
#[derive(Clone)]
pub struct ChannelRow {
    pub channel_id: String,
    pub name: String,
    pub description: Option<String>,
    pub url: Option<String>,
    pub profile_image: Option<String>,
    pub cover_image: Option<String>,
    pub gl_account: Option<String>,
    /// Dollars with two decimals, as PostgreSQL prints `numeric(12, 2)`.
    pub price: Option<String>,
    pub channel_type: String,
    pub owner_type: String,
    pub owner_id: String,
    pub owner_name: String,
    pub default_trial_duration_days: Option<i32>,
    pub hide_disclaimer: bool,
    pub state: String,
    pub created_at: DateTime<Utc>,
    pub created_by_id: Option<String>,
    pub created_by_name: Option<String>,
    pub created_by_email: Option<String>,
    pub version: i32,
    /// Whether the asking user is one of the channel's admins.
    pub viewer_is_admin: bool,
}

/// Which channels a read wants. Every filter is optional; `sort` is a whitelisted name.
#[derive(Default)]
pub struct ChannelFilter<'a> {
    pub id: Option<&'a str>,
    /// Any of these ids (none: every channel).
    pub ids: &'a [String],
    pub state: Option<&'a str>,
    /// Any of these types (none: every type).
    pub types: &'a [String],
    /// Only channels this user administers.
    pub admin: Option<&'a str>,
    /// Only channels this user may publish to: administers, owns, or a desk of theirs owns.
    pub publisher: Option<&'a str>,
    /// A LIKE pattern over the lower-cased name.
    pub pattern: Option<&'a str>,
    /// The asking user (for `viewer_is_admin`).
    pub viewer: &'a str,
    pub sort: &'a str,
    pub descending: bool,
    pub limit: Option<i64>,
    pub offset: i64,
}

/// Channels, filtered and sorted (the counts are sub-selects here only when the sort needs them).
pub async fn select_channels(db: impl PgExecutor<'_>, f: &ChannelFilter<'_>) -> sqlx::Result<Vec<ChannelRow>> {
    sqlx::query_as!(
        ChannelRow,
        r#"select c.channel_id, c.name as "name: String", c.description, c.url, c.profile_image, c.cover_image,
                  c.gl_account, c.price::text as price, c.type as channel_type, c.owner_type,
                  coalesce(c.owner_desk_id, c.owner_user_id) as "owner_id!",
                  coalesce(d.name::text, ou.name, '') as "owner_name!",
                  c.default_trial_duration_days, c.hide_disclaimer, c.state, c.created_at,
                  c.created_by as created_by_id, cu.name as "created_by_name?", cu.email::text as "created_by_email?",
                  c.version,
                  exists(select 1 from channel_admin ca where ca.channel_id = c.channel_id and ca.user_id = $7) as "viewer_is_admin!"
           from channel c
           left join desk d on d.desk_id = c.owner_desk_id
           left join users ou on ou.user_id = c.owner_user_id
           left join users cu on cu.user_id = c.created_by
           where ($1::text is null or c.channel_id = $1)
             and ($2::text is null or c.state = $2)
             and (cardinality($3::text[]) = 0 or c.type = any($3))
             and ($4::text is null or exists(select 1 from channel_admin ca where ca.channel_id = c.channel_id and ca.user_id = $4))
             and ($5::text is null
                  or exists(select 1 from channel_admin ca where ca.channel_id = c.channel_id and ca.user_id = $5)
                  or c.owner_user_id = $5
                  or exists(select 1 from desk_contributor dc where dc.desk_id = c.owner_desk_id and dc.user_id = $5))
             and ($6::text is null or lower(c.name collate "default") like $6)
             and (cardinality($12::text[]) = 0 or c.channel_id = any($12))
           order by
             case when $8 = 'name' and not $9 then lower(c.name collate "default") end asc,
             case when $8 = 'name' and $9 then lower(c.name collate "default") end desc,
             case when $8 = 'type' and not $9 then c.type end asc,
             case when $8 = 'type' and $9 then c.type end desc,
             case when $8 = 'owner' and not $9 then lower(coalesce(d.name::text, ou.name, '')) end asc,
             case when $8 = 'owner' and $9 then lower(coalesce(d.name::text, ou.name, '')) end desc,
             case when $8 = 'price' and not $9 then c.price end asc nulls first,
             case when $8 = 'price' and $9 then c.price end desc nulls last,
             case when $8 = 'createdAt' and not $9 then c.created_at end asc,
             case when $8 = 'createdAt' and $9 then c.created_at end desc,
             case when $8 = 'articles' and not $9 then
               (select count(*) from article a where a.premium_channel_id = c.channel_id and a.state <> 'Archived') end asc,
             case when $8 = 'articles' and $9 then
               (select count(*) from article a where a.premium_channel_id = c.channel_id and a.state <> 'Archived') end desc,
             case when $8 = 'activeUsers' and not $9 then
               (select count(*) from channel_subscription s where s.channel_id = c.channel_id and s.subscription_state = 'active'
                  and (s.cancel_at is null or s.cancel_at > now())) end asc,
             case when $8 = 'activeUsers' and $9 then
               (select count(*) from channel_subscription s where s.channel_id = c.channel_id and s.subscription_state = 'active'
                  and (s.cancel_at is null or s.cancel_at > now())) end desc,
             lower(c.name collate "default"), c.channel_id
           limit $10 offset $11"#,
        f.id,
        f.state,
        f.types,
        f.admin,
        f.publisher,
        f.pattern,
        f.viewer,
        f.sort,
        f.descending,
        f.limit,
        f.offset,
        f.ids,
    )
    .fetch_all(db)
    .await
}

/// The counts a channel shows.
#[derive(Clone)]
pub struct ChannelCounts {
    pub channel_id: String,
    /// Articles that are not archived.
    pub article_count: i64,
    pub archived_article_count: i64,
    pub template_count: i64,
    /// Subscriptions in state active that have not reached their end.
    pub active_users: i64,
}

/// The counts of several channels in one statement.
pub async fn counts_of(db: impl PgExecutor<'_>, channel_ids: &[String]) -> sqlx::Result<Vec<ChannelCounts>> {
    sqlx::query_as!(
        ChannelCounts,
        r#"select ids.id as "channel_id!",
                  (select count(*) from article a where a.premium_channel_id = ids.id and a.state <> 'Archived') as "article_count!",
                  (select count(*) from article a where a.premium_channel_id = ids.id and a.state = 'Archived') as "archived_article_count!",
                  (select count(*) from template t where t.premium_channel_id = ids.id) as "template_count!",
                  (select count(*) from channel_subscription s
                     where s.channel_id = ids.id and s.subscription_state = 'active'
                       and (s.cancel_at is null or s.cancel_at > now())) as "active_users!"
           from unnest($1::text[]) as ids(id)"#,
        channel_ids
    )
    .fetch_all(db)
    .await
}

pub async fn count_channels(db: impl PgExecutor<'_>, f: &ChannelFilter<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from channel c
           where ($1::text is null or c.state = $1)
             and (cardinality($2::text[]) = 0 or c.type = any($2))
             and ($3::text is null or exists(select 1 from channel_admin ca where ca.channel_id = c.channel_id and ca.user_id = $3))
             and ($4::text is null or lower(c.name collate "default") like $4)"#,
        f.state,
        f.types,
        f.admin,
        f.pattern,
    )
    .fetch_one(db)
    .await
}

/// The admins of each of `channel_ids`, by name (one statement for a whole list).
pub async fn admins_of(db: impl PgExecutor<'_>, channel_ids: &[String]) -> sqlx::Result<Vec<(String, UserSummary)>> {
    let rows = sqlx::query!(
        r#"select ca.channel_id, u.user_id, u.name, u.email as "email: String"
           from channel_admin ca join users u using (user_id)
           where ca.channel_id = any($1) order by lower(u.name), u.user_id"#,
        channel_ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.channel_id, UserSummary { user_id: r.user_id, name: r.name, email: r.email })).collect())
}

/// Active subscriptions of a channel: state active and not past their end.
pub async fn active_subscriptions(db: impl PgExecutor<'_>, channel_id: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from channel_subscription
           where channel_id = $1 and subscription_state = 'active' and (cancel_at is null or cancel_at > now())"#,
        channel_id
    )
    .fetch_one(db)
    .await
}

/// The fields of a channel that a write sets.
pub struct ChannelValues<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub url: Option<&'a str>,
    pub profile_image: Option<&'a str>,
    pub cover_image: Option<&'a str>,
    pub gl_account: Option<&'a str>,
    pub price: Option<&'a str>,
    pub default_trial_duration_days: Option<i32>,
    pub hide_disclaimer: bool,
}

pub struct NewChannel<'a> {
    pub id: &'a str,
    pub channel_type: &'a str,
    pub owner_type: &'a str,
    pub owner_desk_id: Option<&'a str>,
    pub owner_user_id: Option<&'a str>,
    pub created_by: &'a str,
}

pub async fn insert_channel(conn: &mut PgConnection, new: &NewChannel<'_>, v: &ChannelValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into channel (channel_id, type, owner_type, owner_desk_id, owner_user_id, created_by, name, description, url,
                              profile_image, cover_image, gl_account, price, default_trial_duration_days, hide_disclaimer)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::text::numeric, $14, $15)",
        new.id,
        new.channel_type,
        new.owner_type,
        new.owner_desk_id,
        new.owner_user_id,
        new.created_by,
        v.name,
        v.description,
        v.url,
        v.profile_image,
        v.cover_image,
        v.gl_account,
        v.price,
        v.default_trial_duration_days,
        v.hide_disclaimer,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What an edit needs to know about the stored channel, read under a row lock.
pub struct LockedChannel {
    pub name: String,
    pub channel_type: String,
    pub owner_type: String,
    pub owner_id: String,
    pub state: String,
    pub version: i32,
}

pub async fn lock_channel(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<LockedChannel>> {
    sqlx::query_as!(
        LockedChannel,
        r#"select name as "name: String", type as channel_type, owner_type,
                  coalesce(owner_desk_id, owner_user_id) as "owner_id!", state, version
           from channel where channel_id = $1 for update"#,
        id
    )
    .fetch_optional(conn)
    .await
}

pub async fn update_channel(conn: &mut PgConnection, id: &str, v: &ChannelValues<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "update channel set name = $2, description = $3, url = $4, profile_image = $5, cover_image = $6, gl_account = $7,
                price = $8::text::numeric, default_trial_duration_days = $9, hide_disclaimer = $10, version = version + 1
         where channel_id = $1",
        id,
        v.name,
        v.description,
        v.url,
        v.profile_image,
        v.cover_image,
        v.gl_account,
        v.price,
        v.default_trial_duration_days,
        v.hide_disclaimer,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Makes `user_ids` the channel's admins.
pub async fn set_admins(conn: &mut PgConnection, channel_id: &str, user_ids: &[String]) -> sqlx::Result<()> {
    sqlx::query!("delete from channel_admin where channel_id = $1 and not (user_id = any($2))", channel_id, user_ids)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "insert into channel_admin (channel_id, user_id) select $1, unnest($2::text[]) on conflict do nothing",
        channel_id,
        user_ids
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn is_admin(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select 1 from channel_admin where channel_id = $1 and user_id = $2) as "admin!""#,
        channel_id,
        user_id
    )
    .fetch_one(db)
    .await
}

/// Archives the channel's articles that are not archived yet; returns how many.
pub async fn archive_articles(conn: &mut PgConnection, channel_id: &str) -> sqlx::Result<u64> {
    let done = sqlx::query!(
        "update article set state = 'Archived', version = version + 1 where premium_channel_id = $1 and state <> 'Archived'",
        channel_id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

pub async fn mark_archived(conn: &mut PgConnection, channel_id: &str) -> sqlx::Result<()> {
    sqlx::query!("update channel set state = 'archived', archived_at = now(), version = version + 1 where channel_id = $1", channel_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The id of the channel named `name` (names are unique ignoring case).
pub async fn id_by_name(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select channel_id from channel where name = $1", name).fetch_optional(db).await
}

/// A channel as an article or template sees it: its type, state, owner (the publisher) and
/// whether a user may publish to it.
pub struct PublishingChannel {
    pub channel_type: String,
    pub state: String,
    pub name: String,
    pub owner_desk_id: Option<String>,
    pub owner_user_id: Option<String>,
    /// The asking user may publish to it: admin of it, its owner, or a member of its desk.
    pub may_publish: bool,
}

pub async fn publishing_channel(db: impl PgExecutor<'_>, channel_id: &str, user_id: &str) -> sqlx::Result<Option<PublishingChannel>> {
    sqlx::query_as!(
        PublishingChannel,
        r#"select c.type as channel_type, c.state, c.name::text as "name!", c.owner_desk_id, c.owner_user_id,
                  (exists(select 1 from channel_admin ca where ca.channel_id = c.channel_id and ca.user_id = $2)
                   or coalesce(c.owner_user_id = $2, false)
                   or exists(select 1 from desk_contributor dc where dc.desk_id = c.owner_desk_id and dc.user_id = $2)) as "may_publish!"
           from channel c where c.channel_id = $1"#,
        channel_id,
        user_id
    )
    .fetch_optional(db)
    .await
}
