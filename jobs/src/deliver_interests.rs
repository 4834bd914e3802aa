//! Posts registered interest to promotion pages' Microsoft Teams webhooks
//! (`insights::interests::teams`): one interest when its job runs, and every one due when the
//! outbox schedule runs (retries whose time has come, and interests whose job was lost).

use chrono::Utc;
use insights::{AppState, interests::teams};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, interest_id: Option<i64>) -> anyhow::Result<()> {
    // A failed post is recorded and retried by the schedule, not by the job: only database
    // errors fail the job.
    teams::deliver_due(&state.pool, &state.config.teams_webhook_test_hosts, Utc::now(), interest_id).await?;
    Ok(())
}
