//! Desks: rules, members, counts, who may edit and delete, and deletion refused while a desk owns a
//! channel.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ADD_DESK};

const EDIT: &str = "mutation($item: DeskInput!) { editDesk(item: $item) { _id name version email contributors { _id } } }";
const DELETE: &str = "mutation($id: ID!) { deleteDesk(id: $id) { _id name } }";
const LIST: &str = "query($only: Boolean!) { desks(getOnlyUsersDesks: $only) { _id name email articleCount views canEdit contributors { _id name } channels { _id name } } }";

fn fields(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["fields"]
}

#[sqlx::test(migrations = "./migrations")]
async fn desk_fields_are_checked_with_the_spec_messages(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let add = |item: Value| app.gql(Some(&editor), ADD_DESK, json!({ "item": item }));

    let empty = add(json!({ "name": " ", "contributors": [] })).await;
    assert_eq!(fields(&empty), &json!({ "name": "This field is required", "contributors": "This field is required" }));
    let long =
        add(json!({ "name": "n".repeat(51), "email": format!("{}@insights.example", "e".repeat(40)), "contributors": [editor_id] })).await;
    assert_eq!(fields(&long), &json!({ "name": "Maximum 50 characters", "email": "Maximum 50 characters" }));
    let bad_email = add(json!({ "name": "Rates", "email": "rates desk", "contributors": [editor_id] })).await;
    assert_eq!(fields(&bad_email), &json!({ "email": "Email should be valid" }));
    let reader_id = app.user_id(&app.token(TestRole::Subscriber).await).await;
    let reader_member = add(json!({ "name": "Rates", "contributors": [reader_id] })).await;
    assert_eq!(fields(&reader_member), &json!({ "contributors": "Choose contributors among the staff users" }));

    app.add_desk(&editor, "Rates desk", &[&editor_id]).await;
    let duplicate = add(json!({ "name": " RATES DESK ", "contributors": [editor_id] })).await;
    assert_eq!(error_code(&duplicate), Some("DUPLICATE"));
}

#[sqlx::test(migrations = "./migrations")]
async fn members_and_administrators_edit_a_desk_and_versions_are_checked(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let contributor = app.token(TestRole::Contributor).await;
    let (editor_id, contributor_id) = (app.user_id(&editor).await, app.user_id(&contributor).await);
    let id = app.add_desk(&editor, "Equities desk", &[&editor_id, &contributor_id]).await;

    let item = |name: &str, version: i32, members: &[&str]| json!({ "_id": id, "version": version, "name": name, "email": "eq@insights.example", "contributors": members });
    let by_member = app.gql(Some(&contributor), EDIT, json!({ "item": item("Equities", 1, &[&editor_id, &contributor_id]) })).await;
    assert_eq!(by_member["data"]["editDesk"]["version"], 2, "{by_member}");
    let stale = app.gql(Some(&editor), EDIT, json!({ "item": item("Stale", 1, &[&editor_id]) })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));

    // The contributor leaves the desk; then they may no longer change it. An administrator may.
    let left = app.gql(Some(&editor), EDIT, json!({ "item": item("Equities", 2, &[&editor_id]) })).await;
    assert_eq!(left["data"]["editDesk"]["contributors"], json!([{ "_id": editor_id }]));
    let outsider = app.gql(Some(&contributor), EDIT, json!({ "item": item("Hijacked", 3, &[&contributor_id]) })).await;
    assert_eq!(error_code(&outsider), Some("FORBIDDEN"));
    assert_eq!(error_code(&app.gql(Some(&contributor), DELETE, json!({ "id": id })).await), Some("FORBIDDEN"));
    let by_admin = app.gql(Some(&admin), EDIT, json!({ "item": item("Global equities", 3, &[&editor_id]) })).await;
    assert_eq!(by_admin["data"]["editDesk"]["name"], "Global equities", "{by_admin}");

    // Readers browse desks (the desk pages) but may change none.
    let reader = app.token(TestRole::Subscriber).await;
    let readers = app.gql(Some(&reader), LIST, json!({ "only": false })).await;
    assert_eq!(readers["errors"], Value::Null, "{readers}");
    assert!(readers["data"]["desks"].as_array().unwrap().iter().all(|d| d["canEdit"] == false), "{readers}");
    assert_eq!(error_code(&app.gql(Some(&reader), DELETE, json!({ "id": id })).await), Some("FORBIDDEN"));
    let missing = app
        .gql(
            Some(&admin),
            EDIT,
            json!({ "item": { "_id": insights::ids::new_id(), "version": 1, "name": "X", "contributors": [editor_id] } }),
        )
        .await;
    assert_eq!(error_code(&missing), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_has_members_counts_and_the_callers_desks(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let contributor = app.token(TestRole::Contributor).await;
    let contributor_id = app.user_id(&contributor).await;
    let admin_id = app.user_id(&admin).await;
    let macro_desk = app.add_desk(&admin, "Macro desk", &[&contributor_id, &admin_id]).await;
    app.add_desk(&admin, "Credit desk", &[&admin_id]).await;
    let reader = app.insert_user("reader@client.example").await;
    let article = app.insert_channel_article(None, Some(&macro_desk), "Published").await;
    app.insert_channel_article(None, Some(&macro_desk), "Pending").await;
    app.insert_views(&article, &reader, 3).await;

    let all = app.gql(Some(&contributor), LIST, json!({ "only": false })).await;
    let desks = all["data"]["desks"].as_array().unwrap_or_else(|| panic!("{all}"));
    assert_eq!(desks.iter().map(|d| d["name"].as_str().unwrap()).collect::<Vec<_>>(), ["Credit desk", "Macro desk"]);
    let macro_row = &desks[1];
    assert_eq!((&macro_row["articleCount"], &macro_row["views"], &macro_row["canEdit"]), (&json!(2), &json!(3), &json!(true)));
    assert_eq!(macro_row["contributors"].as_array().unwrap().len(), 2);
    assert_eq!(desks[0]["canEdit"], false, "not a member of the credit desk");

    let mine = app.gql(Some(&contributor), LIST, json!({ "only": true })).await;
    assert_eq!(mine["data"]["desks"].as_array().unwrap().len(), 1);
    assert_eq!(mine["data"]["desks"][0]["name"], "Macro desk");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_desk_that_owns_a_channel_cannot_be_deleted(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Power desk", &[&admin_id]).await;
    let channel = app.add_channel(&admin, TestApp::premium_channel("Power Premium", &desk, &[])).await;

    let refused = app.gql(Some(&admin), DELETE, json!({ "id": desk })).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"));
    assert_eq!(refused["errors"][0]["message"], "The desk Power desk owns 1 channel: it can be deleted only when it owns no channel.");
    let listed = app.gql(Some(&admin), LIST, json!({ "only": false })).await;
    assert_eq!(listed["data"]["desks"][0]["channels"], json!([{ "_id": channel, "name": "Power Premium" }]));

    let spare = app.add_desk(&admin, "Spare desk", &[&admin_id]).await;
    let deleted = app.gql(Some(&admin), DELETE, json!({ "id": spare })).await;
    assert_eq!(deleted["data"]["deleteDesk"], json!({ "_id": spare, "name": "Spare desk" }));
    assert_eq!(error_code(&app.gql(Some(&admin), DELETE, json!({ "id": spare })).await), Some("NOT_FOUND"));
}
