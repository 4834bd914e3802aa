//! The notification request of a publish with "notify subscribers". The request row
//! (`article_notification_request`) is written in the publishing transaction together with this
//! job, so it cannot be lost; the email notifications deliver it and set `processed_at`. Until
//! they exist, the job checks the request is recorded and leaves it pending for them.

use insights::AppState;

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, request_id: i64, article_id: &str) -> anyhow::Result<()> {
    let pending: Option<bool> = sqlx::query_scalar("select processed_at is null from article_notification_request where request_id = $1")
        .bind(request_id)
        .fetch_optional(&state.pool)
        .await?;
    match pending {
        Some(true) => tracing::info!(article = article_id, "notification request kept for email delivery"),
        Some(false) => tracing::info!(article = article_id, "notification request already delivered"),
        None => tracing::warn!(article = article_id, "notification request not found (article deleted?)"),
    }
    Ok(())
}
