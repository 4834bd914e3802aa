//! Full-text search over published articles (`searchArticles`): PostgreSQL full-text search with
//! `websearch_to_tsquery` (quotes, OR, minus), relevance order from a RUM index where the
//! extension is installed (else ranked with `ts_rank` over GIN matches), keyset cursors, totals
//! counted without ranking, and snippets that never quote a body the caller may not read.

pub mod cursor;
mod graphql;
pub mod queries;
pub mod read;

use sqlx::PgPool;

pub use graphql::SearchQuery;
pub use queries::Ranking;

use crate::{
    error::{Error, Result},
    validation::max_length_message,
};

/// The longest search text a caller may send, and the most words in it: a query's cost grows with
/// its terms (each is matched and ranked against every candidate; `"copper "` × 200 took 15 s),
/// and a search is a few words.
pub const MAX_SEARCH_CHARS: usize = 200;
pub const MAX_SEARCH_WORDS: usize = 12;

/// The search text of the input `field`: trimmed, none when blank; BAD_USER_INPUT when it is
/// longer, or has more words, than a search may.
pub fn search_text(field: &str, text: Option<&str>) -> Result<Option<String>> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else { return Ok(None) };
    if text.chars().count() > MAX_SEARCH_CHARS {
        return Err(Error::field(field, max_length_message(MAX_SEARCH_CHARS)));
    }
    // Words about as PostgreSQL's parser splits them: runs of letters and digits.
    if text.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).count() > MAX_SEARCH_WORDS {
        return Err(Error::field(field, format!("Search for at most {MAX_SEARCH_WORDS} words")));
    }
    Ok(Some(text.to_owned()))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_text_is_bounded_in_characters_and_words() {
        assert_eq!(search_text("q", Some("  ")).unwrap(), None);
        assert_eq!(search_text("q", Some(" \"iron ore\" OR -copper ")).unwrap().as_deref(), Some("\"iron ore\" OR -copper"));
        let twelve = vec!["copper"; MAX_SEARCH_WORDS].join(" ");
        assert!(search_text("q", Some(&twelve)).is_ok());
        let message = |text: &str| match search_text("searchQuery", Some(text)) {
            Err(Error::BadUserInput { fields, .. }) => fields["searchQuery"].clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(message(&format!("{twelve} zinc")), "Search for at most 12 words");
        assert_eq!(message("copper,zinc,lead,tin,nickel,iron,gold,silver,oil,gas,coal,wheat,corn"), "Search for at most 12 words");
        assert_eq!(message(&"x".repeat(MAX_SEARCH_CHARS + 1)), "Maximum 200 characters");
    }
}
