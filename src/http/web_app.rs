//! The built React app under `/insights`: hashed assets cached for a year, `index.html` for every
//! client route and never cached, so a new deployment is picked up on the next load; gzipped for
//! clients that accept it. The HTML comes with a Content-Security-Policy: scripts only from here
//! and from the configured Stripe.js and Tableau hosts, no plugins, no framing by other sites.
//! `/favicon.ico` answers the app's icon at the root, where browsers look for it on any page
//! (the sign-in pages, JSON answers) that names none.

use std::path::Path;

use axum::{
    Router,
    extract::Request,
    http::{HeaderValue, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
};
use tower_http::{
    compression::CompressionLayer,
    services::{ServeDir, ServeFile},
};

use crate::{articles::sanitize::EMBEDS, config::Config, state::AppState};

/// The policy sent with the HTML. Styles allow inline ones: Blueprint and React set `style`
/// attributes (positions of popovers, sizes of panels) that a nonce cannot cover. Frames allow the
/// players an article body may embed (the sanitiser's `EMBEDS`); the browser talks to an external
/// identity provider itself (discovery, tokens, revocation); images come from this server, or by
/// its public URL when that is another origin.
fn content_security_policy(config: &Config) -> String {
    let origin = |address: &str| url::Url::parse(address).ok().map(|url| url.origin().ascii_serialization()).filter(|o| o != "null");
    let stripe = config.card_payments_enabled().then(|| origin(&config.stripe.js_url)).flatten();
    let tableau = config.tableau.is_configured().then(|| config.tableau.server_url.as_deref().and_then(origin)).flatten();
    let scripts: String = stripe.iter().chain(&tableau).map(|host| format!(" {host}")).collect();
    // Stripe.js talks to its API and opens 3-D Secure frames (stripe.com/docs/security/guide#content-security-policy).
    let stripe_hosts = if stripe.is_some() { " https://api.stripe.com https://hooks.stripe.com" } else { "" };
    let embeds: String = EMBEDS.iter().map(|(host, _)| format!(" https://{host}")).collect();
    let issuer = config.auth.issuer.as_deref().and_then(origin).map(|host| format!(" {host}")).unwrap_or_default();
    let public = origin(&config.public_url).map(|host| format!(" {host}")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'{scripts}; frame-src 'self'{scripts}{stripe_hosts}{embeds}; \
         connect-src 'self'{scripts}{stripe_hosts}{issuer}; style-src 'self' 'unsafe-inline'; img-src 'self'{public} data: blob:{scripts}; \
         font-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    )
}

pub fn router(config: &Config) -> Router<AppState> {
    let web_dir: &Path = &config.web_dir;
    let index = web_dir.join("index.html");
    if !index.exists() {
        tracing::warn!(path = %index.display(), "the web app is not built: run `make build`");
    }
    let files = ServeDir::new(web_dir).fallback(ServeFile::new(&index));
    // Gzip: the reader's first load is a quarter of its raw size on the wire.
    let policy = HeaderValue::from_str(&content_security_policy(config)).expect("the policy is ASCII");
    Router::new()
        .nest_service("/insights", files)
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(move |request, next| cache_control(policy.clone(), request, next)))
        // Added after the layers above: its own cache header, not index.html's no-cache.
        .route("/favicon.ico", get(favicon))
}

/// The app's icon (`web/public/favicon.ico`, drawn by `scripts/make_favicon.py` like the SVG the
/// web app links), built into the binary so it answers whether or not the web app is built.
const FAVICON: &[u8] = include_bytes!("../../web/public/favicon.ico");

async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/x-icon"), (header::CACHE_CONTROL, "public, max-age=86400")], FAVICON)
}

async fn cache_control(policy: HeaderValue, request: Request, next: Next) -> Response {
    let hashed_asset = request.uri().path().starts_with("/insights/assets/");
    let mut response = next.run(request).await;
    // A missing asset falls back to index.html, which must never be cached for a year.
    let is_html = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    let value = if hashed_asset && !is_html { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    if is_html {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}
