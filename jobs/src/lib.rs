//! Background jobs on apalis with PostgreSQL storage: the `JobQueue` the core enqueues through,
//! the workers that run the jobs, and the cron schedules that enqueue periodic work.
//!
//! Every job travels as a `JobRequest` on one queue, so a job enqueued inside a transaction exists
//! exactly when that transaction commits. Handlers are idempotent: apalis retries failures.

pub mod admin;
mod apply_stripe_events;
mod compose_digests;
mod deliver_emails;
mod deliver_interests;
mod expire_subscriptions;
mod notify_article_interest;
mod notify_article_subscribers;
mod purge_expired_grants;

use std::{str::FromStr, sync::Arc, time::Duration};

use anyhow::Context;
use apalis::prelude::*;
use apalis_cron::{CronScheduler, Tick};
use apalis_postgres::{Config, PostgresStorage};
use insights::{
    AppState,
    email::delivery::Mailer,
    jobs::{JobQueue, JobRequest},
    workers,
};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// The queue every `JobRequest` travels on.
pub const QUEUE: &str = "insights";

/// How often workers look for due jobs besides being notified of new ones. Short: a notification
/// that arrives while a fetch is under way is used up by it, and the job then waits for this poll.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// How long a running job may take to finish once shutdown starts.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// How many times a job is tried before it is left failed.
const MAX_ATTEMPTS: usize = 10;

/// Creates or upgrades apalis' own tables (schema `apalis`).
pub async fn setup(pool: &PgPool) -> anyhow::Result<()> {
    PostgresStorage::<()>::setup(pool).await.context("set up the job storage")
}

/// The core's enqueue API, on apalis' PostgreSQL storage.
pub struct ApalisQueue;

pub fn queue() -> Arc<dyn JobQueue> {
    Arc::new(ApalisQueue)
}

#[async_trait::async_trait]
impl JobQueue for ApalisQueue {
    async fn enqueue(&self, conn: &mut PgConnection, job: JobRequest) -> anyhow::Result<()> {
        let payload = serde_json::to_vec(&job).context("encode the job")?;
        let task = TaskBuilder::new(payload).max_attempts(MAX_ATTEMPTS).build();
        apalis_postgres::queries::push_tasks(conn, QUEUE, vec![task]).await.with_context(|| format!("enqueue {job:?}"))?;
        Ok(())
    }

    async fn enqueue_coalesced(&self, conn: &mut PgConnection, job: JobRequest, delay: Duration) -> anyhow::Result<()> {
        let payload = serde_json::to_vec(&job).context("encode the job")?;
        // A waiting job takes this request too. Its row stays share-locked until the caller's
        // transaction ends, and workers claim jobs `for update skip locked`, so it cannot start
        // before the caller's write is visible to it.
        let waiting: Option<i32> = sqlx::query_scalar(
            "select 1 from apalis.jobs where job_type = $1 and job = $2 and status = 'Pending' limit 1 for share skip locked",
        )
        .bind(QUEUE)
        .bind(&payload)
        .fetch_optional(&mut *conn)
        .await
        .with_context(|| format!("look for a waiting {job:?}"))?;
        if waiting.is_some() {
            return Ok(());
        }
        // Due later, so the insert sends no notification; the poll picks it up.
        let task = TaskBuilder::new(payload).max_attempts(MAX_ATTEMPTS).run_after(delay).build();
        apalis_postgres::queries::push_tasks(conn, QUEUE, vec![task]).await.with_context(|| format!("enqueue {job:?}"))?;
        Ok(())
    }
}

/// This worker process: its id in the registry of worker processes, its mailer, and the signal
/// that it is stopping (a delivery run gives back what it has not sent).
pub struct Process {
    pub worker_id: uuid::Uuid,
    pub mailer: Mailer,
    pub stop: CancellationToken,
}

/// Runs one job in its span (exported as its trace), counted and timed by kind and outcome.
async fn run_job(
    job: JobRequest,
    state: Data<AppState>,
    process: Data<Arc<Process>>,
    id: Option<TaskId>,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    let kind = insights::metrics::job_kind(&job);
    let job_id = id.map(|id| id.to_string()).unwrap_or_default();
    let span = tracing::info_span!("job", job_id, kind, attempt = attempt.current());
    let started = std::time::Instant::now();
    let result = handle(job, state.clone(), process).instrument(span.clone()).await;
    // apalis counts this attempt before the handler runs; it tries again while below the maximum.
    state.metrics.job(kind, result.is_ok(), attempt.current() < MAX_ATTEMPTS, started.elapsed());
    result.map_err(|error| {
        span.in_scope(|| tracing::error!(error = format!("{error:#}"), "job failed"));
        error.into()
    })
}

/// Each arm calls the module that owns the job.
async fn handle(job: JobRequest, state: Data<AppState>, process: Data<Arc<Process>>) -> anyhow::Result<()> {
    match job {
        JobRequest::PurgeExpiredGrants => purge_expired_grants::handle(&state).await,
        JobRequest::NotifyArticleSubscribers { request_id, article_id } => {
            // Send at once rather than one job later; the enqueued delivery finds nothing left.
            match notify_article_subscribers::handle(&state, request_id, &article_id).await {
                Ok(()) => deliver_emails::handle(&state, &process).await,
                Err(error) => Err(error),
            }
        }
        JobRequest::NotifyArticleInterest { article_id, user_id } => notify_article_interest::handle(&state, &article_id, &user_id).await,
        JobRequest::DeliverEmails => deliver_emails::handle(&state, &process).await,
        JobRequest::ComposeDigests => compose_digests::handle(&state).await,
        JobRequest::ExpireSubscriptions => expire_subscriptions::handle(&state).await,
        JobRequest::ApplyStripeEvents => apply_stripe_events::handle(&state).await,
        JobRequest::DeliverInterestToTeams { interest_id } => deliver_interests::handle(&state, Some(interest_id)).await,
        JobRequest::EmailFirmUsage => email_firm_usage(&state).await,
    }
}

/// The monthly usage emails of firms (`insights::firms::usage`), once per month however often it runs.
async fn email_firm_usage(state: &AppState) -> anyhow::Result<()> {
    let written = insights::firms::usage::email_last_month(&state.pool, state.jobs.as_ref(), chrono::Utc::now()).await?;
    if written > 0 {
        tracing::info!(written, "firm usage emails written");
    }
    Ok(())
}

/// Every scheduled tick enqueues its job, so the work itself runs (and retries) like any other.
async fn enqueue_scheduled(_tick: Tick, job: Data<JobRequest>, state: Data<AppState>) -> Result<(), BoxDynError> {
    let mut conn = state.pool.acquire().await?;
    state.jobs.enqueue(&mut conn, (*job).clone()).await.map_err(|e| e.into())
}

/// The outbox schedule runs the delivery itself (no job row per tick): retries whose time has come
/// and emails a dead worker was sending; and the same for registered interest posted to Teams.
async fn deliver_scheduled(_tick: Tick, state: Data<AppState>, process: Data<Arc<Process>>) -> Result<(), BoxDynError> {
    let emails = deliver_emails::handle(&state, &process).await;
    let teams = deliver_interests::handle(&state, None).await;
    emails.and(teams).map_err(|error| {
        tracing::error!(error = format!("{error:#}"), "outbox delivery failed");
        error.into()
    })
}

fn schedule(value: &str, setting: &str) -> anyhow::Result<cron::Schedule> {
    cron::Schedule::from_str(value).with_context(|| format!("parse {setting} {value:?}"))
}

/// Runs the workers and the schedules until `shutdown` is cancelled; a running job gets
/// `SHUTDOWN_GRACE` to finish. The process registers itself and beats while it runs, so that
/// several worker processes on one database share the work and see each other.
pub async fn run(state: AppState, shutdown: CancellationToken) -> anyhow::Result<()> {
    setup(&state.pool).await?;
    let settings = &state.config.jobs;
    let purge_schedule = schedule(&settings.purge_grants_schedule, "INSIGHTS_PURGE_GRANTS_SCHEDULE")?;
    let expiry_schedule = schedule(&settings.expiry_schedule, "INSIGHTS_EXPIRY_SCHEDULE")?;
    let outbox_schedule = schedule(&settings.outbox_schedule, "INSIGHTS_OUTBOX_SCHEDULE")?;
    let digest_schedule = schedule(&settings.digest_schedule, "INSIGHTS_DIGEST_SCHEDULE")?;
    let firm_usage_schedule = schedule(&settings.firm_usage_schedule, "INSIGHTS_FIRM_USAGE_SCHEDULE")?;
    let heartbeat = Duration::from_secs(settings.worker_heartbeat_secs);
    let mailer = Mailer::from_config(&state.config.email)?;
    mailer.check_at_startup(&state.config.email).await;
    let worker_id = workers::register(&state.pool, heartbeat).await.context("register this worker process")?;
    let stop = shutdown.child_token();
    let process = Arc::new(Process { worker_id, mailer, stop: stop.clone() });
    let beats = tokio::spawn(beat(state.pool.clone(), worker_id, heartbeat, stop.clone()));
    // Worker names are unique per process: apalis keeps one row (and lock) per name.
    let name = worker_id.simple().to_string()[..8].to_owned();

    let (jobs_state, jobs_process) = (state.clone(), process.clone());
    let mut monitor = Monitor::new().register(move |index| {
        // LISTEN/NOTIFY picks a new job up at once; the poll catches what a lost notification
        // (or a retry's delay) would leave behind. Jobs of a process silent for three beats are
        // taken up by the others.
        let storage = PostgresStorage::<JobRequest>::new(&jobs_state.pool)
            .with_config(Config::default().queue(QUEUE).heartbeat_interval(heartbeat).missed_heartbeats(3))
            .with_pubsub()
            .poll_with_strategy(Strategy::new().interval(POLL_INTERVAL));
        WorkerBuilder::new(format!("insights-jobs-{name}-{index}"))
            .backend(storage)
            .data(jobs_state.clone())
            .data(jobs_process.clone())
            .concurrency(4)
            .build(run_job)
    });
    for (label, when, job) in [
        ("purge-expired-grants", purge_schedule, JobRequest::PurgeExpiredGrants),
        ("expire-subscriptions", expiry_schedule, JobRequest::ExpireSubscriptions),
        ("compose-digests", digest_schedule, JobRequest::ComposeDigests),
        ("email-firm-usage", firm_usage_schedule, JobRequest::EmailFirmUsage),
    ] {
        let cron_state = state.clone();
        monitor = monitor.register(move |index| {
            WorkerBuilder::new(format!("schedule-{label}-{index}"))
                .backend(CronScheduler::new(when.clone()))
                .data(cron_state.clone())
                .data(job.clone())
                .build(enqueue_scheduled)
        });
    }
    let (outbox_state, outbox_process) = (state.clone(), process.clone());
    monitor = monitor.register(move |index| {
        WorkerBuilder::new(format!("schedule-deliver-emails-{index}"))
            .backend(CronScheduler::new(outbox_schedule.clone()))
            .data(outbox_state.clone())
            .data(outbox_process.clone())
            .build(deliver_scheduled)
    });
    let monitor = monitor.should_restart(|_, _| true).shutdown_timeout(SHUTDOWN_GRACE);
    tracing::info!(worker = %worker_id, version = insights::config::build_version(), "workers started");
    let result = monitor
        .run_with_signal(async move {
            shutdown.cancelled().await;
            tracing::info!("workers stopping");
            Ok(())
        })
        .await
        .context("run the workers");
    stop.cancel();
    beats.abort();
    workers::stopped(&state.pool, worker_id).await.context("record this worker process stopped")?;
    result?;
    tracing::info!("workers stopped");
    Ok(())
}

/// Records this process's heartbeat until it stops. A missed beat (the database briefly away) is
/// logged; three in a row and the others take this process for dead.
async fn beat(pool: sqlx::PgPool, worker_id: uuid::Uuid, every: Duration, stop: CancellationToken) {
    let mut ticks = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = ticks.tick() => {
                if let Err(error) = workers::beat(&pool, worker_id).await {
                    tracing::warn!(error = %error, "worker heartbeat not recorded");
                }
            }
        }
    }
}
