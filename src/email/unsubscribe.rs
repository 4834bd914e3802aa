//! Unsubscribing without signing in: every notification carries a signed `data` token naming the
//! reader and what the link turns off (one channel's emails, or all channel emails). The public
//! unsubscribe page and the one-click `List-Unsubscribe-Post` header (RFC 8058) both post it to
//! `POST /unsubscribe`.
//!
//! The token is `base64url(user id ":" scope) "." base64url(HMAC-SHA256)`, keyed by
//! `INSIGHTS_UNSUBSCRIBE_SECRET` or, when unset, by a random key kept in the database and shared
//! by every process. A changed byte anywhere is refused.

use axum::{
    Json,
    extract::{FromRequest, Multipart, Query, Request, State},
    http::header,
    response::{IntoResponse, Response},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use sha2::Sha256;
use sqlx::PgPool;

use super::queries;
use crate::{AppState, error::Error, http::HttpError};

/// What an unsubscribe link turns off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Channel(String),
    All,
}

/// A verified token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub user_id: String,
    pub scope: Scope,
}

/// The reasons the page offers (spec 3 §2), and the one-click header's.
pub const REASONS: [&str; 4] = ["too_frequent", "not_relevant", "dont_remember", "other"];
const ONE_CLICK: &str = "one_click";

const INVALID: &str =
    "This unsubscribe link is not valid. Use the link of a recent email, or manage your email notifications after signing in.";

/// Signs a token for `user_id` and `scope`.
pub fn sign(key: &[u8], user_id: &str, scope: &Scope) -> String {
    let payload = match scope {
        Scope::Channel(channel_id) => format!("{user_id}:{channel_id}"),
        Scope::All => format!("{user_id}:all"),
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(payload.as_bytes());
    format!("{}.{}", URL_SAFE_NO_PAD.encode(payload), URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
}

/// Verifies a token (in constant time); None when anything in it was changed.
pub fn verify(key: &[u8], token: &str) -> Option<Token> {
    let (payload, signature) = token.trim().split_once('.')?;
    let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(key).ok()?;
    mac.update(&payload);
    mac.verify_slice(&signature).ok()?;
    let payload = String::from_utf8(payload).ok()?;
    let (user_id, scope) = payload.split_once(':')?;
    let scope = if scope == "all" { Scope::All } else { Scope::Channel(scope.to_owned()) };
    Some(Token { user_id: user_id.to_owned(), scope })
}

/// The signing key: the configured secret, or the one kept in the database (created by whichever
/// process needs it first). Loaded once per process.
pub async fn key(state: &AppState) -> anyhow::Result<&[u8]> {
    let key = state
        .unsubscribe_key
        .get_or_try_init(|| async {
            match state.config.email.unsubscribe_key()? {
                Some(key) => Ok(key.to_vec()),
                None => stored_key(&state.pool).await,
            }
        })
        .await?;
    Ok(key.as_slice())
}

async fn stored_key(pool: &PgPool) -> anyhow::Result<Vec<u8>> {
    let mut fresh = vec![0u8; 32];
    rand::thread_rng().fill_bytes(&mut fresh);
    Ok(queries::unsubscribe_key(pool, &fresh).await?)
}

/// The link of the public unsubscribe page for a token.
pub fn page_url(public_url: &str, token: &str) -> String {
    format!("{public_url}/insights/unsubscribe?data={token}")
}

/// The one-click address of the `List-Unsubscribe` header for a token.
pub fn one_click_url(public_url: &str, token: &str) -> String {
    format!("{public_url}/unsubscribe?data={token}")
}

#[derive(Deserialize)]
pub struct UnsubscribeRequest {
    data: String,
    reason: Option<String>,
}

#[derive(Deserialize)]
pub struct OneClickQuery {
    data: Option<String>,
}

/// `POST /unsubscribe`: JSON `{data}` answers `{email}` (and what the link turns off); `{data,
/// reason}` unsubscribes and answers `{status}` (false: already unsubscribed). A form post of
/// `List-Unsubscribe=One-Click` to `/unsubscribe?data=…` is the one-click header's request.
pub async fn handle(State(state): State<AppState>, Query(query): Query<OneClickQuery>, request: Request) -> Response {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let result = if content_type.starts_with("application/x-www-form-urlencoded") || content_type.starts_with("multipart/form-data") {
        match query.data {
            Some(data) if is_one_click(request, &content_type).await => unsubscribe(&state, &data, ONE_CLICK).await,
            _ => Err(Error::field("data", INVALID)),
        }
    } else {
        match Json::<UnsubscribeRequest>::from_request(request, &state).await {
            Ok(Json(UnsubscribeRequest { data, reason: None })) => describe(&state, &data).await,
            Ok(Json(UnsubscribeRequest { data, reason: Some(reason) })) => unsubscribe(&state, &data, &reason).await,
            Err(_) => Err(Error::field("data", INVALID)),
        }
    };
    match result {
        Ok(body) => Json(body).into_response(),
        Err(error) => HttpError::from(error).into_response(),
    }
}

/// Whether a form post carries `List-Unsubscribe=One-Click` (RFC 8058 says multipart; some
/// senders use URL encoding: both are accepted).
async fn is_one_click(request: Request, content_type: &str) -> bool {
    if content_type.starts_with("multipart/form-data") {
        let Ok(mut form) = Multipart::from_request(request, &()).await else { return false };
        while let Ok(Some(field)) = form.next_field().await {
            if field.name() == Some("List-Unsubscribe") {
                return field.text().await.is_ok_and(|value| value.trim() == "One-Click");
            }
        }
        return false;
    }
    match axum::body::to_bytes(request.into_body(), 64 * 1024).await {
        Ok(body) => url::form_urlencoded::parse(&body).any(|(name, value)| name == "List-Unsubscribe" && value == "One-Click"),
        Err(_) => false,
    }
}

async fn verified(state: &AppState, data: &str) -> Result<Token, Error> {
    let key = key(state).await?;
    verify(key, data).ok_or_else(|| Error::field("data", INVALID))
}

/// Whose link it is and what it turns off, before the reader confirms.
async fn describe(state: &AppState, data: &str) -> Result<serde_json::Value, Error> {
    let token = verified(state, data).await?;
    let channel_id = match &token.scope {
        Scope::Channel(id) => Some(id.as_str()),
        Scope::All => None,
    };
    let row = queries::unsubscribe_target(&state.pool, &token.user_id, channel_id)
        .await?
        .ok_or_else(|| Error::field("data", INVALID))?;
    Ok(json!({ "email": row.email, "channelName": row.channel_name, "subscribed": row.subscribed }))
}

/// Turns the emails off and records why; `status` false when they were already off.
async fn unsubscribe(state: &AppState, data: &str, reason: &str) -> Result<serde_json::Value, Error> {
    if reason != ONE_CLICK && !REASONS.contains(&reason) {
        return Err(Error::field("reason", "Choose one of the reasons."));
    }
    let token = verified(state, data).await?;
    let mut tx = state.pool.begin().await?;
    let changed = match &token.scope {
        Scope::All => queries::turn_off_all_channel_emails(&mut *tx, &token.user_id).await?,
        Scope::Channel(channel_id) => queries::turn_off_channel_emails(&mut *tx, &token.user_id, channel_id).await?,
    };
    if changed > 0 {
        let channel_id = match &token.scope {
            Scope::Channel(id) => Some(id.as_str()),
            Scope::All => None,
        };
        queries::record_unsubscribe(&mut *tx, &token.user_id, channel_id, reason).await?;
    }
    tx.commit().await?;
    tracing::info!(user = %token.user_id, scope = ?token.scope, reason, changed = changed > 0, "unsubscribe");
    Ok(json!({ "status": changed > 0 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn a_signed_token_verifies_to_its_user_and_scope() {
        let channel = sign(KEY, "u1", &Scope::Channel("c1".into()));
        assert_eq!(verify(KEY, &channel), Some(Token { user_id: "u1".into(), scope: Scope::Channel("c1".into()) }));
        let all = sign(KEY, "u1", &Scope::All);
        assert_eq!(verify(KEY, &all), Some(Token { user_id: "u1".into(), scope: Scope::All }));
    }

    #[test]
    fn any_change_is_refused() {
        let token = sign(KEY, "u1", &Scope::Channel("c1".into()));
        assert_eq!(verify(b"another key of thirty-two bytes!", &token), None);
        let (payload, signature) = token.split_once('.').unwrap();
        let other_user = URL_SAFE_NO_PAD.encode("u2:c1");
        assert_eq!(verify(KEY, &format!("{other_user}.{signature}")), None);
        for i in 0..token.len() {
            let mut bytes = token.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            if let Ok(changed) = String::from_utf8(bytes)
                && changed != token
            {
                assert_eq!(verify(KEY, &changed), None, "byte {i} changed");
            }
        }
        assert_eq!(verify(KEY, payload), None);
        assert_eq!(verify(KEY, ""), None);
        assert_eq!(verify(KEY, "."), None);
    }
}
