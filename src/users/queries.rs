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
    sqlx::query_as!(
        User,
        "select user_id, subject, email, name, first_name, last_name, company, phone, position, scopes,
                is_internal, display_avatar, tableau_access, first_login, last_login, version
         from users where subject = $1",
        subject
    )
    .fetch_optional(db)
    .await
}

/// Creates the user of `identity`, or brings the stored copy in step with it. Claims the token
/// does not carry keep their stored value. Returns the user and whether it was created.
pub async fn upsert_from_identity(
    db: impl PgExecutor<'_>,
    identity: &Identity,
    is_internal: bool,
) -> sqlx::Result<(User, bool)> {
    let role = identity.role().map(|r| r.as_str());
    let row = sqlx::query!(
        r#"insert into users (user_id, subject, email, name, first_name, last_name, company, phone, scopes, role, is_internal)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           on conflict (subject) do update set
               email = excluded.email,
               name = coalesce(nullif(excluded.name, ''), users.name),
               first_name = coalesce(excluded.first_name, users.first_name),
               last_name = coalesce(excluded.last_name, users.last_name),
               company = coalesce(excluded.company, users.company),
               phone = coalesce(excluded.phone, users.phone),
               scopes = excluded.scopes,
               role = excluded.role,
               is_internal = excluded.is_internal
           returning user_id, subject, email, name, first_name, last_name, company, phone, position, scopes,
                     is_internal, display_avatar, tableau_access, first_login, last_login, version,
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
    )
    .fetch_one(db)
    .await?;
    let user = User {
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
    };
    Ok((user, row.created))
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
