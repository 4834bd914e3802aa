//! Staff lists read through what the server keeps (`kept`): each article's links (contributors,
//! topics, tags, promotional content), at its card revision (migration 0022 moves it with each).

use std::{collections::HashMap, sync::Arc};

use super::queries::{self, ArticleRow, Relations};
use crate::{error::Result, state::AppState};

/// The links of `rows`' articles: those kept at the revision each row was read at, the rest read
/// (one statement) and kept. They are read after the rows, so a link changed in between is kept
/// under the older revision; only a request that read that older revision can find it there, and
/// it gets what it would have got a moment later. An article without links keeps empty lists.
pub async fn relations(state: &AppState, rows: &[ArticleRow]) -> Result<HashMap<String, Arc<Relations>>> {
    let wanted = rows.iter().map(|row| (row.article_id.clone(), row.card_revision));
    Ok(state
        .kept
        .article_relations
        .find_all_or_read(wanted, async |missing: Vec<String>| {
            let mut read = queries::relations_of(&state.pool, &missing).await?;
            let revisions: HashMap<&str, i64> = rows.iter().map(|row| (row.article_id.as_str(), row.card_revision)).collect();
            Ok::<_, sqlx::Error>(
                missing
                    .into_iter()
                    .map(|id| {
                        let links = Arc::new(read.remove(&id).unwrap_or_default());
                        let revision = revisions[id.as_str()];
                        (id, revision, links)
                    })
                    .collect(),
            )
        })
        .await?)
}
