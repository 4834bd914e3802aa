//! Resolves the `Authorization` header of a request into `Auth`: validates the bearer token and
//! loads (or creates, on first use) the stored user, writing only when the token's claims changed.

use chrono::Utc;

use super::{Auth, Identity, TrialState, Viewer, jwt::TokenError, trial_minutes_left};
use crate::{
    error::{Error, Result, reaches_unreachable_database},
    state::AppState,
    users::queries,
};

pub async fn authenticate(state: &AppState, authorization: Option<&str>) -> Result<Auth> {
    let Some(value) = authorization else { return Ok(Auth::Anonymous) };
    let Some(token) = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer ")).map(str::trim) else {
        return Ok(Auth::Invalid);
    };
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
    let user = match queries::find_by_subject(&state.pool, &identity.subject).await? {
        Some(user) if user.matches(&identity) => user,
        _ => {
            let is_internal = identity.subject.starts_with(&config.internal_id_prefix);
            queries::upsert_from_identity(&state.pool, &identity, is_internal).await?.0
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
    })))
}
