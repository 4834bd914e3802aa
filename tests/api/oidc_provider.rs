//! The built-in OpenID Connect provider, driven like a browser and a standard client would.

use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::support::TestApp;

const VERIFIER: &str = "a-pkce-verifier-that-is-long-enough-to-be-valid-0123456789";

fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn authorize_params(app: &TestApp) -> Vec<(&'static str, String)> {
    vec![
        ("response_type", "code".into()),
        ("client_id", "insights-web".into()),
        ("redirect_uri", app.url("/insights/callback")),
        ("scope", "openid profile email offline_access".into()),
        ("state", "st4te".into()),
        ("nonce", "n0nce".into()),
        ("code_challenge", challenge(VERIFIER)),
        ("code_challenge_method", "S256".into()),
    ]
}

/// Submits the sign-in form and returns the authorization code from the redirect.
pub async fn authorize(app: &TestApp, choice: &[(&str, &str)]) -> String {
    let mut form: Vec<(String, String)> = authorize_params(app).into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    form.extend(choice.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let response = app.client.post(app.url("/oidc/authorize")).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 303, "{:?}", response.text().await);
    let location = url::Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    assert!(location.as_str().starts_with(&app.url("/insights/callback")));
    let query: std::collections::HashMap<_, _> = location.query_pairs().into_owned().collect();
    assert_eq!(query["state"], "st4te");
    query["code"].clone()
}

async fn exchange(app: &TestApp, code: &str, verifier: &str) -> reqwest::Response {
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", &app.url("/insights/callback")),
        ("client_id", "insights-web"),
        ("code_verifier", verifier),
    ];
    app.client.post(app.url("/oidc/token")).form(&form).send().await.unwrap()
}

/// The whole code + PKCE flow; returns the token response.
pub async fn code_flow(app: &TestApp, choice: &[(&str, &str)]) -> Value {
    let code = authorize(app, choice).await;
    let response = exchange(app, &code, VERIFIER).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

async fn refresh(app: &TestApp, refresh_token: &str) -> reqwest::Response {
    let form = [("grant_type", "refresh_token"), ("refresh_token", refresh_token), ("client_id", "insights-web")];
    app.client.post(app.url("/oidc/token")).form(&form).send().await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn discovery_names_the_endpoints(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let doc: Value = app.client.get(app.url("/oidc/.well-known/openid-configuration")).send().await.unwrap().json().await.unwrap();
    assert_eq!(doc["issuer"], app.url("/oidc"));
    assert_eq!(doc["authorization_endpoint"], app.url("/oidc/authorize"));
    assert_eq!(doc["token_endpoint"], app.url("/oidc/token"));
    assert_eq!(doc["jwks_uri"], app.url("/oidc/jwks"));
    assert_eq!(doc["end_session_endpoint"], app.url("/oidc/logout"));
    assert_eq!(doc["code_challenge_methods_supported"], json!(["S256"]));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_sign_in_page_offers_a_ready_user_per_role_and_a_custom_form(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.client.get(app.url("/oidc/authorize")).query(&authorize_params(&app)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let page = response.text().await.unwrap();
    for label in ["Administrator", "Editor", "Contributor", "Subscriber", "Trial subscriber", "No Insights access"] {
        assert!(page.contains(&format!("Sign in as {label}")), "{label}");
    }
    assert!(page.contains(r#"name="email""#) && page.contains(r#"name="scopes""#));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_code_flow_issues_tokens_the_api_accepts(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = code_flow(&app, &[("ready_user", "editor")]).await;
    assert_eq!(tokens["token_type"], "Bearer");
    assert!(tokens["refresh_token"].is_string(), "offline_access asked for a refresh token");
    let me = app.gql(tokens["access_token"].as_str(), "{ me { role email } }", json!({})).await;
    assert_eq!(me["data"]["me"]["role"], "Editor", "{me}");
    assert_eq!(me["data"]["me"]["email"], "erin.editor@insights.example");

    let payload = tokens["id_token"].as_str().unwrap().split('.').nth(1).unwrap();
    let id: Value = serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    assert_eq!(id["nonce"], "n0nce");
    assert_eq!(id["aud"], "insights-web");
}

#[sqlx::test(migrations = "./migrations")]
async fn custom_users_get_the_scopes_typed_on_the_form(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = code_flow(&app, &[("email", "pat@client.example"), ("name", "Pat Client"), ("company", "Acme"), ("scopes", "insights:content-edit intelligence")]).await;
    let me = app.gql(tokens["access_token"].as_str(), "{ me { role name company intelligence } }", json!({})).await;
    assert_eq!(me["data"]["me"], json!({ "role": "Contributor", "name": "Pat Client", "company": "Acme", "intelligence": true }));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_form_cuts_long_names_and_refuses_an_email_the_users_table_cannot_hold(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (name, company) = (format!("Pat\u{0} {}", "N".repeat(300)), "C".repeat(250));
    let tokens = code_flow(&app, &[("email", "pat@client.example"), ("name", &name), ("company", &company), ("scopes", "insights:content-reader")]).await;
    let me = app.gql(tokens["access_token"].as_str(), "{ me { name company } }", json!({})).await;
    assert_eq!(me["data"]["me"], json!({ "name": format!("Pat {}", "N".repeat(196)), "company": "C".repeat(200) }), "{me}");

    let long = format!("{}@client.example", "p".repeat(320));
    let mut form = authorize_params(&app);
    form.push(("email", long));
    let response = app.client.post(app.url("/oidc/authorize")).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().contains("Enter a valid email address."));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_code_needs_the_right_verifier_and_works_once(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let code = authorize(&app, &[("ready_user", "subscriber")]).await;
    let wrong = exchange(&app, &code, "another-verifier-of-sufficient-length-000000000000").await;
    assert_eq!(wrong.status(), 400);
    assert_eq!(wrong.json::<Value>().await.unwrap()["error"], "invalid_grant");

    // The failed attempt used the code up: codes are single-use, so guessing verifiers is pointless.
    assert_eq!(exchange(&app, &code, VERIFIER).await.status(), 400);

    let code = authorize(&app, &[("ready_user", "subscriber")]).await;
    assert_eq!(exchange(&app, &code, VERIFIER).await.status(), 200);
    let again = exchange(&app, &code, VERIFIER).await;
    assert_eq!(again.status(), 400);
}

#[sqlx::test(migrations = "./migrations")]
async fn refresh_tokens_renew_the_session_and_rotate(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = code_flow(&app, &[("ready_user", "contributor")]).await;
    let first = tokens["refresh_token"].as_str().unwrap();

    let renewed = refresh(&app, first).await;
    assert_eq!(renewed.status(), 200);
    let renewed: Value = renewed.json().await.unwrap();
    let me = app.gql(renewed["access_token"].as_str(), "{ me { role } }", json!({})).await;
    assert_eq!(me["data"]["me"]["role"], "Contributor");

    // The used refresh token is gone; the new one works.
    assert_eq!(refresh(&app, first).await.status(), 400);
    assert_eq!(refresh(&app, renewed["refresh_token"].as_str().unwrap()).await.status(), 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn refresh_tokens_are_revoked_at_the_revocation_endpoint_and_by_an_administrators_edit(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let doc: Value = app.client.get(app.url("/oidc/.well-known/openid-configuration")).send().await.unwrap().json().await.unwrap();
    assert_eq!(doc["revocation_endpoint"], app.url("/oidc/revoke"));
    let revoke = |token: String, client_id: &'static str| {
        app.client.post(app.url("/oidc/revoke")).form(&[("token", token.as_str()), ("token_type_hint", "refresh_token"), ("client_id", client_id)]).send()
    };

    // RFC 7009: the web app's sign-out revokes its refresh token; any token answers 200.
    let tokens = code_flow(&app, &[("ready_user", "subscriber")]).await;
    let refresh_token = tokens["refresh_token"].as_str().unwrap().to_owned();
    assert_eq!(revoke(refresh_token.clone(), "another-client").await.unwrap().status(), 400, "unknown client");
    assert_eq!(refresh(&app, &refresh_token).await.status(), 200, "a foreign client revoked nothing");
    let tokens = code_flow(&app, &[("ready_user", "subscriber")]).await;
    let refresh_token = tokens["refresh_token"].as_str().unwrap().to_owned();
    let revoked = revoke(refresh_token.clone(), "insights-web").await.unwrap();
    assert_eq!(revoked.status(), 200);
    assert_eq!(refresh(&app, &refresh_token).await.status(), 400, "revoked");
    assert_eq!(revoke(refresh_token, "insights-web").await.unwrap().status(), 200, "again: still 200");

    // An administrator's edit of a user ends that user's refresh tokens.
    let tokens = code_flow(&app, &[("ready_user", "contributor")]).await;
    let access = tokens["access_token"].as_str().unwrap();
    let id = app.user_id(access).await;
    let version = app.gql(Some(access), "{ me { version } }", json!({})).await["data"]["me"]["version"].clone();
    let admin = app.token(crate::support::TestRole::Administrator).await;
    let item = json!({ "_id": id, "version": version, "position": "Analyst", "displayAvatar": false, "tableauAccess": false });
    let edited = app.gql(Some(&admin), "mutation($item: UserInput!) { editUser(item: $item) { position } }", json!({ "item": item })).await;
    assert_eq!(edited["data"]["editUser"]["position"], "Analyst", "{edited}");
    assert_eq!(refresh(&app, tokens["refresh_token"].as_str().unwrap()).await.status(), 400, "revoked by the edit");
}

#[sqlx::test(migrations = "./migrations")]
async fn untrusted_clients_and_redirects_get_an_error_page_not_a_redirect(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    for (key, value) in [("redirect_uri", "https://evil.example/insights/callback"), ("client_id", "someone-else"), ("redirect_uri", "http://127.0.0.1:1/elsewhere")] {
        let mut params = authorize_params(&app);
        params.retain(|(k, _)| *k != key);
        params.push((key, value.to_owned()));
        let response = app.client.get(app.url("/oidc/authorize")).query(&params).send().await.unwrap();
        assert_eq!(response.status(), 400, "{key}={value}");
        assert!(response.headers().get("location").is_none());
    }
    // Without PKCE, the error goes back to the (trusted) client.
    let mut params = authorize_params(&app);
    params.retain(|(k, _)| !k.starts_with("code_challenge"));
    let response = app.client.get(app.url("/oidc/authorize")).query(&params).send().await.unwrap();
    assert_eq!(response.status(), 303);
    assert!(response.headers()["location"].to_str().unwrap().contains("error=invalid_request"));
}

#[sqlx::test(migrations = "./migrations")]
async fn logout_revokes_refresh_tokens_and_returns_to_the_logged_out_page(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = code_flow(&app, &[("ready_user", "subscriber")]).await;
    let response = app
        .client
        .get(app.url("/oidc/logout"))
        .query(&[("id_token_hint", tokens["id_token"].as_str().unwrap()), ("post_logout_redirect_uri", &app.url("/insights/loggedout"))])
        .send()
        .await
        .unwrap();
    assert!(response.status().is_redirection());
    assert_eq!(response.headers()["location"], app.url("/insights/loggedout").as_str());
    assert_eq!(refresh(&app, tokens["refresh_token"].as_str().unwrap()).await.status(), 400);

    // A foreign post-logout address is ignored.
    let response = app.client.get(app.url("/oidc/logout")).query(&[("post_logout_redirect_uri", "https://evil.example/")]).send().await.unwrap();
    assert_eq!(response.headers()["location"], app.url("/insights/loggedout").as_str());
}

#[sqlx::test(migrations = "./migrations")]
async fn the_signing_key_is_generated_once_and_stored(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let first: Value = app.client.get(app.url("/oidc/jwks")).send().await.unwrap().json().await.unwrap();
    let second: Value = app.client.get(app.url("/oidc/jwks")).send().await.unwrap().json().await.unwrap();
    assert_eq!(first, second);
    assert_eq!(first["keys"].as_array().unwrap().len(), 1);
    assert!(first["keys"][0].get("d").is_none(), "the private part is never published");
    let stored: i64 = sqlx::query_scalar("select count(*) from oidc_signing_key").fetch_one(&app.pool).await.unwrap();
    assert_eq!(stored, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_web_app_on_another_origin_may_read_discovery_and_exchange_codes(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/oidc/token"))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    let discovery = app.client.get(app.url("/oidc/.well-known/openid-configuration")).header("origin", "http://localhost:5173").send().await.unwrap();
    assert_eq!(discovery.headers()["access-control-allow-origin"], "*");
}

/// A fresh database's first sign-ins arrive together: they make one signing key between them, not
/// one each (a token signed with a key the validator had not read yet was refused: seen in the
/// browser tests' first spec).
#[sqlx::test(migrations = "./migrations")]
async fn concurrent_first_uses_make_one_signing_key(pool: PgPool) {
    let uses = (0..8).map(|_| insights::auth::provider::keys::current(&pool));
    let kids: Vec<String> = futures_util::future::try_join_all(uses).await.unwrap().into_iter().map(|key| key.kid).collect();
    assert!(kids.iter().all(|kid| *kid == kids[0]), "{kids:?}");
    let stored: i64 = sqlx::query_scalar("select count(*) from oidc_signing_key").fetch_one(&pool).await.unwrap();
    assert_eq!(stored, 1);
}

/// An MCP client as the MCP authorization spec has it: from the resource's metadata to the issuer's
/// discovery, registered dynamically (RFC 7591), a reader signed in with the code and PKCE on its
/// loopback redirect, then the MCP server called with the token.
#[sqlx::test(migrations = "./migrations")]
async fn an_mcp_client_registers_itself_signs_a_reader_in_and_reaches_the_mcp_server(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let get = async |url: String| -> Value { app.client.get(url).send().await.unwrap().json().await.unwrap() };
    let resource = get(app.url("/.well-known/oauth-protected-resource")).await;
    let issuer = resource["authorization_servers"][0].as_str().unwrap().to_owned();
    assert_eq!(issuer, app.state.config.issuer());
    let discovery = get(app.url("/oidc/.well-known/openid-configuration")).await;
    assert_eq!(discovery["registration_endpoint"], format!("{issuer}/register"));
    assert_eq!(discovery["code_challenge_methods_supported"], json!(["S256"]));

    // Registration: a loopback or https redirect, a public client.
    let register = |body: Value| app.client.post(app.url("/oidc/register")).json(&body).send();
    let refused = register(json!({ "redirect_uris": ["http://attacker.example/cb"], "client_name": "Bad" })).await.unwrap();
    assert_eq!(refused.status(), 400);
    let refused = register(json!({ "redirect_uris": ["http://127.0.0.1:33418/callback"], "token_endpoint_auth_method": "client_secret_basic" })).await.unwrap();
    assert_eq!(refused.status(), 400);
    let callback = "http://127.0.0.1:33418/callback";
    let registered = register(json!({ "redirect_uris": [callback], "client_name": "Claude", "token_endpoint_auth_method": "none",
                                       "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"] }))
        .await
        .unwrap();
    assert_eq!(registered.status(), 201);
    let client: Value = registered.json().await.unwrap();
    let client_id = client["client_id"].as_str().unwrap().to_owned();
    assert_eq!(client["redirect_uris"], json!([callback]));

    // The sign-in: only to the registered redirect.
    let params = |redirect: &str| {
        vec![
            ("response_type", "code".to_owned()),
            ("client_id", client_id.clone()),
            ("redirect_uri", redirect.to_owned()),
            ("scope", "openid profile email offline_access".to_owned()),
            ("state", "st4te".to_owned()),
            ("code_challenge", challenge(VERIFIER)),
            ("code_challenge_method", "S256".to_owned()),
            ("ready_user", "subscriber".to_owned()),
        ]
    };
    let elsewhere = app.client.post(app.url("/oidc/authorize")).form(&params("http://127.0.0.1:9/other")).send().await.unwrap();
    assert_eq!(elsewhere.status(), 400, "an unregistered redirect gets the error page, not the code");
    let signed_in = app.client.post(app.url("/oidc/authorize")).form(&params(callback)).send().await.unwrap();
    assert_eq!(signed_in.status(), 303);
    let location = url::Url::parse(signed_in.headers()["location"].to_str().unwrap()).unwrap();
    assert!(location.as_str().starts_with(callback), "{location}");
    let code = location.query_pairs().find(|(k, _)| k == "code").map(|(_, v)| v.into_owned()).unwrap();
    let exchange = |client: String| {
        let form = [("grant_type", "authorization_code"), ("code", code.as_str()), ("redirect_uri", callback), ("client_id", &client), ("code_verifier", VERIFIER)];
        app.client.post(app.url("/oidc/token")).form(&form).send()
    };
    // The code is the registered client's only.
    assert_eq!(exchange("insights-web".to_owned()).await.unwrap().status(), 400);
    let signed_in = app.client.post(app.url("/oidc/authorize")).form(&params(callback)).send().await.unwrap();
    let location = url::Url::parse(signed_in.headers()["location"].to_str().unwrap()).unwrap();
    let code = location.query_pairs().find(|(k, _)| k == "code").map(|(_, v)| v.into_owned()).unwrap();
    let form = [("grant_type", "authorization_code"), ("code", code.as_str()), ("redirect_uri", callback), ("client_id", &client_id), ("code_verifier", VERIFIER)];
    let tokens: Value = app.client.post(app.url("/oidc/token")).form(&form).send().await.unwrap().json().await.unwrap();
    let access = tokens["access_token"].as_str().unwrap_or_else(|| panic!("{tokens}")).to_owned();
    assert!(tokens["refresh_token"].is_string());

    // The MCP server takes the token.
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "Claude", "version": "1" } } });
    let answer = app
        .client
        .post(app.url("/mcp"))
        .bearer_auth(&access)
        .header("accept", "application/json, text/event-stream")
        .json(&initialize)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert!(answer.text().await.unwrap().contains("\"serverInfo\":{\"name\":\"insights\""));
}
