//! `/healthz` and failing gracefully (issue 15): while PostgreSQL cannot be reached, requests get
//! 503 with `Retry-After` and an UNAVAILABLE error (never INTERNAL) and the health check says why;
//! a draining server says so while it still serves.

use std::{sync::atomic::Ordering, time::Duration};

use reqwest::Response;
use serde_json::{Value, json};
use sqlx::{PgPool, postgres::PgPoolOptions};

use crate::support::{TestApp, TestRole};

/// An app whose database is a closed port: every connection attempt is refused.
async fn app_without_database() -> TestApp {
    let pool = PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(300))
        .connect_lazy("postgres://postgres@127.0.0.1:1/insights")
        .expect("a lazy pool");
    TestApp::spawn_unprepared(pool, &[]).await
}

/// A 503's `Retry-After` (whole seconds, at least 1) and body.
async fn unavailable(response: Response) -> Value {
    assert_eq!(response.status(), 503);
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry_after >= 1, "{retry_after}");
    response.json().await.unwrap()
}

async fn healthz(app: &TestApp) -> Response {
    app.client.get(app.url("/healthz")).send().await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_healthy_server_says_ok(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = healthz(&app).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({ "status": "ok", "database": "ok" }));
}

#[tokio::test]
async fn without_its_database_the_server_answers_503_and_says_why() {
    let app = app_without_database().await;
    let body = unavailable(healthz(&app).await).await;
    assert_eq!((&body["status"], &body["database"]), (&json!("unavailable"), &json!("unreachable")), "{body}");
    assert!(body["reason"].as_str().is_some_and(|reason| !reason.is_empty()), "{body}");

    // REST: `{code, message}`.
    let response = app.client.post(app.url("/unsubscribe")).json(&json!({ "data": "a.b" })).send().await.unwrap();
    let body = unavailable(response).await;
    assert_eq!(body["code"], "UNAVAILABLE", "{body}");
}

#[sqlx::test(migrations = "./migrations")]
async fn graphql_during_an_outage_is_unavailable_never_internal_nor_unauthenticated(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    // The token is good; the server cannot read its signing keys nor the user. The body has the
    // GraphQL shape, with UNAVAILABLE and when to retry.
    let down = app_without_database().await;
    let response =
        down.client.post(down.url("/graphql")).bearer_auth(&token).json(&json!({ "query": "{ me { _id } }" })).send().await.unwrap();
    let body = unavailable(response).await;
    let error = &body["errors"][0];
    assert_eq!(error["extensions"]["code"], "UNAVAILABLE", "{body}");
    assert!(error["extensions"]["retryAfter"].as_u64().is_some_and(|s| s >= 1), "{body}");
    assert_eq!(error["message"], "The database is unreachable; try again shortly");

    // A pool closed under a running server: the same, for queries that were fine a moment ago.
    let response = app.gql(Some(&token), "{ me { _id } }", json!({})).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    app.state.pool.close().await;
    let response =
        app.client.post(app.url("/graphql")).bearer_auth(&token).json(&json!({ "query": "{ me { _id } }" })).send().await.unwrap();
    let body = unavailable(response).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "UNAVAILABLE", "{body}");
    let body = unavailable(healthz(&app).await).await;
    assert_eq!(body["status"], "unavailable", "{body}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_draining_server_fails_its_health_check_but_still_serves(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    app.state.draining.store(true, Ordering::Relaxed);
    let response = healthz(&app).await;
    assert_eq!(response.status(), 503);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({ "status": "draining" }));
    // Requests are answered, and keep-alive clients are asked to reconnect elsewhere.
    let response = app.client.post(app.url("/version")).send().await.unwrap();
    assert_eq!((response.status().as_u16(), response.headers()["connection"].to_str().unwrap()), (200, "close"));
}
