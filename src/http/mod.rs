//! The HTTP router: `/graphql`, the REST endpoints beside it, the built-in identity provider and the
//! built web app under `/insights`; request ids, structured request logs and limits.

mod client_log;
mod health;
pub mod limits;
mod request_ids;
mod web_app;

use std::time::Duration;

use async_graphql_axum::{GraphQLRequest, GraphQLResponse, rejection::GraphQLRejection};
use axum::{
    Extension, Json, Router,
    extract::{DefaultBodyLimit, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use tower_http::{limit::RequestBodyLimitLayer, set_header::SetResponseHeaderLayer, timeout::TimeoutLayer};

use crate::{
    auth::Auth,
    auth::{provider, session},
    graphql::{
        AppSchema, PARSE_FAILED, VALIDATION_FAILED,
        access::{self, Checked},
        build_schema,
    },
    state::AppState,
    taxonomy::shared_reads::is_shared_read,
    uploads,
};

use limits::Class;
pub use request_ids::RequestIds;

/// Builds the whole application, as `serve` runs it and as tests spawn it.
pub fn build_app(state: AppState) -> Router {
    let schema = build_schema(state.clone());
    limits::Limits::start_pruning(&state.limits);
    state.users.listen(state.pool.clone());
    let limited = |class| axum::middleware::from_fn_with_state((state.clone(), class), limits::enforce);
    let limits = &state.config.limits;
    // Uploads have their own, larger body limit; everything else the API's.
    let upload_limit = state.config.uploads.max_image_bytes + 64 * 1024;
    let file_limit = state.config.uploads.max_file_bytes + 64 * 1024;
    let uploads = Router::new()
        .route("/upload", post(uploads::upload))
        .layer(DefaultBodyLimit::max(upload_limit))
        .layer(RequestBodyLimitLayer::new(upload_limit))
        .merge(
            Router::new()
                .route("/upload-file", post(uploads::upload_file))
                .layer(DefaultBodyLimit::max(file_limit))
                .layer(RequestBodyLimitLayer::new(file_limit)),
        )
        .route_layer(limited(Class::Uploads));
    let api = Router::new()
        .route("/graphql", post(graphql).layer(limited(Class::GraphQl)))
        .route("/version", post(version))
        .route("/log", post(client_log::receive).layer(DefaultBodyLimit::max(client_log::BODY_MAX)).layer(limited(Class::ClientLog)))
        .route("/unsubscribe", post(crate::email::unsubscribe::handle).layer(limited(Class::Unsubscribe)))
        .route("/webhooks/stripe", post(crate::billing::webhook::handle))
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(RequestBodyLimitLayer::new(limits.max_body_bytes));
    let mut router = Router::new()
        .merge(api)
        .merge(uploads)
        .merge(crate::chat::router(&state))
        .merge(crate::mcp::routes(state.clone()))
        .route("/uploads/{name}", get(uploads::serve))
        .route("/contributor-profile-picture/{id}", get(crate::users::contributor_profile_picture))
        .route("/export/interests.csv", get(crate::interests::export::interests_csv))
        .route("/export/firms/{id}/readership.csv", get(crate::firms::export::readership_csv))
        .route("/export/audit.csv", get(crate::audit::export::audit_csv))
        .route("/export/reading-statement.csv", get(crate::reading::statement::statement_csv))
        .route("/feeds/{file}", get(crate::feeds::atom::feed))
        .route("/tableau/views/{id}/image", get(crate::tableau::view_image))
        .route("/healthz", get(health::healthz))
        .route("/", get(|| async { Redirect::permanent("/insights/") }))
        .merge(web_app::router(&state.config));
    if state.config.auth.uses_builtin_provider() {
        router = router.nest("/oidc", provider::router().route_layer(limited(Class::SignIn)));
    }
    router
        .layer(Extension(schema))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, Duration::from_secs(60)))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")))
        .layer(axum::middleware::from_fn_with_state(state.metrics.clone(), crate::metrics::track_http))
        .layer(axum::middleware::from_fn_with_state(state.clone(), health::close_when_draining))
        .layer(axum::middleware::from_fn(request_ids::request_ids))
        .with_state(state)
}

/// Documents longer than this are parsed and screened on a blocking thread, so that a large one
/// cannot hold a runtime worker (the web app's longest is 1.6 KB; kept ones are not parsed again).
const PARSED_INLINE_MAX: usize = 4 * 1024;

async fn graphql(
    State(state): State<AppState>,
    Extension(schema): Extension<AppSchema>,
    request: axum::extract::Request,
) -> Result<Response, HttpError> {
    let authorization = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let origin = crate::audit::Origin::of_request(&state, &request);
    let auth = match session::authenticate(&state, authorization.as_deref()).await {
        Ok(auth) => auth,
        Err(error) => return Ok(graphql_failure(error)),
    };
    // Without a valid token only the client configuration answers: a small body is enough.
    let limits = &state.config.limits;
    let body_max = if matches!(auth, Auth::Signed(_)) { limits.graphql_max_body_bytes } else { limits.graphql_anonymous_max_body_bytes };
    let request = match graphql_request(&state, request, body_max).await {
        Ok(request) => request,
        Err(response) => return Ok(response),
    };
    // Timed until the handler returns (shared reads and refusals included).
    let operation = state.metrics.graphql(&request);
    let fields_max = limits.graphql_max_fields;
    let (request, auth, checked) = if request.query.len() <= PARSED_INLINE_MAX {
        let checked = access::check(&request, &auth, &state.documents, fields_max);
        (request, auth, checked)
    } else {
        let documents = state.documents.clone();
        tokio::task::spawn_blocking(move || {
            let checked = access::check(&request, &auth, &documents, fields_max);
            (request, auth, checked)
        })
        .await
        .map_err(anyhow::Error::from)?
    };
    // Every resolver error carries one of our codes; the rest come from parsing or validation.
    let code = if matches!(checked, Checked::Unparsable(_)) { PARSE_FAILED } else { VALIDATION_FAILED };
    let mut response = match checked {
        Checked::Refused(error) | Checked::Unparsable(error) => async_graphql::Response::from_errors(vec![error]),
        Checked::Allowed(document) if is_shared_read(&document, request.operation_name.as_deref()) => {
            return shared_read(&state, &schema, parsed(request, document), auth, origin).await;
        }
        Checked::Allowed(document) => {
            let is_query = access::selected_operation(&document, request.operation_name.as_deref())
                .is_some_and(|operation| operation.ty == async_graphql::parser::types::OperationType::Query);
            if is_query {
                schema.execute(request_data(&state, parsed(request, document), auth, origin, true)).await
            } else {
                // A change: run as its caller on the audited pool, so the trail knows who made it.
                let action = access::root_fields(&document, request.operation_name.as_deref()).join("+");
                let actor = crate::audit::Actor::of_request(&auth, &origin, action);
                let request = request_data(&state.audited(), parsed(request, document), auth, origin, false);
                crate::audit::scoped(actor, schema.execute(request)).await
            }
        }
    };
    for error in &mut response.errors {
        let extensions = error.extensions.get_or_insert_with(Default::default);
        if extensions.get("code").is_none() {
            extensions.set("code", code);
        }
    }
    operation.errors(&response.errors);
    Ok(graphql_response(response))
}

/// The GraphQL request of the body, read up to `body_max` bytes: beyond, 413 without reading on.
async fn graphql_request(state: &AppState, request: axum::extract::Request, body_max: usize) -> Result<async_graphql::Request, Response> {
    use axum::extract::FromRequest;
    let (parts, body) = request.into_parts();
    let too_large = || graphql_rejection(GraphQLRejection(async_graphql::ParseRequestError::PayloadTooLarge));
    let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|length| length > body_max) {
        return Err(too_large());
    }
    let body = match axum::body::to_bytes(body, body_max).await {
        Ok(body) => body,
        Err(error) if std::error::Error::source(&error).is_some_and(|source| source.is::<http_body_util::LengthLimitError>()) => {
            return Err(too_large());
        }
        Err(error) => {
            let error = async_graphql::ParseRequestError::Io(std::io::Error::other(error));
            return Err(graphql_rejection(GraphQLRejection(error)));
        }
    };
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(body));
    match GraphQLRequest::<GraphQLRejection>::from_request(request, state).await {
        Ok(request) => Ok(request.into_inner()),
        Err(rejection) => Err(graphql_rejection(rejection)),
    }
}

/// A GraphQL response; when one of its errors passes by itself (the database unreachable:
/// `extensions.retryAfter`), HTTP 503 with `Retry-After`, so that clients, load balancers and
/// monitors see a temporary failure rather than a 200.
fn graphql_response(response: async_graphql::Response) -> Response {
    use async_graphql::Value;
    let retry_after = response.errors.iter().find_map(|error| {
        let extensions = error.extensions.as_ref()?;
        match (extensions.get("code"), extensions.get("retryAfter")) {
            (Some(Value::String(code)), Some(Value::Number(seconds))) if code == "UNAVAILABLE" => seconds.as_u64(),
            _ => None,
        }
    });
    let response = GraphQLResponse::from(response).into_response();
    match retry_after {
        Some(seconds) => limits::with_retry_after(StatusCode::SERVICE_UNAVAILABLE, seconds, response),
        None => response,
    }
}

/// An error before execution (the caller could not be resolved, the shared-read revision not
/// read), in the GraphQL shape.
fn graphql_failure(error: impl Into<crate::error::Error>) -> Response {
    use async_graphql::ErrorExtensions;
    let error = error.into().extend().into_server_error(Default::default());
    graphql_response(async_graphql::Response::from_errors(vec![error]))
}

/// The request with the document the access check parsed, so it is not parsed again.
fn parsed(mut request: async_graphql::Request, document: Box<async_graphql::parser::types::ExecutableDocument>) -> async_graphql::Request {
    request.set_parsed_query(*document);
    request
}

/// The request with its per-request data: the caller, and the request's scope (`kept::RequestScope`:
/// for a query, the values its fields share, each read once so that the fields agree; a mutation
/// reads them at each use, for its later fields must see what earlier ones wrote).
/// The state is the schema's, or for a change the audited one (`AppState::audited`): a request's
/// own data comes before the schema's.
fn request_data(state: &AppState, request: async_graphql::Request, auth: Auth, origin: crate::audit::Origin, is_query: bool) -> async_graphql::Request {
    let user_id = auth.viewer().ok().map(|viewer| viewer.user.user_id.clone());
    let request = if is_query { request } else { request.data(state.clone()) };
    request.data(auth).data(origin).data(crate::kept::RequestScope::new(state.clone(), user_id, is_query))
}

/// A shared topic read: answered from the serialised response of the current taxonomy revision,
/// or executed and kept when it succeeds. The revision is read first, so a kept response is
/// never newer than the revision it is filed under.
async fn shared_read(
    state: &AppState,
    schema: &AppSchema,
    request: async_graphql::Request,
    auth: Auth,
    origin: crate::audit::Origin,
) -> Result<Response, HttpError> {
    let key = serde_json::to_string(&(&request.query, &request.operation_name, &request.variables)).map_err(anyhow::Error::from)?;
    let revision = match crate::kept::revisions::of_topics(&state.pool).await {
        Ok(revision) => revision,
        Err(error) => return Ok(graphql_failure(error)),
    };
    if let Some(body) = state.kept.shared_topic_reads.find(&key, revision) {
        return Ok(json_body((*body).clone()));
    }
    let response = schema.execute(request_data(state, request, auth, origin, true)).await;
    if !response.errors.is_empty() {
        return Ok(graphql_response(response));
    }
    let body = bytes::Bytes::from(serde_json::to_vec(&response).map_err(anyhow::Error::from)?);
    state.kept.shared_topic_reads.keep(key, revision, std::sync::Arc::new(body.clone()));
    Ok(json_body(body))
}

fn json_body(body: bytes::Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A body that is not a GraphQL request gets a GraphQL-shaped error, so the client's error
/// handling has one format to read.
fn graphql_rejection(rejection: GraphQLRejection) -> Response {
    use async_graphql::ParseRequestError;
    let (status, message) = match rejection.0 {
        ParseRequestError::PayloadTooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "Request body is too large".to_owned()),
        other => (StatusCode::BAD_REQUEST, format!("Invalid GraphQL request: {other}")),
    };
    let body = serde_json::json!({
        "errors": [{ "message": message, "extensions": { "code": PARSE_FAILED } }]
    });
    (status, Json(body)).into_response()
}

async fn version() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "version": crate::config::build_version() }))
}

/// An error from a REST handler: the client sees the code and a safe message (with the field
/// messages of BAD_USER_INPUT), the log the details.
#[derive(Debug)]
pub struct HttpError(crate::error::Error, Option<StatusCode>);

impl<E: Into<crate::error::Error>> From<E> for HttpError {
    fn from(error: E) -> Self {
        HttpError(error.into(), None)
    }
}

impl HttpError {
    /// The same error with another HTTP status (e.g. 413 for a file over the limit).
    pub fn with_status(self, status: StatusCode) -> Self {
        HttpError(self.0, Some(status))
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        use crate::error::Error;
        let status = match &self.0 {
            Error::Unauthenticated => StatusCode::UNAUTHORIZED,
            Error::Forbidden | Error::TrialExpired => StatusCode::FORBIDDEN,
            Error::NotFound(_) | Error::ArticleNotFound => StatusCode::NOT_FOUND,
            Error::BadUserInput { .. } | Error::PublishGaps(_) => StatusCode::BAD_REQUEST,
            Error::Conflict(_) | Error::Duplicate { .. } => StatusCode::CONFLICT,
            Error::Unavailable(_) | Error::DatabaseUnreachable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(_) | Error::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let status = self.1.unwrap_or(status);
        self.0.log_if_internal();
        let mut body = serde_json::json!({ "code": self.0.code(), "message": self.0.message() });
        if let Error::BadUserInput { fields, .. } = &self.0 {
            body["fields"] = serde_json::json!(fields);
        }
        match self.0.retry_after() {
            Some(seconds) => limits::with_retry_after(status, seconds, Json(body)),
            None => (status, Json(body)).into_response(),
        }
    }
}
