//! `POST /chat`: who may ask, the question's checks and the rate limit, then the answer streamed
//! as server-sent events by a task that also completes the question's log row.

use std::{convert::Infallible, sync::Arc, time::Instant};

use axum::{
    Extension, Json,
    extract::{State, rejection::JsonRejection},
    http::{HeaderMap, HeaderValue, header},
    response::{
        IntoResponse, Response,
        sse::{KeepAlive, Sse},
    },
};
use serde::Deserialize;
use tokio::sync::mpsc;

use super::{Chat, QUESTION_MAX_CHARS, Reply, queries, retrieval};
use crate::{
    auth::{ALL_ROLES, session},
    error::{Error, FieldErrors},
    http::{
        HttpError,
        limits::{self, Key},
    },
    ids,
    reading::Reader,
    state::AppState,
    validation::required_text,
};

/// Said when nothing the reader may read matches the question.
pub const NOTHING_FOUND: &str = "I could not find anything about this in the research available to you. \
Try other words, or ask about a market, sector or company our research covers.";
/// The passages answer starts with this.
pub const PASSAGES_INTRO: &str = "Here is what our research says:";
const FAILED: &str = "The answer could not be completed. Please try again in a moment.";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ask {
    #[serde(default)]
    question: String,
    conversation_id: Option<String>,
}

/// The conversation id the widget makes up: letters, digits, '-' and '_', at most 64.
fn conversation_id(fields: &mut FieldErrors, value: Option<&str>) -> Option<String> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    if value.len() > 64 || !value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        fields.insert("conversationId".to_owned(), "Invalid conversation id".to_owned());
    }
    Some(value.to_owned())
}

pub async fn ask(
    State(state): State<AppState>,
    Extension(chat): Extension<Arc<Chat>>,
    headers: HeaderMap,
    body: Result<Json<Ask>, JsonRejection>,
) -> Result<Response, HttpError> {
    // Off: the feature does not exist.
    if !state.config.features.intelligence {
        return Err(Error::NotFound("Page").into());
    }
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    let viewer = auth.viewer()?;
    let role = viewer.require(ALL_ROLES)?;
    if !viewer.identity.has_intelligence() {
        return Err(Error::Forbidden.into());
    }
    let Json(body) = body.map_err(|rejection| Error::field("question", rejection.body_text()))?;
    let mut fields = FieldErrors::new();
    let question = required_text(&mut fields, "question", &body.question, QUESTION_MAX_CHARS);
    let conversation = conversation_id(&mut fields, body.conversation_id.as_deref());
    if !fields.is_empty() {
        return Err(Error::invalid(fields).into());
    }

    let user_id = viewer.user.user_id.clone();
    // Checked after the question's own checks, so a refused question does not count.
    if let Err(seconds) = state.limits.chat.check(&Key::User(user_id.clone())) {
        return Ok(limits::too_many_requests(seconds, &format!("You are asking too quickly, try again in {seconds} s")));
    }

    let question_id = ids::new_id();
    queries::insert_question(&state.pool, &question_id, &user_id, &question, conversation.as_deref(), chat.mode()).await?;
    let reader = retrieval::reader(&state, role, &user_id).await?;
    tracing::info!(question_id, mode = chat.mode(), "chat question");

    let (sender, receiver) = mpsc::channel(32);
    let answer = Answer { state, chat, reader, question, question_id, conversation };
    tokio::spawn(answer.run(sender));
    let events = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|reply| (Ok::<_, Infallible>(reply.event()), receiver))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::default()).into_response();
    // Proxies must pass each event on as it comes.
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// One question being answered.
struct Answer {
    state: AppState,
    chat: Arc<Chat>,
    reader: Reader,
    question: String,
    question_id: String,
    conversation: Option<String>,
}

impl Answer {
    async fn run(self, out: mpsc::Sender<Reply>) {
        let started = Instant::now();
        let (cited, error) = match self.answer(&out).await {
            Ok(cited) => (cited, None),
            Err((cited, error)) => {
                tracing::warn!(question_id = %self.question_id, %error, "chat answer failed");
                let _ = out.send(Reply::Error(FAILED.to_owned())).await;
                (cited, Some(error))
            }
        };
        if error.is_none() {
            let done =
                Reply::Done { question_id: self.question_id.clone(), conversation_id: self.conversation.clone(), mode: self.chat.mode() };
            let _ = out.send(done).await;
        }
        let duration = i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX);
        if let Err(db) = queries::finish_question(&self.state.pool, &self.question_id, &cited, error.as_deref(), duration).await {
            tracing::error!(question_id = %self.question_id, error = %db, "chat: could not record the answer");
        }
    }

    /// Streams the answer; the ids of the articles cited, and on failure what went wrong.
    async fn answer(&self, out: &mpsc::Sender<Reply>) -> Result<Vec<String>, (Vec<String>, String)> {
        let gone = |cited: &[String]| (cited.to_vec(), "the reader closed the connection".to_owned());
        let retrieved = retrieval::retrieve(&self.state, &self.reader, &self.question).await.map_err(|e| {
            e.log_if_internal();
            (Vec::new(), format!("retrieval: {}", e.message()))
        })?;
        let cited: Vec<String> = retrieved.citations.iter().map(|c| c.article_id.clone()).collect();
        out.send(Reply::Citations(retrieved.citations.clone())).await.map_err(|_| gone(&cited))?;
        if retrieved.passages.is_empty() {
            out.send(Reply::Delta(NOTHING_FOUND.to_owned())).await.map_err(|_| gone(&cited))?;
            return Ok(cited);
        }
        match &self.chat.llm {
            Some(llm) => {
                llm.answer(&self.question, &retrieved.citations, &retrieved.passages, out).await.map_err(|e| (cited.clone(), e))?;
            }
            None => {
                out.send(Reply::Delta(format!("{PASSAGES_INTRO}\n\n"))).await.map_err(|_| gone(&cited))?;
                for passage in &retrieved.passages {
                    let citation = &retrieved.citations[passage.citation - 1];
                    let text = format!(
                        "[{}] “{}”\n— {}, {}\n\n",
                        passage.citation,
                        passage.text,
                        citation.title,
                        citation.publish_date.format("%d %b %Y")
                    );
                    out.send(Reply::Delta(text)).await.map_err(|_| gone(&cited))?;
                }
            }
        }
        Ok(cited)
    }
}
