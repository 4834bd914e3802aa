//! The chat's settings (flattened into `Config`): the OpenAI-compatible endpoint, its key and
//! model, and the per-user question rate.

use clap::Args;

use crate::config::{RateLimit, Secret};

#[derive(Debug, Clone, Args)]
pub struct ChatConfig {
    /// Base URL of an OpenAI-compatible chat-completions API, up to and including its version
    /// (e.g. `https://api.openai.com/v1`; requests go to `{url}/chat/completions`). Unset: the chat
    /// answers with the most relevant passages themselves and their links.
    #[arg(long = "chat-api-url", env = "INSIGHTS_CHAT_API_URL")]
    pub api_url: Option<String>,

    /// API key sent as a bearer token to the chat-completions API.
    #[arg(long = "chat-api-key", env = "INSIGHTS_CHAT_API_KEY", hide_env_values = true)]
    pub api_key: Option<Secret>,

    /// Model named in chat-completions requests.
    #[arg(long = "chat-model", env = "INSIGHTS_CHAT_MODEL", default_value = "gpt-4o-mini")]
    pub model: String,

    /// Questions one user may ask the chat: `N/second`, `N/minute` or `N/hour` (a burst of N, then
    /// one more each period/N), or `off`.
    #[arg(long = "chat-rate-limit", env = "INSIGHTS_CHAT_RATE_LIMIT", default_value = "10/minute")]
    pub rate_limit: RateLimit,
}
