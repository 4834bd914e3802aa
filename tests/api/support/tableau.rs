//! A fake Tableau server on a free port with the three REST calls the chart list makes, answering
//! in Tableau's JSON form: Sign In (checks the connected-app JWT claim by claim: HS256 signature
//! with the shared secret, header `kid` and `iss`, `iss`, `aud`, `exp` at most 10 minutes ahead, a
//! `jti` never seen before, REST scopes, the site), Query Views for Site (`filter=projectName:eq:…`,
//! pages) and Query View Preview Image (a PNG). It records every call.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
};

use axum::{
    Json, Router,
    extract::{Path, Query, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Value, json};
use sqlx::PgPool;

use super::{TestApp, uploads::PNG};

pub const API_VERSION: &str = "3.22";
pub const CLIENT_ID: &str = "0f3e5a1c-client";
pub const SECRET_ID: &str = "7b2d9e4f-secret";
pub const SECRET_VALUE: &str = "connected-app-secret-value-for-tests";
pub const SITE: &str = "research";
pub const SITE_ID: &str = "9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d";
pub const PROJECT: &str = "Insights Charts";

/// A view the fake holds.
#[derive(Debug, Clone)]
pub struct FakeView {
    pub id: &'static str,
    pub name: &'static str,
    pub workbook: &'static str,
    pub workbook_id: &'static str,
    pub project: &'static str,
}

/// Three views of the charts project (in no particular order) and one of another project.
pub fn default_views() -> Vec<FakeView> {
    vec![
        FakeView {
            id: "c3a1e2f0-0000-4000-8000-000000000003",
            name: "Oil Supply",
            workbook: "Energy",
            workbook_id: "wb-energy",
            project: PROJECT,
        },
        FakeView {
            id: "c3a1e2f0-0000-4000-8000-000000000001",
            name: "Gas Prices",
            workbook: "Energy",
            workbook_id: "wb-energy",
            project: PROJECT,
        },
        FakeView {
            id: "c3a1e2f0-0000-4000-8000-000000000002",
            name: "Metals Demand",
            workbook: "Metals",
            workbook_id: "wb-metals",
            project: PROJECT,
        },
        FakeView { id: "d4b2f3a1-0000-4000-8000-000000000009", name: "Payroll", workbook: "HR", workbook_id: "wb-hr", project: "Internal" },
    ]
}

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Call {
    /// `signin`, `views` or `previewImage`.
    pub kind: &'static str,
    pub query: HashMap<String, String>,
    /// The sign-in JWT's header and claims (sign-in only).
    pub jwt: Option<(Value, Value)>,
}

struct Inner {
    views: Vec<FakeView>,
    calls: Mutex<Vec<Call>>,
    /// Credentials token → the user it signed in.
    sessions: Mutex<HashMap<String, String>>,
    jtis: Mutex<HashSet<String>>,
}

#[derive(Clone)]
pub struct FakeTableau {
    pub base_url: String,
    inner: Arc<Inner>,
}

impl FakeTableau {
    pub async fn start() -> FakeTableau {
        FakeTableau::start_with(default_views()).await
    }

    pub async fn start_with(views: Vec<FakeView>) -> FakeTableau {
        let inner = Arc::new(Inner { views, calls: Mutex::default(), sessions: Mutex::default(), jtis: Mutex::default() });
        let api = format!("/api/{API_VERSION}");
        let router = Router::new()
            .route(&format!("{api}/auth/signin"), post(sign_in))
            .route(&format!("{api}/sites/{{site}}/views"), get(query_views))
            .route(&format!("{api}/sites/{{site}}/workbooks/{{workbook}}/views/{{view}}/previewImage"), get(preview_image))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a free port");
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeTableau { base_url, inner }
    }

    pub fn calls(&self) -> Vec<Call> {
        self.inner.calls.lock().unwrap().clone()
    }

    pub fn count(&self, kind: &str) -> usize {
        self.calls().iter().filter(|call| call.kind == kind).count()
    }

    /// Ends every session, as Tableau does when one times out.
    pub fn end_sessions(&self) {
        self.inner.sessions.lock().unwrap().clear();
    }

    /// The app's flags to use this fake.
    pub fn flags(&self) -> Vec<String> {
        flags_for(&self.base_url)
    }
}

/// The app's flags for a Tableau server at `base_url`.
pub fn flags_for(base_url: &str) -> Vec<String> {
    [
        ("--tableau-server-url", base_url),
        ("--tableau-site", SITE),
        ("--tableau-client-id", CLIENT_ID),
        ("--tableau-secret-id", SECRET_ID),
        ("--tableau-secret-value", SECRET_VALUE),
        ("--tableau-project", PROJECT),
        ("--tableau-api-version", API_VERSION),
    ]
    .iter()
    .flat_map(|(flag, value)| [flag.to_string(), value.to_string()])
    .collect()
}

/// The app configured for the fake, and the fake.
pub async fn spawn(pool: PgPool) -> (TestApp, FakeTableau) {
    let fake = FakeTableau::start().await;
    let flags = fake.flags();
    let app = TestApp::spawn_with(pool, &flags.iter().map(String::as_str).collect::<Vec<_>>()).await;
    (app, fake)
}

fn tableau_error(status: StatusCode, code: &str, summary: &str, detail: &str) -> Response {
    (status, Json(json!({ "error": { "summary": summary, "detail": detail, "code": code } }))).into_response()
}

/// Checks a connected-app JWT as Tableau does; the refusal's detail says which rule failed.
fn check_jwt(jwt: &str, inner: &Inner) -> Result<(Value, Value), String> {
    let header = jsonwebtoken::decode_header(jwt).map_err(|e| format!("header: {e}"))?;
    if header.alg != Algorithm::HS256 {
        return Err("alg".into());
    }
    if header.kid.as_deref() != Some(SECRET_ID) {
        return Err("kid".into());
    }
    if header.extras.get::<String>("iss").ok().flatten().as_deref().is_some_and(|iss| iss != CLIENT_ID) {
        return Err("header iss".into());
    }
    let mut validation = Validation::new(Algorithm::HS256);
    validation.set_audience(&["tableau"]);
    validation.set_issuer(&[CLIENT_ID]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.leeway = 0;
    let data = jsonwebtoken::decode::<Value>(jwt, &DecodingKey::from_secret(SECRET_VALUE.as_bytes()), &validation)
        .map_err(|e| format!("claims: {e}"))?;
    let claims = data.claims;
    let now = chrono::Utc::now().timestamp();
    if claims["exp"].as_i64().unwrap_or(i64::MAX) > now + 600 {
        return Err("exp more than 10 minutes ahead".into());
    }
    let jti = claims["jti"].as_str().ok_or("jti")?.to_owned();
    if !inner.jtis.lock().unwrap().insert(jti) {
        return Err("jti replayed".into());
    }
    let scopes: Vec<&str> = claims["scp"].as_array().ok_or("scp")?.iter().filter_map(Value::as_str).collect();
    if !scopes.contains(&"tableau:content:read") {
        return Err("scp".into());
    }
    Ok((serde_json::to_value(&header).unwrap(), claims))
}

async fn sign_in(State(inner): State<Arc<Inner>>, Json(body): Json<Value>) -> Response {
    let jwt = body["credentials"]["jwt"].as_str().unwrap_or_default();
    let checked = check_jwt(jwt, &inner);
    inner.calls.lock().unwrap().push(Call { kind: "signin", query: HashMap::new(), jwt: checked.clone().ok() });
    let (_, claims) = match checked {
        Ok(jwt) => jwt,
        Err(detail) => return tableau_error(StatusCode::UNAUTHORIZED, "401001", "Signin Error", &detail),
    };
    if body["credentials"]["site"]["contentUrl"] != SITE {
        return tableau_error(StatusCode::UNAUTHORIZED, "401001", "Signin Error", "unknown site");
    }
    let token = format!("credentials-{}", uuid::Uuid::new_v4());
    inner.sessions.lock().unwrap().insert(token.clone(), claims["sub"].as_str().unwrap_or_default().to_owned());
    Json(json!({
        "credentials": {
            "site": { "id": SITE_ID, "contentUrl": SITE },
            "user": { "id": "u-1" },
            "token": token,
            "estimatedTimeToExpiration": "239:59:00"
        }
    }))
    .into_response()
}

fn authorized(inner: &Inner, headers: &HeaderMap, site: &str) -> Option<Response> {
    let token = headers.get("x-tableau-auth").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !inner.sessions.lock().unwrap().contains_key(token) {
        return Some(tableau_error(
            StatusCode::UNAUTHORIZED,
            "401002",
            "Unauthorized Access",
            "Invalid authentication credentials were provided.",
        ));
    }
    (site != SITE_ID).then(|| tableau_error(StatusCode::NOT_FOUND, "404000", "Resource Not Found", "Site not found"))
}

async fn query_views(
    State(inner): State<Arc<Inner>>,
    Path(site): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    inner.calls.lock().unwrap().push(Call { kind: "views", query: query.clone(), jwt: None });
    if let Some(refusal) = authorized(&inner, &headers, &site) {
        return refusal;
    }
    if headers.get("accept").and_then(|v| v.to_str().ok()) != Some("application/json") {
        return (StatusCode::OK, "<tsResponse/>").into_response();
    }
    let project = query.get("filter").and_then(|filter| filter.strip_prefix("projectName:eq:"));
    let mut matching: Vec<&FakeView> = inner.views.iter().filter(|view| project.is_none_or(|p| view.project == p)).collect();
    if query.get("sort").map(String::as_str) == Some("name:asc") {
        matching.sort_by_key(|view| view.name);
    }
    let size: usize = query.get("pageSize").and_then(|s| s.parse().ok()).unwrap_or(100);
    let number: usize = query.get("pageNumber").and_then(|s| s.parse().ok()).unwrap_or(1);
    let page: Vec<Value> = matching
        .iter()
        .skip((number - 1) * size)
        .take(size)
        .map(|view| {
            let url_name = view.name.replace(' ', "");
            json!({
                "workbook": { "id": view.workbook_id }, "owner": { "id": "u-1" }, "project": { "id": "p-1" }, "tags": {},
                "id": view.id, "name": view.name, "contentUrl": format!("{}/sheets/{url_name}", view.workbook),
                "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z", "viewUrlName": url_name
            })
        })
        .collect();
    let views = if page.is_empty() { json!({}) } else { json!({ "view": page }) };
    Json(json!({
        "pagination": { "pageNumber": number.to_string(), "pageSize": size.to_string(), "totalAvailable": matching.len().to_string() },
        "views": views
    }))
    .into_response()
}

async fn preview_image(
    State(inner): State<Arc<Inner>>,
    Path((site, workbook, view)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    inner.calls.lock().unwrap().push(Call { kind: "previewImage", query: HashMap::from([("view".into(), view.clone())]), jwt: None });
    if let Some(refusal) = authorized(&inner, &headers, &site) {
        return refusal;
    }
    if !inner.views.iter().any(|v| v.id == view && v.workbook_id == workbook) {
        return tableau_error(StatusCode::NOT_FOUND, "404011", "Resource Not Found", "View not found");
    }
    ([("content-type", "image/png")], PNG).into_response()
}
