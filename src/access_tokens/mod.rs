//! Personal access tokens (issue 41): long-lived secrets a reader (or their firm's IT, for them)
//! makes on the Subscriptions page and gives to a tool — an AI assistant through the MCP server, a
//! script through the API. A token stands for its reader, read-only: it reads what the reader may
//! read and changes nothing (GraphQL mutations are refused). Shown once; only its SHA-256 is kept;
//! listed with its name, creation and last use; revoked at once on every server (each use looks
//! it up).

pub mod graphql;
pub mod queries;

use crate::{
    error::{Error, FieldErrors, Result},
    feeds, ids,
    state::AppState,
    validation::required_text,
};

pub use graphql::{AccessTokensMutation, AccessTokensQuery};

/// What every token starts with: tools and secret scanners tell it from an OIDC token.
pub const PREFIX: &str = "insights_pat_";
pub const NAME_MAX: usize = 100;
/// The tokens a reader may hold at once (revoked ones do not count).
pub const MAX_TOKENS: i64 = 10;
pub const TOO_MANY_TOKENS: &str = "You have 10 access tokens: revoke one to create another.";
pub const READ_ONLY: &str = "This access token is read-only.";

/// The secret of a bearer value that is an access token (its prefix and a well-formed rest).
pub fn secret_of(bearer: &str) -> Option<&str> {
    bearer.strip_prefix(PREFIX).filter(|secret| feeds::looks_like_secret(secret))
}

/// Makes a token named `name` for `user_id`; the token and its secret (with the prefix).
pub async fn create(state: &AppState, user_id: &str, name: &str) -> Result<(queries::AccessTokenRow, String)> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", name, NAME_MAX);
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    let (secret, hash) = feeds::new_secret();
    let mut tx = state.pool.begin().await?;
    if queries::lock_active_tokens(&mut tx, user_id).await? >= MAX_TOKENS {
        return Err(Error::Conflict(TOO_MANY_TOKENS.into()));
    }
    let token = queries::insert(&mut *tx, &ids::new_id(), user_id, &name, &hash).await?;
    tx.commit().await?;
    Ok((token, format!("{PREFIX}{secret}")))
}

/// Revokes a token: the reader's own, or any reader's for an Administrator (`any_user`).
pub async fn revoke(state: &AppState, user_id: &str, any_user: bool, id: &str) -> Result<()> {
    if !ids::is_valid_id(id) || !queries::revoke(&state.pool, id, (!any_user).then_some(user_id)).await? {
        return Err(Error::NotFound("Access token"));
    }
    Ok(())
}
