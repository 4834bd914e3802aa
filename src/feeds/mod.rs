//! Private feeds (issue 41): a reader's feed links — their subscriptions, or one channel, topic
//! (with its sub-topics), desk or contributor — each served as an Atom document at
//! `GET /feeds/{secret}.atom` (`atom`). A link's secret (256 random bits) is shown once, when it
//! is made; only its SHA-256 is kept, so a link is found by hashing what a request brings.
//! Revoking a link stamps it: the next fetch, on any server, finds it revoked. (Personal access
//! tokens, `crate::access_tokens`, are secrets of the same kind.)

pub mod atom;
pub mod graphql;
pub mod queries;

use async_graphql::Enum;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::{
    error::{Error, Result},
    ids,
    state::AppState,
};

pub use graphql::{FeedsMutation, FeedsQuery};

/// The links a reader may hold at once (revoked ones do not count).
pub const MAX_LINKS: i64 = 20;
pub const TOO_MANY_LINKS: &str = "You have 20 feed links: revoke one to create another.";
pub const SCOPE_NOT_FOUND: &str = "This channel, topic, desk or contributor does not exist.";
pub const SCOPE_ID_REQUIRED: &str = "Choose what the feed follows.";

/// What a feed holds.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "FeedScopeKind", rename_items = "camelCase")]
pub enum ScopeKind {
    /// The channels the reader subscribes to (their own subscriptions and their firm's seats).
    All,
    Channel,
    /// A topic and its sub-topics.
    Topic,
    Desk,
    Contributor,
}

impl ScopeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeKind::All => "all",
            ScopeKind::Channel => "channel",
            ScopeKind::Topic => "topic",
            ScopeKind::Desk => "desk",
            ScopeKind::Contributor => "contributor",
        }
    }

    pub fn parse(value: &str) -> ScopeKind {
        match value {
            "channel" => ScopeKind::Channel,
            "topic" => ScopeKind::Topic,
            "desk" => ScopeKind::Desk,
            "contributor" => ScopeKind::Contributor,
            _ => ScopeKind::All,
        }
    }
}

/// A new secret and the hash that is kept of it: 32 random bytes, URL-safe base64 (43 characters).
pub fn new_secret() -> (String, Vec<u8>) {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let secret = URL_SAFE_NO_PAD.encode(bytes);
    let hash = secret_hash(&secret);
    (secret, hash)
}

pub fn secret_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether `value` could be a secret `new_secret` made: 43 URL-safe base64 characters. What is not
/// is refused before any lookup.
pub fn looks_like_secret(value: &str) -> bool {
    value.len() == 43 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The feed's address (shown once, with its secret).
pub fn feed_url(state: &AppState, secret: &str) -> String {
    format!("{}/feeds/{secret}.atom", state.config.public_url())
}

/// Makes a feed link of `user_id` for `kind` (and `scope_id`, but for `all`): the scope must exist.
/// Returns the link and its secret.
pub async fn create_link(state: &AppState, user_id: &str, kind: ScopeKind, scope_id: Option<&str>) -> Result<(queries::FeedLinkRow, String)> {
    let scope_id = match (kind, scope_id.map(str::trim).filter(|id| !id.is_empty())) {
        (ScopeKind::All, _) => None,
        (_, None) => return Err(Error::field("id", SCOPE_ID_REQUIRED)),
        (_, Some(id)) if !ids::is_valid_id(id) || !queries::scope_exists(&state.pool, kind.as_str(), id).await? => {
            return Err(Error::field("id", SCOPE_NOT_FOUND));
        }
        (_, Some(id)) => Some(id.to_owned()),
    };
    let (secret, hash) = new_secret();
    let mut tx = state.pool.begin().await?;
    // One reader's links are counted under a lock of their rows, so two requests cannot pass 20.
    if queries::lock_active_links(&mut tx, user_id).await? >= MAX_LINKS {
        return Err(Error::Conflict(TOO_MANY_LINKS.into()));
    }
    let id = ids::new_id();
    queries::insert_link(&mut *tx, &id, user_id, kind.as_str(), scope_id.as_deref(), &hash).await?;
    tx.commit().await?;
    let link = queries::link(&state.pool, &id).await?.ok_or_else(|| Error::NotFound("Feed link"))?;
    Ok((link, secret))
}

/// Revokes a link: the reader's own, or any reader's for an Administrator (`any_user`).
pub async fn revoke_link(state: &AppState, user_id: &str, any_user: bool, id: &str) -> Result<()> {
    if !ids::is_valid_id(id) || !queries::revoke_link(&state.pool, id, (!any_user).then_some(user_id)).await? {
        return Err(Error::NotFound("Feed link"));
    }
    Ok(())
}
