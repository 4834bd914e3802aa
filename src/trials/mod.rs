//! Regulated trials (issue 40): the trial policy (the longest trial, the cool-off after an earlier
//! arrangement, whether the reader accepts terms), the terms' versions, and the checks a trial
//! request and a trial staff give go through. A refusal says why in plain words ("You had a trial
//! of Metals Pro until 3 Mar 2026; a new trial is possible from 3 Mar 2027."). Staff may override
//! the policy with a reason, which the audit trail records.

pub mod graphql;
pub mod queries;

use chrono::{DateTime, Duration, Utc};

use crate::{
    audit,
    config::{TRIAL_MAX_DAYS, TRIAL_MIN_DAYS},
    error::{Error, Result},
    state::AppState,
    subscriptions::{
        machine::Event,
        model::SubscriptionType,
        service::{self, Caller, SubscriptionChannel},
    },
};

pub use graphql::{TrialsMutation, TrialsQuery};

pub const TERMS_NOT_ACCEPTED: &str = "Accept the trial terms to request a free trial.";
pub const TERMS_CHANGED: &str = "The trial terms have changed: read and accept the current ones.";
pub const OVERRIDE_REASON_MAX: usize = 250;

/// '3 Mar 2026'.
fn day(at: DateTime<Utc>) -> String {
    at.format("%-d %b %Y").to_string()
}

/// The policy's cool-off after a trial or subscription ended.
pub async fn cool_off(pool: &sqlx::PgPool) -> Result<Duration> {
    Ok(Duration::days(i64::from(queries::policy(pool).await?.cool_off_days)))
}

/// Why the cool-off refuses a new trial of `channel` now, if it does.
pub async fn cool_off_refusal(pool: &sqlx::PgPool, channel: &SubscriptionChannel, user_id: &str, now: DateTime<Utc>) -> Result<Option<String>> {
    let policy = queries::policy(pool).await?;
    if policy.cool_off_days == 0 {
        return Ok(None);
    }
    let cool_off = Duration::days(i64::from(policy.cool_off_days));
    let earlier = queries::ended_since(pool, &channel.id, user_id, now - cool_off).await?;
    Ok(earlier.map(|earlier| refusal(&channel.name, user_id, &earlier, cool_off)))
}

/// "You had a trial of Metals Pro until 3 Mar 2026; a new trial is possible from 3 Mar 2027."
fn refusal(channel_name: &str, user_id: &str, earlier: &queries::EndedArrangement, cool_off: Duration) -> String {
    let what = if earlier.subscription_type == SubscriptionType::Trial.as_str() { "a trial of" } else { "a subscription to" };
    let who = match &earlier.firm_name {
        Some(firm) if earlier.user_id != user_id => format!("A reader of your firm, {firm}, had"),
        _ => "You had".to_owned(),
    };
    format!("{who} {what} {channel_name} until {}; a new trial is possible from {}.", day(earlier.ended_at), day(earlier.ended_at + cool_off))
}

/// A reader asks for a trial: the terms accepted (when the policy asks for them: the current
/// version, recorded with the time), the cool-off respected, then the request as the state machine
/// has it.
pub async fn request(state: &AppState, user_id: &str, channel_id: &str, accepted_terms: Option<i32>) -> Result<SubscriptionChannel> {
    let channel = service::channel(&state.pool, channel_id).await?;
    let policy = queries::policy(&state.pool).await?;
    let terms = queries::current_terms(&state.pool).await?;
    match accepted_terms {
        None if policy.terms_required => return Err(Error::field("acceptedTermsVersion", TERMS_NOT_ACCEPTED)),
        Some(version) if version != terms.version => return Err(Error::field("acceptedTermsVersion", TERMS_CHANGED)),
        _ => {}
    }
    if let Some(refusal) = cool_off_refusal(&state.pool, &channel, user_id, Utc::now()).await? {
        return Err(Error::Conflict(refusal));
    }
    let accepted = accepted_terms.map(|version| (channel.id.as_str(), version));
    service::apply_with(state, &channel.id, user_id, Caller::Reader(user_id), &|_, _| Ok(Event::RequestTrial), async |conn| {
        if let Some((channel_id, version)) = accepted {
            queries::record_acceptance(conn, channel_id, user_id, version).await?;
        }
        Ok(())
    })
    .await
}

/// The days a trial that staff approve or give lasts: the asked (or the channel's) days, at most
/// the policy's longest.
pub async fn capped_days(pool: &sqlx::PgPool, days: i32) -> Result<i32> {
    Ok(days.min(queries::policy(pool).await?.max_days))
}

/// Staff give a reader a trial: within the policy (its longest trial, the cool-off), or over it
/// with a reason. Returns what the audit trail records of an override (the reason and the rules
/// overridden), for the grant's transaction (`record_override`).
pub async fn check_staff_trial(
    state: &AppState,
    channel_id: &str,
    user_id: &str,
    days: i32,
    override_reason: Option<&str>,
) -> Result<Option<serde_json::Value>> {
    // A length outside the spec's bounds is the form's to refuse (`service::validate_grant`).
    if !(TRIAL_MIN_DAYS as i32..=TRIAL_MAX_DAYS as i32).contains(&days) {
        return Ok(None);
    }
    let channel = service::channel(&state.pool, channel_id).await?;
    let policy = queries::policy(&state.pool).await?;
    let mut breaches = Vec::new();
    if days > policy.max_days {
        breaches.push(format!("The trial policy allows at most {} days.", policy.max_days));
    }
    if let Some(refusal) = cool_off_refusal(&state.pool, &channel, user_id, Utc::now()).await? {
        breaches.push(refusal);
    }
    if breaches.is_empty() {
        return Ok(None);
    }
    let reason = override_reason.map(str::trim).filter(|r| !r.is_empty());
    match reason {
        None if days > policy.max_days => Err(Error::field("trialDuration", breaches.remove(0))),
        None => Err(Error::Conflict(format!("{} Give a reason to override the trial policy.", breaches.remove(0)))),
        Some(reason) if reason.chars().count() > OVERRIDE_REASON_MAX => {
            Err(Error::field("policyOverrideReason", crate::validation::max_length_message(OVERRIDE_REASON_MAX)))
        }
        Some(reason) => Ok(Some(serde_json::json!({ "trialPolicyOverride": { "reason": reason, "rules": breaches, "days": days } }))),
    }
}

/// A trial staff give many readers at once (`createBulkSubscriptions`, `import-subscribers --type
/// trial`) under the policy: longer than its longest trial, the whole grant is refused; readers
/// within the cool-off are refused one by one with the reason. With a reason to override, both are
/// allowed and each reader's override is returned for the audit trail (`record_override`).
#[derive(Debug, Default)]
pub struct BulkTrialCheck {
    /// Readers the cool-off refuses, with why (in the words a single request would get).
    pub refused: Vec<(String, String)>,
    /// Readers given a trial over the policy, with what the audit trail records.
    pub overrides: Vec<(String, serde_json::Value)>,
}

pub async fn check_bulk_trial(
    conn: &mut sqlx::PgConnection,
    channel: &SubscriptionChannel,
    user_ids: &[String],
    days: i32,
    override_reason: Option<&str>,
) -> Result<BulkTrialCheck> {
    let policy = queries::policy(&mut *conn).await?;
    let reason = override_reason.map(str::trim).filter(|r| !r.is_empty());
    if let Some(reason) = reason
        && reason.chars().count() > OVERRIDE_REASON_MAX
    {
        return Err(Error::field("policyOverrideReason", crate::validation::max_length_message(OVERRIDE_REASON_MAX)));
    }
    let too_long = (days > policy.max_days).then(|| format!("The trial policy allows at most {} days.", policy.max_days));
    if let (Some(breach), None) = (&too_long, reason) {
        return Err(Error::field("trialDuration", breach.clone()));
    }
    let cool_off = Duration::days(i64::from(policy.cool_off_days));
    let cooling_off = if policy.cool_off_days == 0 {
        Vec::new()
    } else {
        queries::ended_since_for(&mut *conn, &channel.id, user_ids, Utc::now() - cool_off).await?
    };
    let mut check = BulkTrialCheck::default();
    let mut in_cool_off: std::collections::HashMap<String, String> =
        cooling_off.into_iter().map(|(user_id, earlier)| (user_id.clone(), refusal(&channel.name, &user_id, &earlier, cool_off))).collect();
    for user_id in user_ids {
        let breaches: Vec<String> = too_long.iter().cloned().chain(in_cool_off.remove(user_id)).collect();
        match reason {
            _ if breaches.is_empty() => {}
            None => check.refused.push((user_id.clone(), breaches.join(" "))),
            Some(reason) => {
                let details = serde_json::json!({ "trialPolicyOverride": { "reason": reason, "rules": breaches, "days": days } });
                check.overrides.push((user_id.clone(), details));
            }
        }
    }
    Ok(check)
}

/// Records a policy override (`check_staff_trial`) as the connection's actor's, with the trial.
pub async fn record_override(conn: &mut sqlx::PgConnection, channel_id: &str, user_id: &str, details: &serde_json::Value) -> Result<()> {
    let entity = format!("{channel_id}/{user_id}");
    audit::queries::record(conn, None, None, Some("channel_subscription"), Some(&entity), details).await?;
    Ok(())
}

/// The longest cool-off Administrators may set (ten years).
pub const COOL_OFF_MAX_DAYS: i32 = 3650;

/// The policy's settings as Administrators set them.
pub struct PolicyChange {
    pub max_days: i32,
    pub cool_off_days: i32,
    pub terms_required: bool,
}

/// Writes the policy (the longest trial within the spec's bounds, a cool-off of 0 to 3650 days)
/// when it is at `version`; CONFLICT when someone saved it since.
pub async fn edit_policy(pool: &sqlx::PgPool, by: &str, change: &PolicyChange, version: i32) -> Result<queries::PolicyRow> {
    let mut fields = crate::error::FieldErrors::new();
    if !(TRIAL_MIN_DAYS as i32..=TRIAL_MAX_DAYS as i32).contains(&change.max_days) {
        fields.insert("maxDays".into(), format!("Enter a whole number of days from {TRIAL_MIN_DAYS} to {TRIAL_MAX_DAYS}"));
    }
    if !(0..=COOL_OFF_MAX_DAYS).contains(&change.cool_off_days) {
        fields.insert("coolOffDays".into(), format!("Enter a whole number of days from 0 to {COOL_OFF_MAX_DAYS}"));
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    if !queries::update_policy(pool, change.max_days, change.cool_off_days, change.terms_required, version, by).await? {
        return Err(Error::stale_version());
    }
    Ok(queries::policy(pool).await?)
}

/// New trial terms (sanitised; required), the next version after `version`; CONFLICT when
/// another was saved since. Earlier versions stay: acceptances name theirs.
pub async fn edit_terms(state: &AppState, by: &str, html: &str, version: i32) -> Result<queries::TermsRow> {
    let html = state.sanitizer.clean(html);
    if crate::articles::text::body_text(&html).text.is_empty() {
        return Err(Error::field("html", crate::error::REQUIRED_MESSAGE));
    }
    if !queries::add_terms(&state.pool, &html, version, by).await? {
        return Err(Error::stale_version());
    }
    Ok(queries::current_terms(&state.pool).await?)
}
