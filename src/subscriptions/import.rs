//! `insights-cli import-subscribers`: adds the users of a CSV file to a channel with the web bulk flow's
//! check and rules (`bulk::check`, then `bulk::create` through the state machine), in one transaction.
//!
//! The file is read with the same parse rule as the web upload (`csv_emails`). Every line that adds no
//! subscriber is listed with its reason in an error report beside the file (`FILE.errors.csv`). The work is
//! done in chunks so a progress bar can follow it, but all of it commits together or not at all, and a
//! second run of the same file adds nothing: its users are already subscribed.

use std::{
    collections::HashMap,
    fs::File,
    path::{Path, PathBuf},
};

use chrono::{NaiveDate, Utc};
use sqlx::{PgConnection, PgPool};

use super::{
    bulk,
    csv_emails::{self, CsvLine},
    machine::{self, Grant},
    model::SubscriptionType,
    service::{self, GrantInput, SubscriptionChannel},
    store::{Actor, Route},
};
pub use crate::csv_files::{RefusedRow, error_report_path};
use crate::{channels::ChannelType, csv_files::write_error_report, error::Error, jobs::JobQueue};

/// Rows checked and written per step: large enough that a 100,000-row file takes 20 steps of a few
/// set-based statements each, small enough that the progress bar moves.
pub const CHUNK: usize = 5000;

pub const NEVER_SIGNED_IN: &str = "no Insights account (never signed in)";
pub const NO_SUCH_USER: &str = "no user with this email";
pub const ALREADY_SUBSCRIBED: &str = "already subscribed (use --overwrite)";

/// What to import, as the operator asked for it.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// The channel's id or name.
    pub channel: String,
    pub file: PathBuf,
    /// None: free on free channels, nonCharge on premium ones (as the web bulk flow).
    pub subscription_type: Option<SubscriptionType>,
    /// None: "Imported from FILE by insights-cli".
    pub notes: Option<String>,
    pub account_number: Option<String>,
    pub billing_method: Option<String>,
    /// Trials only; None: the channel's trial days, else the configured ones.
    pub trial_duration: Option<i32>,
    /// Trials only: why the trials may go over the trial policy (longer than its longest trial, or
    /// for readers within its cool-off); kept in the audit trail.
    pub policy_override_reason: Option<String>,
    /// The last day of the subscriptions (they end at 23:59:59 UTC that day).
    pub expires: Option<NaiveDate>,
    /// Also give the subscription to users who are already subscribed.
    pub overwrite: bool,
    /// Check and report, then roll back: the database is left as it was.
    pub dry_run: bool,
    /// The configured length of a channel trial (`INSIGHTS_TRIAL_CHANNEL_DAYS`).
    pub configured_trial_days: u32,
    /// The configured length of a reader's account trial (`INSIGHTS_TRIAL_DAYS`), which a trial
    /// reader's channel trial does not outlast.
    pub account_trial_days: u32,
    /// Lines per step (see `CHUNK`).
    pub chunk_size: usize,
}

impl ImportRequest {
    pub fn new(channel: impl Into<String>, file: impl Into<PathBuf>) -> ImportRequest {
        ImportRequest {
            channel: channel.into(),
            file: file.into(),
            subscription_type: None,
            notes: None,
            account_number: None,
            billing_method: None,
            trial_duration: None,
            policy_override_reason: None,
            expires: None,
            overwrite: false,
            dry_run: false,
            configured_trial_days: 14,
            account_trial_days: 14,
            chunk_size: CHUNK,
        }
    }
}

/// What an import did (or, in a dry run, would have done), counted once per line of the file.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Lines read (blank lines aside).
    pub lines: usize,
    /// Distinct email addresses checked.
    pub identified: usize,
    pub added: usize,
    /// Already subscribed (or waiting for approval) and left as they were.
    pub already_subscribed: usize,
    /// Already subscribed and given the new subscription (--overwrite).
    pub updated: usize,
    /// Users who never signed in to Insights.
    pub no_account: usize,
    /// Addresses no user has.
    pub unmatched: usize,
    /// Lines without an email address: empty, not an email address, or a duplicate of an earlier line.
    pub refused_lines: usize,
    /// Users the subscription rules refused (e.g. a card subscriber on --overwrite).
    pub refused: usize,
}


#[derive(Debug, Clone)]
pub struct ImportReport {
    pub channel_id: String,
    pub channel_name: String,
    pub subscription_type: SubscriptionType,
    pub summary: Summary,
    /// In file order.
    pub refused: Vec<RefusedRow>,
    /// Where the refused rows were written; None when there were none.
    pub error_report: Option<PathBuf>,
    pub dry_run: bool,
}

/// Why nothing was imported. The messages are for an operator at a terminal.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("no channel has the id or name {0:?}")]
    UnknownChannel(String),
    #[error("{}", machine::ARCHIVED)]
    Archived { channel: String },
    #[error("cannot read {}: {source}", path.display())]
    Unreadable { path: PathBuf, source: csv::Error },
    /// An option the channel or the subscription rules refuse, e.g. "--account-number: This field is required".
    #[error("{0}")]
    Invalid(String),
    #[error("cannot write the error report {}: {source}", path.display())]
    Report { path: PathBuf, source: csv::Error },
    /// A database or other failure; the transaction was rolled back.
    #[error("{}", operator_message(.0))]
    Failed(Error),
}

impl From<Error> for ImportError {
    fn from(error: Error) -> Self {
        ImportError::Failed(error)
    }
}

impl From<sqlx::Error> for ImportError {
    fn from(error: sqlx::Error) -> Self {
        ImportError::Failed(Error::Database(error))
    }
}

/// The operator sees what went wrong (a web client would only see "Internal server error").
pub fn operator_message(error: &Error) -> String {
    match error {
        Error::Database(error) => format!("database error: {error}"),
        Error::Internal(error) => format!("{error:#}"),
        other => other.message(),
    }
}


/// Imports the file of `request` into its channel; `progress(done, total)` is called with the lines done
/// so far, from 0 to the number of lines. All or nothing: any failure leaves the database as it was.
#[tracing::instrument(skip_all, fields(channel = %request.channel, file = %request.file.display()))]
pub async fn import_subscribers(
    pool: &PgPool,
    jobs: &dyn JobQueue,
    request: &ImportRequest,
    progress: &(dyn Fn(u64, u64) + Send + Sync),
) -> Result<ImportReport, ImportError> {
    let unknown = || ImportError::UnknownChannel(request.channel.clone());
    let channel_id = match crate::channels::service::resolve(pool, &request.channel).await {
        Err(Error::NotFound(_)) => return Err(unknown()),
        other => other?,
    };
    let lines = read_file(&request.file)?;

    let mut tx = pool.begin().await?;
    // Share-locked until the end: the channel cannot be archived or changed while its subscribers are added.
    let channel = match service::lock_channel(&mut tx, &channel_id).await {
        Err(Error::NotFound(_)) => return Err(unknown()),
        other => other?,
    };
    if channel.archived {
        return Err(ImportError::Archived { channel: channel.name });
    }
    let now = Utc::now();
    let grant = grant(&channel, request, now)?;
    let actor = Actor { user_id: None, route: Route::Cli };

    let mut run = Run::new(&lines);
    let total = lines.len() as u64;
    progress(0, total);
    // One check of the whole file (a single pass over the users), then the writes in chunks.
    let (add, overwrite) = run.check(&mut tx, &channel, &lines, request.overwrite).await?;
    let mut done = total.saturating_sub((add.len() + overwrite.len()) as u64);
    if done > 0 {
        progress(done, total);
    }
    let chunk_size = request.chunk_size.max(1);
    let chunks = add.chunks(chunk_size).map(|ids| (ids, &[][..])).chain(overwrite.chunks(chunk_size).map(|ids| (&[][..], ids)));
    for (add, overwrite) in chunks {
        let trial_override = request.policy_override_reason.as_deref();
        run.create(&mut tx, jobs, &channel, add, overwrite, (&grant, trial_override), &actor, now, request.account_trial_days).await?;
        done += (add.len() + overwrite.len()) as u64;
        progress(done, total);
    }
    run.refused.sort_by_key(|row| row.line);

    // Written before the commit, so a report that cannot be written leaves nothing imported.
    let error_report = write_error_report(&request.file, "value", &run.refused)
        .map_err(|source| ImportError::Report { path: error_report_path(&request.file), source })?;
    if request.dry_run {
        tx.rollback().await?;
    } else {
        tx.commit().await?;
    }
    tracing::info!(added = run.summary.added, updated = run.summary.updated, dry_run = request.dry_run, "subscribers imported");
    Ok(ImportReport {
        channel_id: channel.id,
        channel_name: channel.name,
        subscription_type: grant.subscription_type,
        summary: run.summary,
        refused: run.refused,
        error_report,
        dry_run: request.dry_run,
    })
}

fn read_file(path: &Path) -> Result<Vec<CsvLine>, ImportError> {
    let unreadable = |source: csv::Error| ImportError::Unreadable { path: path.to_owned(), source };
    let file = File::open(path).map_err(|e| unreadable(e.into()))?;
    csv_emails::read_lines(file).map_err(unreadable)
}

/// The subscription to give, checked with the admin form's rules (spec 3 §5).
fn grant(channel: &SubscriptionChannel, request: &ImportRequest, now: chrono::DateTime<Utc>) -> Result<Grant, ImportError> {
    let premium = channel.channel_type == ChannelType::Premium;
    let subscription_type = match request.subscription_type {
        // The form would silently make it free; an operator who asked for another type should know.
        Some(kind) if !premium && kind != SubscriptionType::Free => {
            return Err(ImportError::Invalid(format!(
                "--type: {} is a free channel: its subscriptions are free (--type free)",
                channel.name
            )));
        }
        Some(kind) => kind,
        None if premium => SubscriptionType::NonCharge,
        None => SubscriptionType::Free,
    };
    let file_name = request.file.file_name().map_or_else(|| request.file.display().to_string(), |n| n.to_string_lossy().into_owned());
    let notes = request
        .notes
        .clone()
        .unwrap_or_else(|| format!("Imported from {file_name} by insights-cli").chars().take(service::NOTES_MAX).collect());
    let input = GrantInput {
        subscription_type: Some(subscription_type),
        cancel_at: request.expires.map(|day| day.and_time(chrono::NaiveTime::MIN).and_utc()),
        account_number: request.account_number.clone(),
        billing_method: request.billing_method.clone(),
        trial_duration: request.trial_duration,
        notes: Some(notes),
        ..GrantInput::default()
    };
    service::validate_grant(channel, &input, true, request.configured_trial_days, now).map_err(options_refused)
}

/// A refusal of the form's fields, told as the options the operator gave.
fn options_refused(error: Error) -> ImportError {
    match error {
        Error::BadUserInput { fields, .. } => ImportError::Invalid(
            fields.iter().map(|(field, message)| format!("{}: {message}", flag_of(field))).collect::<Vec<_>>().join("; "),
        ),
        other => ImportError::Failed(other),
    }
}

/// The command-line option behind a field of the admin form.
fn flag_of(field: &str) -> &str {
    match field {
        "subscriptionType" => "--type",
        "notes" => "--notes",
        "accountNumber" => "--account-number",
        "billingMethod" => "--billing-method",
        "trialDuration" => "--trial-duration",
        "cancelAt" => "--expires",
        "policyOverrideReason" => "--policy-override-reason",
        other => other,
    }
}

/// The running totals of an import.
struct Run<'a> {
    summary: Summary,
    refused: Vec<RefusedRow>,
    /// The kept lines by address (lowercase), to report a user on the line that named them.
    by_email: HashMap<String, &'a CsvLine>,
    /// The address each checked user was found by.
    email_of: HashMap<String, String>,
}

impl<'a> Run<'a> {
    /// Starts with the lines the parse rule refused.
    fn new(lines: &'a [CsvLine]) -> Run<'a> {
        let mut run = Run {
            summary: Summary { lines: lines.len(), ..Summary::default() },
            refused: Vec::new(),
            by_email: HashMap::with_capacity(lines.len()),
            email_of: HashMap::new(),
        };
        for line in lines {
            match line.refused {
                Some(refusal) => {
                    run.summary.refused_lines += 1;
                    run.refused.push(RefusedRow { line: line.line, value: line.value.clone(), reason: refusal.reason() });
                }
                None => {
                    run.by_email.insert(line.value.to_lowercase(), line);
                }
            }
        }
        run
    }

    /// The refused row of the line that named `email`. PostgreSQL's lower() and Rust's may differ on a rare
    /// character: such a row is reported with the user's address and line 0 rather than lost.
    fn refuse(&mut self, email: &str, reason: &str) {
        let row = match self.by_email.get(&email.to_lowercase()) {
            Some(line) => RefusedRow { line: line.line, value: line.value.clone(), reason: reason.to_owned() },
            None => RefusedRow { line: 0, value: email.to_owned(), reason: reason.to_owned() },
        };
        self.refused.push(row);
    }

    /// Checks every kept address (as the web upload does, `bulk::check`) and returns the users to add and,
    /// with `overwrite`, the subscribers to give the subscription again, by id.
    async fn check(
        &mut self,
        conn: &mut PgConnection,
        channel: &SubscriptionChannel,
        lines: &[CsvLine],
        overwrite: bool,
    ) -> Result<(Vec<String>, Vec<String>), ImportError> {
        // The parse rule already refused duplicates, so every kept line is one address.
        let emails = csv_emails::emails(lines);
        if emails.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let checked = bulk::check(conn, &channel.id, &emails).await?;
        drop(emails);
        self.summary.identified = checked.identified;
        for email in &checked.unmatched {
            self.summary.unmatched += 1;
            self.refuse(email, NO_SUCH_USER);
        }
        for user in &checked.no_account {
            self.summary.no_account += 1;
            self.refuse(&user.email, NEVER_SIGNED_IN);
        }
        if !overwrite {
            for user in &checked.existing {
                self.summary.already_subscribed += 1;
                self.refuse(&user.email, ALREADY_SUBSCRIBED);
            }
        }
        let mut ids = |users: Vec<super::queries::CandidateRow>| -> Vec<String> {
            users
                .into_iter()
                .map(|user| {
                    self.email_of.insert(user.user_id.clone(), user.email);
                    user.user_id
                })
                .collect()
        };
        let mut add = ids(checked.users);
        let mut existing = if overwrite { ids(checked.existing) } else { Vec::new() };
        // Each chunk then covers a range of keys: the writes walk the indexes in order (see `store::write`).
        add.sort_unstable();
        existing.sort_unstable();
        Ok((add, existing))
    }

    /// Subscribes the users of one chunk, in the caller's transaction.
    #[allow(clippy::too_many_arguments)]
    async fn create(
        &mut self,
        conn: &mut PgConnection,
        jobs: &dyn JobQueue,
        channel: &SubscriptionChannel,
        add: &[String],
        overwrite: &[String],
        (grant, trial_override): (&Grant, Option<&str>),
        actor: &Actor,
        now: chrono::DateTime<Utc>,
        account_trial_days: u32,
    ) -> Result<(), ImportError> {
        // The users were checked (found, signed in) moments ago in this transaction.
        let outcome = bulk::create_checked(
            conn,
            jobs,
            channel,
            add,
            overwrite,
            grant,
            trial_override,
            actor,
            now,
            account_trial_days,
            bulk::Outcome::default(),
        )
        .await
        .map_err(options_refused)?;
        self.summary.added += outcome.added.len();
        self.summary.updated += outcome.updated.len();
        let email = |run: &Run, id: &str| run.email_of.get(id).cloned().unwrap_or_else(|| id.to_owned());
        // Subscribed by someone else since the check (in this transaction, only a concurrent change can do that).
        for id in &outcome.already_subscribed {
            self.summary.already_subscribed += 1;
            self.refuse(&email(self, id), ALREADY_SUBSCRIBED);
        }
        for (id, reason) in &outcome.refused {
            self.summary.refused += 1;
            self.refuse(&email(self, id), reason);
        }
        Ok(())
    }
}

/// Writes the refused rows beside the file (line, value, reason); with none, removes a report left by an
/// earlier run so it is never mistaken for this one's.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_sits_beside_the_file() {
        assert_eq!(error_report_path(Path::new("/tmp/people.csv")), Path::new("/tmp/people.errors.csv"));
        assert_eq!(error_report_path(Path::new("people")), Path::new("people.errors.csv"));
    }
}
