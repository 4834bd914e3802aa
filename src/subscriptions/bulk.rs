//! Adding subscribers in bulk (spec 3 §4 'Bulk flow'): the check of a list of email addresses
//! against the users and the channel's subscribers, and the creation of the subscriptions through
//! the state machine. The web app's upload and `insights-cli import-subscribers` both come here.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::{
    machine::{self, Event, Grant},
    model::SubscriptionType,
    queries::{self, CandidateRow},
    service::SubscriptionChannel,
    store::{self, Actor, Change},
};
use crate::{error::Result, jobs::JobQueue};

/// What the check found for each address (spec 3 §3 'CSV check result').
#[derive(Debug, Default, Clone)]
pub struct CheckResult {
    /// Distinct addresses identified (ignoring case).
    pub identified: usize,
    /// Users who can be added.
    pub users: Vec<CandidateRow>,
    /// Users already subscribed (or waiting for approval).
    pub existing: Vec<CandidateRow>,
    /// Known identities that never signed in to Insights.
    pub no_account: Vec<CandidateRow>,
    /// Addresses no user has.
    pub unmatched: Vec<String>,
}

/// Checks `emails` (duplicates ignoring case count once) against a channel, in file order.
pub async fn check(conn: &mut PgConnection, channel_id: &str, emails: &[String]) -> Result<CheckResult> {
    let mut seen = HashSet::with_capacity(emails.len());
    let distinct: Vec<String> = emails.iter().filter(|e| seen.insert(e.to_lowercase())).cloned().collect();
    let mut found: HashMap<String, CandidateRow> = queries::candidates_by_email(&mut *conn, channel_id, &distinct)
        .await?
        .into_iter()
        .map(|c| (c.email.to_lowercase(), c))
        .collect();
    let mut result = CheckResult { identified: distinct.len(), ..CheckResult::default() };
    for email in distinct {
        match found.remove(&email.to_lowercase()) {
            None => result.unmatched.push(email),
            Some(user) if !user.signed_in => result.no_account.push(user),
            Some(user) if user.subscribed => result.existing.push(user),
            Some(user) => result.users.push(user),
        }
    }
    Ok(result)
}

/// How long a kept file name may be.
const FILE_NAME_MAX: usize = 100;

/// The uploaded file's name as it is kept in the audit notes: the base name a browser may have
/// sent with its folders, without control characters, at most `FILE_NAME_MAX` characters; none
/// when nothing is left.
pub fn file_base_name(sent: &str) -> Option<String> {
    let base = sent.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = base.chars().filter(|c| !c.is_control()).collect();
    let clean: String = clean.trim().chars().take(FILE_NAME_MAX).collect();
    let clean = clean.trim_end();
    (!clean.is_empty() && clean != "." && clean != "..").then(|| clean.to_owned())
}

/// What a bulk creation did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub added: Vec<String>,
    pub updated: Vec<String>,
    /// Asked to be added but already subscribed (and not to be overwritten).
    pub already_subscribed: Vec<String>,
    /// Unknown, never signed in, or refused by the state machine, with the reason.
    pub refused: Vec<(String, String)>,
}

/// Gives `grant` to the users in `add` who are not subscribed, and to the subscribers in
/// `overwrite`, in the caller's transaction (all or nothing). Every user id is checked again
/// here: the lists come from a client or a file and the data may have changed since the check.
/// `account_trial_days` is `INSIGHTS_TRIAL_DAYS` (a trial reader's channel trial ends with their
/// account trial).
#[allow(clippy::too_many_arguments)]
pub async fn create(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel: &SubscriptionChannel,
    add: &[String],
    overwrite: &[String],
    grant: &Grant,
    trial_override: Option<&str>,
    actor: &Actor,
    now: DateTime<Utc>,
    account_trial_days: u32,
) -> Result<Outcome> {
    let mut seen = HashSet::new();
    let ids: Vec<String> = add.iter().chain(overwrite).filter(|id| seen.insert(id.as_str())).cloned().collect();
    let users: HashMap<String, CandidateRow> =
        queries::candidates_by_id(&mut *conn, &channel.id, &ids).await?.into_iter().map(|c| (c.user_id.clone(), c)).collect();
    let mut outcome = Outcome::default();
    let mut known = HashSet::with_capacity(ids.len());
    for id in ids {
        match users.get(&id) {
            None => outcome.refused.push((id, "no such user".into())),
            Some(user) if !user.signed_in => outcome.refused.push((id, "has never signed in to Insights".into())),
            Some(_) => {
                known.insert(id);
            }
        }
    }
    let add: Vec<String> = add.iter().filter(|id| known.contains(*id)).cloned().collect();
    let overwrite: Vec<String> = overwrite.iter().filter(|id| known.contains(*id)).cloned().collect();
    create_checked(conn, jobs, channel, &add, &overwrite, grant, trial_override, actor, now, account_trial_days, outcome).await
}

/// A trial follows the trial policy (`trials::check_bulk_trial`): over it only with `trial_override`,
/// a reason the audit trail keeps with each reader's trial.
///
/// `create` for users `check` found signed in, in the same transaction (the CLI import, which checks
/// the whole file first and then writes it in chunks): one lookup of the users fewer per chunk. Whether
/// each is subscribed is read again from their locked subscription; `outcome` is added to.
#[allow(clippy::too_many_arguments)]
pub async fn create_checked(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel: &SubscriptionChannel,
    add: &[String],
    overwrite: &[String],
    grant: &Grant,
    trial_override: Option<&str>,
    actor: &Actor,
    now: DateTime<Utc>,
    account_trial_days: u32,
    mut outcome: Outcome,
) -> Result<Outcome> {
    let mut seen = HashSet::new();
    let ids: Vec<String> = add.iter().chain(overwrite).filter(|id| seen.insert(id.as_str())).cloned().collect();
    let overwrite: HashSet<&str> = overwrite.iter().map(String::as_str).collect();
    let mut current = store::lock(conn, &channel.id, &ids).await?;
    let policy = match grant.terms.trial_duration.filter(|_| grant.subscription_type == SubscriptionType::Trial) {
        Some(days) => crate::trials::check_bulk_trial(conn, channel, &ids, days, trial_override).await?,
        None => crate::trials::BulkTrialCheck::default(),
    };
    let mut refused_by_policy: HashMap<String, String> = policy.refused.into_iter().collect();
    // What the rules need of the readers is their account trial, which only bounds a channel trial:
    // other grants (a 100,000-row non-charge import) need not read it.
    let readers = if grant.subscription_type == SubscriptionType::Trial {
        store::readers(conn, &ids, account_trial_days).await?
    } else {
        HashMap::new()
    };
    let mut changes = Vec::with_capacity(ids.len());
    let event = Event::Grant(grant.clone());
    for id in ids {
        let before = current.remove(&id);
        let subscribed = before.as_ref().is_some_and(|s| s.is_live_or_pending(now));
        if subscribed && !overwrite.contains(id.as_str()) {
            outcome.already_subscribed.push(id);
            continue;
        }
        if let Some(reason) = refused_by_policy.remove(&id) {
            outcome.refused.push((id, reason));
            continue;
        }
        let reader = readers.get(&id).copied().unwrap_or_default();
        match machine::transition_for(channel.facts(), reader, before.as_ref(), &event, now) {
            Ok(transition) => {
                if transition.action == "change" {
                    outcome.updated.push(id.clone())
                } else {
                    outcome.added.push(id.clone())
                }
                changes.push(Change { user_id: id, before, transition });
            }
            Err(refusal) => outcome.refused.push((id, refusal_message(refusal))),
        }
    }
    store::write(conn, jobs, &channel.id, actor, &changes, now).await?;
    let given: HashSet<&str> = changes.iter().map(|change| change.user_id.as_str()).collect();
    for (user_id, details) in policy.overrides.iter().filter(|(user_id, _)| given.contains(user_id.as_str())) {
        crate::trials::record_override(conn, &channel.id, user_id, details).await?;
    }
    Ok(outcome)
}

fn refusal_message(refusal: machine::Refusal) -> String {
    match refusal {
        machine::Refusal::Conflict(message) => message,
        machine::Refusal::NotOffered(message) => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::file_base_name;

    #[test]
    fn a_file_name_is_kept_as_a_bounded_base_name_without_control_characters() {
        assert_eq!(file_base_name("clients.csv").as_deref(), Some("clients.csv"));
        assert_eq!(file_base_name("C:\\Users\\ann\\clients.csv").as_deref(), Some("clients.csv"));
        assert_eq!(file_base_name("../../etc/passwd").as_deref(), Some("passwd"));
        assert_eq!(file_base_name("a\u{0}b\r\nc\u{1b}[31m.csv").as_deref(), Some("abc[31m.csv"));
        assert_eq!(file_base_name(&"x".repeat(500)).map(|n| n.chars().count()), Some(100));
        for nothing in ["", "  ", "dir/", "..", "\u{0}"] {
            assert_eq!(file_base_name(nothing), None, "{nothing:?}");
        }
    }
}
