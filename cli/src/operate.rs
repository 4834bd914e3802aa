//! Operating the background workers: `insights-cli jobs` (the worker processes and their
//! versions, the job queue, failed jobs, the outbox's counts; `jobs retry`) and `insights-cli
//! outbox` (recent emails and their delivery state, one email in full; `outbox retry`). They read
//! and retry through the library (`insights::workers`, `insights::email::outbox` and `::queries`,
//! `insights_jobs::admin`) and print plain aligned text.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Context;
use chrono::Utc;
use clap::{ArgGroup, Args, Subcommand};
use insights::{
    AppState, Config,
    email::{self, delivery, unsubscribe},
    jobs::JobRequest,
    workers,
};

use crate::table::{self, Table, moment, relative};

/// Workers that stopped or died longer ago than this are not listed.
const RECENT_HOURS: i32 = 24;
/// Failed jobs listed, newest first.
const FAILED_JOBS_LISTED: i64 = 20;
/// The outbox's states, in the order of an email's life.
const EMAIL_STATES: [&str; 5] = ["pending", "sending", "sent", "failed", "sentNowhere"];
/// apalis' job states, in the order of a job's life (others, if any, follow).
const JOB_STATES: [&str; 6] = ["Pending", "Queued", "Running", "Done", "Failed", "Killed"];

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct JobsArgs {
    #[command(subcommand)]
    command: Option<JobsCommand>,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum JobsCommand {
    /// What `insights-cli jobs` prints (the default).
    Status(StatusArgs),
    /// Run failed jobs again from their first attempt: one by its id (the first column of
    /// `insights-cli jobs`), or all of them with --all. Prints how many.
    Retry(JobRetryArgs),
}

#[derive(Args)]
struct StatusArgs {
    #[command(flatten)]
    config: Config,
}

#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).args(["id", "all"])))]
struct JobRetryArgs {
    /// The failed job's id.
    id: Option<String>,
    /// Every failed job.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    config: Config,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct OutboxArgs {
    #[command(subcommand)]
    command: Option<OutboxCommand>,
    /// Only the emails in this state.
    #[arg(long, value_enum)]
    state: Option<EmailState>,
    /// How many emails to list, newest first.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=10_000))]
    limit: i64,
    /// Print one email as it is (or would be) sent: its recipient, subject and text part, links
    /// included (without an SMTP server emails stay here as sentNowhere: this is how to read them).
    #[arg(long, value_name = "ID", conflicts_with = "state")]
    show: Option<i64>,
    /// With --show: print the HTML part instead of the text part.
    #[arg(long, requires = "show")]
    html: bool,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum OutboxCommand {
    /// Make failed emails pending again (one by its id, or all of them with --all) and ask the
    /// workers to deliver them now. Prints how many.
    Retry(OutboxRetryArgs),
}

#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).args(["id", "all"])))]
struct OutboxRetryArgs {
    /// The failed email's id (the first column of `insights-cli outbox`).
    id: Option<i64>,
    /// Every failed email.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    config: Config,
}

/// An email's delivery state, as stored.
#[derive(Clone, Copy, clap::ValueEnum)]
enum EmailState {
    Pending,
    Sending,
    Sent,
    Failed,
    #[value(name = "sentNowhere")]
    SentNowhere,
}

impl EmailState {
    fn as_str(self) -> &'static str {
        match self {
            EmailState::Pending => "pending",
            EmailState::Sending => "sending",
            EmailState::Sent => "sent",
            EmailState::Failed => "failed",
            EmailState::SentNowhere => "sentNowhere",
        }
    }
}

async fn connect(config: &Config) -> anyhow::Result<sqlx::PgPool> {
    let pool = crate::connect(config).await?;
    crate::apply_migrations(&pool).await?;
    Ok(pool)
}

pub async fn jobs(args: JobsArgs) -> anyhow::Result<()> {
    match args.command {
        None => status(args.config).await,
        Some(JobsCommand::Status(args)) => status(args.config).await,
        Some(JobsCommand::Retry(args)) => retry_jobs(args).await,
    }
}

async fn status(config: Config) -> anyhow::Result<()> {
    let pool = connect(&config).await?;
    let now = Utc::now();
    let processes = workers::list(&pool, RECENT_HOURS).await.context("list the worker processes")?;
    let queue = insights_jobs::admin::queue_counts(&pool).await.context("count the jobs")?;
    let failed = insights_jobs::admin::failed(&pool, FAILED_JOBS_LISTED).await.context("list the failed jobs")?;
    let emails = email::queries::counts(&pool).await.context("count the outbox")?;

    let alive = processes.iter().filter(|p| p.alive).count();
    println!("Worker processes: {alive} alive, {} gone in the last {RECENT_HOURS} h (times in UTC)", processes.len() - alive);
    if !processes.is_empty() {
        let mut rows = Table::new(&["worker", "host", "pid", "version", "started", "last heartbeat", "state"]).right(&[2]);
        for p in &processes {
            let state = match (p.alive, p.stopped_at) {
                (true, _) => "alive".to_owned(),
                (false, Some(at)) => format!("stopped {}", relative(at, now)),
                (false, None) => "lost (no heartbeat)".to_owned(),
            };
            rows.row(vec![
                p.worker_id.simple().to_string()[..8].to_owned(),
                p.hostname.clone(),
                p.pid.to_string(),
                p.version.clone(),
                moment(p.started_at),
                relative(p.heartbeat_at, now),
                state,
            ]);
        }
        rows.print();
    }
    println!("{}", versions_line(processes.iter().filter(|p| p.alive).map(|p| p.version.as_str())));
    println!();

    println!("Job queue by kind and state:");
    if queue.is_empty() {
        println!("  (no jobs)");
    } else {
        let mut by_kind: BTreeMap<&str, BTreeMap<&str, i64>> = BTreeMap::new();
        for row in &queue {
            *by_kind.entry(row.kind.as_str()).or_default().entry(row.status.as_str()).or_default() += row.count;
        }
        // The usual states always, in their order; any other state apalis uses after them.
        let others: BTreeSet<&str> = queue.iter().map(|r| r.status.as_str()).filter(|s| !JOB_STATES.contains(s)).collect();
        let states: Vec<&str> = JOB_STATES.iter().copied().chain(others).collect();
        let mut headers = vec!["kind"];
        headers.extend(&states);
        let mut rows = Table::new(&headers).right(&(1..headers.len()).collect::<Vec<_>>());
        for (kind, counts) in &by_kind {
            let mut cells = vec![kind.to_string()];
            cells.extend(states.iter().map(|s| counts.get(s).copied().unwrap_or(0).to_string()));
            rows.row(cells);
        }
        rows.print();
    }
    println!();

    if failed.is_empty() {
        println!("Failed jobs: none.");
    } else {
        println!(
            "Failed jobs ({}newest first; `insights-cli jobs retry ID` or `--all` runs them again):",
            if failed.len() as i64 == FAILED_JOBS_LISTED { format!("the {FAILED_JOBS_LISTED} ") } else { String::new() }
        );
        let mut rows = Table::new(&["id", "kind", "state", "attempts", "failed", "last error"]).right(&[3]);
        for job in &failed {
            rows.row(vec![
                job.id.clone(),
                job.kind.clone(),
                job.status.clone(),
                format!("{}/{}", job.attempts, job.max_attempts),
                moment(job.done_at.unwrap_or(job.run_at)),
                job.last_error.clone().unwrap_or_else(|| "-".to_owned()),
            ]);
        }
        rows.print();
    }
    println!();

    let counts: BTreeMap<&str, i64> = emails.iter().map(|(state, n)| (state.as_str(), *n)).collect();
    let line: Vec<String> = EMAIL_STATES
        .iter()
        .copied()
        .chain(counts.keys().copied().filter(|s| !EMAIL_STATES.contains(s)))
        .map(|state| format!("{state} {}", counts.get(state).copied().unwrap_or(0)))
        .collect();
    println!("Outbox: {} (`insights-cli outbox` lists the emails).", line.join(", "));
    Ok(())
}

/// Whether every live worker runs the same build: a rolling upgrade is complete when they do.
fn versions_line<'a>(live: impl Iterator<Item = &'a str>) -> String {
    let mut versions: BTreeMap<&str, usize> = BTreeMap::new();
    for version in live {
        *versions.entry(version).or_default() += 1;
    }
    match versions.len() {
        0 => "No worker process is alive: jobs and emails wait until one starts (`insights-cli worker`, or `serve`).".to_owned(),
        1 => {
            let (version, n) = versions.into_iter().next().expect("one version");
            let all = if n == 1 { "The live worker runs".to_owned() } else { format!("All {n} live workers run") };
            format!("{all} {version}: every live worker runs the same version (no rolling upgrade under way).")
        }
        _ => {
            let listed: Vec<String> = versions.iter().map(|(v, n)| format!("{v} on {n}")).collect();
            format!(
                "The live workers run {} versions ({}): a rolling upgrade is under way (not complete).",
                versions.len(),
                listed.join(", ")
            )
        }
    }
}

async fn retry_jobs(args: JobRetryArgs) -> anyhow::Result<()> {
    let pool = connect(&args.config).await?;
    let id = if args.all { None } else { args.id.as_deref() };
    let retried = insights_jobs::admin::retry(&pool, id).await.context("retry the failed jobs")?;
    match (id, retried) {
        (Some(id), 0) => anyhow::bail!("no failed job has the id {id:?} (`insights-cli jobs` lists them)"),
        (Some(id), _) => println!("Job {id} will run again from its first attempt."),
        (None, 0) => println!("No failed jobs."),
        (None, n) => println!("{} will run again from their first attempt.", table::count(n, "failed job", "failed jobs")),
    }
    Ok(())
}

pub async fn outbox(args: OutboxArgs) -> anyhow::Result<()> {
    match args.command {
        Some(OutboxCommand::Retry(retry)) => retry_emails(retry).await,
        None => match args.show {
            Some(id) => show_email(args.config, id, args.html).await,
            None => list_emails(args.config, args.state, args.limit).await,
        },
    }
}

async fn list_emails(config: Config, state: Option<EmailState>, limit: i64) -> anyhow::Result<()> {
    let pool = connect(&config).await?;
    let now = Utc::now();
    let emails = email::queries::recent(&pool, state.map(EmailState::as_str), limit).await.context("list the outbox")?;
    let app = AppState::new(pool, config, insights_jobs::queue());
    let which = state.map(|s| format!("{} ", s.as_str())).unwrap_or_default();
    if emails.is_empty() {
        println!("No {which}emails in the outbox.");
        return Ok(());
    }
    let listed = match emails.len() {
        1 => format!("The newest {which}email"),
        n => format!("The {n} newest {which}emails"),
    };
    println!("{listed} (times in UTC; `--show ID` prints one):");
    let mut rows =
        Table::new(&["id", "created", "kind", "recipient", "state", "attempts", "next attempt", "subject", "last error"]).right(&[0, 5]);
    for email in &emails {
        let next = match email.state.as_str() {
            "pending" if email.next_attempt_at <= now => "due".to_owned(),
            "pending" => relative(email.next_attempt_at, now),
            _ => "-".to_owned(),
        };
        let subject = match delivery::render(&app, &email.kind, &email.data, None) {
            Ok(rendered) => rendered.subject,
            Err(error) => format!("(does not render: {error:#})"),
        };
        rows.row(vec![
            email.email_id.to_string(),
            moment(email.created_at),
            email.kind.clone(),
            email.recipient.clone(),
            email.state.clone(),
            email.attempts.to_string(),
            next,
            subject,
            email.last_error.clone().unwrap_or_else(|| "-".to_owned()),
        ]);
    }
    rows.print();
    Ok(())
}

async fn show_email(config: Config, email_id: i64, html: bool) -> anyhow::Result<()> {
    let pool = connect(&config).await?;
    let email = email::queries::find(&pool, email_id)
        .await
        .context("read the email")?
        .with_context(|| format!("no email has the id {email_id} (`insights-cli outbox` lists them)"))?;
    let state = AppState::new(pool, config, insights_jobs::queue());
    // The unsubscribe link the email carries (the same signed token as the delivery's).
    let key = unsubscribe::key(&state).await.context("load the unsubscribe key")?;
    let token = delivery::unsubscribe_token(key, email.unsubscribe.as_deref(), email.user_id.as_deref(), email.channel_id.as_deref());
    let rendered = delivery::render(&state, &email.kind, &email.data, token.as_deref())?;

    let sent = match email.sent_at {
        Some(at) if email.state == "sent" => format!(", sent {} UTC", moment(at)),
        _ => String::new(),
    };
    println!(
        "Email {} · {} · {} ({}), created {} UTC{sent}",
        email.email_id,
        email.kind,
        email.state,
        table::count(email.attempts as u64, "attempt", "attempts"),
        moment(email.created_at)
    );
    if let Some(error) = &email.last_error {
        println!("Last error: {error}");
    }
    println!(
        "To: {}",
        delivery::recipient_name(&email.data).map(|name| format!("{name} <{}>", email.recipient)).unwrap_or(email.recipient.clone())
    );
    println!("Subject: {}", rendered.subject);
    if let Some(token) = token.as_deref() {
        println!("List-Unsubscribe: <{}>", unsubscribe::one_click_url(state.config.public_url(), token));
    }
    println!();
    print!("{}", if html { rendered.html } else { rendered.text });
    Ok(())
}

async fn retry_emails(args: OutboxRetryArgs) -> anyhow::Result<()> {
    let pool = connect(&args.config).await?;
    let id = if args.all { None } else { args.id };
    let mut tx = pool.begin().await?;
    let retried = email::queries::retry_failed(&mut *tx, id).await.context("retry the failed emails")?;
    if retried > 0 {
        // Delivered at once by a running worker, rather than at the outbox schedule's next tick.
        insights_jobs::queue().enqueue(&mut tx, JobRequest::DeliverEmails).await?;
    }
    tx.commit().await?;
    match (id, retried) {
        (Some(id), 0) => anyhow::bail!("no failed email has the id {id} (`insights-cli outbox --state failed` lists them)"),
        (Some(id), _) => println!("Email {id} is pending again; a running worker sends it now."),
        (None, 0) => println!("No failed emails."),
        (None, n) => {
            println!("{} pending again; a running worker sends them now.", table::count(n, "failed email is", "failed emails are"))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_versions_line_says_whether_an_upgrade_is_complete() {
        assert!(versions_line(std::iter::empty()).starts_with("No worker process is alive"));
        assert_eq!(
            versions_line(["0.1.0+a"].into_iter()),
            "The live worker runs 0.1.0+a: every live worker runs the same version (no rolling upgrade under way)."
        );
        assert!(versions_line(["0.1.0+a", "0.1.0+a"].into_iter()).starts_with("All 2 live workers run 0.1.0+a: every live worker"));
        assert_eq!(
            versions_line(["0.1.0+b", "0.1.0+a", "0.1.0+b"].into_iter()),
            "The live workers run 2 versions (0.1.0+a on 1, 0.1.0+b on 2): a rolling upgrade is under way (not complete)."
        );
    }
}
