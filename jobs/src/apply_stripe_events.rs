//! Applies the Stripe events the webhook recorded (`insights::billing::webhook::apply_pending`):
//! enqueued with each event, and run again by the expiry schedule for any left pending (Stripe was
//! not answering when their job ran out of attempts).

use insights::{AppState, billing::webhook};

#[tracing::instrument(skip_all)]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    webhook::apply_pending(state).await.map_err(|e| anyhow::anyhow!(e.message()))?;
    Ok(())
}
