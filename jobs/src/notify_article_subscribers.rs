//! The fan-out of a publish with "notify subscribers" (`insights::email::notifications`): one email
//! per subscriber, or a digest entry, written with the request marked processed. A retried job
//! finds the request processed and does nothing.

use chrono::Utc;
use insights::{AppState, email::notifications};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState, request_id: i64, article_id: &str) -> anyhow::Result<()> {
    let done = notifications::fan_out(&state.pool, state.jobs.as_ref(), request_id, Utc::now()).await?;
    if done.skipped {
        tracing::info!(article = article_id, "notification request already processed (or its article is gone)");
    }
    Ok(())
}
