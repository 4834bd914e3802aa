//! The API contract of DESIGN.md §6: error codes, request ids, limits, `config`, `/version`, `/log`
//! and `/healthz`; malformed requests never stop the server.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

async fn still_serving(app: &TestApp) {
    let token = app.token(TestRole::Subscriber).await;
    let response = app.gql(Some(&token), "{ me { role } }", json!({})).await;
    assert_eq!(response["data"]["me"]["role"], "Subscriber", "the server keeps serving: {response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn invalid_json_is_a_400_with_a_code(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.client.post(app.url("/graphql")).header("content-type", "application/json").body("{\"query\": ").send().await.unwrap();
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(error_code(&body), Some("GRAPHQL_PARSE_FAILED"));
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn a_body_over_the_limit_is_a_413(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let big = format!(r#"{{"query": "{{ config {{ version }} }}", "variables": {{"pad": "{}"}}}}"#, "x".repeat(9 * 1024 * 1024));
    let response = app.client.post(app.url("/graphql")).header("content-type", "application/json").body(big.clone()).send().await.unwrap();
    assert_eq!(response.status(), 413);
    let response = app.client.post(app.url("/log")).header("content-type", "application/json").body(big).send().await.unwrap();
    assert_eq!(response.status(), 413);
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn a_query_nested_too_deep_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    // 50 levels through the introspection types, which nest without end.
    let mut query = String::from("name");
    for _ in 0..50 {
        query = format!("ofType {{ {query} }}");
    }
    let query = format!("{{ __type(name: \"User\") {{ fields {{ type {{ {query} }} }} }} }}");
    let response = app.gql(None, &query, json!({})).await;
    assert_eq!(error_code(&response), Some("GRAPHQL_VALIDATION_FAILED"), "{response}");
    assert!(response["errors"][0]["message"].as_str().unwrap().contains("nested too deep"), "{response}");
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_fields_and_syntax_errors_have_codes(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    let unknown = app.gql(Some(&token), "{ me { shoeSize } }", json!({})).await;
    assert_eq!(error_code(&unknown), Some("GRAPHQL_VALIDATION_FAILED"), "{unknown}");
    assert!(unknown["errors"][0]["message"].as_str().unwrap().contains("shoeSize"));
    let syntax = app.gql(Some(&token), "{ me { ", json!({})).await;
    assert_eq!(error_code(&syntax), Some("GRAPHQL_PARSE_FAILED"), "{syntax}");
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn request_and_session_ids_are_echoed_or_generated(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app
        .client
        .post(app.url("/graphql"))
        .header("x-request-id", "req-123")
        .header("x-session-id", "sess-456")
        .json(&json!({ "query": "{ config { version } }" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "req-123");
    assert_eq!(response.headers()["x-session-id"], "sess-456");

    let response = app.client.post(app.url("/graphql")).json(&json!({ "query": "{ config { version } }" })).send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"].len(), 36, "a generated uuid");
    // A header that could forge log lines is replaced.
    let response = app.client.post(app.url("/version")).header("x-request-id", "bad id\"}").send().await.unwrap();
    assert_ne!(response.headers()["x-request-id"], "bad id\"}");
}

#[sqlx::test(migrations = "./migrations")]
async fn config_needs_no_sign_in_and_describes_the_client_settings(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--feature-intelligence", "true", "--trial-days", "10", "--profile-landing-url", ""]).await;
    let query = "{ config { version profileLandingUrl auth { authority clientId scope builtInProvider } features { premiumChannels premiumFeatures cardPayments intelligence } constants { trialLengthDays trialMinDays trialMaxDays expiryBannerDays autosaveIntervalMs idleTimeoutMs versionPollMs logBatchSize logBatchMax logBatchTimeoutMs pageSizes defaultPageSize treePageSize } } }";
    let response = app.gql(None, query, json!({})).await;
    let config = &response["data"]["config"];
    assert_eq!(config["auth"]["authority"], app.url("/oidc"));
    assert_eq!(config["profileLandingUrl"], Value::Null, "an empty setting means no redirect");
    assert_eq!(config["auth"]["builtInProvider"], true);
    assert_eq!(config["features"]["intelligence"], true);
    assert_eq!(config["features"]["premiumChannels"], true);
    assert_eq!(config["constants"]["trialLengthDays"], 10);
    assert_eq!(config["constants"]["trialMinDays"], 1);
    assert_eq!(config["constants"]["trialMaxDays"], 100);
    assert_eq!(config["constants"]["expiryBannerDays"], 7);
    assert_eq!(config["constants"]["idleTimeoutMs"], 1_200_000);
    assert_eq!(config["constants"]["versionPollMs"], 300_000);
    assert_eq!(config["constants"]["logBatchSize"], 10);
    assert_eq!(config["constants"]["logBatchMax"], 100);
    assert_eq!(config["constants"]["logBatchTimeoutMs"], 2000);
    assert_eq!(config["constants"]["pageSizes"], json!([15, 30, 50, 100, 200]));
    assert_eq!(config["version"], insights::config::build_version());
}

#[sqlx::test(migrations = "./migrations")]
async fn trial_days_outside_the_bounds_are_refused(pool: PgPool) {
    drop(pool);
    for days in ["0", "101"] {
        assert!(insights::Config::from_flags(["--trial-days", days]).is_err(), "{days}");
    }
    assert!(insights::Config::from_flags(["--trial-days", "100"]).is_ok());
}

#[sqlx::test(migrations = "./migrations")]
async fn version_and_health_answer(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let version: Value = app.client.post(app.url("/version")).send().await.unwrap().json().await.unwrap();
    assert_eq!(version["version"], insights::config::build_version());
    let health = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.json::<Value>().await.unwrap()["database"], "ok");
}

#[sqlx::test(migrations = "./migrations")]
async fn health_reports_an_unreachable_database(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    app.pool.close().await;
    let health = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 503);
}

#[sqlx::test(migrations = "./migrations")]
async fn client_log_batches_of_1_to_100_entries_are_accepted(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let entry = json!({ "level": "error", "message": "Cannot connect to server", "timestamp": "2026-11-21T10:00:00Z", "context": { "route": "/for-you" } });
    let post = |body: Value| app.client.post(app.url("/log")).json(&body).send();

    assert_eq!(post(json!({ "entries": [entry] })).await.unwrap().status(), 204);
    assert_eq!(post(json!({ "entries": vec![entry.clone(); 100] })).await.unwrap().status(), 204);
    assert_eq!(post(json!({ "entries": vec![entry.clone(); 101] })).await.unwrap().status(), 400);
    assert_eq!(post(json!({ "entries": [] })).await.unwrap().status(), 400);
    assert_eq!(post(json!({ "entries": [{ "level": "shout", "message": "x" }] })).await.unwrap().status(), 400);
    assert_eq!(post(json!({ "entries": [{ "level": "info" }] })).await.unwrap().status(), 400);
    assert_eq!(post(json!([entry])).await.unwrap().status(), 400);
    let garbage = app.client.post(app.url("/log")).header("content-type", "application/json").body("nope").send().await.unwrap();
    assert_eq!(garbage.status(), 400);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_policy_names_the_configured_stripe_js_and_tableau_hosts(pool: PgPool) {
    let flags = [
        "--feature-card-payments", "true", "--stripe-secret-key", "sk_test_x", "--stripe-publishable-key", "pk_test_x",
        "--stripe-webhook-secret", "whsec_x", "--stripe-js-url", "https://js.stripe.com/v3",
        "--tableau-server-url", "https://tableau.example.com", "--tableau-site", "research", "--tableau-client-id", "c",
        "--tableau-secret-id", "s", "--tableau-secret-value", "v",
    ];
    let app = TestApp::spawn_with(pool, &flags).await;
    let page = app.client.get(app.url("/insights/")).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.contains("script-src 'self' https://js.stripe.com https://tableau.example.com;"), "{policy}");
    assert!(policy.contains("https://api.stripe.com"), "{policy}");
    assert!(policy.contains("https://player.vimeo.com"), "an article's embedded player may load: {policy}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_policy_lets_the_browser_reach_an_external_identity_provider(pool: PgPool) {
    let flags = ["--auth-issuer", "https://login.example.com/realms/insights", "--auth-audience", "insights", "--auth-client-id", "web"];
    let app = TestApp::spawn_with(pool, &flags).await;
    let page = app.client.get(app.url("/insights/")).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let connect = policy.split(';').find(|d| d.trim_start().starts_with("connect-src")).unwrap();
    assert!(connect.contains("https://login.example.com"), "{policy}");
}

#[test]
fn the_production_build_publishes_no_source_maps() {
    let config = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/vite.config.ts")).unwrap();
    assert!(config.contains("sourcemap: false"), "web/vite.config.ts");
    let assets = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/web/dist/assets"));
    for entry in std::fs::read_dir(assets).into_iter().flatten().flatten() {
        assert!(!entry.file_name().to_string_lossy().ends_with(".map"), "{:?} is published", entry.path());
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn ids_of_the_wrong_shape_are_not_found_not_errors(pool: PgPool) {
    drop(pool);
    assert!(!insights::ids::is_valid_id("../../etc/passwd"));
    assert!(insights::ids::is_valid_id(&insights::ids::new_id()));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_web_app_routes_fall_back_to_index_html(pool: PgPool) {
    let dir = std::env::temp_dir().join(format!("insights-web-{}", insights::ids::new_id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>Insights</title>").unwrap();
    std::fs::write(dir.join("assets/app-abc123.js"), "console.log(1)").unwrap();
    let app = TestApp::spawn_with(pool, &["--web-dir", dir.to_str().unwrap()]).await;

    for path in ["/insights/", "/insights/for-you"] {
        let page = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(page.text().await.unwrap().contains("<title>Insights</title>"), "{path}");
    }
    let page = app.client.get(app.url("/insights/publisher/articles")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-cache");
    assert!(page.text().await.unwrap().contains("<title>Insights</title>"));

    let asset = app.client.get(app.url("/insights/assets/app-abc123.js")).send().await.unwrap();
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(asset.headers()["x-content-type-options"], "nosniff");
    assert!(asset.headers()["content-type"].to_str().unwrap().contains("javascript"));

    // Gzipped for clients that accept it.
    std::fs::write(dir.join("assets/big-abc123.js"), "console.log('insights');\n".repeat(200)).unwrap();
    let gzipped = app.client.get(app.url("/insights/assets/big-abc123.js")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    assert!(gzipped.bytes().await.unwrap().len() < 1000);

    let missing = app.client.get(app.url("/insights/assets/gone-123.js")).send().await.unwrap();
    assert_eq!(missing.headers()["cache-control"], "no-cache");

    let root = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(root.headers()["location"], "/insights/");

    // The HTML carries the policy; without Stripe or Tableau configured, scripts only from here.
    let page = app.client.get(app.url("/insights/for-you")).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap();
    for directive in ["script-src 'self';", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"] {
        assert!(policy.contains(directive), "{directive} in {policy}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn errors_the_user_can_act_on_are_flagged_as_warnings(pool: PgPool) {
    // Spec 1 §8: "Errors flagged as warnings are logged as warnings; others are logged as errors".
    let app = TestApp::spawn(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let edit = "mutation($item: TagInput!) { editTag(item: $item) { version } }";
    let id = app.add_tag(&editor, "Earnings").await;
    app.add_tag(&editor, "Dividends").await;
    let edited =
        app.gql(Some(&editor), edit, json!({ "item": { "_id": id, "name": "Earnings season", "description": "d", "version": 1 } })).await;
    assert_eq!(edited["errors"], Value::Null, "{edited}");
    let flag = |response: &Value| response["errors"][0]["extensions"]["warning"].clone();

    let stale = app.gql(Some(&editor), edit, json!({ "item": { "_id": id, "name": "Stale", "description": "d", "version": 1 } })).await;
    assert_eq!((error_code(&stale), flag(&stale)), (Some("CONFLICT"), json!(true)), "{stale}");
    let blank = app.gql(Some(&editor), edit, json!({ "item": { "_id": id, "name": " ", "description": "d", "version": 2 } })).await;
    assert_eq!((error_code(&blank), flag(&blank)), (Some("BAD_USER_INPUT"), json!(true)), "{blank}");
    let clash = app.gql(Some(&editor), edit, json!({ "item": { "_id": id, "name": "dividends", "description": "d", "version": 2 } })).await;
    assert_eq!((error_code(&clash), flag(&clash)), (Some("DUPLICATE"), json!(true)), "{clash}");

    // Errors the user cannot act on stay errors: no flag.
    let missing = app
        .gql(Some(&editor), edit, json!({ "item": { "_id": insights::ids::new_id(), "name": "X", "description": "d", "version": 1 } }))
        .await;
    assert_eq!((error_code(&missing), flag(&missing)), (Some("NOT_FOUND"), Value::Null), "{missing}");
    let reader = app.token(TestRole::Subscriber).await;
    let forbidden = app.gql(Some(&reader), edit, json!({ "item": { "_id": id, "name": "X", "description": "d", "version": 2 } })).await;
    assert_eq!((error_code(&forbidden), flag(&forbidden)), (Some("FORBIDDEN"), Value::Null), "{forbidden}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_favicon_answers_at_the_root_and_the_app_links_its_icon(pool: PgPool) {
    // Whether or not the web app is built: an empty web directory.
    let dir = std::env::temp_dir().join(format!("insights-web-{}", insights::ids::new_id()));
    std::fs::create_dir_all(&dir).unwrap();
    let app = TestApp::spawn_with(pool, &["--web-dir", dir.to_str().unwrap()]).await;
    let icon = app.client.get(app.url("/favicon.ico")).send().await.unwrap();
    assert_eq!(icon.status(), 200);
    assert_eq!(icon.headers()["content-type"], "image/x-icon");
    assert_eq!(icon.headers()["cache-control"], "public, max-age=86400");
    let body = icon.bytes().await.unwrap();
    assert_eq!(&body[..4], &[0, 0, 1, 0], "an ICO file");
    assert!(body.len() > 100);
    std::fs::remove_dir_all(dir).ok();

    // The web app names its icons, which the build copies beside index.html.
    let index = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/index.html")).unwrap();
    assert!(index.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml" />"#), "{index}");
    let svg = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/public/favicon.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
}

/// An anonymous document of `levels` fragments, each spreading the next four times, ending in
/// `__typename`: 4^levels fields once expanded, in about 50 bytes a level.
fn fragment_fan_out(levels: usize) -> String {
    let mut document = String::from("query { ...F0 }");
    for level in 0..levels {
        let next = format!(" ...F{}", level + 1);
        document.push_str(&format!(" fragment F{level} on Query {{{} }}", next.repeat(4)));
    }
    document.push_str(&format!(" fragment F{levels} on Query {{ __typename }}"));
    document
}

/// Sends `query` without a token; the response's JSON and how long it took.
async fn timed_anonymous(app: &TestApp, query: &str) -> (Value, std::time::Duration) {
    let started = std::time::Instant::now();
    let response = app.client.post(app.url("/graphql")).json(&json!({ "query": query })).send().await.unwrap();
    let body = response.json().await.unwrap();
    (body, started.elapsed())
}

#[sqlx::test(migrations = "./migrations")]
async fn a_fragment_fan_out_is_refused_at_once_and_the_server_keeps_answering(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let document = fragment_fan_out(10);
    assert!(document.len() < 600, "{}", document.len());
    // `/healthz` reads the database: its first answer also opens a connection.
    assert_eq!(app.client.get(app.url("/healthz")).send().await.unwrap().status(), 200);
    let health = async {
        let started = std::time::Instant::now();
        let status = app.client.get(app.url("/healthz")).send().await.unwrap().status();
        (status, started.elapsed())
    };
    let ((first, first_took), (second, second_took), (health, health_took)) =
        tokio::join!(timed_anonymous(&app, &document), timed_anonymous(&app, &document), health);
    for (response, took) in [(&first, first_took), (&second, second_took)] {
        assert_eq!(error_code(response), Some("GRAPHQL_VALIDATION_FAILED"), "{response}");
        assert!(response["errors"][0]["message"].as_str().unwrap().contains("fragment"), "{response}");
        assert!(took < std::time::Duration::from_millis(100), "refused in {took:?}");
    }
    assert_eq!(health, 200);
    // It reads the database, slower while the other tests run; today's main took seconds.
    assert!(health_took < std::time::Duration::from_millis(500), "/healthz answered in {health_took:?}");
    // A fragment that spreads itself is refused before anything walks it.
    let (cycle, _) = timed_anonymous(&app, "query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }").await;
    assert_eq!(error_code(&cycle), Some("GRAPHQL_VALIDATION_FAILED"), "{cycle}");
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn typename_counts_like_any_field_against_the_field_bound(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Subscriber).await;
    let many = format!("{{ {} }}", "__typename ".repeat(2001));
    let response = app.gql(Some(&token), &many, json!({})).await;
    assert_eq!(error_code(&response), Some("GRAPHQL_VALIDATION_FAILED"), "{response}");
    assert!(response["errors"][0]["message"].as_str().unwrap().contains("2000"), "{response}");
    let enough = format!("{{ {} }}", "__typename ".repeat(2000));
    let response = app.gql(Some(&token), &enough, json!({})).await;
    assert_eq!(response["data"]["__typename"], "Query", "{response}");
}

/// Posts a GraphQL body (with a token or none): its status and how long the answer took.
async fn timed_post(app: &TestApp, token: Option<&str>, body: &Value) -> (u16, std::time::Duration) {
    let body = serde_json::to_vec(body).unwrap();
    let started = std::time::Instant::now();
    let mut request = app.client.post(app.url("/graphql")).header("content-type", "application/json").body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    response.bytes().await.unwrap();
    (status, started.elapsed())
}

#[sqlx::test(migrations = "./migrations")]
async fn big_bodies_are_refused_at_once_and_harder_without_a_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    let fast = std::time::Duration::from_millis(500);
    // 7.5 MB of comments, and 200,000 `__typename` (2.2 MB), sent without a token.
    let comments = json!({ "query": format!("{{ __typename }}\n{}", "# comment\n".repeat(750_000)) });
    let typenames = json!({ "query": format!("{{ {} }}", "__typename ".repeat(200_000)) });
    for body in [&comments, &typenames] {
        let (status, took) = timed_post(&app, None, body).await;
        assert_eq!(status, 413);
        assert!(took < fast, "refused in {took:?}");
    }
    // Signed in, the same 2.2 MB is read, and refused before it is parsed: long values go in variables.
    let (status, took) = timed_post(&app, Some(&token), &typenames).await;
    assert!(status == 200 && took < fast, "{status} in {took:?}");
    let refused = app.gql(Some(&token), &format!("{{ {} }}", "__typename ".repeat(200_000)), json!({})).await;
    assert_eq!(error_code(&refused), Some("GRAPHQL_VALIDATION_FAILED"), "{refused}");
    assert!(refused["errors"][0]["message"].as_str().unwrap().contains("variables"), "{refused}");

    // What the web app sends signed in (an article's HTML: 100 KB here) passes; without a token, 413.
    let article = json!({ "query": "query($html: String) { __typename }", "variables": { "html": "<p>tonnage</p>".repeat(7_500) } });
    assert_eq!(timed_post(&app, Some(&token), &article).await.0, 200);
    assert_eq!(timed_post(&app, None, &article).await.0, 413);
    // The anonymous documents the web app sends pass.
    let config = app.gql(None, "query ClientConfig { config { version } }", json!({})).await;
    assert!(config["data"]["config"]["version"].is_string(), "{config}");
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn a_protected_root_field_twenty_fragments_deep_is_refused_by_the_access_walk(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut query = String::from("query { config { version } ...F0 }");
    for level in 0..20 {
        query.push_str(&format!(" fragment F{level} on Query {{ ...F{} }}", level + 1));
    }
    query.push_str(" fragment F20 on Query { me { _id } }");
    let response = app.gql(None, &query, json!({})).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"), "{response}");
    // The walk refuses the whole request (no `config`), naming the field without a location; a
    // resolver's refusal would come with `config` answered and the field's location.
    assert_eq!(response["data"], Value::Null, "{response}");
    assert_eq!(response["errors"][0]["path"], json!(["me"]), "{response}");
    assert_eq!(response["errors"][0]["locations"], Value::Null, "{response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn nul_characters_in_text_are_bad_user_input(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let nul = "cop\u{0}per";
    let refused = |response: &Value, field: &str| {
        assert_eq!(error_code(response), Some("BAD_USER_INPUT"), "{response}");
        assert_eq!(response["errors"][0]["extensions"]["fields"][field], "Text cannot contain the NUL character", "{response}");
    };
    let search = "query($q: String) { searchArticles(params: { searchQuery: $q }) { totalCount } }";
    refused(&app.gql(Some(&editor), search, json!({ "q": nul })).await, "q");
    let tag = json!({ "item": { "name": nul, "description": "Metals" } });
    refused(&app.gql(Some(&editor), crate::support::factories::ADD_TAG, tag).await, "item");
    let topic = json!({ "item": { "name": nul, "description": "Metals", "parent": null } });
    refused(&app.gql(Some(&editor), crate::support::factories::ADD_CATEGORY, topic).await, "item");
    let article = "mutation($item: ArticleInput!) { addArticle(item: $item) { _id } }";
    refused(&app.gql(Some(&editor), article, json!({ "item": { "title": nul } })).await, "item");
    let csv = "query($c: ID!, $csv: String) { checkEmails(channelId: $c, csv: $csv) { unmatched } }";
    refused(&app.gql(Some(&editor), csv, json!({ "c": insights::ids::new_id(), "csv": "email\r\nann\u{0}@x.example\r\n" })).await, "csv");
    // In the document's own text too, named by its argument.
    refused(&app.gql(Some(&editor), r#"mutation { addTag(item: {name: "a\u0000", description: "b"}) { _id } }"#, json!({})).await, "item");
    // Whatever reaches PostgreSQL by another path is BAD_USER_INPUT, not INTERNAL.
    let stored = sqlx::query("select $1::text").bind(nul).execute(&app.pool).await.unwrap_err();
    assert_eq!(insights::error::Error::from(stored).code(), "BAD_USER_INPUT");
    let json_nul = sqlx::query("select $1::jsonb").bind(r#"{"a": "\u0000"}"#).execute(&app.pool).await.unwrap_err();
    assert_eq!(insights::error::Error::from(json_nul).code(), "BAD_USER_INPUT");
    still_serving(&app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn client_log_bodies_are_bounded(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let post = |body: Value| app.client.post(app.url("/log")).json(&body).send();
    // A full batch of long entries passes (each is cut to 4,000 characters in the log).
    let long = json!({ "level": "error", "message": "x".repeat(2000), "context": { "stack": "y".repeat(400) } });
    assert_eq!(post(json!({ "entries": vec![long; 100] })).await.unwrap().status(), 204);
    // One anonymous 1 MB message does not.
    let huge = json!({ "entries": [{ "level": "error", "message": "x".repeat(1024 * 1024) }] });
    let started = std::time::Instant::now();
    assert_eq!(post(huge).await.unwrap().status(), 413);
    assert!(started.elapsed() < std::time::Duration::from_millis(500), "{:?}", started.elapsed());
}
