//! Registered interest in an article, from jobs enqueued before interest was written to the
//! outbox when registered: writes its email if it still waits (idempotent).

use insights::{AppState, email::compose};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, article_id: &str, user_id: &str) -> anyhow::Result<()> {
    let mut tx = state.pool.begin().await?;
    compose::article_interest(&mut tx, state.jobs.as_ref(), article_id, user_id).await?;
    tx.commit().await?;
    Ok(())
}
