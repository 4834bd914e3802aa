//! The emails subscription changes ask for (`subscription_email_request`, written in the change's
//! transaction). The email issue delivers them and sets `processed_at`; until then the job counts
//! what waits and leaves it pending, so nothing is lost in between.

use insights::AppState;

#[tracing::instrument(skip(state))]
pub async fn handle(state: &AppState) -> anyhow::Result<()> {
    let pending: i64 =
        sqlx::query_scalar("select count(*) from subscription_email_request where processed_at is null").fetch_one(&state.pool).await?;
    tracing::info!(pending, "subscription emails kept for email delivery");
    Ok(())
}
