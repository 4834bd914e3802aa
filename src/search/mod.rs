//! Full-text search over published articles (`searchArticles`): PostgreSQL full-text search with
//! `websearch_to_tsquery` (quotes, OR, minus), relevance order from a RUM index where the
//! extension is installed (else ranked with `ts_rank` over GIN matches), keyset cursors, totals
//! counted without ranking, and snippets that never quote a body the caller may not read.

pub mod cache;
pub mod cursor;
mod graphql;
pub mod queries;
pub mod snippets;

use sqlx::PgPool;

pub use graphql::SearchQuery;
pub use queries::Ranking;

/// Creates the RUM index for ranked search when the `rum` extension is installed, and says which
/// ranking the server will use. Run at start-up after the migrations (outside them, so a server
/// without the extension still migrates and starts).
pub async fn ensure_ranked_index(pool: &PgPool) -> anyhow::Result<Ranking> {
    if !queries::rum_available(pool).await? {
        tracing::warn!(
            "search: the PostgreSQL extension rum (Debian package postgresql-15-rum) is not installed; \
             ranking every match with ts_rank over the GIN index instead (slower for common words)"
        );
        return Ok(Ranking::Gin);
    }
    // Built once, on the first start with the extension (not concurrently: the migration lock).
    match queries::create_rum_index(pool).await {
        Ok(()) => {
            tracing::info!("search: ranking with the RUM index");
            Ok(Ranking::Rum)
        }
        Err(error) => {
            tracing::warn!(error = %error, "search: could not set up the RUM index; ranking with ts_rank over GIN instead");
            Ok(Ranking::Gin)
        }
    }
}
