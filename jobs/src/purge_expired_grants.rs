//! Purges the built-in identity provider's expired authorization codes and refresh tokens.

use insights::{AppState, auth::provider::queries};

#[tracing::instrument(skip_all)]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    let purged = queries::purge_expired(&state.pool, chrono::Utc::now()).await?;
    tracing::info!(codes = purged.codes, refresh_tokens = purged.refresh_tokens, "purged expired grants");
    Ok(())
}
