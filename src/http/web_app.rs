//! The built React app under `/insights`: hashed assets cached for a year, `index.html` for every
//! client route and never cached, so a new deployment is picked up on the next load; gzipped for
//! clients that accept it.

use std::path::Path;

use axum::{
    Router,
    extract::Request,
    http::{HeaderValue, header},
    middleware::{self, Next},
    response::Response,
};
use tower_http::{
    compression::CompressionLayer,
    services::{ServeDir, ServeFile},
};

use crate::state::AppState;

pub fn router(web_dir: &Path) -> Router<AppState> {
    let index = web_dir.join("index.html");
    if !index.exists() {
        tracing::warn!(path = %index.display(), "the web app is not built: run `make build`");
    }
    let files = ServeDir::new(web_dir).fallback(ServeFile::new(&index));
    // Gzip: the reader's first load is a quarter of its raw size on the wire.
    Router::new().nest_service("/insights", files).layer(CompressionLayer::new()).layer(middleware::from_fn(cache_control))
}

async fn cache_control(request: Request, next: Next) -> Response {
    let hashed_asset = request.uri().path().starts_with("/insights/assets/");
    let mut response = next.run(request).await;
    // A missing asset falls back to index.html, which must never be cached for a year.
    let is_html = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    let value = if hashed_asset && !is_html { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}
