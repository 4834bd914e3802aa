//! The users administration: the paged list (tabs, search, sort, counts, trial period), editing a
//! user (Function, contributor photo, Tableau access) and `GET /contributor-profile-picture/{id}`.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    uploads::{PNG, spawn, upload_name},
};

const LIST: &str = "query($type: UserListType!, $search: String, $sort: UserSortField, $dir: SortDirection, $limit: Int!, $offset: Int!) {
  getPaginatedUsers(type: $type, searchQuery: $search, sortField: $sort, sortDirection: $dir, limit: $limit, offset: $offset) {
    total users { _id email name role trialMinLeft articleCount views lastLogin }
  }
}";
const EDIT: &str = "mutation($item: UserInput!) { editUser(item: $item) { _id position displayAvatar tableauAccess hasProfilePicture canHaveProfilePicture version } }";

async fn list(app: &TestApp, token: &str, vars: Value) -> Value {
    let mut all = json!({ "type": "All", "limit": 15, "offset": 0 });
    all.as_object_mut().unwrap().extend(vars.as_object().unwrap().clone());
    let response = app.gql(Some(token), LIST, all).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["getPaginatedUsers"].clone()
}

fn emails(page: &Value) -> Vec<&str> {
    page["users"].as_array().unwrap().iter().map(|u| u["email"].as_str().unwrap()).collect()
}

/// A signed-in user with `scopes` (created by a first request), with a name.
async fn sign_in(app: &TestApp, email: &str, scopes: &[&str]) -> (String, String) {
    let token = crate::support::tokens::for_user(&app.state, email, scopes.iter().map(|s| s.to_string()).collect()).await;
    let id = app.user_id(&token).await;
    (token, id)
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_has_tabs_search_sort_counts_and_trial_periods(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let (_, writer) = sign_in(&app, "wanda.writer@insights.example", &["insights:content-edit"]).await;
    sign_in(&app, "tom.trial@client.example", &["insights:content-reader-trial"]).await;
    sign_in(&app, "rita.reader@client.example", &["insights:content-reader"]).await;
    for i in 0..20 {
        app.insert_user(&format!("bulk{i:02}@client.example")).await;
    }
    let reader = app.insert_user("viewer@client.example").await;
    let article = app.insert_article(&[], &[], &[&writer]).await;
    app.insert_views(&article, &reader, 5).await;

    let first = list(&app, &admin, json!({})).await;
    assert_eq!(first["total"], 25);
    assert_eq!(first["users"].as_array().unwrap().len(), 15);
    let rest = list(&app, &admin, json!({ "offset": 15 })).await;
    assert_eq!(rest["users"].as_array().unwrap().len(), 10);
    assert_eq!(list(&app, &admin, json!({ "offset": 100 })).await["total"], 25, "past the end still tells the total");

    let trial = list(&app, &admin, json!({ "type": "Trial" })).await;
    assert_eq!(emails(&trial), ["tom.trial@client.example"]);
    let minutes = trial["users"][0]["trialMinLeft"].as_i64().unwrap();
    assert!((14 * 24 * 60 - 2..=14 * 24 * 60).contains(&minutes), "{minutes}");
    assert_eq!(emails(&list(&app, &admin, json!({ "type": "Contributor" })).await), ["wanda.writer@insights.example"]);
    assert_eq!(list(&app, &admin, json!({ "type": "Subscriber" })).await["total"], 2, "readers, trial included");

    let searched = list(&app, &admin, json!({ "search": "WANDA" })).await;
    let wanda = &searched["users"][0];
    assert_eq!((&wanda["articleCount"], &wanda["views"], &wanda["role"]), (&json!(1), &json!(5), &json!("Contributor")));
    assert_eq!(searched["total"], 1);
    assert_eq!(list(&app, &admin, json!({ "search": "client.example" })).await["total"], 23, "email matches");
    assert_eq!(list(&app, &admin, json!({ "search": "test co" })).await["total"], 4, "company matches");
    assert_eq!(list(&app, &admin, json!({ "search": "50%" })).await["total"], 0, "wildcards are literal");

    let by_views = list(&app, &admin, json!({ "sort": "Views", "dir": "Desc" })).await;
    assert_eq!(emails(&by_views)[0], "wanda.writer@insights.example");
    let by_email_desc = list(&app, &admin, json!({ "sort": "Email", "dir": "Desc" })).await;
    assert_eq!(emails(&by_email_desc)[0], "wanda.writer@insights.example");
    let by_trial = list(&app, &admin, json!({ "sort": "TrialMinLeft", "dir": "Desc" })).await;
    assert_eq!(emails(&by_trial)[0], "tom.trial@client.example");

    let too_many = app.gql(Some(&admin), LIST, json!({ "type": "All", "limit": 500, "offset": 0 })).await;
    assert_eq!(error_code(&too_many), Some("BAD_USER_INPUT"));
    let reader_token = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader_token), LIST, json!({ "type": "All", "limit": 15, "offset": 0 })).await), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn editing_a_user_follows_the_roles_and_the_photo_rule(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let (contributor, contributor_id) = sign_in(&app, "cora.contrib@insights.example", &["insights:content-edit"]).await;
    let (_, client_id) = sign_in(&app, "carl.client@client.example", &["insights:content-reader"]).await;
    let item = |id: &str, version: i32, position: &str, avatar: bool, tableau: bool| {
        json!({ "_id": id, "version": version, "position": position, "displayAvatar": avatar, "tableauAccess": tableau })
    };

    let by_editor = app.gql(Some(&editor), EDIT, json!({ "item": item(&contributor_id, 1, "Oil analyst", true, false) })).await;
    assert_eq!(by_editor["data"]["editUser"]["position"], "Oil analyst", "{by_editor}");
    assert_eq!(by_editor["data"]["editUser"]["displayAvatar"], true);
    assert_eq!(by_editor["data"]["editUser"]["canHaveProfilePicture"], true);

    // Only an administrator may enable Tableau charts.
    let tableau = app.gql(Some(&editor), EDIT, json!({ "item": item(&contributor_id, 2, "Oil analyst", true, true) })).await;
    assert_eq!(error_code(&tableau), Some("FORBIDDEN"));
    let by_admin = app.gql(Some(&admin), EDIT, json!({ "item": item(&contributor_id, 2, "Oil analyst", true, true) })).await;
    assert_eq!(by_admin["data"]["editUser"]["tableauAccess"], true, "{by_admin}");
    let stale = app.gql(Some(&admin), EDIT, json!({ "item": item(&contributor_id, 2, "Stale", true, true) })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));

    // A contributor edits only themself.
    let own = app.gql(Some(&contributor), EDIT, json!({ "item": item(&contributor_id, 3, "Senior oil analyst", true, true) })).await;
    assert_eq!(own["data"]["editUser"]["position"], "Senior oil analyst", "{own}");
    let other = app.gql(Some(&contributor), EDIT, json!({ "item": item(&client_id, 1, "X", false, false) })).await;
    assert_eq!(error_code(&other), Some("FORBIDDEN"));

    // Function at most 50; the photo only for company email domains.
    let long = app.gql(Some(&admin), EDIT, json!({ "item": item(&client_id, 1, &"f".repeat(51), false, false) })).await;
    assert_eq!(long["errors"][0]["extensions"]["fields"], json!({ "position": "Maximum 50 characters" }));
    let photo = app.gql(Some(&admin), EDIT, json!({ "item": item(&client_id, 1, "Buyer", true, false) })).await;
    assert_eq!(photo["errors"][0]["extensions"]["fields"], json!({ "displayAvatar": "Only users of the company can have a contributor photo" }));
    let missing = app.gql(Some(&admin), EDIT, json!({ "item": item(&insights::ids::new_id(), 1, "X", false, false) })).await;
    assert_eq!(error_code(&missing), Some("NOT_FOUND"));
    let found = app.gql(Some(&editor), "query($id: ID!) { findUserById(id: $id) { email position memberSince } }", json!({ "id": contributor_id })).await;
    assert_eq!(found["data"]["findUserById"]["position"], "Senior oil analyst");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_contributor_photo_is_served_only_when_shown(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let admin = app.token(TestRole::Administrator).await;
    let (_, id) = sign_in(&app, "pat.photo@insights.example", &["insights:content-edit"]).await;
    let reader = app.token(TestRole::Subscriber).await;
    let fetch = |token: Option<String>| {
        let request = app.client.get(app.url(&format!("/contributor-profile-picture/{id}")));
        let request = match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        request.send()
    };
    assert_eq!(fetch(Some(reader.clone())).await.unwrap().status(), 404, "no photo yet");

    // A name shaped like an upload that was never uploaded is refused.
    let never = "0123456789abcdef01234567.png";
    let set = json!({ "_id": id, "version": 1, "displayAvatar": false, "tableauAccess": false, "profilePicture": never });
    let refused = app.gql(Some(&admin), EDIT, json!({ "item": set })).await;
    assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{refused}");
    assert_eq!(refused["errors"][0]["extensions"]["fields"], json!({ "profilePicture": "Upload the image first" }));

    let picture = upload_name(&app, &admin, PNG).await;
    let set = json!({ "_id": id, "version": 1, "displayAvatar": false, "tableauAccess": false, "profilePicture": picture });
    let edited = app.gql(Some(&admin), EDIT, json!({ "item": set })).await;
    assert_eq!(edited["data"]["editUser"]["hasProfilePicture"], true, "{edited}");
    assert_eq!(fetch(Some(reader.clone())).await.unwrap().status(), 404, "hidden while displayAvatar is off");

    let show = json!({ "_id": id, "version": 2, "displayAvatar": true, "tableauAccess": false });
    app.gql(Some(&admin), EDIT, json!({ "item": show })).await;
    let served = fetch(Some(reader)).await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);
    assert_eq!(fetch(None).await.unwrap().status(), 401);
    let bad = app.client.get(app.url("/contributor-profile-picture/..%2F..%2Fetc")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(bad.status(), 404);
    let _ = std::fs::remove_dir_all(dir);
}
