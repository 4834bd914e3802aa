//! Writes the daily and weekly digests whose hour has come in each reader's time zone
//! (`insights::email::digest`); keyed by the reader's day or week, so a second run writes nothing.

use chrono::Utc;
use insights::{AppState, email::digest};

#[tracing::instrument(skip_all)]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    let written = digest::compose_due(&state.pool, state.jobs.as_ref(), state.config.email.digest_hour, Utc::now()).await?;
    if written > 0 {
        tracing::info!(written, "digests written");
    }
    Ok(())
}
