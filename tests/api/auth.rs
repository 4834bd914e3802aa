//! Token validation and roles: every way a token can be wrong is UNAUTHENTICATED; each role's
//! token gives the right `me.role`; the external-issuer path works with key rotation.

use insights::auth::scopes;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    external_issuer::ExternalIssuer,
    tokens::{b64, sign_with_provider_key, valid_claims},
};

const ME: &str = "{ me { _id email role trialState trialMinLeft isInternal intelligence } }";

async fn me(app: &TestApp, token: &str) -> Value {
    app.gql(Some(token), ME, json!({})).await
}

async fn assert_unauthenticated(app: &TestApp, token: &str, case: &str) {
    let response = me(app, token).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"), "{case}: {response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_valid_token_for_each_role_gives_that_role(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let cases = [
        (TestRole::Administrator, json!("Administrator")),
        (TestRole::Editor, json!("Editor")),
        (TestRole::Contributor, json!("Contributor")),
        (TestRole::Subscriber, json!("Subscriber")),
        (TestRole::Trial, json!("Subscriber")),
        (TestRole::NoScope, Value::Null),
    ];
    for (role, expected) in cases {
        let response = me(&app, &app.token(role).await).await;
        assert_eq!(response["errors"], Value::Null, "{role:?}: {response}");
        assert_eq!(response["data"]["me"]["role"], expected, "{role:?}");
        assert_eq!(response["data"]["me"]["email"], json!(role.email()));
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn scope_combinations_take_the_highest_role(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let cases: &[(&[&str], Value)] = &[
        (&[scopes::READER, scopes::CONTRIBUTOR], json!("Contributor")),
        (&[scopes::CONTRIBUTOR, scopes::EDITOR], json!("Editor")),
        (&[scopes::READER, scopes::EDITOR, scopes::ADMIN], json!("Administrator")),
        (&[scopes::TRIAL_READER, scopes::READER], json!("Subscriber")),
        (&[scopes::TRIAL_READER], json!("Subscriber")),
        (&[scopes::INTELLIGENCE], Value::Null),
        (&["openid", "profile", "email"], Value::Null),
    ];
    for (i, (given, expected)) in cases.iter().enumerate() {
        let scopes = given.iter().map(|s| s.to_string()).collect();
        let token = crate::support::tokens::for_user(&app.state, &format!("combo{i}@test.example"), scopes).await;
        let response = me(&app, &token).await;
        assert_eq!(response["data"]["me"]["role"], *expected, "{given:?}: {response}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn trial_scope_alone_is_a_running_trial_and_with_reader_scope_is_not(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let trial = me(&app, &app.token(TestRole::Trial).await).await;
    assert_eq!(trial["data"]["me"]["trialState"], "TrialContinues");
    assert_eq!(trial["data"]["me"]["trialMinLeft"], 14 * 24 * 60);

    let scopes = vec![scopes::TRIAL_READER.to_owned(), scopes::READER.to_owned()];
    let token = crate::support::tokens::for_user(&app.state, "both@test.example", scopes).await;
    let both = me(&app, &token).await;
    assert_eq!(both["data"]["me"]["trialState"], "NoTrial");
    assert_eq!(both["data"]["me"]["trialMinLeft"], -1);
}

#[sqlx::test(migrations = "./migrations")]
async fn intelligence_scope_is_reported(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let scopes = vec![scopes::READER.to_owned(), scopes::INTELLIGENCE.to_owned()];
    let token = crate::support::tokens::for_user(&app.state, "ai@test.example", scopes).await;
    assert_eq!(me(&app, &token).await["data"]["me"]["intelligence"], true);
    assert_eq!(me(&app, &app.token(TestRole::Subscriber).await).await["data"]["me"]["intelligence"], false);
}

#[sqlx::test(migrations = "./migrations")]
async fn missing_token_is_unauthenticated(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.gql(None, ME, json!({})).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"));
    let response = app.client.post(app.url("/graphql")).header("authorization", "Basic abc").json(&json!({"query": ME})).send().await.unwrap();
    assert_eq!(error_code(&response.json().await.unwrap()), Some("UNAUTHENTICATED"));
}

#[sqlx::test(migrations = "./migrations")]
async fn expired_and_not_yet_valid_tokens_are_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let now = chrono::Utc::now().timestamp();
    // Beyond the 30 s leeway either way.
    let mut expired = valid_claims(&app.state, scopes::READER);
    expired["exp"] = json!(now - 120);
    expired["iat"] = json!(now - 720);
    expired["nbf"] = json!(now - 720);
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &expired).await, "expired").await;

    let mut early = valid_claims(&app.state, scopes::READER);
    early["nbf"] = json!(now + 300);
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &early).await, "not yet valid").await;

    // The control: the same claims, valid, are accepted.
    let valid = valid_claims(&app.state, scopes::READER);
    let response = me(&app, &sign_with_provider_key(&app.state, &valid).await).await;
    assert_eq!(response["data"]["me"]["role"], "Subscriber", "{response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn wrong_issuer_or_audience_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut issuer = valid_claims(&app.state, scopes::ADMIN);
    issuer["iss"] = json!("https://evil.example/oidc");
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &issuer).await, "issuer").await;

    let mut audience = valid_claims(&app.state, scopes::ADMIN);
    audience["aud"] = json!("some-other-api");
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &audience).await, "audience").await;

    // An id token (audience = the web client) is not an access token.
    let mut id_token = valid_claims(&app.state, scopes::ADMIN);
    id_token["aud"] = json!(app.state.config.auth.client_id);
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &id_token).await, "id token as bearer").await;

    let mut no_sub = valid_claims(&app.state, scopes::ADMIN);
    no_sub.as_object_mut().unwrap().remove("sub");
    assert_unauthenticated(&app, &sign_with_provider_key(&app.state, &no_sub).await, "no sub").await;
}

#[sqlx::test(migrations = "./migrations")]
async fn forged_tokens_are_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let claims = valid_claims(&app.state, scopes::ADMIN);
    let kid = insights::auth::provider::keys::current(&app.state.pool).await.unwrap().kid;

    // alg: none, no signature.
    let header = json!({ "alg": "none", "typ": "JWT", "kid": kid });
    let none = format!("{}.{}.", b64(header.to_string().as_bytes()), b64(claims.to_string().as_bytes()));
    assert_unauthenticated(&app, &none, "alg none").await;

    // HS256 keyed with the public key, the classic algorithm-confusion attack.
    let jwks = app.client.get(app.url("/oidc/jwks")).send().await.unwrap().text().await.unwrap();
    for secret in [jwks.as_bytes().to_vec(), serde_json::from_str::<Value>(&jwks).unwrap()["keys"][0]["x"].as_str().unwrap().as_bytes().to_vec()] {
        let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
        header.kid = Some(kid.clone());
        let hs256 = jsonwebtoken::encode(&header, &claims, &jsonwebtoken::EncodingKey::from_secret(&secret)).unwrap();
        assert_unauthenticated(&app, &hs256, "HS256 with the public key").await;
    }

    // A valid token whose payload was changed after signing.
    let reader = sign_with_provider_key(&app.state, &valid_claims(&app.state, scopes::READER)).await;
    let parts: Vec<&str> = reader.split('.').collect();
    let tampered = format!("{}.{}.{}", parts[0], b64(claims.to_string().as_bytes()), parts[2]);
    assert_unauthenticated(&app, &tampered, "tampered payload").await;

    // Signed by a key the issuer never published.
    let stranger = p256::SecretKey::random(&mut rand::rngs::OsRng);
    use p256::pkcs8::EncodePrivateKey;
    let pem = stranger.to_pkcs8_pem(p256::pkcs8::LineEnding::LF).unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some("unknown-kid".into());
    let unknown = jsonwebtoken::encode(&header, &claims, &jsonwebtoken::EncodingKey::from_ec_pem(pem.as_bytes()).unwrap()).unwrap();
    assert_unauthenticated(&app, &unknown, "unknown kid").await;

    // The same stranger key under the real kid fails the signature check.
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some(kid);
    let wrong_key = jsonwebtoken::encode(&header, &claims, &jsonwebtoken::EncodingKey::from_ec_pem(pem.as_bytes()).unwrap()).unwrap();
    assert_unauthenticated(&app, &wrong_key, "wrong key").await;

    assert_unauthenticated(&app, "not.a.jwt", "garbage").await;

    // After all that, the server still serves a good token.
    let response = me(&app, &app.token(TestRole::Editor).await).await;
    assert_eq!(response["data"]["me"]["role"], "Editor");
}

#[sqlx::test(migrations = "./migrations")]
async fn builtin_key_rotation_keeps_old_tokens_valid_and_accepts_new_ones(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let before = app.token(TestRole::Subscriber).await;
    assert_eq!(me(&app, &before).await["data"]["me"]["role"], "Subscriber");

    let new_kid = insights::auth::provider::keys::rotate(&app.state.pool).await.unwrap();
    let after = app.token(TestRole::Editor).await;
    let header = jsonwebtoken::decode_header(&after).unwrap();
    assert_eq!(header.kid.as_deref(), Some(new_kid.as_str()), "new tokens are signed with the new key");
    assert_eq!(me(&app, &after).await["data"]["me"]["role"], "Editor");
    assert_eq!(me(&app, &before).await["data"]["me"]["role"], "Subscriber");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_external_issuer_is_validated_through_its_jwks_with_rotation(pool: PgPool) {
    let external = ExternalIssuer::start().await;
    let app = TestApp::spawn_with(pool, &["--auth-issuer", &external.issuer, "--auth-audience", "https://api.insights.example"]).await;

    let claims = external.claims("https://api.insights.example", "okta|123", scopes::EDITOR);
    let response = me(&app, &external.sign(&claims)).await;
    assert_eq!(response["data"]["me"]["role"], "Editor", "{response}");

    // The issuer rotates its key: a token with the new kid makes us fetch the JWKS again.
    external.rotate("rsa-2");
    let response = me(&app, &external.sign(&claims)).await;
    assert_eq!(response["data"]["me"]["role"], "Editor", "after rotation: {response}");

    // A token naming a kid the issuer does not publish is refused.
    assert_unauthenticated(&app, &external.sign_with_kid(&claims, "rsa-9"), "unpublished kid").await;

    // Wrong audience from the right issuer.
    let other = external.claims("another-api", "okta|123", scopes::EDITOR);
    assert_unauthenticated(&app, &external.sign(&other), "external audience").await;

    // The built-in provider is off: its endpoints are gone.
    let status = app.client.get(app.url("/oidc/.well-known/openid-configuration")).send().await.unwrap().status();
    assert_eq!(status, 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn long_or_nul_identity_claims_sign_in_with_cut_fields_and_an_unusable_email_is_told(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = valid_claims(&app.state, scopes::READER);
    claims["name"] = json!(format!("Ann\u{0} {}", "N".repeat(300)));
    claims["company"] = json!(format!("{}\u{0}", "C".repeat(250)));
    claims["given_name"] = json!("G".repeat(150));
    let token = sign_with_provider_key(&app.state, &claims).await;
    for _ in 0..2 {
        let response = app.gql(Some(&token), "{ me { name company role } }", json!({})).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        let me = &response["data"]["me"];
        assert_eq!(me["name"], format!("Ann {}", "N".repeat(196)));
        assert_eq!(me["company"], "C".repeat(200));
        assert_eq!(me["role"], "Subscriber");
    }

    for email in [format!("{}@client.example", "a".repeat(320)), "ann\u{0}@client.example".to_owned()] {
        let mut claims = valid_claims(&app.state, scopes::READER);
        claims["sub"] = json!("dev|bad-email");
        claims["email"] = json!(email);
        let response = me(&app, &sign_with_provider_key(&app.state, &claims).await).await;
        assert_eq!(error_code(&response), Some("BAD_USER_INPUT"), "{response}");
        assert_eq!(response["errors"][0]["message"], insights::auth::UNUSABLE_EMAIL, "{response}");
        assert_eq!(response["errors"][0]["extensions"]["fields"]["email"], insights::auth::UNUSABLE_EMAIL);
    }
}

/// A token of the built-in provider for `dev|forged-user` issued `ago` seconds ago.
async fn issued(app: &TestApp, ago: i64, scope: &str, name: &str) -> String {
    let mut claims = valid_claims(&app.state, scope);
    let iat = chrono::Utc::now().timestamp() - ago;
    claims["iat"] = json!(iat);
    claims["nbf"] = json!(iat);
    claims["name"] = json!(name);
    sign_with_provider_key(&app.state, &claims).await
}

#[sqlx::test(migrations = "./migrations")]
async fn the_stored_role_follows_the_newest_token_and_an_older_one_asking_for_more_is_refused(pool: PgPool) {
    let app = &TestApp::spawn(pool).await;
    let role = |token: String| async move { app.gql(Some(&token), "{ me { role name } }", json!({})).await };
    let stored = || async {
        sqlx::query_as::<_, (Option<String>, String)>("select role, name from users where subject = 'dev|forged-user'").fetch_one(&app.pool).await.unwrap()
    };
    let admin = issued(app, 100, scopes::ADMIN, "Admin days").await;
    assert_eq!(role(admin.clone()).await["data"]["me"]["role"], "Administrator");

    // The role is lowered at the provider: the newer token's role is stored...
    let reader = issued(app, 50, scopes::READER, "Reader days").await;
    assert_eq!(role(reader.clone()).await["data"]["me"], json!({ "role": "Subscriber", "name": "Reader days" }));
    // ...and the older token, with more scopes, no longer works nor flips the stored role back.
    for _ in 0..2 {
        assert_unauthenticated(app, &admin, "older token with more scopes").await;
    }
    assert_eq!(stored().await, (Some("Subscriber".to_owned()), "Reader days".to_owned()));

    // An older token with no more scopes works, and writes nothing over the newer claims.
    let old_reader = issued(app, 200, scopes::READER, "Ancient name").await;
    let response = role(old_reader).await;
    assert_eq!(response["data"]["me"]["role"], "Subscriber", "{response}");
    assert_eq!(stored().await, (Some("Subscriber".to_owned()), "Reader days".to_owned()));

    // A newer token raises the role again.
    let promoted = issued(app, 0, scopes::EDITOR, "Editor now").await;
    assert_eq!(role(promoted).await["data"]["me"]["role"], "Editor");
    assert_eq!(stored().await, (Some("Editor".to_owned()), "Editor now".to_owned()));
    assert_unauthenticated(app, &admin, "still older").await;
}
