//! SQL of the chat: the candidate articles with what the entitlement rule reads, passage ranking,
//! the question log and its staff list.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use crate::users::UserSummary;

/// A candidate article: what a citation shows, what the entitlement rule reads, and its text.
pub struct CandidateRow {
    pub article_id: String,
    pub title: String,
    pub publish_date: DateTime<Utc>,
    pub state: String,
    pub premium_channel_id: Option<String>,
    pub channel_type: Option<String>,
    pub is_premium: bool,
    pub premium_expires_at: Option<DateTime<Utc>>,
    pub summary: Option<String>,
    pub body_text: String,
}

/// The articles of `ids` (any order; missing ones are left out).
pub async fn candidates(db: impl PgExecutor<'_>, ids: &[String]) -> sqlx::Result<Vec<CandidateRow>> {
    sqlx::query_as!(
        CandidateRow,
        r#"select a.article_id as "article_id!", a.title as "title!", a.publish_date as "publish_date!", a.state as "state!",
                  a.premium_channel_id, c.type as "channel_type?", a.is_premium as "is_premium!", a.premium_expires_at,
                  a.summary, a.body_text as "body_text!"
           from article a left join channel c on c.channel_id = a.premium_channel_id
           where a.article_id = any($1) and a.publish_date is not null"#,
        ids
    )
    .fetch_all(db)
    .await
}

/// The relevance of each passage to `words` (a websearch query), as the search ranks articles.
pub async fn rank_passages(db: impl PgExecutor<'_>, passages: &[String], words: &str) -> sqlx::Result<Vec<f64>> {
    let rows = sqlx::query_scalar!(
        r#"select ts_rank(to_tsvector('english', p.text), websearch_to_tsquery('english', $2))::float8 as "rank!"
           from unnest($1::text[]) with ordinality as p(text, n)
           order by p.n"#,
        passages,
        words
    )
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// Records a question as it is asked.
pub async fn insert_question(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: &str,
    question: &str,
    conversation_id: Option<&str>,
    mode: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into chat_question (chat_question_id, user_id, question, conversation_id, mode) values ($1, $2, $3, $4, $5)",
        id,
        user_id,
        question,
        conversation_id,
        mode
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records how a question was answered.
pub async fn finish_question(
    db: impl PgExecutor<'_>,
    id: &str,
    cited: &[String],
    error: Option<&str>,
    duration_ms: i32,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update chat_question
         set cited_article_ids = $2, outcome = case when $3::text is null then 'answered' else 'failed' end,
             error = left($3, 500), duration_ms = $4
         where chat_question_id = $1",
        id,
        cited,
        error,
        duration_ms
    )
    .execute(db)
    .await?;
    Ok(())
}

/// One logged question with its reader and the titles of the articles it cited (in citation order).
pub struct QuestionRow {
    pub chat_question_id: String,
    pub question: String,
    pub asked_at: DateTime<Utc>,
    pub mode: String,
    pub outcome: String,
    pub error: Option<String>,
    pub duration_ms: Option<i32>,
    pub reader: UserSummary,
    pub citations: Vec<(String, String)>,
}

/// A page of the question log, newest first; `pattern` (a LIKE pattern, lower case) matches the
/// question or the reader's name, email or company.
pub async fn list(db: impl PgExecutor<'_>, pattern: Option<&str>, limit: i64, offset: i64) -> sqlx::Result<Vec<QuestionRow>> {
    let rows = sqlx::query!(
        r#"select q.chat_question_id, q.question, q.asked_at, q.mode, q.outcome, q.error, q.duration_ms,
                  u.user_id, u.name, u.email,
                  coalesce((select array_agg(a.article_id order by c.n) from unnest(q.cited_article_ids) with ordinality c(id, n)
                            join article a on a.article_id = c.id), '{}') as "cited_ids!",
                  coalesce((select array_agg(a.title order by c.n) from unnest(q.cited_article_ids) with ordinality c(id, n)
                            join article a on a.article_id = c.id), '{}') as "cited_titles!"
           from chat_question q join users u on u.user_id = q.user_id
           where $1::text is null or lower(q.question) like $1 or u.search_text like $1
           order by q.asked_at desc, q.chat_question_id desc
           limit $2 offset $3"#,
        pattern,
        limit,
        offset
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| QuestionRow {
            chat_question_id: r.chat_question_id,
            question: r.question,
            asked_at: r.asked_at,
            mode: r.mode,
            outcome: r.outcome,
            error: r.error,
            duration_ms: r.duration_ms,
            reader: UserSummary { user_id: r.user_id, name: r.name, email: r.email },
            citations: r.cited_ids.into_iter().zip(r.cited_titles).collect(),
        })
        .collect())
}

pub async fn count(db: impl PgExecutor<'_>, pattern: Option<&str>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "count!" from chat_question q join users u on u.user_id = q.user_id
           where $1::text is null or lower(q.question) like $1 or u.search_text like $1"#,
        pattern
    )
    .fetch_one(db)
    .await
}
