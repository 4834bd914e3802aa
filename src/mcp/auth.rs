//! Who calls `/mcp`: the bearer token of every request, checked as the API checks it (an OIDC
//! token or a personal access token). A caller with a role goes on, named in the request's
//! extensions (`Caller`, which the SDK hands the tools with the request). Without a valid token,
//! 401 with the `WWW-Authenticate` challenge the MCP authorization spec names (RFC 6750 with the
//! RFC 9728 `resource_metadata`), so that an MCP client finds where to sign in.

use axum::{
    extract::{Request, State},
    http::{HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{
    auth::{ALL_ROLES, Auth, Role, session},
    error::Error,
    http::HttpError,
    state::AppState,
};

/// The signed-in caller of an MCP request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: String,
    pub role: Role,
}

pub async fn authenticate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let authorization = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = match session::authenticate(&state, authorization).await {
        Ok(auth) => auth,
        Err(error) => return HttpError::from(error).into_response(),
    };
    let metadata = format!("{}/.well-known/oauth-protected-resource", state.config.public_url());
    let viewer = match &auth {
        Auth::Signed(viewer) => viewer,
        Auth::Anonymous => return challenge(StatusCode::UNAUTHORIZED, format!("Bearer resource_metadata=\"{metadata}\"")),
        Auth::Invalid => {
            return challenge(
                StatusCode::UNAUTHORIZED,
                format!(
                    "Bearer error=\"invalid_token\", error_description=\"The access token is invalid or has expired\", \
                     resource_metadata=\"{metadata}\""
                ),
            );
        }
    };
    match viewer.require(ALL_ROLES) {
        Ok(role) => {
            request.extensions_mut().insert(Caller { user_id: viewer.user.user_id.clone(), role });
            next.run(request).await
        }
        // Signed in, but no Insights role (or an expired trial): a token with more will not come
        // from signing in again.
        Err(error @ (Error::Forbidden | Error::TrialExpired)) => {
            let mut response = HttpError::from(error).into_response();
            let value = format!("Bearer error=\"insufficient_scope\", resource_metadata=\"{metadata}\"");
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_str(&value).expect("an ASCII challenge"));
            response
        }
        Err(error) => HttpError::from(error).into_response(),
    }
}

fn challenge(status: StatusCode, value: String) -> Response {
    let body = serde_json::json!({ "code": "UNAUTHENTICATED", "message": "Sign in: a bearer token is required" });
    let mut response = (status, axum::Json(body)).into_response();
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_str(&value).expect("an ASCII challenge"));
    response
}
