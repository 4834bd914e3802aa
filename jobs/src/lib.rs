//! Background jobs on apalis with PostgreSQL storage: the `JobQueue` the core enqueues through,
//! the workers that run the jobs, and the cron schedules that enqueue periodic work.
//!
//! Every job travels as a `JobRequest` on one queue, so a job enqueued inside a transaction exists
//! exactly when that transaction commits. Handlers are idempotent: apalis retries failures.

mod deliver_subscription_emails;
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
    jobs::{JobQueue, JobRequest},
};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

/// The queue every `JobRequest` travels on.
pub const QUEUE: &str = "insights";

/// How often workers look for due jobs besides being notified of new ones.
const POLL_INTERVAL: Duration = Duration::from_secs(5);

/// How long a running job may take to finish once shutdown starts.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

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
        let task = TaskBuilder::new(payload).max_attempts(10).build();
        apalis_postgres::queries::push_tasks(conn, QUEUE, vec![task]).await.with_context(|| format!("enqueue {job:?}"))?;
        Ok(())
    }
}

/// Runs one job. Each arm calls the module that owns the job.
async fn run_job(job: JobRequest, state: Data<AppState>) -> Result<(), BoxDynError> {
    let result = match job {
        JobRequest::PurgeExpiredGrants => purge_expired_grants::handle(&state).await,
        JobRequest::NotifyArticleSubscribers { request_id, article_id } => {
            notify_article_subscribers::handle(&state, request_id, &article_id).await
        }
        JobRequest::NotifyArticleInterest { article_id, user_id } => notify_article_interest::handle(&state, &article_id, &user_id).await,
        JobRequest::DeliverSubscriptionEmails => deliver_subscription_emails::handle(&state).await,
        JobRequest::ExpireSubscriptions => expire_subscriptions::handle(&state).await,
    };
    result.map_err(|error| {
        tracing::error!(error = format!("{error:#}"), "job failed");
        error.into()
    })
}

/// Every scheduled tick enqueues its job, so the work itself runs (and retries) like any other.
async fn enqueue_scheduled(_tick: Tick, job: Data<JobRequest>, state: Data<AppState>) -> Result<(), BoxDynError> {
    let mut conn = state.pool.acquire().await?;
    state.jobs.enqueue(&mut conn, (*job).clone()).await.map_err(|e| e.into())
}

/// Runs the workers and the schedules until `shutdown` is cancelled; a running job gets
/// `SHUTDOWN_GRACE` to finish.
pub async fn run(state: AppState, shutdown: CancellationToken) -> anyhow::Result<()> {
    setup(&state.pool).await?;
    let purge_schedule =
        cron::Schedule::from_str(&state.config.jobs.purge_grants_schedule).context("parse INSIGHTS_PURGE_GRANTS_SCHEDULE")?;
    let expiry_schedule = cron::Schedule::from_str(&state.config.jobs.expiry_schedule).context("parse INSIGHTS_EXPIRY_SCHEDULE")?;
    let storage_state = state.clone();
    let cron_state = state.clone();
    let expiry_state = state.clone();
    let monitor = Monitor::new()
        .register(move |index| {
            // LISTEN/NOTIFY picks a new job up at once; the poll catches what a lost
            // notification (or a retry's delay) would leave behind.
            let storage = PostgresStorage::<JobRequest>::new(&storage_state.pool)
                .with_config(Config::default().queue(QUEUE))
                .with_pubsub()
                .poll_with_strategy(Strategy::new().interval(POLL_INTERVAL));
            WorkerBuilder::new(format!("insights-jobs-{index}")).backend(storage).data(storage_state.clone()).concurrency(4).build(run_job)
        })
        .register(move |index| {
            WorkerBuilder::new(format!("schedule-purge-expired-grants-{index}"))
                .backend(CronScheduler::new(purge_schedule.clone()))
                .data(cron_state.clone())
                .data(JobRequest::PurgeExpiredGrants)
                .build(enqueue_scheduled)
        })
        .register(move |index| {
            WorkerBuilder::new(format!("schedule-expire-subscriptions-{index}"))
                .backend(CronScheduler::new(expiry_schedule.clone()))
                .data(expiry_state.clone())
                .data(JobRequest::ExpireSubscriptions)
                .build(enqueue_scheduled)
        })
        .should_restart(|_, _| true)
        .shutdown_timeout(SHUTDOWN_GRACE);
    tracing::info!("workers started");
    monitor
        .run_with_signal(async move {
            shutdown.cancelled().await;
            tracing::info!("workers stopping");
            Ok(())
        })
        .await
        .context("run the workers")?;
    tracing::info!("workers stopped");
    Ok(())
}
