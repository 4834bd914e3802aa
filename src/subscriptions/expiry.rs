//! The expiry sweep: ends the subscriptions whose end has come (trials, expiry dates, cancellations
//! at period end) through the state machine, and asks for the trial-ending reminders that are due.
//! Safe with several workers at once: rows are claimed with SKIP LOCKED and emails are keyed.
//! (A reader's access ends at `cancel_at` whether or not the sweep has run: every access check
//! compares it with the time.)

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;

use super::{
    machine::{self, EmailKind, Event},
    queries,
    service::lock_channel,
    store::{self, Actor, Change, Route},
};
use crate::{email::compose::SubscriptionEmail, error::Result, jobs::JobQueue};

/// Subscriptions claimed per transaction.
pub const BATCH: i64 = 1000;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SweepReport {
    pub ended: u64,
    pub reminders: u64,
}

/// Runs the sweep at `now` until nothing is due.
#[tracing::instrument(skip(pool, jobs))]
pub async fn sweep(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>) -> Result<SweepReport> {
    let mut report = SweepReport::default();
    loop {
        let (claimed, ended) = end_batch(pool, jobs, now).await?;
        report.ended += ended;
        if claimed < BATCH as u64 {
            break;
        }
    }
    // Firms' subscriptions end alike (their seats freed), with the same emails to the firms' administrators.
    report.ended += crate::firms::subscriptions::expire_due(pool, jobs, now, BATCH).await?;
    report.reminders = remind(pool, jobs, now).await?;
    report.reminders += crate::firms::subscriptions::remind(pool, jobs, now).await?;
    if report != SweepReport::default() {
        tracing::info!(ended = report.ended, reminders = report.reminders, "subscriptions swept");
    }
    Ok(report)
}

/// Claims up to `BATCH` due subscriptions and ends them; returns how many were claimed and ended.
async fn end_batch(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>) -> Result<(u64, u64)> {
    let mut tx = pool.begin().await?;
    let due = queries::lock_due_to_end(&mut tx, now, BATCH).await?;
    let claimed = due.len() as u64;
    let mut by_channel: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in due {
        by_channel.entry(row.channel_id).or_default().push(row.user_id);
    }
    let worker = Actor { user_id: None, route: Route::Worker };
    let mut ended = 0;
    for (channel_id, user_ids) in by_channel {
        let channel = lock_channel(&mut tx, &channel_id).await?;
        let current = store::lock(&mut tx, &channel.id, &user_ids).await?;
        let changes: Vec<Change> = current
            .into_iter()
            .filter_map(|(user_id, before)| {
                // A subscription someone changed meanwhile is no longer due: the machine says so.
                let transition = machine::transition(channel.facts(), Some(&before), &Event::Expire, now).ok()?;
                Some(Change { user_id, before: Some(before), transition })
            })
            .collect();
        ended += changes.len() as u64;
        store::write(&mut tx, jobs, &channel.id, &worker, &changes, now).await?;
    }
    tx.commit().await?;
    Ok((claimed, ended))
}

/// Asks for a reminder to every trial ending within `TRIAL_REMINDER_DAYS`; the email's key (the
/// trial's end) makes each asked for once however often the sweep runs.
async fn remind(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>) -> Result<u64> {
    let mut tx = pool.begin().await?;
    let due = queries::trials_ending(&mut tx, now, now + Duration::days(machine::TRIAL_REMINDER_DAYS)).await?;
    let mut by_channel: BTreeMap<String, Vec<(EmailKind, String, String)>> = BTreeMap::new();
    for row in due {
        by_channel.entry(row.channel_id).or_default().push((EmailKind::TrialEnding, row.user_id, store::occasion_at(row.cancel_at)));
    }
    let mut requested = 0;
    for (channel_id, emails) in by_channel {
        let emails: Vec<SubscriptionEmail> = emails
            .iter()
            .map(|(kind, user_id, occasion)| SubscriptionEmail { kind: *kind, user_id, occasion: occasion.clone(), welcome: None })
            .collect();
        requested += crate::email::compose::subscription_emails(&mut tx, jobs, &channel_id, &emails).await?;
    }
    tx.commit().await?;
    Ok(requested)
}
