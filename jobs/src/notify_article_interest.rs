//! A reader's registered interest in a premium article. The `article_interest` row is written in
//! the same transaction as this job, so it cannot be lost; the email notifications deliver it to
//! the desk and set `notified_at`. Until they exist, the job checks the row and leaves it pending.

use insights::{AppState, reading::queries};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, article_id: &str, user_id: &str) -> anyhow::Result<()> {
    match queries::interest_pending(&state.pool, article_id, user_id).await? {
        Some(true) => tracing::info!("registered interest kept for email delivery"),
        Some(false) => tracing::info!("registered interest already delivered"),
        None => tracing::warn!("registered interest not found (article or user deleted?)"),
    }
    Ok(())
}
