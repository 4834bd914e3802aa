//! Embedded Tableau charts: the Connected App token claim by claim, the chart list from a fake
//! Tableau server (project filter, titles, paths, images served through our server), caching,
//! tableauAccess, and what happens when Tableau is not configured or not there.

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    tableau::{self, CLIENT_ID, FakeTableau, PROJECT, SECRET_ID, SECRET_VALUE},
    uploads::PNG,
};

const TOKEN: &str = "{ getTableauToken { token expiresAt } }";
const CHARTS: &str = "{ getTableauCharts { id title path image } }";
const CONFIG: &str = "{ config { tableau { serverUrl site embeddingScriptUrl } } }";

/// A token for `role`'s user, who has tableauAccess when `access`.
async fn user(app: &TestApp, role: TestRole, access: bool) -> String {
    let token = app.token(role).await;
    let me = app.gql(Some(&token), "{ me { _id } }", json!({})).await;
    assert_eq!(me["errors"], Value::Null, "{me}");
    sqlx::query("update users set tableau_access = $2 where email = $1").bind(role.email()).bind(access).execute(&app.pool).await.unwrap();
    token
}

async fn image(app: &TestApp, token: Option<&str>, path: &str) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

async fn spawn_with_flags(pool: PgPool, flags: Vec<String>) -> TestApp {
    TestApp::spawn_with(pool, &flags.iter().map(String::as_str).collect::<Vec<_>>()).await
}

#[sqlx::test(migrations = "./migrations")]
async fn the_embed_token_is_a_connected_app_direct_trust_jwt(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let editor = user(&app, TestRole::Editor, true).await;

    let first = app.gql(Some(&editor), TOKEN, json!({})).await;
    assert_eq!(first["errors"], Value::Null, "{first}");
    let token = first["data"]["getTableauToken"]["token"].as_str().unwrap();

    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!(header.alg, Algorithm::HS256);
    assert_eq!(header.kid.as_deref(), Some(SECRET_ID));
    assert_eq!(header.extras.get::<String>("iss").unwrap().as_deref(), Some(CLIENT_ID));

    // Signed with the connected app's secret value, for Tableau, by the connected app.
    let mut validation = Validation::new(Algorithm::HS256);
    validation.set_audience(&["tableau"]);
    validation.set_issuer(&[CLIENT_ID]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<Value>(token, &DecodingKey::from_secret(SECRET_VALUE.as_bytes()), &validation).unwrap().claims;
    assert!(jsonwebtoken::decode::<Value>(token, &DecodingKey::from_secret(b"another secret"), &validation).is_err());
    assert_eq!(claims["iss"], CLIENT_ID);
    assert_eq!(claims["sub"], TestRole::Editor.email());
    assert_eq!(claims["aud"], "tableau");
    assert_eq!(claims["scp"], json!(["tableau:views:embed"]));
    let now = chrono::Utc::now().timestamp();
    let exp = claims["exp"].as_i64().unwrap();
    assert!(exp > now + 60 && exp <= now + 600, "exp {exp} is at most 10 minutes ahead of {now}");
    let expires_at = chrono::DateTime::parse_from_rfc3339(first["data"]["getTableauToken"]["expiresAt"].as_str().unwrap()).unwrap();
    assert_eq!(expires_at.timestamp(), exp);
    let jti = claims["jti"].as_str().unwrap();
    assert!(uuid::Uuid::parse_str(jti).is_ok(), "{jti}");

    let second = app.gql(Some(&editor), TOKEN, json!({})).await;
    let second =
        jsonwebtoken::dangerous::insecure_decode::<Value>(second["data"]["getTableauToken"]["token"].as_str().unwrap()).unwrap().claims;
    assert_ne!(second["jti"], claims["jti"], "every token has its own id");

    // Signing a token needs no call to Tableau.
    assert!(fake.calls().is_empty());
}

#[sqlx::test(migrations = "./migrations")]
async fn the_tableau_username_can_be_mapped_to_another_domain(pool: PgPool) {
    let fake = FakeTableau::start().await;
    let mut flags = fake.flags();
    flags.extend(["--tableau-username-domain".to_owned(), "tableau.example".to_owned()]);
    let app = spawn_with_flags(pool, flags).await;
    let reader = user(&app, TestRole::Subscriber, true).await;

    let response = app.gql(Some(&reader), TOKEN, json!({})).await;
    let claims =
        jsonwebtoken::dangerous::insecure_decode::<Value>(response["data"]["getTableauToken"]["token"].as_str().unwrap()).unwrap().claims;
    assert_eq!(claims["sub"], "subscriber@tableau.example");

    // The REST sign-in is made as the same Tableau user.
    app.gql(Some(&reader), CHARTS, json!({})).await;
    let sign_in = fake.calls().into_iter().find(|call| call.kind == "signin").unwrap();
    assert_eq!(sign_in.jwt.unwrap().1["sub"], "subscriber@tableau.example");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_users_with_tableau_access_get_tokens_charts_and_images(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let editor = user(&app, TestRole::Editor, false).await;
    let admin = user(&app, TestRole::Administrator, false).await;

    for token in [&editor, &admin] {
        for query in [TOKEN, CHARTS] {
            let response = app.gql(Some(token), query, json!({})).await;
            assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");
        }
    }
    let response = app.gql(None, TOKEN, json!({})).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"));

    let path = format!("/tableau/views/{}/image", tableau::default_views()[0].id);
    assert_eq!(image(&app, Some(&editor), &path).await.status(), 403);
    assert_eq!(image(&app, None, &path).await.status(), 401);
    assert!(fake.calls().is_empty(), "nothing reaches Tableau for them");
}

#[sqlx::test(migrations = "./migrations")]
async fn without_configuration_the_chart_features_are_hidden(pool: PgPool) {
    // A server URL without the connected app is not a configuration either.
    let app = TestApp::spawn_with(pool, &["--tableau-server-url", "http://127.0.0.1:9", "--tableau-client-id", CLIENT_ID]).await;
    let editor = user(&app, TestRole::Editor, true).await;

    let config = app.gql(None, CONFIG, json!({})).await;
    assert_eq!(config["data"]["config"]["tableau"], Value::Null, "{config}");
    for query in [TOKEN, CHARTS] {
        let response = app.gql(Some(&editor), query, json!({})).await;
        assert_eq!(error_code(&response), Some("UNAVAILABLE"), "{response}");
        assert_eq!(response["errors"][0]["message"], "Embedded charts are not configured.");
    }
    assert_eq!(image(&app, Some(&editor), "/tableau/views/c3a1e2f0-0000-4000-8000-000000000001/image").await.status(), 503);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_client_configuration_says_where_charts_come_from(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let config = app.gql(None, CONFIG, json!({})).await;
    assert_eq!(
        config["data"]["config"]["tableau"],
        json!({
            "serverUrl": fake.base_url,
            "site": tableau::SITE,
            "embeddingScriptUrl": format!("{}/javascripts/api/tableau.embedding.3.latest.min.js", fake.base_url),
        })
    );
    assert!(!config.to_string().contains(SECRET_VALUE));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_chart_list_is_the_projects_views_by_title(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let contributor = user(&app, TestRole::Contributor, true).await;

    let response = app.gql(Some(&contributor), CHARTS, json!({})).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    let view = |n: usize| tableau::default_views()[n].id;
    assert_eq!(
        response["data"]["getTableauCharts"],
        json!([
            { "id": view(1), "title": "Gas Prices", "path": "Energy/GasPrices", "image": format!("/tableau/views/{}/image", view(1)) },
            { "id": view(2), "title": "Metals Demand", "path": "Metals/MetalsDemand", "image": format!("/tableau/views/{}/image", view(2)) },
            { "id": view(0), "title": "Oil Supply", "path": "Energy/OilSupply", "image": format!("/tableau/views/{}/image", view(0)) },
        ])
    );

    // Signed in with a connected-app JWT for the user and REST scopes, then asked for the project's views.
    let calls = fake.calls();
    let (header, claims) = calls[0].jwt.clone().expect("the sign-in JWT passed the fake's checks");
    assert_eq!(header["kid"], SECRET_ID);
    assert_eq!(claims["sub"], TestRole::Contributor.email());
    assert!(claims["scp"].as_array().unwrap().contains(&json!("tableau:content:read")));
    assert_eq!(calls[1].kind, "views");
    assert_eq!(calls[1].query["filter"], format!("projectName:eq:{PROJECT}"));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_the_session_and_images_are_reused_for_a_few_minutes(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let editor = user(&app, TestRole::Editor, true).await;
    let path = format!("/tableau/views/{}/image", tableau::default_views()[1].id);

    let first = app.gql(Some(&editor), CHARTS, json!({})).await;
    let second = app.gql(Some(&editor), CHARTS, json!({})).await;
    assert_eq!(first, second);
    assert_eq!((fake.count("signin"), fake.count("views")), (1, 1), "the second list came from the cache");

    assert_eq!(image(&app, Some(&editor), &path).await.status(), 200);
    assert_eq!(image(&app, Some(&editor), &path).await.status(), 200);
    assert_eq!(fake.count("previewImage"), 1, "the second image came from the cache");
    assert_eq!(fake.count("signin"), 1, "the image used the kept session");

    // Another user signs in as themself (Tableau applies their permissions).
    let admin = user(&app, TestRole::Administrator, true).await;
    app.gql(Some(&admin), CHARTS, json!({})).await;
    assert_eq!((fake.count("signin"), fake.count("views")), (2, 2));
}

#[sqlx::test(migrations = "./migrations")]
async fn images_are_served_through_our_server_for_the_projects_views_only(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let reader = user(&app, TestRole::Subscriber, true).await;
    let views = tableau::default_views();

    let response = image(&app, Some(&reader), &format!("/tableau/views/{}/image", views[2].id)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    assert!(response.headers()["cache-control"].to_str().unwrap().starts_with("private"));
    assert_eq!(response.bytes().await.unwrap().as_ref(), PNG);

    // A view of another project, an unknown id and a malformed one are no charts of ours.
    for id in [views[3].id, "c3a1e2f0-0000-4000-8000-0000000000ff", "..%2F..%2Fauth"] {
        let response = image(&app, Some(&reader), &format!("/tableau/views/{id}/image")).await;
        assert_eq!(response.status(), 404, "{id}");
    }
    assert_eq!(fake.count("previewImage"), 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_session_tableau_ended_is_replaced(pool: PgPool) {
    let (app, fake) = tableau::spawn(pool).await;
    let editor = user(&app, TestRole::Editor, true).await;
    app.gql(Some(&editor), CHARTS, json!({})).await;

    fake.end_sessions();
    let response = image(&app, Some(&editor), &format!("/tableau/views/{}/image", tableau::default_views()[0].id)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(fake.count("signin"), 2);
}

#[sqlx::test(migrations = "./migrations")]
async fn tableau_down_or_refusing_gives_a_clear_error_without_secrets(pool: PgPool) {
    // A port nothing listens on.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let app = spawn_with_flags(pool.clone(), tableau::flags_for(&address)).await;
    let editor = user(&app, TestRole::Editor, true).await;

    let response = app.gql(Some(&editor), CHARTS, json!({})).await;
    assert_eq!(error_code(&response), Some("UNAVAILABLE"), "{response}");
    assert_eq!(response["errors"][0]["message"], "Tableau is not available at the moment. Please try again later.");
    assert!(!response.to_string().contains(SECRET_VALUE));
    let response = image(&app, Some(&editor), &format!("/tableau/views/{}/image", tableau::default_views()[0].id)).await;
    assert_eq!(response.status(), 503);
    // The embed token needs no call to Tableau.
    let response = app.gql(Some(&editor), TOKEN, json!({})).await;
    assert_eq!(response["errors"], Value::Null, "{response}");

    // A connected app Tableau does not know (wrong secret): the sign-in is refused.
    let fake = FakeTableau::start().await;
    let mut flags = fake.flags();
    let secret = flags.iter().position(|flag| flag == "--tableau-secret-value").unwrap();
    flags[secret + 1] = "not-the-secret".into();
    let app = spawn_with_flags(pool, flags).await;
    let editor = user(&app, TestRole::Editor, true).await;
    let response = app.gql(Some(&editor), CHARTS, json!({})).await;
    assert_eq!(error_code(&response), Some("UNAVAILABLE"), "{response}");
    assert_eq!(response["errors"][0]["message"], "Tableau refused to sign you in. Ask an administrator to check your Tableau account.");
    assert_eq!(fake.count("signin"), 1);
    assert_eq!(fake.count("views"), 0);
}
