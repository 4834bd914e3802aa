//! What an answer may draw on: the published articles the reader may read in full that the
//! reader-side search finds for the question, and their best passages.
//!
//! The entitlement holds twice. The search is asked only for what the reader may read (articles
//! open to all — the search's `free_only`, its SQL twin of `is_open_to_all` — and articles of the
//! channels whose subscription gives full articles, as `SubscriptionAccess` decides), and every
//! candidate is then checked with `can_see_full_version` itself before any of its text is used.

use std::{collections::HashSet, sync::Arc};

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{
    passages::{self, Scored},
    queries::{self, CandidateRow},
};
use crate::{
    articles::model::ArticleState,
    auth::Role,
    channels::ChannelType,
    db::cancel_if_dropped,
    error::Result,
    reading::{Reader, entitlement::ArticleFacts},
    search::queries::{self as search, Hit, SearchFilter},
    state::AppState,
    subscriptions::ViewerSubscriptions,
};

/// Articles the search is asked for, at most (the passages come from these).
const CANDIDATE_ARTICLES: i64 = 8;

/// An article an answer cites.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    pub article_id: String,
    pub title: String,
    pub publish_date: DateTime<Utc>,
    /// The reader's article page (an app path).
    pub link: String,
}

/// A passage with the number of the citation it comes from (1-based).
#[derive(Debug, Clone)]
pub struct Passage {
    pub citation: usize,
    pub text: String,
}

/// What the answer may use: its citations (in order of first use) and its passages, best first.
#[derive(Debug, Default)]
pub struct Retrieved {
    pub citations: Vec<Citation>,
    pub passages: Vec<Passage>,
}

/// The caller as the entitlement rule sees them (`Reader`, as the reader pages build it).
pub async fn reader(state: &AppState, role: Role, user_id: &str) -> Result<Reader> {
    let subscriptions = if role.is_staff() {
        None
    } else {
        Some(Arc::new(ViewerSubscriptions::read(&state.pool, user_id).await?))
    };
    Ok(Reader { role, user_id: user_id.to_owned(), subscriptions, now: Utc::now() })
}

/// The searches that together find exactly what `reader` may read in full: staff, everything
/// published; a reader, what is open to all, and the channels their subscriptions open in full.
fn filters(reader: &Reader, words: &str) -> Vec<SearchFilter> {
    let query = Some(words.to_owned());
    let Some(subscriptions) = &reader.subscriptions else {
        return vec![SearchFilter { query, ..Default::default() }];
    };
    let full = subscriptions.full_channel_ids(reader.now);
    let mut filters = vec![SearchFilter { query: query.clone(), free_only: true, ..Default::default() }];
    if !full.is_empty() {
        filters.push(SearchFilter { query, channels: Some(full), ..Default::default() });
    }
    filters
}

fn facts(row: &CandidateRow) -> ArticleFacts<'_> {
    ArticleFacts {
        state: ArticleState::parse(&row.state),
        channel_id: row.premium_channel_id.as_deref(),
        channel_type: row.channel_type.as_deref().map(ChannelType::parse),
        is_premium: row.is_premium,
        premium_expires_at: row.premium_expires_at,
    }
}

/// The best articles for `words`, best first, each once.
async fn best_hits(state: &AppState, reader: &Reader, words: &str) -> Result<Vec<String>> {
    let ranking = crate::search::read::ranking(state).await?;
    let mut hits: Vec<Hit> = Vec::new();
    for filter in filters(reader, words) {
        let page = cancel_if_dropped(&state.pool, async |conn| search::page(conn, &filter, ranking, None, CANDIDATE_ARTICLES).await).await?;
        hits.extend(page.hits);
    }
    // Both searches rank with the same measure (smaller is better), so their hits merge.
    hits.sort_by(|a, b| a.cursor.relevance.total_cmp(&b.cursor.relevance).then(b.cursor.published.cmp(&a.cursor.published)));
    let mut seen = HashSet::new();
    Ok(hits.into_iter().map(|hit| hit.article.article_id).filter(|id| seen.insert(id.clone())).take(CANDIDATE_ARTICLES as usize).collect())
}

/// The citations and passages `reader` may be given for `question`.
pub async fn retrieve(state: &AppState, reader: &Reader, question: &str) -> Result<Retrieved> {
    let words = passages::any_word_query(question);
    if words.is_empty() || !crate::search::read::makes_query(state, &words).await? {
        return Ok(Retrieved::default());
    }
    let ids = best_hits(state, reader, &words).await?;
    let mut rows = queries::candidates(&state.pool, &ids).await?;
    // The rule itself, whatever the searches returned.
    rows.retain(|row| reader.can_see(&facts(row)));
    rows.sort_by_key(|row| ids.iter().position(|id| *id == row.article_id));

    let mut texts = Vec::new();
    let mut owners = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let summary = row.summary.as_deref().map(str::trim).filter(|s| !s.is_empty());
        for text in summary.map(str::to_owned).into_iter().chain(passages::split(&row.body_text)) {
            texts.push(text);
            owners.push(index);
        }
    }
    if texts.is_empty() {
        return Ok(Retrieved::default());
    }
    let scores = queries::rank_passages(&state.pool, &texts, &words).await?;
    let scored = texts.into_iter().zip(owners).zip(scores).map(|((text, article), score)| Scored { article, text, score }).collect();

    let mut retrieved = Retrieved::default();
    let mut numbers: Vec<Option<usize>> = vec![None; rows.len()];
    for passage in passages::choose(scored) {
        let number = *numbers[passage.article].get_or_insert_with(|| {
            let row = &rows[passage.article];
            retrieved.citations.push(Citation {
                article_id: row.article_id.clone(),
                title: row.title.clone(),
                publish_date: row.publish_date,
                link: format!("/browse/article/{}", row.article_id),
            });
            retrieved.citations.len()
        });
        retrieved.passages.push(Passage { citation: number, text: passage.text });
    }
    Ok(retrieved)
}
