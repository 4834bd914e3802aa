//! SQL of the firms area.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use crate::subscriptions::machine::{Subscription, Terms};
use crate::subscriptions::model::{SubscriptionState, SubscriptionType};

/// A firm with the counts its list shows.
#[derive(Debug, Clone)]
pub struct FirmRow {
    pub firm_id: String,
    pub name: String,
    pub account_number: Option<String>,
    pub billing_method: String,
    pub state: String,
    pub notes: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub version: i32,
    pub readers: i64,
    /// Seats given, over every subscription.
    pub seats_used: i64,
    /// Seats of the live subscriptions, the ones `subscriptions` counts (started or not; 0 with
    /// none); none when one is unlimited.
    pub seats_held: Option<i64>,
    /// Live subscriptions: active and not ended, started or not.
    pub subscriptions: i64,
}

/// The firms list's page (with `id`, that firm), by name; `pattern` matches a name or a domain.
pub async fn list(
    db: impl PgExecutor<'_>,
    id: Option<&str>,
    pattern: Option<&str>,
    state: Option<&str>,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<FirmRow>> {
    sqlx::query_as!(
        FirmRow,
        r#"select f.firm_id, f.name as "name: String", f.account_number, f.billing_method, f.state, f.notes, f.created_by,
                  f.created_at, f.version,
                  (select count(*) from firm_member m where m.firm_id = f.firm_id) as "readers!",
                  (select count(*) from firm_seat s where s.firm_id = f.firm_id) as "seats_used!",
                  (select case when bool_or(fs.seats is null) then null else coalesce(sum(fs.seats), 0)::bigint end
                     from firm_subscription fs where fs.firm_id = f.firm_id and fs.subscription_state = 'active'
                      and (fs.cancel_at is null or fs.cancel_at > now())) as seats_held,
                  (select count(*) from firm_subscription fs where fs.firm_id = f.firm_id and fs.subscription_state = 'active'
                      and (fs.cancel_at is null or fs.cancel_at > now())) as "subscriptions!"
           from firm f
           where ($1::text is null or f.firm_id = $1)
             and ($3::text is null or f.state = $3)
             and ($2::text is null or lower(f.name collate "default") like $2
                  or exists (select from firm_domain d where d.firm_id = f.firm_id and d.domain like $2))
           order by lower(f.name collate "default"), f.firm_id
           limit $4 offset $5"#,
        id,
        pattern,
        state,
        limit,
        offset,
    )
    .fetch_all(db)
    .await
}

pub async fn count(db: impl PgExecutor<'_>, pattern: Option<&str>, state: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from firm f
           where ($2::text is null or f.state = $2)
             and ($1::text is null or lower(f.name collate "default") like $1
                  or exists (select from firm_domain d where d.firm_id = f.firm_id and d.domain like $1))"#,
        pattern,
        state,
    )
    .fetch_one(db)
    .await
}

pub async fn name(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(r#"select name as "name: String" from firm where firm_id = $1"#, id).fetch_optional(db).await
}

/// The domains of each of `firm_ids`, alphabetically.
pub async fn domains_of(db: impl PgExecutor<'_>, firm_ids: &[String]) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!("select firm_id, domain from firm_domain where firm_id = any($1) order by domain", firm_ids)
        .fetch_all(db)
        .await?;
    Ok(rows.into_iter().map(|r| (r.firm_id, r.domain)).collect())
}

/// Of `domains`, those another firm (not `firm_id`) has, with its name.
pub async fn domains_taken(db: impl PgExecutor<'_>, domains: &[String], firm_id: Option<&str>) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        r#"select d.domain, f.name as "name: String" from firm_domain d join firm f using (firm_id)
           where d.domain = any($1) and ($2::text is null or d.firm_id <> $2) order by d.domain"#,
        domains,
        firm_id,
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.domain, r.name)).collect())
}

/// Readers in no firm whose address is at one of `domains`: who would join a firm given them.
pub async fn firmless_readers_at(db: impl PgExecutor<'_>, domains: &[String]) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from users u
           where lower(substring(u.email collate "C" from '@([^@]+)$')) = any($1) and u.role = 'Subscriber'
             and not exists (select from firm_member m where m.user_id = u.user_id)"#,
        domains,
    )
    .fetch_one(db)
    .await
}

pub struct NewFirm<'a> {
    pub name: &'a str,
    pub account_number: Option<&'a str>,
    pub billing_method: &'a str,
    pub notes: Option<&'a str>,
}

pub async fn insert(conn: &mut PgConnection, id: &str, firm: &NewFirm<'_>, created_by: Option<&str>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into firm (firm_id, name, account_number, billing_method, notes, created_by) values ($1, $2, $3, $4, $5, $6)",
        id,
        firm.name,
        firm.account_number,
        firm.billing_method,
        firm.notes,
        created_by,
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn update(conn: &mut PgConnection, id: &str, firm: &NewFirm<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "update firm set name = $2, account_number = $3, billing_method = $4, notes = $5, version = version + 1 where firm_id = $1",
        id,
        firm.name,
        firm.account_number,
        firm.billing_method,
        firm.notes,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The firm's version and state, locking it for a change; none when it does not exist.
pub async fn lock(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<(i32, String)>> {
    let row = sqlx::query!("select version, state from firm where firm_id = $1 for update", id).fetch_optional(conn).await?;
    Ok(row.map(|r| (r.version, r.state)))
}

pub async fn archive(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!("update firm set state = 'archived', version = version + 1 where firm_id = $1", id).execute(conn).await?;
    Ok(())
}

/// Makes `domains` the firm's; returns the domains it no longer has.
pub async fn set_domains(conn: &mut PgConnection, firm_id: &str, domains: &[String]) -> sqlx::Result<Vec<String>> {
    let removed = sqlx::query_scalar!(
        "delete from firm_domain where firm_id = $1 and not (domain = any($2)) returning domain",
        firm_id,
        domains
    )
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query!("insert into firm_domain (domain, firm_id) select unnest($2::text[]), $1 on conflict do nothing", firm_id, domains)
        .execute(&mut *conn)
        .await?;
    Ok(removed)
}

/// Readers in no firm whose address is at one of the firm's domains join it; returns how many.
pub async fn join_by_domains(conn: &mut PgConnection, firm_id: &str) -> sqlx::Result<u64> {
    join_firms_by_domains(conn, &[firm_id.to_owned()]).await
}

/// Members who joined by one of `domains` (no longer the firm's) leave it; their seats end with
/// their membership (the foreign key cascades). Returns how many left.
pub async fn leave_by_domains(conn: &mut PgConnection, firm_id: &str, domains: &[String]) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        r#"delete from firm_member m using users u
           where m.user_id = u.user_id and m.firm_id = $1 and m.joined_by = 'domain'
             and lower(substring(u.email collate "C" from '@([^@]+)$')) = any($2)"#,
        firm_id,
        domains
    )
    .execute(conn)
    .await?
    .rows_affected())
}

// ---- members ----

/// A reader's firm, as `me.firm` and the firm admins' checks read it.
#[derive(Debug, Clone)]
pub struct Membership {
    pub firm_id: String,
    pub firm_name: String,
    pub firm_state: String,
    pub is_admin: bool,
    pub usage_email: bool,
}

pub async fn membership(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<Membership>> {
    sqlx::query_as!(
        Membership,
        r#"select m.firm_id, f.name as "firm_name: String", f.state as firm_state, m.is_admin, m.usage_email
           from firm_member m join firm f using (firm_id) where m.user_id = $1"#,
        user_id
    )
    .fetch_optional(db)
    .await
}

/// A member of a firm, as its pages list them.
#[derive(Debug, Clone)]
pub struct MemberRow {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub is_admin: bool,
    pub joined_by: String,
    pub joined_at: DateTime<Utc>,
    pub last_login: Option<DateTime<Utc>>,
    /// The channels of their seats.
    pub seat_channel_ids: Vec<String>,
}

/// A page of a firm's members by name; `pattern` matches a name or an address.
pub async fn members(db: impl PgExecutor<'_>, firm_id: &str, pattern: Option<&str>, limit: i64, offset: i64) -> sqlx::Result<Vec<MemberRow>> {
    sqlx::query_as!(
        MemberRow,
        r#"select u.user_id, u.name, u.email as "email: String", m.is_admin, m.joined_by, m.joined_at, u.last_login,
                  array(select fs.channel_id from firm_seat s join firm_subscription fs using (firm_subscription_id)
                        where s.user_id = u.user_id order by fs.channel_id) as "seat_channel_ids!"
           from firm_member m join users u using (user_id)
           where m.firm_id = $1
             and ($2::text is null or lower(u.name || ' ' || (u.email collate "default")) like $2)
           order by lower(u.name), u.user_id
           limit $3 offset $4"#,
        firm_id,
        pattern,
        limit,
        offset,
    )
    .fetch_all(db)
    .await
}

pub async fn count_members(db: impl PgExecutor<'_>, firm_id: &str, pattern: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from firm_member m join users u using (user_id)
           where m.firm_id = $1 and ($2::text is null or lower(u.name || ' ' || (u.email collate "default")) like $2)"#,
        firm_id,
        pattern,
    )
    .fetch_one(db)
    .await
}

/// A user as membership needs them: their role and their firm, if any (locked).
pub struct Candidate {
    pub role: Option<String>,
    pub firm_id: Option<String>,
    pub firm_name: Option<String>,
}

pub async fn lock_candidate(conn: &mut PgConnection, user_id: &str) -> sqlx::Result<Option<Candidate>> {
    sqlx::query_as!(
        Candidate,
        r#"select u.role, m.firm_id as "firm_id?", f.name as "firm_name?: String"
           from users u left join firm_member m using (user_id) left join firm f on f.firm_id = m.firm_id
           where u.user_id = $1 for update of u"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

pub async fn add_member(conn: &mut PgConnection, firm_id: &str, user_id: &str, joined_by: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into firm_member (user_id, firm_id, joined_by) values ($1, $2, $3)", user_id, firm_id, joined_by)
        .execute(conn)
        .await?;
    Ok(())
}

/// Removes a member (their seats end with it); whether they were one.
pub async fn remove_member(conn: &mut PgConnection, firm_id: &str, user_id: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!("delete from firm_member where firm_id = $1 and user_id = $2", firm_id, user_id)
        .execute(conn)
        .await?
        .rows_affected()
        == 1)
}

pub async fn set_admin(conn: &mut PgConnection, firm_id: &str, user_id: &str, is_admin: bool) -> sqlx::Result<bool> {
    Ok(sqlx::query!("update firm_member set is_admin = $3 where firm_id = $1 and user_id = $2", firm_id, user_id, is_admin)
        .execute(conn)
        .await?
        .rows_affected()
        == 1)
}

pub async fn set_usage_email(db: impl PgExecutor<'_>, user_id: &str, on: bool) -> sqlx::Result<bool> {
    Ok(sqlx::query!("update firm_member set usage_email = $2 where user_id = $1 and is_admin", user_id, on)
        .execute(db)
        .await?
        .rows_affected()
        == 1)
}

/// Records an invitation (again: its time moves); whether the address already has an account.
pub async fn invite(conn: &mut PgConnection, firm_id: &str, email: &str, invited_by: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into firm_invitation (firm_id, email, invited_by) values ($1, $2, $3)
         on conflict (firm_id, email) do update set invited_by = excluded.invited_by, invited_at = now(), accepted_at = null",
        firm_id,
        email,
        invited_by
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An invitation not yet taken up.
pub struct InvitationRow {
    pub email: String,
    pub invited_at: DateTime<Utc>,
    pub invited_by_name: Option<String>,
}

/// A firm's invitations not yet taken up, newest first (at most `limit`).
pub async fn pending_invitations(db: impl PgExecutor<'_>, firm_id: &str, limit: i64) -> sqlx::Result<Vec<InvitationRow>> {
    sqlx::query_as!(
        InvitationRow,
        r#"select i.email as "email: String", i.invited_at, u.name as "invited_by_name?: String"
             from firm_invitation i left join users u on u.user_id = i.invited_by
            where i.firm_id = $1 and i.accepted_at is null
            order by i.invited_at desc, i.email limit $2"#,
        firm_id,
        limit
    )
    .fetch_all(db)
    .await
}

/// Withdraws an invitation not yet taken up; whether there was one.
pub async fn withdraw_invitation(db: impl PgExecutor<'_>, firm_id: &str, email: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!("delete from firm_invitation where firm_id = $1 and email = $2 and accepted_at is null", firm_id, email)
        .execute(db)
        .await?
        .rows_affected()
        == 1)
}

// ---- subscriptions ----

/// A firm's subscription to a channel, with its seat count.
#[derive(Debug, Clone)]
pub struct FirmSubscriptionRow {
    pub firm_subscription_id: String,
    pub firm_id: String,
    pub firm_name: String,
    pub channel_id: String,
    pub channel_name: String,
    pub channel_type: String,
    pub seats: Option<i32>,
    pub seats_used: i64,
    pub starts_at: DateTime<Utc>,
    pub subscription_type: String,
    pub subscription_state: String,
    pub subscribed: bool,
    pub cancel_at: Option<DateTime<Utc>>,
    pub cancel_requested_at: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub next_payment: Option<DateTime<Utc>>,
    pub acknowledged_non_charge_sub_expired: bool,
    pub notes: Option<String>,
    pub price_per_month: Option<String>,
    pub price_basis: String,
    pub is_full_article_content: bool,
    pub account_number: Option<String>,
    pub rebate: bool,
    pub billing_method: Option<String>,
    pub trial_duration: Option<i32>,
    pub added_by_admin: bool,
    pub created_at: DateTime<Utc>,
    pub version: i32,
}

impl FirmSubscriptionRow {
    /// The subscription as the state machine reads it (a firm's has no card).
    pub fn machine(&self) -> Subscription {
        Subscription {
            subscription_type: SubscriptionType::parse(&self.subscription_type),
            state: SubscriptionState::parse(&self.subscription_state),
            cancel_at: self.cancel_at,
            cancel_at_period_end: self.cancel_at_period_end,
            cancel_requested_at: self.cancel_requested_at,
            subscribed: self.subscribed,
            acknowledged_non_charge_sub_expired: self.acknowledged_non_charge_sub_expired,
            next_payment: self.next_payment,
            card: None,
            terms: Terms {
                account_number: self.account_number.clone(),
                price_per_month: self.price_per_month.clone(),
                rebate: self.rebate,
                billing_method: self.billing_method.clone(),
                trial_duration: self.trial_duration,
                notes: self.notes.clone(),
                is_full_article_content: self.is_full_article_content,
                added_by_admin: self.added_by_admin,
                legal_entity_name: None,
                billing_email_address: None,
            },
        }
    }
}

/// `query_as!` of `FirmSubscriptionRow`s over `firm_subscription s join channel c`, then the rest.
macro_rules! select_firm_subscriptions {
    ($rest:literal, $($arg:expr),* $(,)?) => {
        sqlx::query_as!(FirmSubscriptionRow, r#"select s.firm_subscription_id, s.firm_id,
               (select f.name from firm f where f.firm_id = s.firm_id) as "firm_name!: String", s.channel_id, c.name as "channel_name: String",
               c.type as channel_type, s.seats,
               (select count(*) from firm_seat x where x.firm_subscription_id = s.firm_subscription_id) as "seats_used!",
               s.starts_at, s.subscription_type, s.subscription_state, s.subscribed, s.cancel_at, s.cancel_requested_at,
               s.cancel_at_period_end, s.next_payment, s.acknowledged_non_charge_sub_expired, s.notes,
               s.price_per_month::text as price_per_month, s.price_basis, s.is_full_article_content, s.account_number, s.rebate,
               s.billing_method, s.trial_duration, s.added_by_admin, s.created_at, s.version "# + $rest, $($arg),*)
    };
}

/// The subscriptions of each of `firm_ids`, by channel name.
pub async fn subscriptions_of(db: impl PgExecutor<'_>, firm_ids: &[String]) -> sqlx::Result<Vec<FirmSubscriptionRow>> {
    select_firm_subscriptions!(
        r#"from firm_subscription s join channel c using (channel_id)
           where s.firm_id = any($1) order by lower(c.name collate "default"), s.channel_id"#,
        firm_ids
    )
    .fetch_all(db)
    .await
}

/// Every firm's subscription to a channel, by firm name (the channel's firms view).
pub async fn subscriptions_to_channel(db: impl PgExecutor<'_>, channel_id: &str) -> sqlx::Result<Vec<FirmSubscriptionRow>> {
    select_firm_subscriptions!(
        r#"from firm_subscription s join channel c using (channel_id)
           where s.channel_id = $1
           order by (select lower(f.name collate "default") from firm f where f.firm_id = s.firm_id), s.firm_id"#,
        channel_id
    )
    .fetch_all(db)
    .await
}

/// A channel's subscriber's firm, and whether they hold a seat on the channel.
pub struct SubscriberFirm {
    pub user_id: String,
    pub firm_name: String,
    pub holds_seat: bool,
}

/// The firms of `user_ids` (the members among them), with their seats on `channel_id`.
pub async fn firms_of_subscribers(db: impl PgExecutor<'_>, channel_id: &str, user_ids: &[String]) -> sqlx::Result<Vec<SubscriberFirm>> {
    sqlx::query_as!(
        SubscriberFirm,
        r#"select m.user_id, f.name as "firm_name: String",
                  exists (select from firm_seat x join firm_subscription fs using (firm_subscription_id, firm_id)
                           where x.user_id = m.user_id and fs.channel_id = $1) as "holds_seat!"
             from firm_member m join firm f using (firm_id) where m.user_id = any($2)"#,
        channel_id,
        user_ids
    )
    .fetch_all(db)
    .await
}

/// One firm subscription, by id or by firm and channel.
pub async fn subscription(
    db: impl PgExecutor<'_>,
    id: Option<&str>,
    firm_and_channel: Option<(&str, &str)>,
) -> sqlx::Result<Option<FirmSubscriptionRow>> {
    let (firm_id, channel_id) = firm_and_channel.unzip();
    select_firm_subscriptions!(
        r#"from firm_subscription s join channel c using (channel_id)
           where ($1::text is null or s.firm_subscription_id = $1) and ($2::text is null or s.firm_id = $2)
             and ($3::text is null or s.channel_id = $3) and ($1::text is not null or $2::text is not null)
           limit 1"#,
        id,
        firm_id,
        channel_id,
    )
    .fetch_optional(db)
    .await
}

/// Locks a firm's subscription to a channel (for the state machine); none when it has none.
pub async fn lock_subscription(conn: &mut PgConnection, firm_id: &str, channel_id: &str) -> sqlx::Result<Option<FirmSubscriptionRow>> {
    select_firm_subscriptions!(
        r#"from firm_subscription s join channel c using (channel_id)
           where s.firm_id = $1 and s.channel_id = $2 for update of s"#,
        firm_id,
        channel_id,
    )
    .fetch_optional(conn)
    .await
}

/// What the firm owner writes besides the state machine's subscription.
pub struct FirmTerms<'a> {
    pub seats: Option<i32>,
    pub starts_at: DateTime<Utc>,
    pub price_basis: &'a str,
}

/// Writes a firm's subscription to a channel as the state machine left it (a new one when `id`
/// is new), with the firm's own terms; a change moves the version.
pub async fn write_subscription(
    conn: &mut PgConnection,
    id: &str,
    firm_id: &str,
    channel_id: &str,
    s: &Subscription,
    terms: &FirmTerms<'_>,
    created_by: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        r#"insert into firm_subscription (
               firm_subscription_id, firm_id, channel_id, seats, starts_at, price_basis, subscription_type, subscription_state,
               subscribed, cancel_at, cancel_requested_at, cancel_at_period_end, next_payment, acknowledged_non_charge_sub_expired,
               notes, price_per_month, is_full_article_content, account_number, rebate, billing_method, trial_duration,
               added_by_admin, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::text::numeric, $17, $18, $19, $20, $21, $22, $23)
           on conflict (firm_subscription_id) do update set
               seats = excluded.seats, starts_at = excluded.starts_at, price_basis = excluded.price_basis,
               subscription_type = excluded.subscription_type, subscription_state = excluded.subscription_state,
               subscribed = excluded.subscribed, cancel_at = excluded.cancel_at, cancel_requested_at = excluded.cancel_requested_at,
               cancel_at_period_end = excluded.cancel_at_period_end, next_payment = excluded.next_payment,
               acknowledged_non_charge_sub_expired = excluded.acknowledged_non_charge_sub_expired, notes = excluded.notes,
               price_per_month = excluded.price_per_month, is_full_article_content = excluded.is_full_article_content,
               account_number = excluded.account_number, rebate = excluded.rebate, billing_method = excluded.billing_method,
               trial_duration = excluded.trial_duration, added_by_admin = excluded.added_by_admin,
               version = firm_subscription.version + 1"#,
        id,
        firm_id,
        channel_id,
        terms.seats,
        terms.starts_at,
        terms.price_basis,
        s.subscription_type.as_str(),
        s.state.as_str(),
        s.subscribed,
        s.cancel_at,
        s.cancel_requested_at,
        s.cancel_at_period_end,
        s.next_payment,
        s.acknowledged_non_charge_sub_expired,
        s.terms.notes.as_deref(),
        s.terms.price_per_month.as_deref(),
        s.terms.is_full_article_content,
        s.terms.account_number.as_deref(),
        s.terms.rebate,
        s.terms.billing_method.as_deref(),
        s.terms.trial_duration,
        s.terms.added_by_admin,
        created_by,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends every seat of a subscription (it ended); returns how many.
pub async fn free_seats(conn: &mut PgConnection, firm_subscription_id: &str) -> sqlx::Result<u64> {
    Ok(sqlx::query!("delete from firm_seat where firm_subscription_id = $1", firm_subscription_id).execute(conn).await?.rows_affected())
}

/// Firm subscriptions whose end has come, claimed (locked, skipping those others hold).
pub async fn lock_due_to_end(conn: &mut PgConnection, now: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(
        "select firm_id, channel_id from firm_subscription
         where subscription_state in ('active', 'paymentFailed') and cancel_at <= $1
         order by cancel_at limit $2 for update skip locked",
        now,
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.firm_id, r.channel_id)).collect())
}

/// Firm trials ending between `now` and `until`: (firm, channel, end).
pub async fn trials_ending(conn: &mut PgConnection, now: DateTime<Utc>, until: DateTime<Utc>) -> sqlx::Result<Vec<(String, String, DateTime<Utc>)>> {
    let rows = sqlx::query!(
        r#"select firm_id, channel_id, cancel_at as "cancel_at!" from firm_subscription
           where subscription_type = 'trial' and subscription_state = 'active' and cancel_at > $1 and cancel_at <= $2"#,
        now,
        until
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.firm_id, r.channel_id, r.cancel_at)).collect())
}

// ---- seats ----

/// Gives a member a seat; the seat limit and membership are the database's to refuse
/// (`firm_seat_limit`, the foreign keys). False when they hold one already.
pub async fn assign_seat(conn: &mut PgConnection, firm_subscription_id: &str, firm_id: &str, user_id: &str, by: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "insert into firm_seat (firm_subscription_id, firm_id, user_id, assigned_by) values ($1, $2, $3, $4) on conflict do nothing",
        firm_subscription_id,
        firm_id,
        user_id,
        by
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

pub async fn holds_seat(db: impl PgExecutor<'_>, firm_subscription_id: &str, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select from firm_seat where firm_subscription_id = $1 and user_id = $2) as "held!""#,
        firm_subscription_id,
        user_id
    )
    .fetch_one(db)
    .await
}

pub async fn release_seat(conn: &mut PgConnection, firm_subscription_id: &str, user_id: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!("delete from firm_seat where firm_subscription_id = $1 and user_id = $2", firm_subscription_id, user_id)
        .execute(conn)
        .await?
        .rows_affected()
        == 1)
}

/// A seat holder of a subscription.
#[derive(Debug, Clone)]
pub struct SeatRow {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub assigned_at: DateTime<Utc>,
}

pub async fn seat_holders(db: impl PgExecutor<'_>, firm_subscription_id: &str) -> sqlx::Result<Vec<SeatRow>> {
    sqlx::query_as!(
        SeatRow,
        r#"select u.user_id, u.name, u.email as "email: String", s.assigned_at
           from firm_seat s join users u using (user_id)
           where s.firm_subscription_id = $1 order by lower(u.name), u.user_id"#,
        firm_subscription_id
    )
    .fetch_all(db)
    .await
}

/// A reader's seats, as their subscriptions show them (`subscriptions::read`).
#[derive(Debug, Clone)]
pub struct ReaderSeatRow {
    pub firm_subscription_id: String,
    pub firm_id: String,
    pub firm_name: String,
    pub channel_id: String,
    pub channel_name: String,
    pub channel_type: String,
    pub subscription_state: String,
    pub starts_at: DateTime<Utc>,
    pub cancel_at: Option<DateTime<Utc>>,
    pub is_full_article_content: bool,
    pub assigned_at: DateTime<Utc>,
    pub email_notifications: bool,
    pub email_frequency: String,
}

pub async fn seats_of_user(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<ReaderSeatRow>> {
    sqlx::query_as!(
        ReaderSeatRow,
        r#"select s.firm_subscription_id, s.firm_id, f.name as "firm_name: String", fs.channel_id, c.name as "channel_name: String",
                  c.type as channel_type, fs.subscription_state, fs.starts_at, fs.cancel_at, fs.is_full_article_content,
                  s.assigned_at, s.email_notifications, s.email_frequency
           from firm_seat s
           join firm_subscription fs using (firm_subscription_id)
           join firm f on f.firm_id = s.firm_id
           join channel c on c.channel_id = fs.channel_id
           where s.user_id = $1
           order by lower(c.name collate "default"), fs.channel_id"#,
        user_id
    )
    .fetch_all(db)
    .await
}

// ---- readership ----

/// A firm's reading of one channel in one month.
#[derive(Debug, Clone)]
pub struct ReadershipRow {
    pub channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub month: DateTime<Utc>,
    pub readers: i64,
    pub full_reads: i64,
    pub previews: i64,
    pub articles_read: i64,
}

/// Per channel and month, the reading of a firm's current members between `from` and `to`.
pub async fn readership(db: impl PgExecutor<'_>, firm_id: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> sqlx::Result<Vec<ReadershipRow>> {
    sqlx::query_as!(
        ReadershipRow,
        r#"select a.premium_channel_id as channel_id, c.name as "channel_name?: String",
                  date_trunc('month', e.viewed_at, 'UTC') as "month!",
                  count(distinct e.user_id) as "readers!",
                  count(*) filter (where e.kind = 'full') as "full_reads!",
                  count(*) filter (where e.kind = 'preview') as "previews!",
                  count(distinct e.article_id) filter (where e.kind = 'full') as "articles_read!"
           from firm_member m
           join article_view_event e on e.user_id = m.user_id
           join article a on a.article_id = e.article_id
           left join channel c on c.channel_id = a.premium_channel_id
           where m.firm_id = $1 and e.viewed_at >= $2 and e.viewed_at < $3
           group by 1, 2, 3
           order by 3 desc, lower(c.name collate "default") nulls last"#,
        firm_id,
        from,
        to,
    )
    .fetch_all(db)
    .await
}

/// What one member of a firm read between `from` and `to`.
#[derive(Debug, Clone)]
pub struct ReaderReadRow {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub article_id: String,
    pub title: String,
    pub channel_name: Option<String>,
    pub full_reads: i64,
    pub previews: i64,
    pub last_read: DateTime<Utc>,
}

pub async fn reads_by_member(db: impl PgExecutor<'_>, firm_id: &str, from: DateTime<Utc>, to: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<ReaderReadRow>> {
    sqlx::query_as!(
        ReaderReadRow,
        r#"select u.user_id, u.name, u.email as "email: String", a.article_id, a.title, c.name as "channel_name?: String",
                  count(*) filter (where e.kind = 'full') as "full_reads!",
                  count(*) filter (where e.kind = 'preview') as "previews!",
                  max(e.viewed_at) as "last_read!"
           from firm_member m
           join users u on u.user_id = m.user_id
           join article_view_event e on e.user_id = m.user_id
           join article a on a.article_id = e.article_id
           left join channel c on c.channel_id = a.premium_channel_id
           where m.firm_id = $1 and e.viewed_at >= $2 and e.viewed_at < $3
           group by u.user_id, u.name, u.email, a.article_id, a.title, c.name
           order by lower(u.name), u.user_id, max(e.viewed_at) desc
           limit $4"#,
        firm_id,
        from,
        to,
        limit,
    )
    .fetch_all(db)
    .await
}

// ---- the CLI import (`firms::import`) ----

/// A firm as the import finds it by name.
#[derive(Debug, Clone)]
pub struct FirmKey {
    pub firm_id: String,
    pub name: String,
    pub account_number: Option<String>,
}

/// The firms with these names (ignoring case).
pub async fn firms_named(db: impl PgExecutor<'_>, names: &[String]) -> sqlx::Result<Vec<FirmKey>> {
    sqlx::query_as!(FirmKey, r#"select firm_id, name as "name: String", account_number from firm where name = any($1)"#, names)
        .fetch_all(db)
        .await
}

/// Of `domains`, those a firm has, with the firm.
pub async fn domain_owners(db: impl PgExecutor<'_>, domains: &[String]) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!("select domain, firm_id from firm_domain where domain = any($1)", domains).fetch_all(db).await?;
    Ok(rows.into_iter().map(|r| (r.domain, r.firm_id)).collect())
}

/// Of `accounts`, those a firm has, with the firm.
pub async fn account_owners(db: impl PgExecutor<'_>, accounts: &[String]) -> sqlx::Result<Vec<(String, String)>> {
    let rows = sqlx::query!(r#"select account_number as "account_number!", firm_id from firm where account_number = any($1)"#, accounts)
        .fetch_all(db)
        .await?;
    Ok(rows.into_iter().map(|r| (r.account_number, r.firm_id)).collect())
}

/// New firms, column by column (for `unnest`).
#[derive(Debug, Default, Clone)]
pub struct NewFirms {
    pub ids: Vec<String>,
    pub names: Vec<String>,
    pub account_numbers: Vec<Option<String>>,
}

impl NewFirms {
    pub fn push(&mut self, id: &str, name: &str, account_number: Option<&str>) {
        self.ids.push(id.to_owned());
        self.names.push(name.to_owned());
        self.account_numbers.push(account_number.map(str::to_owned));
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn chunks(&self, size: usize) -> impl Iterator<Item = NewFirms> + '_ {
        (0..self.len()).step_by(size.max(1)).map(move |start| {
            let end = (start + size).min(self.len());
            NewFirms {
                ids: self.ids[start..end].to_vec(),
                names: self.names[start..end].to_vec(),
                account_numbers: self.account_numbers[start..end].to_vec(),
            }
        })
    }
}

/// Inserts firms: billed by clearing account when they have an account number, else by invoice.
pub async fn insert_firms(conn: &mut PgConnection, firms: &NewFirms) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into firm (firm_id, name, account_number, billing_method)
         select v.id, v.name, v.account, case when v.account is null then 'invoice' else 'account' end
         from unnest($1::text[], $2::text[], $3::text[]) as v(id, name, account)",
        &firms.ids,
        &firms.names,
        &firms.account_numbers as &[Option<String>],
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Gives firms without an account number the one the file has: (firm, account number).
pub async fn set_missing_account_numbers(conn: &mut PgConnection, accounts: &[(String, String)]) -> sqlx::Result<()> {
    if accounts.is_empty() {
        return Ok(());
    }
    let (ids, numbers): (Vec<String>, Vec<String>) = accounts.iter().cloned().unzip();
    sqlx::query!(
        "update firm f set account_number = v.account, version = f.version + 1
         from unnest($1::text[], $2::text[]) as v(id, account)
         where f.firm_id = v.id and f.account_number is null",
        &ids,
        &numbers,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Inserts domains: (domain, firm).
pub async fn insert_domains(conn: &mut PgConnection, domains: &[(String, String)]) -> sqlx::Result<()> {
    let (names, firms): (Vec<String>, Vec<String>) = domains.iter().cloned().unzip();
    sqlx::query!("insert into firm_domain (domain, firm_id) select * from unnest($1::text[], $2::text[])", &names, &firms)
        .execute(conn)
        .await?;
    Ok(())
}

/// Readers in no firm at the domains of `firm_ids` join them; returns how many.
pub async fn join_firms_by_domains(conn: &mut PgConnection, firm_ids: &[String]) -> sqlx::Result<u64> {
    if firm_ids.is_empty() {
        return Ok(0);
    }
    Ok(sqlx::query!(
        r#"insert into firm_member (user_id, firm_id, joined_by)
           select u.user_id, d.firm_id, 'domain' from firm_domain d
           join users u on lower(substring(u.email collate "C" from '@([^@]+)$')) = d.domain
           where d.firm_id = any($1) and u.role = 'Subscriber'
           on conflict (user_id) do nothing"#,
        firm_ids
    )
    .execute(conn)
    .await?
    .rows_affected())
}

/// What a firm's members read, per reader, article and month (the CSV export), streamed.
#[derive(Debug, Clone)]
pub struct MonthlyReadRow {
    pub month: DateTime<Utc>,
    pub channel_name: Option<String>,
    pub name: String,
    pub email: String,
    pub title: String,
    pub full_reads: i64,
    pub previews: i64,
    pub first_read: DateTime<Utc>,
    pub last_read: DateTime<Utc>,
}

pub fn reads_by_member_and_month<'a>(
    pool: &'a sqlx::PgPool,
    firm_id: &'a str,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> futures_util::stream::BoxStream<'a, sqlx::Result<MonthlyReadRow>> {
    sqlx::query_as!(
        MonthlyReadRow,
        r#"select date_trunc('month', e.viewed_at, 'UTC') as "month!", c.name as "channel_name?: String", u.name,
                  u.email as "email: String", a.title,
                  count(*) filter (where e.kind = 'full') as "full_reads!",
                  count(*) filter (where e.kind = 'preview') as "previews!",
                  min(e.viewed_at) as "first_read!", max(e.viewed_at) as "last_read!"
           from firm_member m
           join users u on u.user_id = m.user_id
           join article_view_event e on e.user_id = m.user_id
           join article a on a.article_id = e.article_id
           left join channel c on c.channel_id = a.premium_channel_id
           where m.firm_id = $1 and e.viewed_at >= $2 and e.viewed_at < $3
           group by 1, c.name, u.user_id, u.name, u.email, a.article_id, a.title
           order by 1 desc, lower(u.name), u.user_id, max(e.viewed_at) desc"#,
        firm_id,
        from,
        to,
    )
    .fetch(pool)
}

/// A firm administrator who asked for the monthly usage email.
#[derive(Debug, Clone)]
pub struct UsageRecipient {
    pub firm_id: String,
    pub firm_name: String,
    pub user_id: String,
    pub email: String,
    pub name: String,
}

/// Every administrator of an active firm who asked for the usage email, by firm.
pub async fn usage_email_recipients(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<UsageRecipient>> {
    sqlx::query_as!(
        UsageRecipient,
        r#"select f.firm_id, f.name as "firm_name: String", u.user_id, u.email as "email: String", u.name
           from firm_member m join firm f using (firm_id) join users u using (user_id)
           where m.is_admin and m.usage_email and f.state = 'active'
           order by f.firm_id, u.user_id"#
    )
    .fetch_all(db)
    .await
}

/// Per firm and channel, the reading of the firms' members between `from` and `to`.
#[derive(Debug, Clone)]
pub struct FirmChannelReadership {
    pub firm_id: String,
    pub channel_name: Option<String>,
    pub readers: i64,
    pub full_reads: i64,
    pub previews: i64,
    pub articles_read: i64,
}

pub async fn readership_of_firms(
    db: impl PgExecutor<'_>,
    firm_ids: &[String],
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> sqlx::Result<Vec<FirmChannelReadership>> {
    sqlx::query_as!(
        FirmChannelReadership,
        r#"select m.firm_id, c.name as "channel_name?: String",
                  count(distinct e.user_id) as "readers!",
                  count(*) filter (where e.kind = 'full') as "full_reads!",
                  count(*) filter (where e.kind = 'preview') as "previews!",
                  count(distinct e.article_id) filter (where e.kind = 'full') as "articles_read!"
           from firm_member m
           join article_view_event e on e.user_id = m.user_id
           join article a on a.article_id = e.article_id
           left join channel c on c.channel_id = a.premium_channel_id
           where m.firm_id = any($1) and e.viewed_at >= $2 and e.viewed_at < $3
           group by m.firm_id, a.premium_channel_id, c.name
           order by m.firm_id, lower(c.name collate "default") nulls last"#,
        firm_ids,
        from,
        to,
    )
    .fetch_all(db)
    .await
}
