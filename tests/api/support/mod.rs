//! Test support: `TestApp::spawn` runs the real application (the same `build_app` as `serve`) on a
//! free port against the test's own database, with helpers to mint tokens and send GraphQL.

pub mod clients;
pub mod external_issuer;
pub mod factories;
pub mod llm;
pub mod maildev;
pub mod s3;
#[path = "../../support/smtp_sink.rs"]
pub mod smtp_sink;
pub mod stripe;
pub mod tableau;
pub mod tokens;
pub mod uploads;

use std::net::SocketAddr;

use insights::{AppState, Config, http::build_app};
use serde_json::{Value, json};
use sqlx::PgPool;

pub use tokens::TestRole;

pub struct TestApp {
    pub address: String,
    pub state: AppState,
    pub pool: PgPool,
    pub client: reqwest::Client,
}

/// Flags every test app gets: no JWKS refresh cooldown, so key-rotation tests need no sleeps.
// Users are read every request: tests change them with SQL and read them back at once (the cache
// has its own tests, with it on).
const BASE_FLAGS: &[&str] = &["--auth-jwks-refresh-secs", "0", "--log-format", "pretty", "--auth-user-cache-secs", "0"];

impl TestApp {
    pub async fn spawn(pool: PgPool) -> TestApp {
        TestApp::spawn_with(pool, &[]).await
    }

    /// Spawns the app with extra configuration flags (e.g. `--auth-issuer URL`).
    pub async fn spawn_with(pool: PgPool, flags: &[&str]) -> TestApp {
        insights_jobs::setup(&pool).await.expect("job storage");
        TestApp::spawn_unprepared(pool, flags).await
    }

    /// Spawns the app on `pool` as it is, without preparing its job storage (e.g. a pool whose
    /// database cannot be reached).
    pub async fn spawn_unprepared(pool: PgPool, flags: &[&str]) -> TestApp {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a free port");
        let port = listener.local_addr().unwrap().port();
        let address = format!("http://127.0.0.1:{port}");
        let mut all: Vec<String> = Vec::new();
        // A flag the test gives replaces the base one (clap refuses a flag given twice).
        let base = [["--public-url", address.as_str()]].into_iter().chain(BASE_FLAGS.chunks(2).map(|pair| [pair[0], pair[1]]));
        for pair in base.filter(|pair| !flags.contains(&pair[0])) {
            all.extend(pair.iter().map(|s| s.to_string()));
        }
        all.extend(flags.iter().map(|s| s.to_string()));
        let config = Config::from_flags(all).expect("test config");
        insights::telemetry::init("pretty", &std::env::var("TEST_LOG").unwrap_or_else(|_| "warn,client=off".into()));
        let state = AppState::new(pool.clone(), config, insights_jobs::queue());
        let app = build_app(state.clone());
        tokio::spawn(async move {
            axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await.unwrap();
        });
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        TestApp { address, state, pool, client }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// Sends a GraphQL request and returns the JSON response (any HTTP status).
    pub async fn gql(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let mut request = self.client.post(self.url("/graphql")).json(&json!({ "query": query, "variables": variables }));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("send GraphQL").json().await.expect("GraphQL JSON")
    }

    /// A token of the built-in provider for a ready-made user of `role`.
    pub async fn token(&self, role: TestRole) -> String {
        tokens::for_role(&self.state, role).await
    }

    /// How many enqueued jobs (any state) are of `kind` (`JobRequest`'s snake_case tag).
    pub async fn jobs_like(&self, kind: &str) -> i64 {
        sqlx::query_scalar("select count(*) from apalis.jobs where convert_from(job, 'UTF8') like $1")
            .bind(format!("%{kind}%"))
            .fetch_one(&self.pool)
            .await
            .expect("count jobs")
    }
}

/// The `extensions.code` of the first error, if any.
pub fn error_code(response: &Value) -> Option<&str> {
    response["errors"][0]["extensions"]["code"].as_str()
}
