//! Delivers the outbox (`insights::email::delivery`): enqueued with every write to it, and run by
//! the outbox schedule for retries whose time has come and emails a dead worker was sending.

use chrono::Utc;
use insights::{AppState, email::delivery};

use crate::Process;

#[tracing::instrument(skip_all)]
pub async fn handle(state: &AppState, process: &Process) -> anyhow::Result<()> {
    delivery::deliver_due(state, &process.mailer, process.worker_id, Utc::now(), &process.stop).await?;
    Ok(())
}
