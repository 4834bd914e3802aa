//! Resolves the `Authorization` header of a request into `Auth`: validates the bearer token and
//! loads (or creates, on first use) the stored user, writing only when the token's claims changed.
//! The user comes from memory when this server has it (`users::kept`).

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::{Auth, Claims, Identity, TrialState, UNUSABLE_EMAIL, Viewer, jwt::TokenError, trial_minutes_left};
use crate::{
    error::{Error, Result, reaches_unreachable_database},
    state::AppState,
    users::{User, queries},
};

/// Stores a token's claims as its user (`queries::upsert_from_identity`), in the audit trail as
/// the token holder's ('token claims': the user created, or their name, address or scopes
/// brought in step with their identity provider).
async fn store_claims(state: &AppState, identity: &Identity, issued_at: Option<DateTime<Utc>>, is_internal: bool) -> Result<Option<(User, bool)>> {
    let holder = crate::audit::Actor {
        kind: crate::audit::ActorKind::User,
        email: Some(identity.email.clone()),
        role: identity.role().map(|role| role.as_str().to_owned()),
        action: "token claims".into(),
        ..Default::default()
    };
    let mut tx = state.pool.begin().await?;
    crate::audit::queries::act_as(&mut tx, &holder).await?;
    let stored = queries::upsert_from_identity(&mut *tx, identity, issued_at, is_internal).await?;
    tx.commit().await?;
    Ok(stored)
}

pub async fn authenticate(state: &AppState, authorization: Option<&str>) -> Result<Auth> {
    let Some(value) = authorization else { return Ok(Auth::Anonymous) };
    let Some(token) = bearer_token(value) else { return Ok(Auth::Invalid) };
    if token.starts_with(crate::access_tokens::PREFIX) {
        return access_token(state, token).await;
    }
    let config = &state.config;
    let claims = match state.tokens.validate(token, &config.auth.audience).await {
        Ok(claims) => claims,
        // The built-in provider's keys could not be read: the database is down, not the token bad
        // (signing the user out would be wrong).
        Err(TokenError::KeysUnavailable(error)) if reaches_unreachable_database(&error) => return Err(Error::DatabaseUnreachable(error)),
        Err(error) => {
            tracing::info!(%error, "bearer token refused");
            return Ok(Auth::Invalid);
        }
    };
    let Some(identity) = Identity::from_claims(&claims, &config.auth.email_claim, &config.auth.name_claim) else {
        return Ok(Auth::Invalid);
    };
    // Signing the user in again would bring the same email: say what is wrong instead.
    if !identity.usable_email() {
        return Err(unusable_email());
    }
    let user = match state.users.get(&identity.subject) {
        Some(user) if user.matches(&identity) => User::clone(&user),
        _ => {
            let generation = state.users.generation();
            let user = match queries::find_by_subject(&state.pool, &identity.subject).await? {
                Some(user) if user.matches(&identity) => user,
                _ => {
                    let is_internal = identity.subject.starts_with(&config.internal_id_prefix);
                    match store_claims(state, &identity, issued_at(&claims), is_internal).await? {
                        Some((user, _)) => user,
                        // A newer token's claims are stored: this one may use no scope they lack
                        // (a role lowered since). UNAUTHENTICATED, so the client gets a current token.
                        None => match queries::find_by_subject(&state.pool, &identity.subject).await? {
                            Some(stored) if identity.scopes.iter().all(|scope| stored.scopes.contains(scope)) => stored,
                            _ => {
                                tracing::info!(subject = identity.subject, "a token older than the stored claims asks for more scopes: refused");
                                return Ok(Auth::Invalid);
                            }
                        },
                    }
                }
            };
            state.users.put(Arc::new(user.clone()), generation);
            user
        }
    };
    let role = identity.role();
    let minutes_left = trial_minutes_left(identity.is_trial(), user.first_login, config.constants.trial_days, Utc::now());
    Ok(Auth::Signed(Box::new(Viewer {
        trial: TrialState::from_minutes_left(minutes_left),
        trial_minutes_left: minutes_left,
        role,
        identity,
        user,
        access_token: None,
    })))
}

/// A personal access token: its reader, read-only; refused when malformed, unknown or revoked.
async fn access_token(state: &AppState, bearer: &str) -> Result<Auth> {
    let Some(secret) = crate::access_tokens::secret_of(bearer) else { return Ok(Auth::Invalid) };
    let Some(token) = crate::access_tokens::queries::use_token(&state.pool, &crate::feeds::secret_hash(secret)).await? else {
        tracing::info!("access token refused: unknown or revoked");
        return Ok(Auth::Invalid);
    };
    let Some(user) = queries::find_by_id(&state.pool, &token.user_id).await? else { return Ok(Auth::Invalid) };
    let mut viewer = viewer_of_user(state, user);
    viewer.access_token = Some(token.access_token_id);
    Ok(Auth::Signed(Box::new(viewer)))
}

/// The viewer a stored user is when they act through a secret of their own rather than a token
/// (a private feed link, a personal access token): their stored scopes and their account trial.
pub fn viewer_of_user(state: &AppState, user: User) -> Viewer {
    let identity = Identity {
        subject: user.subject.clone(),
        email: user.email.clone(),
        name: user.name.clone(),
        first_name: user.first_name.clone(),
        last_name: user.last_name.clone(),
        company: user.company.clone(),
        phone: user.phone.clone(),
        scopes: user.scopes.clone(),
    };
    let minutes_left = trial_minutes_left(identity.is_trial(), user.first_login, state.config.constants.trial_days, Utc::now());
    Viewer {
        trial: TrialState::from_minutes_left(minutes_left),
        trial_minutes_left: minutes_left,
        role: identity.role(),
        identity,
        user,
        access_token: None,
    }
}

/// When the token was issued (`iat`), if it says.
pub fn issued_at(claims: &Claims) -> Option<DateTime<Utc>> {
    claims.get("iat").and_then(serde_json::Value::as_i64).and_then(|iat| DateTime::from_timestamp(iat, 0))
}

/// BAD_USER_INPUT on `email`, with a message the sign-in error page shows as it is.
pub fn unusable_email() -> Error {
    Error::BadUserInput { message: UNUSABLE_EMAIL.to_owned(), fields: [("email".to_owned(), UNUSABLE_EMAIL.to_owned())].into() }
}

/// The token of an `Authorization: Bearer …` value (the scheme is case-insensitive, RFC 7235).
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::bearer_token;

    #[test]
    fn bearer_tokens_are_read_whatever_the_scheme_case() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer  abc "), Some("abc"));
        assert_eq!(bearer_token("BEARER abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearerabc"), None);
    }
}
