//! The identity operations: `me`, `updateUserFromToken`, `isUserProfileComplete`, and trial expiry.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, tokens};

const UPDATE: &str =
    "mutation($t: String!) { updateUserFromToken(idToken: $t) { isNewUser user { _id email name company role lastLogin } } }";

/// Runs the built-in provider's sign-in for a ready user and returns (access token, id token).
pub async fn sign_in(app: &TestApp, ready_user: &str) -> (String, String) {
    let tokens = crate::oidc_provider::code_flow(app, &[("ready_user", ready_user)]).await;
    (tokens["access_token"].as_str().unwrap().to_owned(), tokens["id_token"].as_str().unwrap().to_owned())
}

#[sqlx::test(migrations = "./migrations")]
async fn update_user_from_token_creates_then_updates_the_user(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (access, id) = sign_in(&app, "subscriber").await;

    let first = app.gql(Some(&access), UPDATE, json!({ "t": id })).await;
    assert_eq!(first["errors"], Value::Null, "{first}");
    let user = &first["data"]["updateUserFromToken"];
    assert_eq!(user["isNewUser"], true);
    assert_eq!(user["user"]["email"], "sam.subscriber@client.example");
    assert_eq!(user["user"]["name"], "Sam Subscriber");
    assert_eq!(user["user"]["company"], "Client Capital");
    assert_eq!(user["user"]["role"], "Subscriber");
    assert!(user["user"]["lastLogin"].is_string());

    let second = app.gql(Some(&access), UPDATE, json!({ "t": id })).await;
    assert_eq!(second["data"]["updateUserFromToken"]["isNewUser"], false);
    assert_eq!(second["data"]["updateUserFromToken"]["user"]["_id"], user["user"]["_id"], "same user, not a second one");

    let count: i64 = sqlx::query_scalar("select count(*) from users").fetch_one(&app.pool).await.unwrap();
    assert_eq!(count, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn update_user_from_token_refuses_someone_elses_or_an_invalid_id_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (access, _) = sign_in(&app, "subscriber").await;
    let (_, editors_id_token) = sign_in(&app, "editor").await;

    let response = app.gql(Some(&access), UPDATE, json!({ "t": editors_id_token })).await;
    assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");

    // An access token is not an id token (wrong audience).
    let response = app.gql(Some(&access), UPDATE, json!({ "t": access })).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"), "{response}");

    let response = app.gql(None, UPDATE, json!({ "t": editors_id_token })).await;
    assert_eq!(error_code(&response), Some("UNAUTHENTICATED"));
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_of_the_company_directory_are_internal(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (admin, _) = sign_in(&app, "admin").await;
    let (reader, _) = sign_in(&app, "subscriber").await;
    let query = "{ me { isInternal insightsUserId } }";
    let admin_me = app.gql(Some(&admin), query, json!({})).await;
    assert_eq!(admin_me["data"]["me"]["isInternal"], true);
    assert!(admin_me["data"]["me"]["insightsUserId"].as_str().unwrap().starts_with("ad|"));
    assert_eq!(app.gql(Some(&reader), query, json!({})).await["data"]["me"]["isInternal"], false);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_client_without_a_company_has_an_incomplete_profile(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let query = "{ isUserProfileComplete { isProfileComplete } }";
    let (complete, _) = sign_in(&app, "subscriber").await;
    assert_eq!(app.gql(Some(&complete), query, json!({})).await["data"]["isUserProfileComplete"]["isProfileComplete"], true);

    let tokens = crate::oidc_provider::code_flow(
        &app,
        &[("email", "new.client@client.example"), ("name", "New Client"), ("scopes", "insights:content-reader")],
    )
    .await;
    let incomplete = tokens["access_token"].as_str().unwrap();
    let response = app.gql(Some(incomplete), query, json!({})).await;
    assert_eq!(response["data"]["isUserProfileComplete"]["isProfileComplete"], false, "{response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_trial_past_its_length_is_expired(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Trial).await;
    let query = "{ me { trialState trialMinLeft } }";
    let running = app.gql(Some(&token), query, json!({})).await;
    assert_eq!(running["data"]["me"]["trialState"], "TrialContinues");

    // The trial started 14 days and a minute ago (the configured length is 14 days).
    sqlx::query("update users set first_login = now() - interval '14 days 1 minute' where email = $1")
        .bind(TestRole::Trial.email())
        .execute(&app.pool)
        .await
        .unwrap();
    let expired = app.gql(Some(&token), query, json!({})).await;
    assert_eq!(expired["data"]["me"]["trialState"], "TrialExpired", "{expired}");
    assert_eq!(expired["data"]["me"]["trialMinLeft"], 0);

    // Identity operations still answer, so the app can show the trial-ended screen.
    let profile = app.gql(Some(&token), "{ isUserProfileComplete { isProfileComplete } }", json!({})).await;
    assert_eq!(profile["errors"], Value::Null);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_trial_length_is_configurable(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--trial-days", "3"]).await;
    let token = app.token(TestRole::Trial).await;
    let response = app.gql(Some(&token), "{ me { trialMinLeft } }", json!({})).await;
    assert_eq!(response["data"]["me"]["trialMinLeft"], 3 * 24 * 60);
}

#[sqlx::test(migrations = "./migrations")]
async fn role_changes_in_the_token_take_effect_at_once(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let email = "promoted@test.example";
    let as_reader = tokens::for_user(&app.state, email, vec!["insights:content-reader".into()]).await;
    let as_editor = tokens::for_user(&app.state, email, vec!["insights:content-publish".into()]).await;
    let query = "{ me { _id role } }";
    let reader = app.gql(Some(&as_reader), query, json!({})).await;
    let editor = app.gql(Some(&as_editor), query, json!({})).await;
    assert_eq!(reader["data"]["me"]["role"], "Subscriber");
    assert_eq!(editor["data"]["me"]["role"], "Editor");
    assert_eq!(reader["data"]["me"]["_id"], editor["data"]["me"]["_id"]);
    let stored: Option<String> =
        sqlx::query_scalar("select role from users where email = $1").bind(email).fetch_one(&app.pool).await.unwrap();
    assert_eq!(stored.as_deref(), Some("Editor"));
}

/// Two servers keeping users in memory: a change written anywhere (here with SQL, as another
/// server or a tool would) is seen by both within moments, through the change notifications;
/// with the notifications off, the kept copy is what a server answers — so memory is really used.
#[sqlx::test(migrations = "./migrations")]
async fn kept_users_are_dropped_on_every_server_when_they_change(pool: PgPool) {
    let a = TestApp::spawn_with(pool.clone(), &["--auth-user-cache-secs", "600"]).await;
    // B trusts the same issuer (A's address), as servers behind one public URL do.
    let b = TestApp::spawn_with(pool.clone(), &["--auth-user-cache-secs", "600", "--public-url", &a.address]).await;
    let token = tokens::for_role(&a.state, TestRole::Subscriber).await;
    async fn tableau_access(app: &TestApp, token: &str) -> Value {
        app.gql(Some(token), "{ me { _id tableauAccess } }", json!({})).await["data"]["me"]["tableauAccess"].clone()
    }
    // Each server listens once its change feed is connected; until then it reads every time.
    let set = |value: bool| sqlx::query("update users set tableau_access = $1").bind(value).execute(&pool);
    let within = |app: &'static str, expected: bool| format!("{app} sees tableauAccess = {expected} within 5 s");
    for (app, name) in [(&a, "A"), (&b, "B")] {
        assert_eq!(tableau_access(app, &token).await, false, "{name}");
    }

    for expected in [true, false, true] {
        set(expected).await.unwrap();
        for (app, name) in [(&a, "A"), (&b, "B")] {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while tableau_access(app, &token).await != expected {
                assert!(std::time::Instant::now() < deadline, "{}", within(name, expected));
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    }

    // Without the notification, B keeps answering from memory (the cache is really in use).
    for _ in 0..100 {
        if b.state.users.get(&sqlx::query_scalar::<_, String>("select subject from users").fetch_one(&pool).await.unwrap()).is_some() {
            break;
        }
        tableau_access(&b, &token).await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    sqlx::query("alter table users disable trigger users_changed_update").execute(&pool).await.unwrap();
    set(false).await.unwrap();
    assert_eq!(tableau_access(&b, &token).await, true, "B answers its kept copy while no notification comes");
    sqlx::query("alter table users enable trigger users_changed_update").execute(&pool).await.unwrap();
    // Any later change (even to another column) drops it.
    sqlx::query("update users set position = 'Analyst'").execute(&pool).await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while tableau_access(&b, &token).await != false {
        assert!(std::time::Instant::now() < deadline, "{}", within("B", false));
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }

    // An edit through a server drops that server's copy itself, notification or not.
    let subject: String = sqlx::query_scalar("select subject from users").fetch_one(&pool).await.unwrap();
    for _ in 0..100 {
        if b.state.users.get(&subject).is_some() {
            break;
        }
        tableau_access(&b, &token).await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(b.state.users.get(&subject).is_some(), "B keeps the reader");
    let admin = tokens::for_role(&a.state, TestRole::Administrator).await;
    sqlx::query("alter table users disable trigger users_changed_update").execute(&pool).await.unwrap();
    let (id, version): (String, i32) =
        sqlx::query_as("select user_id, version from users where subject = $1").bind(&subject).fetch_one(&pool).await.unwrap();
    let edit = "mutation($item: UserInput!) { editUser(item: $item) { tableauAccess } }";
    let item = json!({ "item": { "_id": id, "version": version, "displayAvatar": false, "tableauAccess": true } });
    let edited = b.gql(Some(&admin), edit, item).await;
    assert_eq!(edited["data"]["editUser"]["tableauAccess"], true, "{edited}");
    assert_eq!(tableau_access(&b, &token).await, true, "B answers the edit at once");
    sqlx::query("alter table users enable trigger users_changed_update").execute(&pool).await.unwrap();
}
