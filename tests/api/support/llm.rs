//! A fake OpenAI-compatible chat-completions server on a free port: `POST /v1/chat/completions`
//! with `stream: true` answers with `chat.completion.chunk` frames (`data: {json}` … `data: [DONE]`),
//! as OpenAI streams them, and records every request (headers that matter and the raw body), so
//! tests can assert what the app sent to the model.

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicBool, Ordering},
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::post,
};
use serde_json::{Value, json};

/// What the fake model answers, in the pieces it streams.
pub const ANSWER_PIECES: &[&str] = &["According to the research [1], ", "copper demand keeps rising", "."];

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub authorization: Option<String>,
    pub body: String,
}

impl Recorded {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON request body")
    }
}

#[derive(Clone, Default)]
struct Shared {
    requests: Arc<Mutex<Vec<Recorded>>>,
    /// Answer with an error frame mid-stream (HTTP 200), as OpenAI reports a failure once streaming.
    fail: Arc<AtomicBool>,
}

pub struct FakeLlm {
    /// The base URL to configure (`INSIGHTS_CHAT_API_URL`), ending in /v1.
    pub base_url: String,
    shared: Shared,
}

impl FakeLlm {
    pub async fn start() -> FakeLlm {
        let shared = Shared::default();
        let app = Router::new().route("/v1/chat/completions", post(completions)).with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a free port");
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeLlm { base_url: format!("http://127.0.0.1:{port}/v1"), shared }
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Fail the answers from now on (an error frame after the first chunk).
    pub fn fail(&self) {
        self.shared.fail.store(true, Ordering::SeqCst);
    }
}

fn chunk(content: Option<&str>, finish: Option<&str>) -> String {
    let mut delta = json!({});
    if let Some(content) = content {
        delta = json!({ "role": "assistant", "content": content });
    }
    let frame = json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_700_000_000, "model": "fake-model",
        "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }],
    });
    format!("data: {frame}\n\n")
}

async fn completions(State(shared): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let body = String::from_utf8_lossy(&body).into_owned();
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_owned);
    shared.requests.lock().unwrap().push(Recorded { authorization, body: body.clone() });
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if request["stream"] != json!(true) || !request["messages"].is_array() || !request["model"].is_string() {
        let error = json!({ "error": { "message": "stream, model and messages are required", "type": "invalid_request_error" } });
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let mut stream = String::new();
    if shared.fail.load(Ordering::SeqCst) {
        stream.push_str(&chunk(Some(ANSWER_PIECES[0]), None));
        stream.push_str("data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}\n\n");
    } else {
        for piece in ANSWER_PIECES {
            stream.push_str(&chunk(Some(piece), None));
        }
        stream.push_str(&chunk(None, Some("stop")));
        stream.push_str("data: [DONE]\n\n");
    }
    ([(header::CONTENT_TYPE, "text/event-stream")], stream).into_response()
}
