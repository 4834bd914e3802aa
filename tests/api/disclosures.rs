//! Disclosures (issue 40): Administrators write them per channel and desk, each edit a version;
//! an article shows the versions it was published under, so a later edit changes only articles
//! published after it, and a revision tells which disclosure went with it.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

const EDIT: &str = "mutation($item: DisclosureInput!) { editDisclosure(item: $item) { scopeType scopeId scopeName version html } }";
const READ: &str = "query($id: ID!) { findPublishedArticleById(id: $id) { disclosures { scopeType scopeName version html } } }";

struct World {
    app: TestApp,
    admin: String,
    editor: String,
    reader: String,
    desk: String,
    channel: String,
    topic: String,
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
    World { app, admin, editor, reader, desk, channel, topic }
}

impl World {
    async fn edit(&self, token: &str, scope: &str, id: &str, html: &str, version: i64) -> Value {
        let item = json!({ "scopeType": scope, "scopeId": id, "html": html, "version": version });
        self.app.gql(Some(token), EDIT, json!({ "item": item })).await
    }

    async fn publish(&self, title: &str) -> String {
        let item = json!({ "title": title, "html": "<p>Copper rose.</p>", "summary": "Up", "premiumChannelId": self.channel, "isPremium": false,
                           "categories": [self.topic], "tags": [] });
        let query = "mutation($item: ArticleInput!) { publishAdd(item: $item) { _id version } }";
        let response = self.app.gql(Some(&self.editor), query, json!({ "item": item })).await;
        response["data"]["publishAdd"]["_id"].as_str().unwrap_or_else(|| panic!("{response}")).to_owned()
    }

    async fn shown(&self, article: &str) -> Vec<(String, i64, String)> {
        let response = self.app.gql(Some(&self.reader), READ, json!({ "id": article })).await;
        let list = response["data"]["findPublishedArticleById"]["disclosures"].as_array().unwrap_or_else(|| panic!("{response}")).clone();
        list.iter()
            .map(|d| (d["scopeType"].as_str().unwrap().to_owned(), d["version"].as_i64().unwrap(), d["html"].as_str().unwrap().to_owned()))
            .collect()
    }
}

#[sqlx::test]
async fn administrators_write_versioned_disclosures(pool: PgPool) {
    let w = world(pool).await;
    let refused = w.edit(&w.editor, "channel", &w.channel, "<p>Conflicts</p>", 0).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));
    let first = w.edit(&w.admin, "channel", &w.channel, "<p>Conflicts of interest</p><script>x()</script>", 0).await;
    assert_eq!(
        first["data"]["editDisclosure"],
        json!({ "scopeType": "channel", "scopeId": w.channel, "scopeName": "Metals Open", "version": 1, "html": "<p>Conflicts of interest</p>" }),
        "{first}"
    );
    let stale = w.edit(&w.admin, "channel", &w.channel, "<p>Again</p>", 0).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    let unknown = w.edit(&w.admin, "desk", "0123456789abcdef01234567", "<p>x</p>", 0).await;
    assert_eq!(error_code(&unknown), Some("NOT_FOUND"));
    let list = w.app.gql(Some(&w.editor), "{ disclosures { scopeType version } }", json!({})).await;
    assert_eq!(list["data"]["disclosures"], json!([{ "scopeType": "channel", "version": 1 }]), "{list}");
    let audited: i64 = sqlx::query_scalar("select count(*) from audit_event where action = 'editDisclosure' and entity_type = 'disclosure'")
        .fetch_one(&w.app.pool)
        .await
        .unwrap();
    assert_eq!(audited, 1);
    let error = sqlx::query("update disclosure set html = 'forged'").execute(&w.app.pool).await.unwrap_err();
    assert!(error.to_string().contains("versioned"), "{error}");
}

#[sqlx::test]
async fn an_article_shows_the_disclosures_it_was_published_under(pool: PgPool) {
    let w = world(pool).await;
    w.edit(&w.admin, "channel", &w.channel, "<p>Channel disclosure one</p>", 0).await;
    w.edit(&w.admin, "desk", &w.desk, "<p>Desk disclosure one</p>", 0).await;
    let early = w.publish("Copper early").await;
    assert_eq!(
        w.shown(&early).await,
        [("channel".into(), 1, "<p>Channel disclosure one</p>".into()), ("desk".into(), 1, "<p>Desk disclosure one</p>".into())]
    );

    // A new version: the early article keeps what it was published under; a later one shows the new.
    w.edit(&w.admin, "channel", &w.channel, "<p>Channel disclosure two</p>", 1).await;
    assert_eq!(w.shown(&early).await[0], ("channel".into(), 1, "<p>Channel disclosure one</p>".into()));
    let later = w.publish("Copper later").await;
    assert_eq!(w.shown(&later).await[0], ("channel".into(), 2, "<p>Channel disclosure two</p>".into()));

    // The early article's first revision tells which disclosures went with it.
    let revisions = w.app.gql(Some(&w.admin), "query($id: ID!) { articleRevisions(articleId: $id) { _id } }", json!({ "id": early })).await;
    let revision = revisions["data"]["articleRevisions"][0]["_id"].clone();
    let query = "query($id: ID!) { articleRevision(id: $id) { disclosures { scopeType version } } }";
    let response = w.app.gql(Some(&w.admin), query, json!({ "id": revision })).await;
    assert_eq!(
        response["data"]["articleRevision"]["disclosures"],
        json!([{ "scopeType": "channel", "version": 1 }, { "scopeType": "desk", "version": 1 }]),
        "{response}"
    );

    // Withdrawn (an empty text): articles published after show none from that channel.
    w.edit(&w.admin, "channel", &w.channel, "<p></p>", 2).await;
    let latest = w.publish("Copper latest").await;
    assert_eq!(w.shown(&latest).await, [("desk".into(), 1, "<p>Desk disclosure one</p>".into())]);
}
