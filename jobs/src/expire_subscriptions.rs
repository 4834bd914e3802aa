//! The scheduled expiry sweep (`insights::subscriptions::expiry`): ends what is due through the
//! state machine and asks for the trial reminders. Idempotent and safe with several workers.

use chrono::Utc;
use insights::{AppState, subscriptions::expiry};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    expiry::sweep(&state.pool, state.jobs.as_ref(), Utc::now()).await.map_err(|e| anyhow::anyhow!(e.message()))?;
    Ok(())
}
