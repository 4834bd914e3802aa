//! SQL of the users area.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use crate::{auth::Identity, ids};

#[derive(Debug, Clone)]
pub struct User {
    pub user_id: String,
    pub subject: String,
    pub email: String,
    pub name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub company: Option<String>,
    pub phone: Option<String>,
    pub position: Option<String>,
    pub scopes: Vec<String>,
    pub is_internal: bool,
    pub display_avatar: bool,
    pub tableau_access: bool,
    pub first_login: DateTime<Utc>,
    pub last_login: Option<DateTime<Utc>>,
    pub version: i32,
    /// The contributor photo's file in the upload area.
    pub profile_picture: Option<String>,
    /// Counts a list query computed with the row; loaded on demand otherwise.
    pub stats: Option<UserStats>,
}

/// The articles a user contributed to and their views.
#[derive(Debug, Clone, Copy, Default)]
pub struct UserStats {
    pub article_count: i64,
    pub views: i64,
}

/// Builds a `User` from a query record that selects the user columns (and, with `stats`, the counts).
macro_rules! user_from_row {
    ($row:expr, $stats:expr) => {{
        let row = $row;
        User {
            user_id: row.user_id,
            subject: row.subject,
            email: row.email,
            name: row.name,
            first_name: row.first_name,
            last_name: row.last_name,
            company: row.company,
            phone: row.phone,
            position: row.position,
            scopes: row.scopes,
            is_internal: row.is_internal,
            display_avatar: row.display_avatar,
            tableau_access: row.tableau_access,
            first_login: row.first_login,
            last_login: row.last_login,
            version: row.version,
            profile_picture: row.profile_picture,
            stats: $stats,
        }
    }};
}

impl User {
    /// Whether the stored copy already says what `identity` says (then nothing is written).
    pub fn matches(&self, identity: &Identity) -> bool {
        self.email == identity.email
            && (identity.name.is_empty() || self.name == identity.name)
            && self.scopes == identity.scopes
            && (identity.company.is_none() || self.company == identity.company)
            && (identity.phone.is_none() || self.phone == identity.phone)
            && (identity.first_name.is_none() || self.first_name == identity.first_name)
            && (identity.last_name.is_none() || self.last_name == identity.last_name)
    }
}

pub async fn find_by_subject(db: impl PgExecutor<'_>, subject: &str) -> sqlx::Result<Option<User>> {
    let row = sqlx::query!(
        "select user_id, subject, email, name, first_name, last_name, company, phone, position, scopes,
                is_internal, display_avatar, tableau_access, first_login, last_login, version, profile_picture
         from users where subject = $1",
        subject
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|row| user_from_row!(row, None)))
}

pub async fn find_by_id(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<User>> {
    let row = sqlx::query!(
        "select user_id, subject, email, name, first_name, last_name, company, phone, position, scopes,
                is_internal, display_avatar, tableau_access, first_login, last_login, version, profile_picture
         from users where user_id = $1",
        id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|row| user_from_row!(row, None)))
}

/// Creates the user of `identity`, or brings the stored copy in step with it. Claims the token
/// does not carry keep their stored value. Only a token issued at or after the one whose claims
/// are stored writes (one without `iat` counts as the oldest): none when the stored claims are
/// newer. Returns the user and whether it was created.
pub async fn upsert_from_identity(
    db: impl PgExecutor<'_>,
    identity: &Identity,
    issued_at: Option<DateTime<Utc>>,
    is_internal: bool,
) -> sqlx::Result<Option<(User, bool)>> {
    let role = identity.role().map(|r| r.as_str());
    let row = sqlx::query!(
        r#"insert into users (user_id, subject, email, name, first_name, last_name, company, phone, scopes, role, is_internal, token_issued_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           on conflict (subject) do update set
               email = excluded.email,
               name = coalesce(nullif(excluded.name, ''), users.name),
               first_name = coalesce(excluded.first_name, users.first_name),
               last_name = coalesce(excluded.last_name, users.last_name),
               company = coalesce(excluded.company, users.company),
               phone = coalesce(excluded.phone, users.phone),
               scopes = excluded.scopes,
               role = excluded.role,
               is_internal = excluded.is_internal,
               token_issued_at = excluded.token_issued_at
           where users.token_issued_at is null or excluded.token_issued_at >= users.token_issued_at
           returning user_id, subject, email, name, first_name, last_name, company, phone, position, scopes,
                     is_internal, display_avatar, tableau_access, first_login, last_login, version, profile_picture,
                     (xmax = 0) as "created!""#,
        ids::new_id(),
        identity.subject,
        identity.email,
        identity.name,
        identity.first_name,
        identity.last_name,
        identity.company,
        identity.phone,
        &identity.scopes,
        role,
        is_internal,
        issued_at,
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|row| {
        let created = row.created;
        (user_from_row!(row, None), created)
    }))
}

/// The user with this address, if any (addresses compare ignoring case).
pub async fn user_id_by_email(db: impl PgExecutor<'_>, email: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select user_id from users where email = $1 order by created_at limit 1", email).fetch_optional(db).await
}

/// Records a sign-in; returns the previous sign-in time (none for a new user).
pub async fn record_sign_in(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!(
        "update users set last_login = now()
         where user_id = $1
         returning (select u.last_login from users u where u.user_id = $1)",
        user_id
    )
    .fetch_one(db)
    .await
}

// ---- the users admin list ----

/// What a users list asks for; `sort` is one of the whitelisted names.
pub struct UserListQuery<'a> {
    /// Only users with this role.
    pub role: Option<&'a str>,
    pub trial_only: bool,
    /// Only users who can be added to this channel (spec 3 §5): signed in, and with no subscription
    /// to it but one whose trial ended.
    pub subscribable_to: Option<&'a str>,
    /// A LIKE pattern over lower-cased "name email company".
    pub pattern: Option<&'a str>,
    pub sort: &'a str,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

/// A page of users with their counts. The counts are computed after the page is cut (PostgreSQL
/// evaluates the sub-selects past the sort and limit unless the sort needs them).
pub async fn list_users(db: impl PgExecutor<'_>, q: &UserListQuery<'_>) -> sqlx::Result<Vec<User>> {
    let rows = sqlx::query!(
        r#"select u.user_id, u.subject, u.email, u.name, u.first_name, u.last_name, u.company, u.phone, u.position,
                  u.scopes, u.is_internal, u.display_avatar, u.tableau_access, u.first_login, u.last_login, u.version,
                  u.profile_picture,
                  (select count(*) from article_contributor ac where ac.user_id = u.user_id) as "article_count!",
                  (select coalesce(sum(v.views), 0) from article_contributor ac
                     join article_view v using (article_id) where ac.user_id = u.user_id)::bigint as "views!"
           from users u
           where ($1::text is null or u.role = $1)
             and (not $2 or u.is_trial)
             and ($3::text is null or u.search_text like $3)
             and ($8::text is null or (u.last_login is not null and not exists (
                    select 1 from channel_subscription s
                    where s.channel_id = $8 and s.user_id = u.user_id and not subscription_trial_ended(s))))
           order by
             case when $4 = 'name' and not $5 then lower(u.name) end asc,
             case when $4 = 'name' and $5 then lower(u.name) end desc,
             case when $4 = 'email' and not $5 then lower(u.email collate "default") end asc,
             case when $4 = 'email' and $5 then lower(u.email collate "default") end desc,
             case when $4 = 'company' and not $5 then lower(u.company) end asc,
             case when $4 = 'company' and $5 then lower(u.company) end desc,
             case when $4 = 'role' and not $5 then u.role end asc,
             case when $4 = 'role' and $5 then u.role end desc,
             case when $4 = 'lastLogin' and not $5 then u.last_login end asc nulls first,
             case when $4 = 'lastLogin' and $5 then u.last_login end desc nulls last,
             case when $4 = 'trial' and not $5 then case when u.is_trial then u.first_login end end asc nulls first,
             case when $4 = 'trial' and $5 then case when u.is_trial then u.first_login end end desc nulls last,
             case when $4 = 'articles' and not $5 then (select count(*) from article_contributor ac where ac.user_id = u.user_id) end asc,
             case when $4 = 'articles' and $5 then (select count(*) from article_contributor ac where ac.user_id = u.user_id) end desc,
             case when $4 = 'views' and not $5 then (select coalesce(sum(v.views), 0) from article_contributor ac
                     join article_view v using (article_id) where ac.user_id = u.user_id) end asc,
             case when $4 = 'views' and $5 then (select coalesce(sum(v.views), 0) from article_contributor ac
                     join article_view v using (article_id) where ac.user_id = u.user_id) end desc,
             lower(u.name), u.last_login desc nulls last, u.user_id
           limit $6 offset $7"#,
        q.role,
        q.trial_only,
        q.pattern,
        q.sort,
        q.descending,
        q.limit,
        q.offset,
        q.subscribable_to,
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let stats = UserStats { article_count: row.article_count, views: row.views };
            user_from_row!(row, Some(stats))
        })
        .collect())
}

pub async fn count_users(db: impl PgExecutor<'_>, q: &UserListQuery<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from users u
           where ($1::text is null or u.role = $1) and (not $2 or u.is_trial) and ($3::text is null or u.search_text like $3)
             and ($4::text is null or (u.last_login is not null and not exists (
                    select 1 from channel_subscription s
                    where s.channel_id = $4 and s.user_id = u.user_id and not subscription_trial_ended(s))))"#,
        q.role,
        q.trial_only,
        q.pattern,
        q.subscribable_to,
    )
    .fetch_one(db)
    .await
}

pub async fn stats_of(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<UserStats> {
    let row = sqlx::query!(
        r#"select (select count(*) from article_contributor ac where ac.user_id = $1) as "article_count!",
                  (select coalesce(sum(v.views), 0) from article_contributor ac
                     join article_view v using (article_id) where ac.user_id = $1)::bigint as "views!""#,
        user_id
    )
    .fetch_one(db)
    .await?;
    Ok(UserStats { article_count: row.article_count, views: row.views })
}

/// The user's version, locking the row for an edit; none when they do not exist.
pub async fn lock_user_version(conn: &mut sqlx::PgConnection, id: &str) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar!("select version from users where user_id = $1 for update", id).fetch_optional(conn).await
}

/// Writes an administrator's edit; a `profile_picture` of none keeps the current one.
pub async fn update_profile(
    conn: &mut sqlx::PgConnection,
    id: &str,
    position: Option<&str>,
    display_avatar: bool,
    tableau_access: bool,
    profile_picture: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update users set position = $2, display_avatar = $3, tableau_access = $4,
                profile_picture = coalesce($5, profile_picture), version = version + 1
         where user_id = $1",
        id,
        position,
        display_avatar,
        tableau_access,
        profile_picture,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A user as other records show them.
#[derive(Debug, Clone, async_graphql::SimpleObject, serde::Deserialize)]
pub struct UserSummary {
    #[graphql(name = "_id")]
    #[serde(rename = "_id")]
    pub user_id: String,
    pub name: String,
    pub email: String,
}

impl UserSummary {
    /// A user read through an outer join (a creator or author who may be gone): all three columns or none.
    pub fn from_columns(user_id: &Option<String>, name: &Option<String>, email: &Option<String>) -> Option<UserSummary> {
        Some(UserSummary { user_id: user_id.clone()?, name: name.clone()?, email: email.clone()? })
    }
}

/// Users holding a staff role whose name or email matches, by name.
pub async fn staff_users(db: impl PgExecutor<'_>, pattern: Option<&str>, limit: i64) -> sqlx::Result<Vec<UserSummary>> {
    sqlx::query_as!(
        UserSummary,
        r#"select user_id, name, email as "email: String" from users u
           where u.role in ('Administrator', 'Editor', 'Contributor') and ($1::text is null or u.search_text like $1)
           order by lower(u.name), u.user_id limit $2"#,
        pattern,
        limit,
    )
    .fetch_all(db)
    .await
}

/// Of `ids`, those that are not users holding a staff role.
pub async fn non_staff_among(db: impl PgExecutor<'_>, ids: &[String]) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"select id as "id!" from unnest($1::text[]) id
           where not exists(select 1 from users u where u.user_id = id and u.role in ('Administrator', 'Editor', 'Contributor'))"#,
        ids
    )
    .fetch_all(db)
    .await
}

/// Whether `user_id` may own a channel as a contributor: a user with an editing scope.
pub async fn is_contributor(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select 1 from users where user_id = $1
                         and scopes && array['insights:content-publish', 'insights:content-edit']) as "ok!""#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// Contributors (users with an editing scope) whose name matches, by name.
pub async fn search_contributors(db: impl PgExecutor<'_>, pattern: Option<&str>, limit: i64) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        r#"select user_id, name from users u
           where u.scopes && array['insights:content-publish', 'insights:content-edit']
             and ($1::text is null or u.search_text like $1)
           order by lower(u.name), u.user_id limit $2"#,
        pattern,
        limit
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.user_id, r.name)).collect())
}
