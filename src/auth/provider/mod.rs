//! The built-in development OpenID Connect provider, used when no external issuer is configured:
//! discovery, JWKS, an authorize page that signs in as any user with any scopes, a token endpoint
//! (authorization code with PKCE S256, rotating refresh tokens) and end-session. The web app
//! talks to it with the same standard OIDC client it uses against a production issuer.

pub mod keys;
mod page;
pub mod queries;

use axum::{
    Form, Json, Router,
    extract::{Query, State},
    http::{Method, StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Utc;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tower_http::cors::CorsLayer;

use crate::{
    audit::{self, Actor, Origin},
    auth::{claim_limits, scopes},
    config::Config,
    state::AppState,
};

pub use page::{READY_USERS, ReadyUser};

const CODE_TTL_SECS: i64 = 300;
const OIDC_SCOPES: &[&str] = &["openid", "profile", "email", "offline_access"];

pub fn router() -> Router<AppState> {
    // The web app may run on another origin than the issuer (the Vite dev server, `localhost`
    // for `127.0.0.1`): its OIDC client reads these with fetch. The token endpoint is safe to
    // open this way: codes are bound to a registered redirect URI and a PKCE verifier.
    let cors = CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION]);
    let api = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/jwks", get(jwks))
        .route("/token", axum::routing::post(token))
        .route("/revoke", axum::routing::post(revoke))
        .route("/register", axum::routing::post(register))
        .layer(cors);
    Router::new()
        .route("/authorize", get(authorize_page).post(authorize))
        .route("/logout", get(logout))
        .merge(api)
}

async fn discovery(State(state): State<AppState>) -> Json<serde_json::Value> {
    let issuer = state.config.issuer();
    let insights_scopes = [scopes::ADMIN, scopes::EDITOR, scopes::CONTRIBUTOR, scopes::READER, scopes::TRIAL_READER, scopes::INTELLIGENCE];
    let scopes_supported = [OIDC_SCOPES, &insights_scopes].concat();
    Json(serde_json::json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "end_session_endpoint": format!("{issuer}/logout"),
        "revocation_endpoint": format!("{issuer}/revoke"),
        // MCP clients register themselves (RFC 7591) before signing a reader in.
        "registration_endpoint": format!("{issuer}/register"),
        "revocation_endpoint_auth_methods_supported": ["none"],
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["ES256"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": scopes_supported,
        "claims_supported": ["sub", "email", "email_verified", "name", "given_name", "family_name", "company", "phone_number", "scope"],
    }))
}

async fn jwks(State(state): State<AppState>) -> Result<Response, crate::http::HttpError> {
    // Make sure a key exists before the first token is issued or checked.
    keys::current(&state.pool).await?;
    let set = keys::jwks(&state.pool).await?;
    Ok(([(header::CACHE_CONTROL, "public, max-age=300")], Json(set)).into_response())
}

/// What `serve` says of the built-in provider before it starts: a warning whenever it is on (anyone
/// who reaches its sign-in page signs in as anyone), and a refusal on an address other than
/// loopback unless the operator said they mean it (`INSIGHTS_DEV_SIGN_IN=true`).
pub fn check_before_serving(config: &Config) -> anyhow::Result<()> {
    if !config.auth.uses_builtin_provider() {
        return Ok(());
    }
    tracing::warn!(
        "INSIGHTS_AUTH_ISSUER is not set: the built-in development sign-in is on, and anyone who reaches it can sign in as any user, an Administrator too"
    );
    if !config.listen.ip().is_loopback() && !config.auth.dev_sign_in {
        anyhow::bail!(
            "refusing to serve the built-in development sign-in on {}, which is not a loopback address: set INSIGHTS_AUTH_ISSUER \
             to your identity provider, listen on 127.0.0.1, or set INSIGHTS_DEV_SIGN_IN=true if anyone reaching this server may sign in as anyone",
            config.listen
        );
    }
    Ok(())
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AuthorizeParams {
    pub response_type: Option<String>,
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
}

/// Only our own web app may use this provider, and only with its callback or logout page: on the
/// public URL, or on a loopback address (the Vite dev server, tests on free ports).
fn allowed_app_uri(config: &Config, uri: &str, path: &str) -> bool {
    let Ok(url) = url::Url::parse(uri) else { return false };
    if url.path() != path || url.fragment().is_some() {
        return false;
    }
    let public = format!("{}{path}", config.public_url());
    let loopback = url.scheme() == "http" && matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    uri == public || loopback
}

fn redirect_with(uri: &str, params: &[(&str, &str)]) -> Response {
    let mut url = url::Url::parse(uri).expect("redirect uri was validated");
    url.query_pairs_mut().extend_pairs(params);
    Redirect::to(url.as_str()).into_response()
}

/// Whether `redirect_uri` may receive `client_id`'s codes: the web app's callback (`allowed_app_uri`),
/// or exactly one of the URIs a registered client gave.
async fn redirect_allowed(state: &AppState, client_id: &str, redirect_uri: &str) -> crate::error::Result<bool> {
    if client_id == state.config.auth.client_id {
        return Ok(allowed_app_uri(&state.config, redirect_uri, "/insights/callback"));
    }
    Ok(queries::client(&state.pool, client_id).await?.is_some_and(|client| client.redirect_uris.iter().any(|uri| uri == redirect_uri)))
}

/// Whether `client_id` is the web app or a registered client.
async fn known_client(state: &AppState, client_id: Option<&str>) -> crate::error::Result<bool> {
    Ok(match client_id {
        Some(id) if id == state.config.auth.client_id => true,
        Some(id) if id.len() <= 100 => queries::client(&state.pool, id).await?.is_some(),
        _ => false,
    })
}

/// Checks the request; on error either an error page (client or redirect uri not trusted: never
/// redirect there) or a redirect carrying the OAuth error.
async fn check_authorize(state: &AppState, params: &AuthorizeParams) -> crate::error::Result<Result<(String, String), Response>> {
    let page_error = |message: &str| (StatusCode::BAD_REQUEST, Html(page::error_page(message))).into_response();
    if !known_client(state, params.client_id.as_deref()).await? {
        return Ok(Err(page_error("Unknown client_id.")));
    }
    let client_id = params.client_id.as_deref().unwrap_or_default();
    let redirect_uri = match params.redirect_uri.as_deref() {
        Some(uri) if redirect_allowed(state, client_id, uri).await? => uri.to_owned(),
        _ => return Ok(Err(page_error("This redirect_uri is not registered for the client."))),
    };
    let state_param = params.state.as_deref().unwrap_or_default();
    let fail = |description: &str| {
        Ok(Err(redirect_with(&redirect_uri, &[("error", "invalid_request"), ("error_description", description), ("state", state_param)])))
    };
    if params.response_type.as_deref() != Some("code") {
        return fail("response_type must be code");
    }
    let challenge = match (params.code_challenge.as_deref(), params.code_challenge_method.as_deref()) {
        (Some(challenge), Some("S256")) if (43..=128).contains(&challenge.len()) => challenge.to_owned(),
        _ => return fail("PKCE with code_challenge_method S256 is required"),
    };
    Ok(Ok((redirect_uri, challenge)))
}

async fn authorize_page(State(state): State<AppState>, Query(params): Query<AuthorizeParams>) -> Result<Response, crate::http::HttpError> {
    Ok(match check_authorize(&state, &params).await? {
        Ok(_) => Html(page::authorize_page(&state.config, &params)).into_response(),
        Err(response) => response,
    })
}

#[derive(Debug, Deserialize)]
pub struct SignInForm {
    #[serde(flatten)]
    params: AuthorizeParams,
    /// A ready user's key, or absent for the custom form.
    ready_user: Option<String>,
    email: Option<String>,
    name: Option<String>,
    company: Option<String>,
    scopes: Option<String>,
    internal: Option<String>,
}

/// The claims the provider puts in tokens for a signed-in user.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UserClaims {
    pub email: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// The Insights scopes granted to the user (added to the token's `scope`).
    pub grants: Vec<String>,
}

impl UserClaims {
    /// NUL characters are dropped from the name and company: the grant is kept as jsonb, which
    /// cannot hold them (the API drops them from claims anyway).
    pub fn new(email: &str, name: &str, company: Option<&str>, grants: Vec<String>) -> Self {
        let without_nul = |text: &str| text.replace('\0', "");
        let (name, company) = (without_nul(name), company.map(without_nul));
        let mut parts = name.split_whitespace();
        let given_name = parts.next().map(str::to_owned);
        let family_name = Some(parts.collect::<Vec<_>>().join(" ")).filter(|s| !s.is_empty());
        UserClaims {
            email: email.trim().to_owned(),
            name: name.trim().to_owned(),
            given_name,
            family_name,
            company: company.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned),
            grants,
        }
    }
}

/// A stable subject per email, with the company directory's prefix for internal users.
pub fn subject_for(config: &Config, email: &str, internal: bool) -> String {
    let digest = Sha256::digest(email.trim().to_lowercase().as_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    let prefix = if internal { config.internal_id_prefix.as_str() } else { "dev|" };
    format!("{prefix}{hex}")
}

async fn authorize(State(state): State<AppState>, origin: Origin, Form(form): Form<SignInForm>) -> Result<Response, crate::http::HttpError> {
    let config = &state.config;
    let (redirect_uri, challenge) = match check_authorize(&state, &form.params).await? {
        Ok(checked) => checked,
        Err(response) => return Ok(response),
    };
    let (subject, claims) = match form.ready_user.as_deref() {
        Some(key) => {
            let Some(user) = READY_USERS.iter().find(|u| u.key == key) else {
                return Ok((StatusCode::BAD_REQUEST, Html(page::error_page("Unknown user."))).into_response());
            };
            let grants = user.scopes.iter().map(|s| s.to_string()).collect();
            (subject_for(config, user.email, user.internal), UserClaims::new(user.email, user.name, Some(user.company), grants))
        }
        None => {
            let email = form.email.as_deref().map(str::trim).unwrap_or_default();
            // An address the users table cannot hold would only fail at the API.
            let unstorable = email.chars().count() > claim_limits::EMAIL || email.chars().any(char::is_control);
            if !email.contains('@') || email.starts_with('@') || unstorable {
                let shown: String = email.chars().filter(|c| !c.is_control()).take(claim_limits::EMAIL).collect();
                record_sign_in(&state, &origin, "POST /oidc/authorize", Some(&shown), None, Err("Enter a valid email address.")).await?;
                let html = page::authorize_page_with_error(config, &form.params, "Enter a valid email address.");
                return Ok((StatusCode::BAD_REQUEST, Html(html)).into_response());
            }
            let name = form.name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or(email);
            let grants = form
                .scopes
                .as_deref()
                .unwrap_or_default()
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let internal = form.internal.is_some();
            (subject_for(config, email, internal), UserClaims::new(email, name, form.company.as_deref(), grants))
        }
    };

    let code = random_token();
    let grant = queries::Grant {
        client_id: form.params.client_id.clone().unwrap_or_default(),
        redirect_uri: redirect_uri.clone(),
        code_challenge: challenge,
        nonce: form.params.nonce.clone(),
        subject,
        scope: form.params.scope.clone().unwrap_or_else(|| "openid".to_owned()),
        claims: serde_json::to_value(&claims).map_err(anyhow::Error::from)?,
        expires_at: Utc::now() + chrono::Duration::seconds(CODE_TTL_SECS),
    };
    queries::insert_code(&state.pool, &hash(&code), &grant).await?;
    let state_param = form.params.state.unwrap_or_default();
    let issuer = config.issuer();
    Ok(redirect_with(&redirect_uri, &[("code", &code), ("state", &state_param), ("iss", &issuer)]))
}

#[derive(Debug, Deserialize)]
pub struct TokenRequest {
    grant_type: String,
    code: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
    code_verifier: Option<String>,
    refresh_token: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub id_token: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    pub token_type: String,
    pub expires_in: u64,
    pub scope: String,
}

fn oauth_error(error: &str, description: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({ "error": error, "error_description": description })),
    )
        .into_response()
}

/// Records a sign-in at the provider (`endpoint`: a code exchanged at the token endpoint), or its
/// refusal with the reason. (The web app's own sign-in, `updateUserFromToken`, is `sign-in`.)
async fn record_sign_in(
    state: &AppState,
    origin: &Origin,
    endpoint: &str,
    email: Option<&str>,
    subject: Option<&str>,
    outcome: std::result::Result<(), &str>,
) -> crate::error::Result<()> {
    let mut actor = Actor::of_request(&crate::auth::Auth::Anonymous, origin, endpoint);
    actor.email = email.map(str::to_owned);
    let change = match outcome {
        Ok(()) => serde_json::json!({ "outcome": "signed in" }),
        Err(reason) => serde_json::json!({ "outcome": "refused", "reason": reason }),
    };
    audit::queries::record(&state.pool, Some(&actor), None, subject.map(|_| "user"), subject, &change).await?;
    Ok(())
}

async fn token(State(state): State<AppState>, origin: Origin, Form(request): Form<TokenRequest>) -> Result<Response, crate::http::HttpError> {
    if !known_client(&state, request.client_id.as_deref()).await? {
        record_sign_in(&state, &origin, "POST /oidc/token", None, None, Err("unknown client_id")).await?;
        return Ok(oauth_error("invalid_client", "unknown client_id"));
    }
    let client_id = request.client_id.as_deref().unwrap_or_default();
    let now = Utc::now();
    let issued = match request.grant_type.as_str() {
        "authorization_code" => {
            let (Some(code), Some(verifier)) = (request.code.as_deref(), request.code_verifier.as_deref()) else {
                record_sign_in(&state, &origin, "POST /oidc/token", None, None, Err("code and code_verifier are required")).await?;
                return Ok(oauth_error("invalid_request", "code and code_verifier are required"));
            };
            let Some(grant) = queries::take_code(&state.pool, &hash(code)).await? else {
                record_sign_in(&state, &origin, "POST /oidc/token", None, None, Err("unknown or used code")).await?;
                return Ok(oauth_error("invalid_grant", "unknown or used code"));
            };
            let claims: UserClaims = serde_json::from_value(grant.claims).map_err(anyhow::Error::from)?;
            if grant.expires_at <= now
                || grant.client_id != client_id
                || request.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str())
                || URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) != grant.code_challenge
            {
                let reason = "the code, redirect_uri or code_verifier does not match";
                record_sign_in(&state, &origin, "POST /oidc/token", Some(&claims.email), Some(&grant.subject), Err(reason)).await?;
                return Ok(oauth_error("invalid_grant", reason));
            }
            record_sign_in(&state, &origin, "POST /oidc/token", Some(&claims.email), Some(&grant.subject), Ok(())).await?;
            issue_tokens(&state, client_id, &grant.subject, &grant.scope, &claims, grant.nonce.as_deref()).await?
        }
        "refresh_token" => {
            let Some(refresh_token) = request.refresh_token.as_deref() else {
                return Ok(oauth_error("invalid_request", "refresh_token is required"));
            };
            let Some(grant) = queries::take_refresh_token(&state.pool, &hash(refresh_token)).await? else {
                return Ok(oauth_error("invalid_grant", "unknown or used refresh token"));
            };
            if grant.expires_at <= now || grant.client_id != client_id {
                return Ok(oauth_error("invalid_grant", "refresh token expired"));
            }
            let claims: UserClaims = serde_json::from_value(grant.claims).map_err(anyhow::Error::from)?;
            issue_tokens(&state, client_id, &grant.subject, &grant.scope, &claims, None).await?
        }
        _ => return Ok(oauth_error("unsupported_grant_type", "use authorization_code or refresh_token")),
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(issued)).into_response())
}

/// Signs an access token (for the API), an id token (for `client_id`) and, when the client asked
/// for `offline_access`, a fresh refresh token.
pub async fn issue_tokens(
    state: &AppState,
    client_id: &str,
    subject: &str,
    requested_scope: &str,
    claims: &UserClaims,
    nonce: Option<&str>,
) -> anyhow::Result<TokenResponse> {
    let config = &state.config;
    let ttl = config.auth.access_token_ttl();
    let requested: Vec<&str> = requested_scope.split_whitespace().filter(|s| OIDC_SCOPES.contains(s)).collect();
    let scope = requested.iter().copied().chain(claims.grants.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let access_token = sign_access_token(state, subject, &scope, claims, ttl).await?;
    let id_token = sign(
        state,
        subject,
        client_id,
        ttl,
        serde_json::json!({
            "nonce": nonce, "email": claims.email, "email_verified": true, "name": claims.name,
            "given_name": claims.given_name, "family_name": claims.family_name, "company": claims.company,
            "auth_time": Utc::now().timestamp(),
        }),
    )
    .await?;
    let refresh_token = if requested.contains(&"offline_access") {
        let token = random_token();
        let grant = queries::RefreshGrant {
            client_id: client_id.to_owned(),
            subject: subject.to_owned(),
            scope: requested_scope.to_owned(),
            claims: serde_json::to_value(claims)?,
            expires_at: Utc::now() + chrono::Duration::from_std(config.auth.refresh_token_ttl())?,
        };
        queries::insert_refresh_token(&state.pool, &hash(&token), &grant).await?;
        Some(token)
    } else {
        None
    };
    Ok(TokenResponse { access_token, id_token, refresh_token, token_type: "Bearer".into(), expires_in: ttl.as_secs(), scope })
}

/// An access token for the API, as `issue_tokens` and `insights-cli token` make it.
pub async fn sign_access_token(
    state: &AppState,
    subject: &str,
    scope: &str,
    claims: &UserClaims,
    ttl: std::time::Duration,
) -> anyhow::Result<String> {
    sign(
        state,
        subject,
        &state.config.auth.audience,
        ttl,
        serde_json::json!({
            "scope": scope, "email": claims.email, "name": claims.name, "company": claims.company,
            "client_id": state.config.auth.client_id,
        }),
    )
    .await
}

async fn sign(
    state: &AppState,
    subject: &str,
    audience: &str,
    ttl: std::time::Duration,
    extra: serde_json::Value,
) -> anyhow::Result<String> {
    let key = keys::current(&state.pool).await?;
    let now = Utc::now().timestamp();
    let mut body = serde_json::json!({
        "iss": state.config.issuer(), "sub": subject, "aud": audience,
        "iat": now, "nbf": now, "exp": now + ttl.as_secs() as i64, "jti": crate::ids::new_id(),
    });
    let (serde_json::Value::Object(body_map), serde_json::Value::Object(extra)) = (&mut body, extra) else {
        unreachable!("both are objects")
    };
    body_map.extend(extra.into_iter().filter(|(_, v)| !v.is_null()));
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some(key.kid);
    Ok(jsonwebtoken::encode(&header, &body, &key.key)?)
}

#[derive(Debug, Deserialize)]
pub struct RevokeRequest {
    token: String,
    client_id: Option<String>,
}

/// Token revocation (RFC 7009), called by the web app's sign-out: the refresh token stops working.
/// 200 for any token (an unknown or already revoked one included, §2.2); access tokens are JWTs
/// and run out with their short lifetime.
async fn revoke(State(state): State<AppState>, Form(request): Form<RevokeRequest>) -> Result<Response, crate::http::HttpError> {
    let client_id = request.client_id.as_deref();
    if !known_client(&state, client_id).await? {
        return Ok(oauth_error("invalid_client", "unknown client_id"));
    }
    queries::revoke_refresh_token(&state.pool, &hash(&request.token), client_id.unwrap_or_default()).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], StatusCode::OK).into_response())
}

/// What a client asks to be registered as (RFC 7591): a public client (no secret) that signs readers
/// in with the authorization code and PKCE.
#[derive(Debug, Deserialize)]
pub struct Registration {
    #[serde(default)]
    redirect_uris: Vec<String>,
    client_name: Option<String>,
    token_endpoint_auth_method: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
}

const REDIRECT_URIS_MAX: usize = 10;

/// A redirect URI a registered client may use: https, or http on a loopback address (a native app's
/// local listener, RFC 8252), without a fragment.
fn registrable_redirect(uri: &str) -> bool {
    let Ok(url) = url::Url::parse(uri) else { return false };
    let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    url.fragment().is_none() && uri.len() <= 2000 && (url.scheme() == "https" || (url.scheme() == "http" && loopback))
}

fn registration_error(error: &str, description: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(serde_json::json!({ "error": error, "error_description": description }))).into_response()
}

/// `POST /oidc/register`: dynamic client registration for MCP clients (the MCP authorization spec).
async fn register(State(state): State<AppState>, Json(asked): Json<Registration>) -> Result<Response, crate::http::HttpError> {
    if asked.redirect_uris.is_empty() || asked.redirect_uris.len() > REDIRECT_URIS_MAX || !asked.redirect_uris.iter().all(|uri| registrable_redirect(uri)) {
        return Ok(registration_error("invalid_redirect_uri", "1 to 10 redirect URIs, each https or http on a loopback address"));
    }
    if asked.token_endpoint_auth_method.as_deref().is_some_and(|method| method != "none") {
        return Ok(registration_error("invalid_client_metadata", "only public clients (token_endpoint_auth_method none) are registered"));
    }
    let grants_ok = asked.grant_types.as_ref().is_none_or(|types| types.iter().all(|t| t == "authorization_code" || t == "refresh_token"));
    let responses_ok = asked.response_types.as_ref().is_none_or(|types| types.iter().all(|t| t == "code"));
    if !grants_ok || !responses_ok {
        return Ok(registration_error("invalid_client_metadata", "grant types authorization_code and refresh_token, response type code"));
    }
    let name = asked.client_name.as_deref().map(|name| name.chars().filter(|c| !c.is_control()).take(200).collect::<String>());
    let client_id = format!("mcp-{}", crate::ids::new_id());
    let client = queries::insert_client(&state.pool, &client_id, name.as_deref(), &asked.redirect_uris).await?;
    let body = serde_json::json!({
        "client_id": client.client_id,
        "client_id_issued_at": client.created_at.timestamp(),
        "client_name": client.client_name,
        "redirect_uris": client.redirect_uris,
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    Ok((StatusCode::CREATED, [(header::CACHE_CONTROL, "no-store")], Json(body)).into_response())
}

#[derive(Debug, Deserialize)]
pub struct LogoutParams {
    id_token_hint: Option<String>,
    post_logout_redirect_uri: Option<String>,
    state: Option<String>,
}

/// Ends the session: revokes the user's refresh tokens and returns to the web app's logged-out page.
async fn logout(State(state): State<AppState>, Query(params): Query<LogoutParams>) -> Result<Response, crate::http::HttpError> {
    if let Some(hint) = params.id_token_hint.as_deref() {
        // An expired id token still names who is signing out.
        if let Ok(claims) = state.tokens.validate_allowing_expired(hint, &state.config.auth.client_id).await {
            if let Some(subject) = claims.get("sub").and_then(|s| s.as_str()) {
                queries::revoke_refresh_tokens(&state.pool, subject).await?;
            }
        }
    }
    let fallback = format!("{}/insights/loggedout", state.config.public_url());
    let target = params
        .post_logout_redirect_uri
        .filter(|uri| allowed_app_uri(&state.config, uri, "/insights/loggedout"))
        .unwrap_or(fallback);
    Ok(match params.state {
        Some(s) => redirect_with(&target, &[("state", &s)]),
        None => Redirect::to(&target).into_response(),
    })
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Codes and refresh tokens are stored as hashes, so a database dump does not hand out sessions.
fn hash(secret: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::check_before_serving;
    use crate::config::Config;

    fn config(flags: &[&str]) -> Config {
        Config::from_flags(flags).expect("flags")
    }

    #[test]
    fn the_built_in_provider_serves_on_loopback_and_elsewhere_only_when_asked() {
        for allowed in [&["--listen", "127.0.0.1:8080"][..], &["--listen", "[::1]:8080"], &["--listen", "0.0.0.0:8080", "--dev-sign-in", "true"]] {
            assert!(check_before_serving(&config(allowed)).is_ok(), "{allowed:?}");
        }
        for refused in ["0.0.0.0:8080", "10.1.2.3:8080", "[::]:8080"] {
            let error = check_before_serving(&config(&["--listen", refused])).unwrap_err().to_string();
            assert!(error.contains("INSIGHTS_DEV_SIGN_IN=true") && error.contains(refused), "{error}");
        }
        let external = config(&["--listen", "0.0.0.0:8080", "--auth-issuer", "https://login.example"]);
        assert!(check_before_serving(&external).is_ok());
    }
}
