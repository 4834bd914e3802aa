//! The scheduled expiry sweep (`insights::subscriptions::expiry`): ends what is due through the
//! state machine and asks for the trial reminders; then Stripe events still pending are applied
//! and card subscriptions are reconciled with Stripe (`insights::billing::sync::reconcile`), in
//! case a webhook never arrived. Idempotent and safe with several workers.

use chrono::Utc;
use insights::{AppState, billing, subscriptions::expiry};

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    expiry::sweep(&state.pool, state.jobs.as_ref(), Utc::now()).await.map_err(|e| anyhow::anyhow!(e.message()))?;
    billing::webhook::apply_pending(state).await.map_err(|e| anyhow::anyhow!(e.message()))?;
    billing::sync::reconcile(state, Utc::now()).await.map_err(|e| anyhow::anyhow!(e.message()))?;
    Ok(())
}
