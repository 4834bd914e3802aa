//! The core's enqueue API for work that must happen later (DESIGN.md §2). The core describes the
//! work; the `insights-jobs` crate implements `JobQueue` on apalis' PostgreSQL storage and runs it.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// A unit of background work, as the core asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JobRequest {
    /// Delete the built-in identity provider's expired authorization codes and refresh tokens.
    PurgeExpiredGrants,
    /// Email the subscribers of a just-published article (request recorded in
    /// `article_notification_request`).
    NotifyArticleSubscribers { request_id: i64, article_id: String },
    /// Tell an article's desk that a reader registered interest in it (recorded in `interest`).
    /// Interest is now written to the outbox when it is registered; jobs of this kind enqueued
    /// before that write it if it is still waiting.
    NotifyArticleInterest { article_id: String, user_id: String },
    /// Deliver the emails waiting in the outbox (`email::delivery`). Any job of the older name
    /// delivers the outbox too.
    #[serde(alias = "deliver_subscription_emails")]
    DeliverEmails,
    /// Write the daily and weekly digests whose hour has come (`email::digest`).
    ComposeDigests,
    /// End the subscriptions whose end has come and ask for the trial reminders that are due.
    ExpireSubscriptions,
    /// Apply the Stripe events the webhook recorded (`billing::webhook::apply_pending`).
    ApplyStripeEvents,
    /// Post a registered interest to its promotion page's Microsoft Teams webhook
    /// (`interests::teams`); the outbox schedule takes up retries and lost jobs.
    DeliverInterestToTeams { interest_id: i64 },
    /// Email each firm administrator who asked for it their firm's reading of last month
    /// (`firms::usage`).
    EmailFirmUsage,
}

#[async_trait::async_trait]
pub trait JobQueue: Send + Sync + 'static {
    /// Enqueues `job` on `conn`, so that inside a transaction the job exists exactly when the
    /// write that asked for it commits.
    async fn enqueue(&self, conn: &mut PgConnection, job: JobRequest) -> anyhow::Result<()>;

    /// Enqueues `job` to run after `delay`, unless the same job is already waiting to run: a burst
    /// of requests for the same work (Stripe's webhooks on the 1st) makes one job, and none of them
    /// waits on the queue's new-job notification, which PostgreSQL serialises across commits.
    async fn enqueue_coalesced(&self, conn: &mut PgConnection, job: JobRequest, delay: std::time::Duration) -> anyhow::Result<()> {
        let _ = delay;
        self.enqueue(conn, job).await
    }
}
