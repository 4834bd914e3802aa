//! Rate limits (issue 15): each class over its limit answers 429 with `Retry-After` and the error
//! contract's body (GraphQL-shaped on `/graphql`); another user or address keeps its own
//! allowance; a class set to `off` never limits. The chat's own limit is tested in chat.rs.

use std::net::{IpAddr, Ipv4Addr};

use reqwest::{Client, RequestBuilder, Response};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole};

const ME: &str = "query { me { _id } }";
const CATEGORIES: &str = "query { categoriesAsTree { _id } }";

/// A client whose connections come from `127.0.0.N` (all of 127/8 is loopback on Linux).
fn client_from(n: u8) -> Client {
    Client::builder().local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))).build().unwrap()
}

fn graphql(app: &TestApp, client: &Client, token: Option<&str>, query: &str) -> RequestBuilder {
    let request = client.post(app.url("/graphql")).json(&json!({ "query": query }));
    match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    }
}

/// The status of each of `n` sends of a request.
async fn statuses(n: usize, request: impl Fn() -> RequestBuilder) -> Vec<u16> {
    let mut statuses = Vec::new();
    for _ in 0..n {
        statuses.push(request().send().await.unwrap().status().as_u16());
    }
    statuses
}

/// A 429's `Retry-After` (checked to be whole seconds, at least 1) and its JSON body.
async fn refused(response: Response) -> (u64, Value) {
    assert_eq!(response.status(), 429);
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    (retry_after, response.json().await.unwrap())
}

/// REST refusals: `{code, message, retryAfter}`.
async fn refused_rest(response: Response) {
    let (retry_after, body) = refused(response).await;
    assert_eq!((body["code"].as_str(), body["retryAfter"].as_u64()), (Some("RATE_LIMITED"), Some(retry_after)), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains(&format!("{retry_after} s"))), "{body}");
}

#[sqlx::test(migrations = "./migrations")]
async fn graphql_is_limited_per_address(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-graphql-address", "3/minute"]).await;
    let (first, second) = (client_from(1), client_from(2));
    assert_eq!(statuses(3, || graphql(&app, &first, None, CATEGORIES)).await, [200; 3]);

    let (_, body) = refused(graphql(&app, &first, None, CATEGORIES).send().await.unwrap()).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "RATE_LIMITED", "{body}");
    assert!(body["errors"][0]["extensions"]["retryAfter"].as_u64().is_some(), "{body}");
    assert!(body["errors"][0]["message"].is_string() && body["data"].is_null(), "{body}");
    // Signing in does not escape an address's limit; another address has its own.
    let token = app.token(TestRole::Editor).await;
    assert_eq!(graphql(&app, &first, Some(&token), ME).send().await.unwrap().status(), 429);
    assert_eq!(statuses(3, || graphql(&app, &second, None, CATEGORIES)).await, [200; 3]);
    // Without a trusted proxy, X-Forwarded-For changes nothing.
    let spoofed = graphql(&app, &first, None, CATEGORIES).header("x-forwarded-for", "203.0.113.9");
    assert_eq!(spoofed.send().await.unwrap().status(), 429);
}

#[sqlx::test(migrations = "./migrations")]
async fn behind_a_trusted_proxy_the_forwarded_client_is_counted(pool: PgPool) {
    let flags = ["--rate-limit-graphql-address", "2/minute", "--trusted-proxies", "127.0.0.0/8"];
    let app = TestApp::spawn_with(pool, &flags).await;
    let client = client_from(1);
    let (app, client) = (&app, &client);
    let from = |ip: &'static str| move || graphql(app, client, None, CATEGORIES).header("x-forwarded-for", format!("{ip}, 127.0.0.5"));
    assert_eq!(statuses(3, from("203.0.113.1")).await, [200, 200, 429]);
    assert_eq!(statuses(2, from("203.0.113.2")).await, [200, 200]);
    // IPv6 clients count by their /64.
    assert_eq!(statuses(1, from("2001:db8::1")).await, [200]);
    assert_eq!(statuses(2, from("2001:db8::2")).await, [200, 429]);
}

#[sqlx::test(migrations = "./migrations")]
async fn graphql_is_limited_per_user(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-graphql-user", "2/minute"]).await;
    let (editor, admin) = (app.token(TestRole::Editor).await, app.token(TestRole::Administrator).await);
    let client = client_from(1);
    assert_eq!(statuses(2, || graphql(&app, &client, Some(&editor), ME)).await, [200, 200]);
    let (_, body) = refused(graphql(&app, &client, Some(&editor), ME).send().await.unwrap()).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "RATE_LIMITED", "{body}");
    // From another address too: the user is limited, not the connection.
    assert_eq!(graphql(&app, &client_from(2), Some(&editor), ME).send().await.unwrap().status(), 429);
    // Another user, and requests without a (valid) token, are not counted against the editor.
    assert_eq!(statuses(2, || graphql(&app, &client, Some(&admin), ME)).await, [200, 200]);
    assert_eq!(statuses(5, || graphql(&app, &client, None, CATEGORIES)).await, [200; 5]);
    assert_eq!(statuses(5, || graphql(&app, &client, Some("not-a-token"), CATEGORIES)).await, [200; 5]);
}

#[sqlx::test(migrations = "./migrations")]
async fn sign_in_and_token_requests_are_limited_per_address(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-sign-in", "2/minute"]).await;
    let token = |client: &Client| client.post(app.url("/oidc/token")).form(&[("grant_type", "authorization_code"), ("code", "nope")]);
    let (first, second) = (client_from(1), client_from(2));
    assert_eq!(statuses(2, || token(&first)).await, [400, 400]);
    refused_rest(token(&first).send().await.unwrap()).await;
    // The authorize POST shares the class; the pages and documents (GET) are not limited.
    refused_rest(first.post(app.url("/oidc/authorize")).form(&[("client_id", "x")]).send().await.unwrap()).await;
    assert_eq!(statuses(3, || first.get(app.url("/oidc/.well-known/openid-configuration"))).await, [200; 3]);
    assert_eq!(statuses(2, || token(&second)).await, [400, 400]);
}

#[sqlx::test(migrations = "./migrations")]
async fn uploads_are_limited_per_user(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-uploads", "1/minute"]).await;
    let (editor, admin) = (app.token(TestRole::Editor).await, app.token(TestRole::Administrator).await);
    let client = client_from(1);
    // Not a multipart body: refused by the handler, yet counted.
    let upload = |path: &str, token: &str| client.post(app.url(path)).bearer_auth(token).json(&json!({}));
    assert_eq!(upload("/upload", &editor).send().await.unwrap().status(), 400);
    refused_rest(upload("/upload", &editor).send().await.unwrap()).await;
    refused_rest(upload("/upload-file", &editor).send().await.unwrap()).await;
    assert_eq!(upload("/upload-file", &admin).send().await.unwrap().status(), 400);
}

#[sqlx::test(migrations = "./migrations")]
async fn unsubscribe_is_limited_per_address(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-unsubscribe", "2/minute"]).await;
    let unsubscribe = |client: &Client| client.post(app.url("/unsubscribe")).json(&json!({ "data": "forged.token" }));
    let (first, second) = (client_from(1), client_from(2));
    assert_eq!(statuses(2, || unsubscribe(&first)).await, [400, 400]);
    refused_rest(unsubscribe(&first).send().await.unwrap()).await;
    assert_eq!(unsubscribe(&second).send().await.unwrap().status(), 400);
}

#[sqlx::test(migrations = "./migrations")]
async fn client_log_batches_are_limited_per_address(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--rate-limit-client-log", "2/minute"]).await;
    let batch = json!({ "entries": [{ "level": "info", "message": "route changed" }] });
    let log = |client: &Client| client.post(app.url("/log")).json(&batch);
    let (first, second) = (client_from(1), client_from(2));
    assert_eq!(statuses(2, || log(&first)).await, [204, 204]);
    refused_rest(log(&first).send().await.unwrap()).await;
    assert_eq!(log(&second).send().await.unwrap().status(), 204);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_class_turned_off_never_limits(pool: PgPool) {
    // GraphQL is off by default; the others are turned off here.
    let flags = ["--rate-limit-sign-in", "off", "--rate-limit-unsubscribe", "0", "--rate-limit-uploads", "off"];
    let app = TestApp::spawn_with(pool, &flags).await;
    let token = app.token(TestRole::Editor).await;
    let client = client_from(1);
    assert!(statuses(60, || graphql(&app, &client, Some(&token), ME)).await.iter().all(|s| *s == 200));
    let sign_in = statuses(40, || client.post(app.url("/oidc/token")).form(&[("grant_type", "refresh_token")])).await;
    assert!(sign_in.iter().all(|s| *s == 400), "{sign_in:?}");
    let unsubscribe = statuses(40, || client.post(app.url("/unsubscribe")).json(&json!({ "data": "x" }))).await;
    assert!(unsubscribe.iter().all(|s| *s == 400), "{unsubscribe:?}");
    let uploads = statuses(40, || client.post(app.url("/upload")).bearer_auth(&token).json(&json!({}))).await;
    assert!(uploads.iter().all(|s| *s == 400), "{uploads:?}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_default_limits_leave_ordinary_use_alone(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    let client = client_from(1);
    assert!(statuses(200, || graphql(&app, &client, Some(&token), ME)).await.iter().all(|s| *s == 200));
    let sign_in = statuses(50, || client.post(app.url("/oidc/token")).form(&[("grant_type", "refresh_token")])).await;
    assert!(sign_in.iter().all(|s| *s == 400), "{sign_in:?}");
}
