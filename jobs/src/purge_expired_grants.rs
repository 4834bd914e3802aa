//! The purge schedule: the built-in identity provider's expired authorization codes and refresh
//! tokens and the self-registered clients left unused, finished jobs, old delivered emails,
//! long-gone worker processes, and the audit trail past its retention when an operator sets one
//! (never by default).

use insights::{AppState, audit, auth::provider::queries, email::outbox, workers};

#[tracing::instrument(skip_all)]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    let purged = queries::purge_expired(&state.pool, chrono::Utc::now()).await?;
    let schedules = &state.config.jobs;
    let jobs = crate::admin::purge_finished(&state.pool, schedules.job_retention_days).await?;
    let emails = outbox::purge(&state.pool, schedules.outbox_retention_days).await?;
    let processes = workers::purge(&state.pool, schedules.job_retention_days).await?;
    let audit_events = audit::queries::purge(&state.pool, schedules.audit_retention_days).await?;
    tracing::info!(codes = purged.codes, refresh_tokens = purged.refresh_tokens, clients = purged.clients, jobs, emails, processes, audit_events, "purged");
    Ok(())
}
