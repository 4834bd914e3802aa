//! `chatQuestions`: what readers asked the chat, for Administrators (what they want to know, and
//! — questions without citations — what the research does not cover yet).

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::queries::{self, QuestionRow};
use crate::{
    auth::Role,
    error::Result,
    graphql::{PageParams, app_state, contains_pattern, total_from_page, viewer},
    users::UserSummary,
};

#[derive(InputObject)]
pub struct ChatQuestionListParams {
    #[graphql(default = 1)]
    page: i32,
    /// One of 15, 30, 50, 100, 200.
    #[graphql(default = 15)]
    page_size: i32,
    /// Part of the question, or of the reader's name, email or company.
    search_query: Option<String>,
}

impl Default for ChatQuestionListParams {
    fn default() -> Self {
        let PageParams { page, page_size } = PageParams::default();
        ChatQuestionListParams { page, page_size, search_query: None }
    }
}

/// How a question was answered.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum ChatAnswerMode {
    /// By the configured chat-completions model, from the passages.
    Llm,
    /// With the passages themselves (no model configured).
    Passages,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum ChatQuestionOutcome {
    /// Still being answered (or the server stopped meanwhile).
    Pending,
    Answered,
    Failed,
}

/// An article an answer cited (articles deleted since are left out).
#[derive(SimpleObject)]
pub struct ChatCitedArticle {
    article_id: ID,
    title: String,
}

#[derive(SimpleObject)]
pub struct ChatQuestion {
    #[graphql(name = "_id")]
    id: ID,
    question: String,
    reader: UserSummary,
    asked_at: DateTime<Utc>,
    mode: ChatAnswerMode,
    outcome: ChatQuestionOutcome,
    /// What failed, for a failed answer.
    error: Option<String>,
    duration_ms: Option<i32>,
    /// Empty: the research the reader may read had nothing on it.
    citations: Vec<ChatCitedArticle>,
}

impl From<QuestionRow> for ChatQuestion {
    fn from(row: QuestionRow) -> Self {
        ChatQuestion {
            id: ID(row.chat_question_id),
            question: row.question,
            reader: row.reader,
            asked_at: row.asked_at,
            mode: if row.mode == "llm" { ChatAnswerMode::Llm } else { ChatAnswerMode::Passages },
            outcome: match row.outcome.as_str() {
                "answered" => ChatQuestionOutcome::Answered,
                "failed" => ChatQuestionOutcome::Failed,
                _ => ChatQuestionOutcome::Pending,
            },
            error: row.error,
            duration_ms: row.duration_ms,
            citations: row.citations.into_iter().map(|(id, title)| ChatCitedArticle { article_id: ID(id), title }).collect(),
        }
    }
}

#[derive(SimpleObject)]
pub struct ChatQuestionPage {
    questions: Vec<ChatQuestion>,
    total: i64,
}

#[derive(Default)]
pub struct ChatQuery;

#[Object]
impl ChatQuery {
    /// Administrator: the questions readers asked the chat, newest first.
    async fn chat_questions(&self, ctx: &Context<'_>, params: Option<ChatQuestionListParams>) -> Result<ChatQuestionPage> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search_query.as_deref());
        let pool = &app_state(ctx).pool;
        let rows = queries::list(pool, pattern.as_deref(), limit, offset).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count(pool, pattern.as_deref()).await?,
        };
        Ok(ChatQuestionPage { questions: rows.into_iter().map(ChatQuestion::from).collect(), total })
    }
}
