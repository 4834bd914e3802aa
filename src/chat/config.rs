//! The chat's settings (flattened into `Config`): the OpenAI-compatible endpoint, its key and
//! model, and the per-user question rate.

use std::{num::NonZeroU32, str::FromStr, time::Duration};

use clap::Args;

use crate::config::Secret;

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
    /// one more each period/N).
    #[arg(long = "chat-rate-limit", env = "INSIGHTS_CHAT_RATE_LIMIT", default_value = "10/minute")]
    pub rate_limit: RateLimit,
}

/// At most `count` questions per `period`, per user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub count: NonZeroU32,
    pub period: Duration,
}

impl FromStr for RateLimit {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let invalid = || format!("'{value}': expected N/second, N/minute or N/hour with N at least 1");
        let (count, unit) = value.trim().split_once('/').ok_or_else(invalid)?;
        let count: NonZeroU32 = count.trim().parse().map_err(|_| invalid())?;
        let seconds = match unit.trim() {
            "s" | "sec" | "second" => 1,
            "m" | "min" | "minute" => 60,
            "h" | "hour" => 3600,
            _ => return Err(invalid()),
        };
        Ok(RateLimit { count, period: Duration::from_secs(seconds) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_with_their_unit() {
        let rate: RateLimit = "10/minute".parse().unwrap();
        assert_eq!((rate.count.get(), rate.period), (10, Duration::from_secs(60)));
        assert_eq!("3/h".parse::<RateLimit>().unwrap().period, Duration::from_secs(3600));
        for bad in ["0/minute", "ten/minute", "10", "10/day", ""] {
            assert!(bad.parse::<RateLimit>().is_err(), "{bad}");
        }
    }
}
