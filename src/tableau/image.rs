//! `GET /tableau/views/{id}/image`: a chart's preview image, fetched from Tableau with the
//! server's REST session so the browser needs none. Bearer-authenticated like the contributor
//! photo (the web app fetches it as a blob); users with tableauAccess only.

use axum::{
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};

use crate::{auth::session, error::Error, http::HttpError, state::AppState, uploads::ImageKind};

pub async fn view_image(State(state): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    let (tableau, username) = super::for_viewer(state.tableau.as_deref(), auth.viewer()?)?;
    // Tableau's ids are LUIDs; anything else is no chart of ours (and never reaches Tableau's URLs).
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Error::NotFound("Chart").into());
    }
    let image = tableau.image(&username, &id).await?;
    // Tableau sends PNGs; whatever it sent was checked to be an image of these kinds.
    let content_type = match ImageKind::sniff(&image) {
        Some(ImageKind::Jpeg) => "image/jpeg",
        Some(ImageKind::Gif) => "image/gif",
        _ => "image/png",
    };
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        // Per user (their Tableau permissions): kept by their browser only, as long as ours.
        (header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=300")),
    ];
    Ok((headers, image).into_response())
}
