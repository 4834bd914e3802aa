//! The intelligence chat (spec 3 §2, §4, §6; issue 14): `POST /chat` answers a reader's question
//! from the portal's own research, only from articles the reader may read in full, as server-sent
//! events; every question is logged for the staff list `chatQuestions`.
//!
//! Events, each with JSON data: `citations` (`[{articleId, title, publishDate, link}]`, first),
//! `delta` (a JSON string: the next piece of the answer), then `done`
//! (`{questionId, conversationId, mode}`) or `error` (`{message}`).
//!
//! With `INSIGHTS_CHAT_API_URL` the answer comes from that chat-completions model, given only the
//! retrieved passages; without it, the answer is the passages themselves.

pub mod config;
mod graphql;
mod handler;
mod llm;
pub mod passages;
mod queries;
mod retrieval;

use std::sync::Arc;

use axum::{Extension, Router, extract::DefaultBodyLimit, response::sse::Event, routing::post};

pub use config::ChatConfig;
pub use graphql::ChatQuery;
pub use retrieval::Citation;

use crate::state::AppState;

/// A question is a sentence or a short paragraph.
pub const QUESTION_MAX_CHARS: usize = 1000;
/// Largest `POST /chat` body.
const BODY_LIMIT: usize = 16 * 1024;

/// What one server keeps for the chat: the model client, when configured. (Its per-user rate
/// limiter is `AppState::limits.chat`, beside the other classes'.)
pub struct Chat {
    llm: Option<llm::Llm>,
}

impl Chat {
    pub fn new(config: &ChatConfig) -> Chat {
        Chat { llm: llm::Llm::from_config(config) }
    }

    /// `llm` or `passages`, as logged.
    fn mode(&self) -> &'static str {
        if self.llm.is_some() { "llm" } else { "passages" }
    }
}

/// `POST /chat`, with its own small body limit and the chat's server-wide parts.
pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/chat", post(handler::ask))
        .layer(Extension(Arc::new(Chat::new(&state.config.chat))))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// One event of an answer, as the answering task hands it to the response stream.
#[derive(Debug)]
pub enum Reply {
    Citations(Vec<Citation>),
    Delta(String),
    Done { question_id: String, conversation_id: Option<String>, mode: &'static str },
    Error(String),
}

impl Reply {
    fn event(self) -> Event {
        let (name, data) = match self {
            Reply::Citations(citations) => ("citations", serde_json::json!(citations)),
            Reply::Delta(text) => ("delta", serde_json::json!(text)),
            Reply::Done { question_id, conversation_id, mode } => {
                ("done", serde_json::json!({ "questionId": question_id, "conversationId": conversation_id, "mode": mode }))
            }
            Reply::Error(message) => ("error", serde_json::json!({ "message": message })),
        };
        Event::default().event(name).data(data.to_string())
    }
}
