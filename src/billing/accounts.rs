//! Clearing accounts (spec 3 §3 Billing account): the firm's accounts a reader may charge a
//! premium channel to. Administrators add and remove them on the user's edit screen; operators
//! import them from CSV (`insights-cli billing-accounts import`).

use sqlx::{PgExecutor, PgPool};

use crate::{
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result},
    validation::max_length_message,
};

pub const ACCOUNT_NUMBER_MAX: usize = 64;
pub const NAME_MAX: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingAccount {
    pub account_id: i64,
    pub user_id: String,
    pub account_number: String,
    pub name: Option<String>,
}

/// A user's accounts whose number or name contains `filter` (case-insensitive), by number.
pub async fn of_user(db: impl PgExecutor<'_>, user_id: &str, filter: Option<&str>) -> sqlx::Result<Vec<BillingAccount>> {
    let filter = filter.map(str::trim).filter(|f| !f.is_empty()).map(|f| format!("%{}%", f.replace(['%', '_', '\\'], "")));
    sqlx::query_as!(
        BillingAccount,
        "select account_id, user_id, account_number, name from billing_account
          where user_id = $1 and ($2::text is null or account_number ilike $2 or name ilike $2)
          order by account_number",
        user_id,
        filter,
    )
    .fetch_all(db)
    .await
}

/// Whether `account_number` is one of the user's accounts.
pub async fn owns(db: impl PgExecutor<'_>, user_id: &str, account_number: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("select 1 from billing_account where user_id = $1 and account_number = $2", user_id, account_number)
        .fetch_optional(db)
        .await?
        .is_some())
}

/// Checks an account number and name as typed; returns them trimmed.
pub fn validate(account_number: &str, name: Option<&str>) -> Result<(String, Option<String>)> {
    let mut fields = FieldErrors::new();
    let number = account_number.trim();
    if number.is_empty() {
        fields.insert("accountNumber".into(), REQUIRED_MESSAGE.into());
    } else if number.chars().count() > ACCOUNT_NUMBER_MAX {
        fields.insert("accountNumber".into(), max_length_message(ACCOUNT_NUMBER_MAX));
    }
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > NAME_MAX) {
        fields.insert("name".into(), max_length_message(NAME_MAX));
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok((number.to_owned(), name.map(str::to_owned)))
}

/// Adds an account to a user (the same number again updates its name).
pub async fn add(pool: &PgPool, user_id: &str, account_number: &str, name: Option<&str>) -> Result<BillingAccount> {
    let (number, name) = validate(account_number, name)?;
    let exists = sqlx::query_scalar!("select 1 from users where user_id = $1", user_id).fetch_optional(pool).await?;
    if exists.is_none() {
        return Err(Error::NotFound("User"));
    }
    Ok(sqlx::query_as!(
        BillingAccount,
        "insert into billing_account (user_id, account_number, name) values ($1, $2, $3)
         on conflict on constraint billing_account_number do update set name = excluded.name
         returning account_id, user_id, account_number, name",
        user_id,
        number,
        name,
    )
    .fetch_one(pool)
    .await?)
}

/// Removes an account; subscriptions already charged to it keep their account number.
pub async fn remove(pool: &PgPool, account_id: i64) -> Result<()> {
    let removed = sqlx::query!("delete from billing_account where account_id = $1", account_id).execute(pool).await?.rows_affected();
    if removed == 0 { Err(Error::NotFound("Billing account")) } else { Ok(()) }
}

/// One row of an import: the user's email, the account number and its name.
#[derive(Debug, Clone)]
pub struct ImportRow {
    pub email: String,
    pub account_number: String,
    pub name: Option<String>,
}

/// What an import did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Imported {
    pub added: u64,
    pub updated: u64,
    /// Rows naming no Insights user, by email.
    pub unknown_users: Vec<String>,
}

/// Adds (or renames) accounts for users found by email, in one transaction.
pub async fn import(pool: &PgPool, rows: &[ImportRow]) -> Result<Imported> {
    let emails: Vec<String> = rows.iter().map(|r| r.email.trim().to_lowercase()).collect();
    let numbers: Vec<&str> = rows.iter().map(|r| r.account_number.trim()).collect();
    let names: Vec<Option<&str>> = rows.iter().map(|r| r.name.as_deref().map(str::trim).filter(|n| !n.is_empty())).collect();
    let mut tx = pool.begin().await?;
    let unknown_users: Vec<String> = sqlx::query_scalar!(
        r#"select distinct v.email as "email!" from unnest($1::text[]) as v(email)
            where not exists (select 1 from users u where lower(u.email) = v.email) order by 1"#,
        &emails,
    )
    .fetch_all(&mut *tx)
    .await?;
    let written = sqlx::query!(
        r#"insert into billing_account (user_id, account_number, name)
           select distinct on (u.user_id, v.number) u.user_id, v.number, v.name
             from unnest($1::text[], $2::text[], $3::text[]) as v(email, number, name)
             join users u on lower(u.email) = v.email
           on conflict on constraint billing_account_number do update set name = coalesce(excluded.name, billing_account.name)
           returning (xmax = 0) as "inserted!""#,
        &emails,
        &numbers as &[&str],
        &names as &[Option<&str>],
    )
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    let added = written.iter().filter(|r| r.inserted).count() as u64;
    Ok(Imported { added, updated: written.len() as u64 - added, unknown_users })
}
