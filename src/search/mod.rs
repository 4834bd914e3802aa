//! Full-text search over published articles (`searchArticles`): PostgreSQL full-text search with
//! `websearch_to_tsquery` (quotes, OR, minus), relevance order from a RUM index where the
//! extension is installed (else ranked with `ts_rank` over GIN matches), keyset cursors, totals
//! counted without ranking, and snippets that never quote a body the caller may not read.

pub mod cursor;
mod graphql;
pub mod queries;

use sqlx::PgPool;

pub use graphql::SearchQuery;
pub use queries::Ranking;

/// Creates the RUM index for ranked search when the `rum` extension is installed, and says which
/// ranking the server will use. Run at start-up after the migrations (outside them, so a server
/// without the extension still migrates and starts).
pub async fn ensure_ranked_index(pool: &PgPool) -> anyhow::Result<Ranking> {
    let available: bool =
        sqlx::query_scalar("select exists(select 1 from pg_available_extensions where name = 'rum')").fetch_one(pool).await?;
    if !available {
        tracing::warn!(
            "search: the PostgreSQL extension rum (Debian package postgresql-15-rum) is not installed; \
             ranking every match with ts_rank over the GIN index instead (slower for common words)"
        );
        return Ok(Ranking::Gin);
    }
    let created = async {
        sqlx::raw_sql("create extension if not exists rum").execute(pool).await?;
        // Concurrently would not block writers, but cannot run inside the migration lock; the
        // index is built once, on the first start with the extension.
        sqlx::raw_sql(
            "create index if not exists article_search_rum_idx on article using rum (search_vector rum_tsvector_ops)
             where state = 'Published'",
        )
        .execute(pool)
        .await
    }
    .await;
    match created {
        Ok(_) => {
            tracing::info!("search: ranking with the RUM index");
            Ok(Ranking::Rum)
        }
        Err(error) => {
            tracing::warn!(error = %error, "search: could not set up the RUM index; ranking with ts_rank over GIN instead");
            Ok(Ranking::Gin)
        }
    }
}
