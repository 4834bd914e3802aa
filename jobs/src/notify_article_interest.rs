//! Registered interest in an article, from jobs enqueued before interest was written to the
//! outbox when registered: writes its emails if they still wait (idempotent).

use insights::{
    AppState,
    email::compose,
    interests::{InterestKind, queries},
};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, article_id: &str, user_id: &str) -> anyhow::Result<()> {
    let mut tx = state.pool.begin().await?;
    for interest_id in queries::waiting_for_emails(&mut *tx, InterestKind::Article, article_id, user_id).await? {
        compose::interest(&mut tx, state.jobs.as_ref(), interest_id).await?;
    }
    tx.commit().await?;
    Ok(())
}
