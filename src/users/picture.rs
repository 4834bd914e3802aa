//! `GET /contributor-profile-picture/{id}`: a contributor's photo, for signed-in users, when the
//! contributor shows it (404 otherwise, whether or not a photo exists).

use axum::{
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, header},
    response::Response,
};

use super::queries;
use crate::{
    auth::{ALL_ROLES, session},
    error::Error,
    http::HttpError,
    state::AppState,
};

pub async fn contributor_profile_picture(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    session::authenticate(&state, authorization).await?.viewer()?.require(ALL_ROLES)?;
    let not_found = || HttpError::from(Error::NotFound("Picture"));
    if !crate::ids::is_valid_id(&id) {
        return Err(not_found());
    }
    let user = queries::find_by_id(&state.pool, &id).await.map_err(Error::from)?.ok_or_else(not_found)?;
    let picture = user.profile_picture.filter(|_| user.display_avatar).ok_or_else(not_found)?;
    let mut response = crate::uploads::image_response(&state.uploads, &picture).await?;
    // The photo can change or be hidden: revalidate, and keep it out of shared caches.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    Ok(response)
}
