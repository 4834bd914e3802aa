//! Tags: rules, the paged list (search, Empty filter, sort, total), counts, deletion, roles.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ADD_TAG};

const LIST: &str = "query($params: TagListParams) { tags(params: $params) { total items { _id name description articleCount views } } }";
const EDIT: &str = "mutation($item: TagInput!) { editTag(item: $item) { _id name description version } }";

async fn list(app: &TestApp, token: &str, params: Value) -> Value {
    let response = app.gql(Some(token), LIST, json!({ "params": params })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["tags"].clone()
}

fn names(page: &Value) -> Vec<&str> {
    page["items"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn tag_names_are_required_unique_and_at_most_50(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Contributor).await;
    let add = |item: Value| app.gql(Some(&token), ADD_TAG, json!({ "item": item }));
    let blank = add(json!({ "name": "", "description": " " })).await;
    assert_eq!(blank["errors"][0]["extensions"]["fields"], json!({ "name": "This field is required", "description": "This field is required" }));
    let long = add(json!({ "name": "n".repeat(51), "description": "d".repeat(501) })).await;
    assert_eq!(long["errors"][0]["extensions"]["fields"], json!({ "name": "Maximum 50 characters", "description": "Maximum 500 characters" }));

    app.add_tag(&token, "ESG").await;
    let duplicate = add(json!({ "name": " esg ", "description": "again" })).await;
    assert_eq!(error_code(&duplicate), Some("DUPLICATE"));
    assert_eq!(duplicate["errors"][0]["message"], "Cannot insert item due to name duplication");
}

#[sqlx::test(migrations = "./migrations")]
async fn editing_a_tag_checks_its_version_and_name(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    let id = app.add_tag(&token, "Earnings").await;
    app.add_tag(&token, "Dividends").await;
    let edited = app.gql(Some(&token), EDIT, json!({ "item": { "_id": id, "name": "Earnings season", "description": "d", "version": 1 } })).await;
    assert_eq!(edited["data"]["editTag"]["version"], 2, "{edited}");
    let stale = app.gql(Some(&token), EDIT, json!({ "item": { "_id": id, "name": "Stale", "description": "d", "version": 1 } })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    let clash = app.gql(Some(&token), EDIT, json!({ "item": { "_id": id, "name": "DIVIDENDS", "description": "d", "version": 2 } })).await;
    assert_eq!(error_code(&clash), Some("DUPLICATE"));
    let missing = app.gql(Some(&token), EDIT, json!({ "item": { "_id": insights::ids::new_id(), "name": "X", "description": "d", "version": 1 } })).await;
    assert_eq!(error_code(&missing), Some("NOT_FOUND"));
    let found = app.gql(Some(&token), "query($id: ID!) { findTagById(id: $id) { name version } }", json!({ "id": id })).await;
    assert_eq!(found["data"]["findTagById"], json!({ "name": "Earnings season", "version": 2 }));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_pages_searches_filters_and_sorts_in_the_database(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Editor).await;
    let mut ids = Vec::new();
    for i in 0..20 {
        ids.push(app.add_tag(&token, &format!("Tag {i:02}")).await);
    }
    app.add_tag(&token, "100% Renewables").await;
    let reader = app.insert_user("reader@test.example").await;
    let article = app.insert_article(&[], &[&ids[3], &ids[5]], &[]).await;
    app.insert_views(&article, &reader, 4).await;
    let other = app.insert_article(&[], &[&ids[5]], &[]).await;
    app.insert_views(&other, &reader, 1).await;

    let first = list(&app, &token, json!({})).await;
    assert_eq!(first["total"], 21);
    assert_eq!(first["items"].as_array().unwrap().len(), 15, "default page size 15");
    assert_eq!(names(&first)[0], "100% Renewables");
    let second = list(&app, &token, json!({ "page": 2, "pageSize": 15 })).await;
    assert_eq!(second["items"].as_array().unwrap().len(), 6);
    let past_the_end = list(&app, &token, json!({ "page": 9, "pageSize": 15 })).await;
    assert_eq!(past_the_end["total"], 21);
    assert_eq!(past_the_end["items"], json!([]));

    let searched = list(&app, &token, json!({ "searchQuery": "tag 1" })).await;
    assert_eq!(searched["total"], 10, "Tag 10..19");
    let in_description = list(&app, &token, json!({ "searchQuery": "ABOUT TAG 07" })).await;
    assert_eq!(names(&in_description), ["Tag 07"]);
    // Wildcards are literal text: '%' matches only a real percent sign.
    let percent = list(&app, &token, json!({ "searchQuery": "100%" })).await;
    assert_eq!(names(&percent), ["100% Renewables"]);
    assert_eq!(list(&app, &token, json!({ "searchQuery": "_" })).await["total"], 0);

    let empty = list(&app, &token, json!({ "filter": "Empty", "pageSize": 50 })).await;
    assert_eq!(empty["total"], 19);
    assert!(!names(&empty).contains(&"Tag 03") && !names(&empty).contains(&"Tag 05"));

    let by_views = list(&app, &token, json!({ "sortField": "Views", "sortDirection": "Desc" })).await;
    assert_eq!(names(&by_views)[..2], ["Tag 05", "Tag 03"]);
    assert_eq!(by_views["items"][0]["views"], 5);
    assert_eq!(by_views["items"][0]["articleCount"], 2);
    let by_name_desc = list(&app, &token, json!({ "sortDirection": "Desc" })).await;
    assert_eq!(names(&by_name_desc)[0], "Tag 19");

    let bad_size = app.gql(Some(&token), LIST, json!({ "params": { "pageSize": 7 } })).await;
    assert_eq!(error_code(&bad_size), Some("BAD_USER_INPUT"));
}

#[sqlx::test(migrations = "./migrations")]
async fn deleting_a_tag_removes_it_from_its_articles(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Administrator).await;
    let tag = app.add_tag(&token, "Obsolete").await;
    let article = app.insert_article(&[], &[&tag], &[]).await;
    let deleted = app.gql(Some(&token), "mutation($id: ID!) { deleteTag(id: $id) { _id name } }", json!({ "id": tag })).await;
    assert_eq!(deleted["data"]["deleteTag"]["name"], "Obsolete");
    let left: i64 = sqlx::query_scalar("select count(*) from article_tag").fetch_one(&app.pool).await.unwrap();
    assert_eq!(left, 0);
    let still: i64 = sqlx::query_scalar("select count(*) from article where article_id = $1").bind(&article).fetch_one(&app.pool).await.unwrap();
    assert_eq!(still, 1);
    let again = app.gql(Some(&token), "mutation($id: ID!) { deleteTag(id: $id) { _id } }", json!({ "id": tag })).await;
    assert_eq!(error_code(&again), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn readers_list_tags_but_cannot_change_them(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let staff = app.token(TestRole::Editor).await;
    let tag = app.add_tag(&staff, "Oil").await;
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(list(&app, &reader, json!({})).await["total"], 1);
    for (query, vars) in [
        (ADD_TAG, json!({ "item": { "name": "X", "description": "Y" } })),
        (EDIT, json!({ "item": { "_id": tag, "name": "X", "description": "Y", "version": 1 } })),
        ("mutation($id: ID!) { deleteTag(id: $id) { _id } }", json!({ "id": tag })),
    ] {
        assert_eq!(error_code(&app.gql(Some(&reader), query, vars).await), Some("FORBIDDEN"), "{query}");
    }
}
