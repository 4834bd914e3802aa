//! Templates: Editors add, edit and delete them, all staff list them; the title and channel rules;
//! today's date placeholder; the usage count; versions.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

const FIELDS: &str = "_id title titleForToday html version usedArticlesNumber canEdit
    premiumChannel { _id name } publishedBy { _id name type } contributors { _id } categories { _id } tags { _id }";

fn mutation(name: &str, input: &str) -> String {
    format!("mutation($item: {input}) {{ {name}(item: $item) {{ {FIELDS} }} }}")
}

#[sqlx::test(migrations = "./migrations")]
async fn editors_manage_templates_and_every_staff_role_lists_them(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let contributor = app.token(TestRole::Contributor).await;
    let editor_id = app.user_id(&editor).await;
    let desk = app.add_desk(&admin, "Energy desk", &[&editor_id]).await;
    let channel = app.add_channel(&admin, TestApp::premium_channel("Energy Premium", &desk, &[])).await;
    let topic = app.add_category(&admin, "Oil", None).await;
    let tag = app.add_tag(&admin, "Brent").await;
    let add = mutation("addTemplate", "TemplateInput!");

    // Title and channel are required, with the template form's message.
    let missing = app.gql(Some(&editor), &add, json!({ "item": { "title": " " } })).await;
    assert_eq!(error_code(&missing), Some("BAD_USER_INPUT"));
    assert_eq!(
        missing["errors"][0]["extensions"]["fields"],
        json!({ "title": "This field is required.", "premiumChannelId": "This field is required." })
    );

    let item = json!({
        "title": "Morning {{today}}", "html": "<p onclick=\"x()\">Hello</p><script>x()</script>", "premiumChannelId": channel,
        "contributors": [editor_id], "categories": [topic], "tags": [tag],
    });
    // Only Editors add them.
    for token in [&admin, &contributor] {
        assert_eq!(error_code(&app.gql(Some(token), &add, json!({ "item": item })).await), Some("FORBIDDEN"));
    }
    let added = app.gql(Some(&editor), &add, json!({ "item": item })).await;
    let template = added["data"]["addTemplate"].clone();
    assert_eq!(template["html"], "<p>Hello</p>", "{added}");
    assert_eq!(template["publishedBy"], json!({ "_id": desk, "name": "Energy desk", "type": "desk" }));
    assert_eq!((template["canEdit"].as_bool(), template["usedArticlesNumber"].as_i64()), (Some(true), Some(0)));
    let today = chrono::Utc::now().format("%d %b %Y").to_string();
    assert_eq!(template["titleForToday"], format!("Morning {today}"));

    // An article started from it counts as a use, and its title gets today's date.
    let article = app
        .gql(
            Some(&editor),
            "mutation($item: ArticleInput!) { addArticle(item: $item) { title templateId } }",
            json!({ "item": { "title": "Morning {{today}}", "templateId": template["_id"], "premiumChannelId": channel } }),
        )
        .await;
    assert_eq!(article["data"]["addArticle"]["title"], format!("Morning {today}"), "{article}");

    // Every staff role lists them; only Editors may edit.
    for (token, can_edit) in [(&admin, false), (&contributor, false), (&editor, true)] {
        let list = app.gql(Some(token), "{ templates { _id usedArticlesNumber canEdit } }", json!({})).await;
        assert_eq!(list["data"]["templates"], json!([{ "_id": template["_id"], "usedArticlesNumber": 1, "canEdit": can_edit }]));
    }
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader), "{ templates { _id } }", json!({})).await), Some("FORBIDDEN"));

    // Edits carry the version; a stale one is CONFLICT.
    let edit = mutation("editTemplate", "TemplateInput!");
    let mut change = item.clone();
    change["_id"] = template["_id"].clone();
    change["version"] = json!(1);
    change["title"] = json!("Evening note");
    change["categories"] = json!([]);
    let edited = app.gql(Some(&editor), &edit, json!({ "item": change })).await;
    assert_eq!(edited["data"]["editTemplate"]["version"], 2, "{edited}");
    assert_eq!(edited["data"]["editTemplate"]["categories"], json!([]));
    let stale = app.gql(Some(&editor), &edit, json!({ "item": change })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));

    // Delete: Editors only; the article started from it stays.
    let delete = "mutation($id: ID!) { deleteTemplate(id: $id) { _id name } }";
    assert_eq!(error_code(&app.gql(Some(&contributor), delete, json!({ "id": template["_id"] })).await), Some("FORBIDDEN"));
    let deleted = app.gql(Some(&editor), delete, json!({ "id": template["_id"] })).await;
    assert_eq!(deleted["data"]["deleteTemplate"]["name"], "Evening note");
    let articles: i64 = sqlx::query_scalar("select count(*) from article where template_id is null").fetch_one(&app.pool).await.unwrap();
    assert_eq!(articles, 1);
    let gone = app.gql(Some(&editor), "query($id: ID!) { findTemplateById(id: $id) { _id } }", json!({ "id": template["_id"] })).await;
    assert_eq!(error_code(&gone), Some("NOT_FOUND"));
    let _: Value = gone;
}

#[sqlx::test(migrations = "./migrations")]
async fn a_template_channel_must_be_one_the_editor_may_publish_to(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let admin_id = app.user_id(&admin).await;
    // A desk the editor is not on, and its channel.
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let channel = app.add_channel(&admin, TestApp::premium_channel("Metals Premium", &desk, &[])).await;
    let add = mutation("addTemplate", "TemplateInput!");
    let refused = app.gql(Some(&editor), &add, json!({ "item": { "title": "Copper", "premiumChannelId": channel } })).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));
    let unknown = app.gql(Some(&editor), &add, json!({ "item": { "title": "Copper", "premiumChannelId": "0123456789abcdef01234567" } })).await;
    assert_eq!(error_code(&unknown), Some("NOT_FOUND"));
}
