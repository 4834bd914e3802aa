//! The notification request of a publish with "notify subscribers". The request row
//! (`article_notification_request`) is written in the publishing transaction together with this
//! job, so it cannot be lost; the email notifications deliver it and set `processed_at`. Until
//! they exist, the job checks the request is recorded and leaves it pending for them.

use insights::{AppState, articles::queries};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, request_id: i64, article_id: &str) -> anyhow::Result<()> {
    match queries::notification_pending(&state.pool, request_id).await? {
        Some(true) => tracing::info!(article = article_id, "notification request kept for email delivery"),
        Some(false) => tracing::info!(article = article_id, "notification request already delivered"),
        None => tracing::warn!(article = article_id, "notification request not found (article deleted?)"),
    }
    Ok(())
}
