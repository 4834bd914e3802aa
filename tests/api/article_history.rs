//! Revision history of articles and their publication times (issue 40): every save keeps a
//! revision (the body once per distinct text), restore brings one back as a new draft with version
//! checks and in the audit trail, the first publication time never changes, "updated" follows what
//! readers see, and only staff who may open an article read its history.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

const FIELDS: &str = "_id title state version firstPublishedAt updatedAt";
const REVISIONS: &str =
    "query($id: ID!) { articleRevisions(articleId: $id) { _id number action state title articleVersion restoredFrom createdBy { _id name } } }";
const REVISION: &str = "query($id: ID!) { articleRevision(id: $id) { _id articleId number title summary html isPremium premiumChannelName
    categories { _id name } tags { _id name } contributors { _id name } } }";
const RESTORE: &str = "mutation($a: ID!, $r: ID!, $v: Int!) { restoreArticleRevision(articleId: $a, revisionId: $r, version: $v) {
    _id title state version } }";

struct World {
    app: TestApp,
    admin: String,
    editor: String,
    editor_id: String,
    reader: String,
    item: Value,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let reader = app.token(TestRole::Subscriber).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&editor_id]).await;
    let mut channel = TestApp::premium_channel("Metals Open", &desk, &[]);
    channel["type"] = json!("freeOpen");
    let channel = app.add_channel(&admin, channel).await;
    let topic = app.add_category(&admin, "Copper", None).await;
    let tag = app.add_tag(&admin, "LME").await;
    let item = json!({
        "title": "Copper outlook", "html": "<p>Copper rose.</p>", "summary": "Prices up", "premiumChannelId": channel,
        "contributors": [editor_id], "categories": [topic], "tags": [tag], "isPremium": false,
    });
    World { app, admin, editor, editor_id, reader, item }
}

impl World {
    async fn write(&self, name: &str, item: Value) -> Value {
        let query = format!("mutation($item: ArticleInput!) {{ {name}(item: $item) {{ {FIELDS} }} }}");
        let response = self.app.gql(Some(&self.editor), &query, json!({ "item": item })).await;
        assert_eq!(response["errors"], Value::Null, "{name}: {response}");
        response["data"][name].clone()
    }

    /// `item` as an edit of `article` (its id and version).
    fn edit(&self, article: &Value, changes: Value) -> Value {
        let mut item = self.item.clone();
        item["_id"] = article["_id"].clone();
        item["version"] = article["version"].clone();
        for (key, value) in changes.as_object().unwrap() {
            item[key] = value.clone();
        }
        item
    }

    async fn revisions(&self, token: &str, id: &Value) -> Value {
        self.app.gql(Some(token), REVISIONS, json!({ "id": id })).await
    }

    async fn reader_view(&self, id: &Value) -> Value {
        let query = "query($id: ID!) { findPublishedArticleById(id: $id) { firstPublishedAt updatedAt } }";
        let response = self.app.gql(Some(&self.reader), query, json!({ "id": id })).await;
        response["data"]["findPublishedArticleById"].clone()
    }
}

#[sqlx::test]
async fn every_save_keeps_a_revision_and_each_body_once(pool: PgPool) {
    let w = world(pool).await;
    let added = w.write("addArticle", w.item.clone()).await;
    let saved = w.write("editArticle", w.edit(&added, json!({ "title": "Copper outlook, revised" }))).await;
    let published = w.write("publishEdit", w.edit(&saved, json!({ "title": "Copper outlook, revised", "html": "<p>Copper rose 3%.</p>" }))).await;
    let archive = "mutation($id: ID!, $v: Int!) { archiveArticle(_id: $id, version: $v) { _id version } }";
    let archived = w.app.gql(Some(&w.editor), archive, json!({ "id": published["_id"], "v": published["version"] })).await;
    assert_eq!(archived["errors"], Value::Null, "{archived}");

    let response = w.revisions(&w.editor, &added["_id"]).await;
    let revisions = response["data"]["articleRevisions"].as_array().unwrap_or_else(|| panic!("{response}"));
    let summary: Vec<(i64, &str, &str, &str)> = revisions
        .iter()
        .map(|r| (r["number"].as_i64().unwrap(), r["action"].as_str().unwrap(), r["state"].as_str().unwrap(), r["title"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            (4, "archive", "Archived", "Copper outlook, revised"),
            (3, "publish", "Published", "Copper outlook, revised"),
            (2, "save", "Pending", "Copper outlook, revised"),
            (1, "add", "Pending", "Copper outlook"),
        ]
    );
    assert!(revisions.iter().all(|r| r["createdBy"]["_id"] == w.editor_id.as_str()), "{response}");
    assert_eq!(revisions[0]["articleVersion"], archived["data"]["archiveArticle"]["version"]);

    let first = w.app.gql(Some(&w.editor), REVISION, json!({ "id": revisions[3]["_id"] })).await;
    let first = &first["data"]["articleRevision"];
    assert_eq!(first["html"], "<p>Copper rose.</p>");
    assert_eq!(first["summary"], "Prices up");
    assert_eq!(first["premiumChannelName"], "Metals Open");
    assert_eq!(first["categories"][0]["name"], "Copper");
    assert_eq!(first["tags"][0]["name"], "LME");
    let third = w.app.gql(Some(&w.editor), REVISION, json!({ "id": revisions[1]["_id"] })).await;
    assert_eq!(third["data"]["articleRevision"]["html"], "<p>Copper rose 3%.</p>");

    // Four revisions, two distinct bodies: each kept once.
    let bodies: i64 = sqlx::query_scalar(
        "select count(distinct r.body_hash) from article_revision r where r.article_id = $1 and exists (select 1 from article_body b where b.body_hash = r.body_hash)",
    )
    .bind(added["_id"].as_str())
    .fetch_one(&w.app.pool)
    .await
    .unwrap();
    assert_eq!(bodies, 2);
    let stored: i64 = sqlx::query_scalar("select count(*) from article_body").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(stored, 2);

    // Revisions are records: they cannot be changed.
    let error = sqlx::query("update article_revision set title = 'forged'").execute(&w.app.pool).await.unwrap_err();
    assert!(error.to_string().contains("append-only"), "{error}");
}

#[sqlx::test]
async fn a_restore_is_a_new_draft_checked_by_version_and_audited(pool: PgPool) {
    let w = world(pool).await;
    let added = w.write("addArticle", w.item.clone()).await;
    let published = w.write("publishEdit", w.edit(&added, json!({ "title": "Copper sinks", "html": "<p>Down.</p>", "summary": "Lower" }))).await;
    let revisions = w.revisions(&w.editor, &added["_id"]).await["data"]["articleRevisions"].clone();
    let first = revisions[1]["_id"].clone();

    let stale = w.app.gql(Some(&w.editor), RESTORE, json!({ "a": added["_id"], "r": first, "v": added["version"] })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"), "{stale}");

    let restored = w.app.gql(Some(&w.editor), RESTORE, json!({ "a": added["_id"], "r": first, "v": published["version"] })).await;
    assert_eq!(restored["errors"], Value::Null, "{restored}");
    let restored = &restored["data"]["restoreArticleRevision"];
    assert_eq!(restored["title"], "Copper outlook");
    assert_eq!(restored["state"], "Pending");
    let article = w.app.gql(Some(&w.editor), "query($id: ID!) { findArticleById(id: $id) { html summary } }", json!({ "id": added["_id"] })).await;
    assert_eq!(article["data"]["findArticleById"], json!({ "html": "<p>Copper rose.</p>", "summary": "Prices up" }));

    let revisions = w.revisions(&w.editor, &added["_id"]).await["data"]["articleRevisions"].clone();
    assert_eq!(revisions[0]["action"], "restore");
    assert_eq!(revisions[0]["restoredFrom"], 1);
    assert_eq!(revisions[0]["number"], 3);

    let audited: i64 = sqlx::query_scalar(
        "select count(*) from audit_event where action = 'restoreArticleRevision' and entity_type = 'article' and entity_id = $1 and actor_id = $2",
    )
    .bind(added["_id"].as_str())
    .bind(&w.editor_id)
    .fetch_one(&w.app.pool)
    .await
    .unwrap();
    assert!(audited >= 1, "the restore is in the audit trail");

    // Another article's revision is not this one's.
    let other = w.write("addArticle", w.item.clone()).await;
    let response = w.app.gql(Some(&w.editor), RESTORE, json!({ "a": other["_id"], "r": first, "v": other["version"] })).await;
    assert_eq!(error_code(&response), Some("NOT_FOUND"), "{response}");
}

#[sqlx::test]
async fn the_first_publication_never_changes_and_updated_follows_what_readers_see(pool: PgPool) {
    let w = world(pool).await;
    let published = w.write("publishAdd", w.item.clone()).await;
    let first_published = published["firstPublishedAt"].clone();
    assert!(first_published.is_string(), "{published}");
    assert_eq!(published["updatedAt"], Value::Null);
    assert_eq!(w.reader_view(&published["_id"]).await, json!({ "firstPublishedAt": first_published, "updatedAt": null }));

    // Republished with only a setting changed: readers see the same article, no "updated".
    let pinned = w.write("publishEdit", w.edit(&published, json!({ "isPinned": true }))).await;
    assert_eq!(pinned["updatedAt"], Value::Null, "{pinned}");

    // A new title: updated.
    let retitled = w.write("publishEdit", w.edit(&pinned, json!({ "isPinned": true, "title": "Copper outlook (corrected)" }))).await;
    assert!(retitled["updatedAt"].is_string(), "{retitled}");
    assert_eq!(retitled["firstPublishedAt"], first_published);

    // Archived, back to draft and published again: still first published when it first was.
    let archive = "mutation($id: ID!, $v: Int!) { archiveArticle(_id: $id, version: $v) { _id version } }";
    let archived = w.app.gql(Some(&w.editor), archive, json!({ "id": retitled["_id"], "v": retitled["version"] })).await;
    let archived = &archived["data"]["archiveArticle"];
    let draft = w.write("editArticle", w.edit(archived, json!({ "title": "Copper outlook (corrected)" }))).await;
    assert_eq!(draft["firstPublishedAt"], first_published);
    let again = w.write("publishEdit", w.edit(&draft, json!({ "title": "Copper outlook (corrected)" }))).await;
    assert_eq!(again["firstPublishedAt"], first_published);
    let view = w.reader_view(&again["_id"]).await;
    assert_eq!(view["firstPublishedAt"], first_published);
    assert!(view["updatedAt"].is_string());

    // Cards tell the same.
    let cards = w
        .app
        .gql(Some(&w.reader), "{ getArticles(first: 9) { articles { _id firstPublishedAt updatedAt } } }", json!({}))
        .await;
    let card = cards["data"]["getArticles"]["articles"].as_array().unwrap().iter().find(|c| c["_id"] == again["_id"]).cloned();
    assert_eq!(card.map(|c| c["firstPublishedAt"].clone()), Some(first_published), "{cards}");

    // Even written directly, the first publication time stays.
    sqlx::query("update article set first_published_at = now() + interval '1 day' where article_id = $1")
        .bind(again["_id"].as_str())
        .execute(&w.app.pool)
        .await
        .unwrap();
    assert_eq!(w.reader_view(&again["_id"]).await["firstPublishedAt"], again["firstPublishedAt"]);
}

#[sqlx::test]
async fn only_staff_who_may_open_the_article_read_its_history(pool: PgPool) {
    let w = world(pool).await;
    let added = w.write("addArticle", w.item.clone()).await;
    let revisions = w.revisions(&w.editor, &added["_id"]).await["data"]["articleRevisions"].clone();
    let revision = revisions[0]["_id"].clone();

    // A contributor on no desk, channel or credit of it, and a reader.
    let outsider = w.app.token(TestRole::Contributor).await;
    for token in [&outsider, &w.reader] {
        let response = w.revisions(token, &added["_id"]).await;
        assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");
        let response = w.app.gql(Some(token), REVISION, json!({ "id": revision })).await;
        assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");
        let response = w.app.gql(Some(token), RESTORE, json!({ "a": added["_id"], "r": revision, "v": added["version"] })).await;
        assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");
    }
    // An Administrator may.
    let response = w.revisions(&w.admin, &added["_id"]).await;
    assert_eq!(response["data"]["articleRevisions"].as_array().map(Vec::len), Some(1), "{response}");
    let unknown = w.app.gql(Some(&w.admin), REVISION, json!({ "id": "000000000000000000000000" })).await;
    assert_eq!(error_code(&unknown), Some("NOT_FOUND"), "{unknown}");
}
