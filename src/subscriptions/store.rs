//! Where the state machine's changes are written: the subscription rows, their audit log and the
//! emails they ask for, in the caller's transaction and in a few set-based statements whatever
//! the number of rows (one reader's request or a 100,000-row import).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::{
    machine::{self, EmailKind, ReaderFacts, Subscription, Transition},
    queries,
};
use crate::{
    email::compose::SubscriptionEmail,
    error::{Error, Result, ResultExt},
    jobs::JobQueue,
};

/// Which way a change came (the audit log's route).
#[derive(Debug, Clone, Copy, PartialEq, Eq, async_graphql::Enum)]
#[graphql(name = "SubscriptionChangeRoute", rename_items = "PascalCase")]
pub enum Route {
    Reader,
    Staff,
    Csv,
    Cli,
    Worker,
    /// The card provider (a webhook, or a reader back from paying).
    Stripe,
}

impl Route {
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Reader => "reader",
            Route::Staff => "staff",
            Route::Csv => "csv",
            Route::Cli => "cli",
            Route::Worker => "worker",
            Route::Stripe => "stripe",
        }
    }

    pub fn parse(value: &str) -> Route {
        match value {
            "reader" => Route::Reader,
            "staff" => Route::Staff,
            "csv" => Route::Csv,
            "cli" => Route::Cli,
            "stripe" => Route::Stripe,
            _ => Route::Worker,
        }
    }
}

/// Who made a change and how.
#[derive(Debug, Clone)]
pub struct Actor {
    /// None for the CLI and the workers.
    pub user_id: Option<String>,
    pub route: Route,
}

/// One allowed change of one reader's subscription to a channel.
#[derive(Debug, Clone)]
pub struct Change {
    pub user_id: String,
    pub before: Option<Subscription>,
    pub transition: Transition,
}

/// Locks and reads the subscriptions of `user_ids` to a channel, so that no one else changes
/// them before this transaction ends. Users without one are absent from the map.
pub async fn lock(conn: &mut PgConnection, channel_id: &str, user_ids: &[String]) -> Result<HashMap<String, Subscription>> {
    let rows = queries::lock_of_channel_users(conn, channel_id, user_ids).await?;
    Ok(rows.into_iter().map(|row| (row.user_id.clone(), row.machine())).collect())
}

/// Locks and reads one reader's subscription to a channel.
pub async fn lock_one(conn: &mut PgConnection, channel_id: &str, user_id: &str) -> Result<Option<Subscription>> {
    Ok(lock(conn, channel_id, &[user_id.to_owned()]).await?.remove(user_id))
}

/// Writes `changes` to a channel's subscriptions with their audit rows and the emails they ask
/// for (written to the outbox, whose delivery is enqueued). A subscription another request
/// created meanwhile (a change that expected none) refuses the whole write.
pub async fn write(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel_id: &str,
    actor: &Actor,
    changes: &[Change],
    now: DateTime<Utc>,
) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    // In key order: the indexes (and the users' key, which every foreign key check reads) are then
    // walked in order, a third quicker for a large import than in the order the rows came in.
    let mut changes: Vec<&Change> = changes.iter().collect();
    changes.sort_unstable_by(|a, b| a.user_id.cmp(&b.user_id));
    let changes = changes.as_slice();
    let (inserts, rest): (Vec<&Change>, Vec<&Change>) = changes.iter().partition(|c| c.before.is_none());
    let (deletes, updates): (Vec<&Change>, Vec<&Change>) = rest.into_iter().partition(|c| c.transition.next.is_none());

    insert(conn, channel_id, &inserts).await?;
    update(conn, channel_id, &updates).await?;
    let deleted: Vec<String> = deletes.iter().map(|c| c.user_id.clone()).collect();
    if !deleted.is_empty() {
        sqlx::query!("delete from channel_subscription where channel_id = $1 and user_id = any($2)", channel_id, &deleted)
            .execute(&mut *conn)
            .await?;
    }
    audit(conn, channel_id, actor, changes).await?;
    let at_now = occasion_at(now);
    let from_list = matches!(actor.route, Route::Csv | Route::Cli);
    let emails: Vec<SubscriptionEmail> = changes
        .iter()
        .filter_map(|c| {
            let kind = c.transition.email?;
            let welcome = (kind == EmailKind::Welcome).then(|| machine::welcome(&c.transition, from_list));
            Some(SubscriptionEmail { kind, user_id: c.user_id.as_str(), occasion: occasion(kind, c, &at_now), welcome })
        })
        .collect();
    crate::email::compose::subscription_emails(conn, jobs, channel_id, &emails).await?;
    Ok(())
}

/// What the state machine knows of each of `user_ids` (`machine::ReaderFacts`): a trial reader's
/// account trial end, `account_trial_days` (`INSIGHTS_TRIAL_DAYS`) from their first sign-in, by
/// the rule sign-in applies (`auth::account_trial_ends`). Unknown users are absent.
pub async fn readers(conn: &mut PgConnection, user_ids: &[String], account_trial_days: u32) -> Result<HashMap<String, ReaderFacts>> {
    let rows = queries::readers(conn, user_ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let is_trial = crate::auth::is_trial_reader(&row.scopes);
            let account_trial_ends = crate::auth::account_trial_ends(is_trial, row.first_login, account_trial_days);
            (row.user_id, ReaderFacts { account_trial_ends })
        })
        .collect())
}

/// One reader's facts (none known: no account trial).
pub async fn reader(conn: &mut PgConnection, user_id: &str, account_trial_days: u32) -> Result<ReaderFacts> {
    Ok(readers(conn, &[user_id.to_owned()], account_trial_days).await?.remove(user_id).unwrap_or_default())
}

/// What makes an email unique besides its kind, channel and reader: the end it is about for
/// reminders and endings (so a retried sweep asks once), the moment of the change otherwise.
fn occasion(kind: EmailKind, change: &Change, at_now: &str) -> String {
    let end = change.transition.next.as_ref().and_then(|next| next.cancel_at);
    match (kind, end) {
        (EmailKind::TrialEnding | EmailKind::TrialEnded | EmailKind::SubscriptionCanceled, Some(end)) => occasion_at(end),
        _ => at_now.to_owned(),
    }
}

/// An occasion key for a moment, to the microsecond: `%Y-%m-%dT%H:%M:%S%.6fZ`, written without chrono's
/// format-string parser, which cost a tenth of a large import's client time when called per row.
pub fn occasion_at(at: DateTime<Utc>) -> String {
    use chrono::{Datelike, Timelike};
    if !(0..=9999).contains(&at.year()) {
        return at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string();
    }
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
        at.year(),
        at.month(),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.timestamp_subsec_micros()
    )
}

/// The error of a subscription another request created while this one saved.
fn changed_meanwhile() -> Error {
    Error::Conflict("The subscriptions changed while saving. Please try again.".into())
}

/// Inserts the new rows of `changes` in one statement. A plain insert rather than `on conflict`: the
/// speculative insertion that needs costs a quarter of a large import's insert time, and a row created
/// meanwhile must refuse the whole write anyway, which the primary key's violation does.
async fn insert(conn: &mut PgConnection, channel_id: &str, changes: &[&Change]) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    let c = Columns::of(changes);
    sqlx::query!(
        r#"insert into channel_subscription (
               channel_id, user_id, subscription_type, subscription_state, cancel_at, cancel_at_period_end,
               cancel_requested_at, subscribed, acknowledged_non_charge_sub_expired, next_payment, account_number,
               price_per_month, rebate, billing_method, trial_duration, notes, is_full_article_content, added_by_admin,
               subscription_id, payment_method_type, payment_method_details, legal_entity_name, billing_email_address)
           select $1, v.user_id, v.subscription_type, v.subscription_state, v.cancel_at, v.cancel_at_period_end,
                  v.cancel_requested_at, v.subscribed, v.acknowledged, v.next_payment, v.account_number,
                  v.price_per_month::numeric, v.rebate, v.billing_method, v.trial_duration, v.notes,
                  v.is_full_article_content, v.added_by_admin, v.subscription_id, v.payment_method_type,
                  v.payment_method_details, v.legal_entity_name, v.billing_email_address
           from unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bool[], $7::timestamptz[], $8::bool[],
                       $9::bool[], $10::timestamptz[], $11::text[], $12::text[], $13::bool[], $14::text[], $15::int[],
                       $16::text[], $17::bool[], $18::bool[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[])
                as v(user_id, subscription_type, subscription_state, cancel_at, cancel_at_period_end, cancel_requested_at,
                     subscribed, acknowledged, next_payment, account_number, price_per_month, rebate, billing_method,
                     trial_duration, notes, is_full_article_content, added_by_admin, subscription_id, payment_method_type,
                     payment_method_details, legal_entity_name, billing_email_address)"#,
        channel_id,
        &c.user_id as &[&str],
        &c.subscription_type as &[&str],
        &c.subscription_state as &[&str],
        &c.cancel_at as &[Option<DateTime<Utc>>],
        &c.cancel_at_period_end,
        &c.cancel_requested_at as &[Option<DateTime<Utc>>],
        &c.subscribed,
        &c.acknowledged,
        &c.next_payment as &[Option<DateTime<Utc>>],
        &c.account_number as &[Option<&str>],
        &c.price_per_month as &[Option<&str>],
        &c.rebate,
        &c.billing_method as &[Option<&str>],
        &c.trial_duration as &[Option<i32>],
        &c.notes as &[Option<&str>],
        &c.is_full_article_content,
        &c.added_by_admin,
        &c.subscription_id as &[Option<&str>],
        &c.payment_method_type as &[Option<&str>],
        &c.payment_method_details as &[Option<&str>],
        &c.legal_entity_name as &[Option<&str>],
        &c.billing_email_address as &[Option<&str>],
    )
    .execute(&mut *conn)
    .await
    .on_constraint("channel_subscription_pkey", changed_meanwhile)?;
    Ok(())
}

/// Overwrites the rows of `changes` (locked by `lock`) in one statement.
async fn update(conn: &mut PgConnection, channel_id: &str, changes: &[&Change]) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    let c = Columns::of(changes);
    let updated = sqlx::query!(
        r#"update channel_subscription as s set
               subscription_type = v.subscription_type, subscription_state = v.subscription_state,
               cancel_at = v.cancel_at, cancel_at_period_end = v.cancel_at_period_end,
               cancel_requested_at = v.cancel_requested_at, subscribed = v.subscribed,
               acknowledged_non_charge_sub_expired = v.acknowledged, next_payment = v.next_payment,
               account_number = v.account_number, price_per_month = v.price_per_month::numeric, rebate = v.rebate,
               billing_method = v.billing_method, trial_duration = v.trial_duration, notes = v.notes,
               is_full_article_content = v.is_full_article_content, added_by_admin = v.added_by_admin,
               subscription_id = v.subscription_id, payment_method_type = v.payment_method_type,
               payment_method_details = v.payment_method_details, legal_entity_name = v.legal_entity_name,
               billing_email_address = v.billing_email_address
           from unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bool[], $7::timestamptz[], $8::bool[],
                       $9::bool[], $10::timestamptz[], $11::text[], $12::text[], $13::bool[], $14::text[], $15::int[],
                       $16::text[], $17::bool[], $18::bool[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[])
                as v(user_id, subscription_type, subscription_state, cancel_at, cancel_at_period_end, cancel_requested_at,
                     subscribed, acknowledged, next_payment, account_number, price_per_month, rebate, billing_method,
                     trial_duration, notes, is_full_article_content, added_by_admin, subscription_id, payment_method_type,
                     payment_method_details, legal_entity_name, billing_email_address)
           where s.channel_id = $1 and s.user_id = v.user_id"#,
        channel_id,
        &c.user_id as &[&str],
        &c.subscription_type as &[&str],
        &c.subscription_state as &[&str],
        &c.cancel_at as &[Option<DateTime<Utc>>],
        &c.cancel_at_period_end,
        &c.cancel_requested_at as &[Option<DateTime<Utc>>],
        &c.subscribed,
        &c.acknowledged,
        &c.next_payment as &[Option<DateTime<Utc>>],
        &c.account_number as &[Option<&str>],
        &c.price_per_month as &[Option<&str>],
        &c.rebate,
        &c.billing_method as &[Option<&str>],
        &c.trial_duration as &[Option<i32>],
        &c.notes as &[Option<&str>],
        &c.is_full_article_content,
        &c.added_by_admin,
        &c.subscription_id as &[Option<&str>],
        &c.payment_method_type as &[Option<&str>],
        &c.payment_method_details as &[Option<&str>],
        &c.legal_entity_name as &[Option<&str>],
        &c.billing_email_address as &[Option<&str>],
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    // The rows were locked when read, so each is there to update; anything else is a bug to report, not to hide.
    if updated != changes.len() as u64 {
        return Err(changed_meanwhile());
    }
    Ok(())
}

/// The rows of a write, column by column (for `unnest`), borrowed from the changes: a 100,000-row import
/// allocates nothing per row here.
#[derive(Default)]
struct Columns<'a> {
    user_id: Vec<&'a str>,
    subscription_type: Vec<&'static str>,
    subscription_state: Vec<&'static str>,
    cancel_at: Vec<Option<DateTime<Utc>>>,
    cancel_at_period_end: Vec<bool>,
    cancel_requested_at: Vec<Option<DateTime<Utc>>>,
    subscribed: Vec<bool>,
    acknowledged: Vec<bool>,
    next_payment: Vec<Option<DateTime<Utc>>>,
    account_number: Vec<Option<&'a str>>,
    price_per_month: Vec<Option<&'a str>>,
    rebate: Vec<bool>,
    billing_method: Vec<Option<&'a str>>,
    trial_duration: Vec<Option<i32>>,
    notes: Vec<Option<&'a str>>,
    is_full_article_content: Vec<bool>,
    added_by_admin: Vec<bool>,
    subscription_id: Vec<Option<&'a str>>,
    payment_method_type: Vec<Option<&'a str>>,
    payment_method_details: Vec<Option<&'a str>>,
    legal_entity_name: Vec<Option<&'a str>>,
    billing_email_address: Vec<Option<&'a str>>,
}

impl<'a> Columns<'a> {
    fn of(changes: &[&'a Change]) -> Columns<'a> {
        let mut c = Columns::default();
        for change in changes {
            let next = change.transition.next.as_ref().expect("a written change has a next state");
            c.push(&change.user_id, next);
        }
        c
    }

    fn push(&mut self, user_id: &'a str, s: &'a Subscription) {
        self.user_id.push(user_id);
        self.subscription_type.push(s.subscription_type.as_str());
        self.subscription_state.push(s.state.as_str());
        self.cancel_at.push(s.cancel_at);
        self.cancel_at_period_end.push(s.cancel_at_period_end);
        self.cancel_requested_at.push(s.cancel_requested_at);
        self.subscribed.push(s.subscribed);
        self.acknowledged.push(s.acknowledged_non_charge_sub_expired);
        self.next_payment.push(s.next_payment);
        self.account_number.push(s.terms.account_number.as_deref());
        self.price_per_month.push(s.terms.price_per_month.as_deref());
        self.rebate.push(s.terms.rebate);
        self.billing_method.push(s.terms.billing_method.as_deref());
        self.trial_duration.push(s.terms.trial_duration);
        self.notes.push(s.terms.notes.as_deref());
        self.is_full_article_content.push(s.terms.is_full_article_content);
        self.added_by_admin.push(s.terms.added_by_admin);
        self.subscription_id.push(s.card.as_ref().map(|c| c.subscription_id.as_str()));
        self.payment_method_type.push(s.card.as_ref().and_then(|c| c.payment_method_type.as_deref()));
        self.payment_method_details.push(s.card.as_ref().and_then(|c| c.payment_method_details.as_deref()));
        self.legal_entity_name.push(s.terms.legal_entity_name.as_deref());
        self.billing_email_address.push(s.terms.billing_email_address.as_deref());
    }
}

/// The trail's rows of these changes (`audit`), one per reader: the route and transition, and the
/// subscription's type and state before and after. Who made them is the connection's actor (the
/// request's, the CLI's, the workers'); with none, the machine's own `actor`.
async fn audit(conn: &mut PgConnection, channel_id: &str, actor: &Actor, changes: &[&Change]) -> Result<()> {
    let mut user_id = Vec::with_capacity(changes.len());
    let mut change = Vec::with_capacity(changes.len());
    for c in changes {
        user_id.push(c.user_id.as_str());
        change.push(audit_change(actor, c.before.as_ref(), &c.transition));
    }
    sqlx::query!(
        "select audit_record(case when audit_context() ->> 'kind' = 'system' then $2::jsonb end, null, 'channel_subscription',
                             $1 || '/' || v.user_id, v.change)
         from unnest($3::text[], $4::jsonb[]) as v(user_id, change)",
        channel_id,
        fallback_actor(actor),
        &user_id as &[&str],
        &change,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What the trail keeps of a subscription change.
fn audit_change(actor: &Actor, before: Option<&Subscription>, transition: &Transition) -> serde_json::Value {
    let next = transition.next.as_ref();
    let mut after = serde_json::Map::new();
    if let Some(next) = next {
        after.insert("type".into(), next.subscription_type.as_str().into());
        after.insert("state".into(), next.state.as_str().into());
        if let Some(cancel_at) = next.cancel_at {
            after.insert("cancelAt".into(), cancel_at.to_rfc3339().into());
        }
        if let Some(notes) = next.terms.notes.as_deref().filter(|_| actor.route != Route::Reader) {
            after.insert("notes".into(), notes.into());
        }
    }
    serde_json::json!({
        "route": actor.route.as_str(),
        "transition": transition.action,
        "before": before.map(|b| serde_json::json!({ "type": b.subscription_type.as_str(), "state": b.state.as_str() })).unwrap_or_else(|| serde_json::json!({})),
        "after": after,
    })
}

/// The machine's actor as the trail names one, for a connection that names none.
fn fallback_actor(actor: &Actor) -> serde_json::Value {
    let kind = match actor.route {
        Route::Cli => "cli",
        Route::Worker => "worker",
        Route::Stripe => "stripe",
        _ => "user",
    };
    serde_json::json!({ "kind": kind, "id": actor.user_id, "action": actor.route.as_str() })
}

/// The trail's row of a change of a firm's subscription (`firms::subscriptions`).
pub async fn audit_firm(
    conn: &mut PgConnection,
    channel_id: &str,
    firm_id: &str,
    actor: &Actor,
    before: Option<&Subscription>,
    transition: &Transition,
) -> Result<()> {
    sqlx::query!(
        "select audit_record(case when audit_context() ->> 'kind' = 'system' then $3::jsonb end, null, 'firm_subscription',
                             $1 || '/' || $2, $4)",
        channel_id,
        firm_id,
        fallback_actor(actor),
        audit_change(actor, before, transition),
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn occasion_keys_keep_the_format_of_the_rows_already_stored() {
        let instants = [
            Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
            Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 59).unwrap() + chrono::Duration::microseconds(999_999),
            Utc.with_ymd_and_hms(999, 7, 8, 9, 10, 11).unwrap() + chrono::Duration::microseconds(42),
            Utc.with_ymd_and_hms(12345, 1, 1, 0, 0, 0).unwrap(),
            Utc::now(),
        ];
        for at in instants {
            assert_eq!(occasion_at(at), at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string());
        }
    }
}
