//! The grounded answer from an OpenAI-compatible chat-completions endpoint (async-openai): a
//! system prompt that confines the model to the numbered passages, the passages and the question,
//! streamed back chunk by chunk.

use std::time::Duration;

use async_openai::{
    Client,
    config::OpenAIConfig,
    types::chat::{
        ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage, CreateChatCompletionRequest, CreateChatCompletionRequestArgs,
    },
};
use futures_util::StreamExt;
use tokio::sync::mpsc::Sender;

use super::{
    Reply,
    config::ChatConfig,
    retrieval::{Citation, Passage},
};

/// Longest wait for the next chunk of an answer.
const CHUNK_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest answer, in tokens.
const MAX_ANSWER_TOKENS: u32 = 700;

const SYSTEM_PROMPT: &str = "You are the research assistant of an investment research portal. Answer the reader's \
question using only the numbered passages you are given: they come from research articles the reader may read. \
Cite the passages you use by their numbers in square brackets, like [1] or [2][3]. If the passages do not answer \
the question, say that the research available to the reader does not cover it; never use outside knowledge or \
invent figures. Answer in plain text, concisely.";

pub struct Llm {
    client: Client<OpenAIConfig>,
    model: String,
}

impl Llm {
    /// A client when an endpoint is configured.
    pub fn from_config(config: &ChatConfig) -> Option<Llm> {
        let url = config.api_url.as_deref()?.trim_end_matches('/');
        // async-openai's reqwest is built without a rustls crypto provider; ring is the one this
        // program uses everywhere (no aws-lc). Already installed: fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let key = config.api_key.as_ref().map(|k| k.expose().to_owned()).unwrap_or_default();
        let client = Client::with_config(OpenAIConfig::new().with_api_base(url).with_api_key(key));
        Some(Llm { client, model: config.model.clone() })
    }

    fn request(&self, question: &str, citations: &[Citation], passages: &[Passage]) -> CreateChatCompletionRequest {
        let mut context = String::from("Passages:\n");
        for passage in passages {
            let citation = &citations[passage.citation - 1];
            context.push_str(&format!(
                "\n[{}] {} ({})\n{}\n",
                passage.citation,
                citation.title,
                citation.publish_date.format("%d %b %Y"),
                passage.text
            ));
        }
        context.push_str(&format!("\nQuestion: {question}"));
        CreateChatCompletionRequestArgs::default()
            .model(self.model.clone())
            .messages([
                ChatCompletionRequestSystemMessage::from(SYSTEM_PROMPT).into(),
                ChatCompletionRequestUserMessage::from(context).into(),
            ])
            .max_completion_tokens(MAX_ANSWER_TOKENS)
            .stream(true)
            .build()
            .expect("a chat request with a model and messages builds")
    }

    /// Streams the answer to `out` as it comes, and stops when nobody listens any more. The error
    /// says what failed, for the log.
    pub async fn answer(&self, question: &str, citations: &[Citation], passages: &[Passage], out: &Sender<Reply>) -> Result<(), String> {
        let request = self.request(question, citations, passages);
        let mut stream = match tokio::time::timeout(CHUNK_TIMEOUT, self.client.chat().create_stream(request)).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(error)) => return Err(format!("chat completions: {error}")),
            Err(_) => return Err("chat completions: no answer in time".to_owned()),
        };
        loop {
            match tokio::time::timeout(CHUNK_TIMEOUT, stream.next()).await {
                Err(_) => return Err("chat completions: the answer stalled".to_owned()),
                Ok(None) => return Ok(()),
                Ok(Some(Err(error))) => return Err(format!("chat completions: {error}")),
                Ok(Some(Ok(chunk))) => {
                    for choice in chunk.choices {
                        if let Some(text) = choice.delta.content.filter(|t| !t.is_empty())
                            && out.send(Reply::Delta(text)).await.is_err()
                        {
                            return Err("the reader closed the connection".to_owned());
                        }
                    }
                }
            }
        }
    }
}
