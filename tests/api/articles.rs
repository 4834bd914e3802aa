//! Articles: the lifecycle of spec 2 §4 (save, publish, archive, unarchive), the publish gaps, the
//! channel rules, the custom publish date, permissions per record, sanitising on save, concurrent
//! edits, the notification request, the list and the stats, and the channel-archive cascade.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, tokens};

const FIELDS: &str = "_id title html summary state version publishDate wasPublishedPreviously isPremium premiumExpiryOffset
    premiumExpiresAt isPremiumActive sendEmails templateId canEdit canViewStats
    publishedBy { _id name type } premiumChannel { _id name type } contributors { _id } categories { _id name } tags { _id name }";

fn mutation(name: &str) -> String {
    format!("mutation($item: ArticleInput!) {{ {name}(item: $item) {{ {FIELDS} }} }}")
}

const ARCHIVE: &str = "mutation($id: ID!, $version: Int!) { archiveArticle(_id: $id, version: $version) { _id state version } }";
const FIND: &str = "query($id: ID!) { findArticleById(id: $id) { _id title state version canEdit } }";
const LIST: &str = "query($params: ArticleListParams) { articles(params: $params) { total articles { _id title state uniqueViews views canEdit canViewStats publishedBy { name } } } }";

/// An app with an editor and a contributor on a desk that owns a premium channel and a free-open
/// channel, and a topic and a tag.
struct World {
    app: TestApp,
    admin: String,
    editor: String,
    editor_id: String,
    contributor: String,
    contributor_id: String,
    desk: String,
    premium: String,
    open: String,
    topic: String,
    tag: String,
}

async fn world(pool: PgPool) -> World {
    world_with(pool, &[]).await
}

/// The world of an app started with `flags`.
async fn world_with(pool: PgPool, flags: &[&str]) -> World {
    let app = TestApp::spawn_with(pool, flags).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let contributor = app.token(TestRole::Contributor).await;
    let (editor_id, contributor_id) = (app.user_id(&editor).await, app.user_id(&contributor).await);
    let desk = app.add_desk(&admin, "Energy desk", &[&editor_id, &contributor_id]).await;
    let premium = app.add_channel(&admin, TestApp::premium_channel("Energy Premium", &desk, &[])).await;
    let mut open = TestApp::premium_channel("Energy Open", &desk, &[]);
    open["type"] = json!("freeOpen");
    let open = app.add_channel(&admin, open).await;
    let topic = app.add_category(&admin, "Oil", None).await;
    let tag = app.add_tag(&admin, "Brent").await;
    World { app, admin, editor, editor_id, contributor, contributor_id, desk, premium, open, topic, tag }
}

impl World {
    /// A complete article: nothing is missing to publish it.
    fn complete(&self) -> Value {
        json!({
            "title": "Oil outlook", "html": "<p>Brent rose.</p>", "summary": "Prices up",
            "premiumChannelId": self.premium, "contributors": [self.contributor_id], "categories": [self.topic],
            "tags": [self.tag], "isPremium": true, "premiumExpiryOffset": "1w",
        })
    }

    async fn call(&self, token: &str, name: &str, item: Value) -> Value {
        self.app.gql(Some(token), &mutation(name), json!({ "item": item })).await
    }

    /// Calls `name` and returns the article, panicking with the response on failure.
    async fn ok(&self, token: &str, name: &str, item: Value) -> Value {
        let response = self.call(token, name, item).await;
        assert_eq!(response["errors"], Value::Null, "{name}: {response}");
        response["data"][name].clone()
    }

    async fn archive(&self, token: &str, article: &Value) -> Value {
        self.app.gql(Some(token), ARCHIVE, json!({ "id": article["_id"], "version": article["version"] })).await
    }
}

/// `item` as an edit of `article` at its version.
fn edit_of(article: &Value, mut item: Value) -> Value {
    item["_id"] = article["_id"].clone();
    item["version"] = article["version"].clone();
    item
}

#[sqlx::test(migrations = "./migrations")]
async fn the_lifecycle_goes_draft_published_draft_archived_and_back(pool: PgPool) {
    let w = world(pool).await;
    // New: 'Save to draft' stores Pending and needs only a title; newlines become spaces.
    let draft = w.ok(&w.contributor, "addArticle", json!({ "title": "Oil\noutlook\r\nQ3" })).await;
    assert_eq!(draft["state"], "Pending");
    assert_eq!(draft["title"], "Oil outlook Q3");
    assert_eq!(draft["version"], 1);
    // The contributor who started it is credited, so they can come back to it.
    assert_eq!(draft["contributors"], json!([{ "_id": w.contributor_id }]));

    // Draft: 'Update draft' stays Pending and bumps the version.
    let draft = w.ok(&w.contributor, "editArticle", edit_of(&draft, w.complete())).await;
    assert_eq!((draft["state"].as_str(), draft["version"].as_i64()), (Some("Pending"), Some(2)));
    assert_eq!(draft["publishDate"], Value::Null);

    // Draft: 'Publish' (an editor).
    let published = w.ok(&w.editor, "publishEdit", edit_of(&draft, w.complete())).await;
    assert_eq!(published["state"], "Published");
    assert_eq!(published["wasPublishedPreviously"], true);
    assert!(published["publishDate"].is_string());
    assert_eq!(published["publishedBy"], json!({ "_id": w.desk, "name": "Energy desk", "type": "desk" }));

    // Published: 'Update' keeps the first publish date; 'Convert to draft' stores Pending.
    let updated = w.ok(&w.editor, "publishEdit", edit_of(&published, w.complete())).await;
    assert_eq!(updated["publishDate"], published["publishDate"]);
    let converted = w.ok(&w.editor, "editArticle", edit_of(&updated, w.complete())).await;
    assert_eq!(converted["state"], "Pending");
    assert_eq!(converted["wasPublishedPreviously"], true);

    // Archive only existing, non-archived articles.
    let archived = w.archive(&w.editor, &converted).await;
    assert_eq!(archived["data"]["archiveArticle"]["state"], "Archived", "{archived}");
    let archived = archived["data"]["archiveArticle"].clone();
    let again = w.archive(&w.editor, &archived).await;
    assert_eq!(error_code(&again), Some("CONFLICT"));

    // Archived: 'Update and unarchive' stores a draft; 'Publish' publishes.
    let unarchived = w.ok(&w.editor, "editArticle", edit_of(&archived, w.complete())).await;
    assert_eq!(unarchived["state"], "Pending");
    let archived = w.archive(&w.editor, &unarchived).await["data"]["archiveArticle"].clone();
    let republished = w.ok(&w.editor, "publishEdit", edit_of(&archived, w.complete())).await;
    assert_eq!(republished["state"], "Published");

    // New: publish directly.
    let fresh = w.ok(&w.editor, "publishAdd", w.complete()).await;
    assert_eq!(fresh["state"], "Published");
    assert_state_counts_match(&w.app.pool).await;
}

/// The trigger-kept counts per state (the list's unfiltered totals) equal the articles' states.
async fn assert_state_counts_match(pool: &PgPool) {
    let kept: Vec<(String, i64)> =
        sqlx::query_as("select state, articles from article_state_count where articles > 0 order by state").fetch_all(pool).await.unwrap();
    let real: Vec<(String, i64)> =
        sqlx::query_as("select state, count(*) from article group by state order by state").fetch_all(pool).await.unwrap();
    assert_eq!(kept, real);
}

#[sqlx::test(migrations = "./migrations")]
async fn publishing_reports_every_gap_and_a_draft_needs_only_a_title(pool: PgPool) {
    let w = world(pool).await;
    let untitled = w.call(&w.contributor, "addArticle", json!({ "title": " \n " })).await;
    assert_eq!(error_code(&untitled), Some("BAD_USER_INPUT"));
    assert_eq!(untitled["errors"][0]["extensions"]["fields"], json!({ "title": "This field is required" }));

    // An administrator is not credited automatically, so every gap shows.
    let empty = w.call(&w.admin, "publishAdd", json!({ "title": "", "html": "<p><br></p>" })).await;
    assert_eq!(error_code(&empty), Some("BAD_USER_INPUT"));
    assert_eq!(
        empty["errors"][0]["extensions"]["gaps"],
        json!(["TextAbsent", "PublisherAbsent", "ContributorAbsent", "SummaryAbsent", "CategoriesAbsent", "TitleAbsent", "ChannelAbsent"])
    );
    // Each gap on its own.
    let cases = [
        ("html", json!("<p>  </p>"), "TextAbsent"),
        ("contributors", json!([]), "ContributorAbsent"),
        ("summary", json!(" "), "SummaryAbsent"),
        ("categories", json!([]), "CategoriesAbsent"),
        ("title", json!(""), "TitleAbsent"),
    ];
    for (field, value, gap) in cases {
        let mut item = w.complete();
        item[field] = value;
        let refused = w.call(&w.admin, "publishAdd", item).await;
        assert_eq!(refused["errors"][0]["extensions"]["gaps"], json!([gap]), "{field}: {refused}");
    }
    let mut item = w.complete();
    item["premiumChannelId"] = json!(null);
    let refused = w.call(&w.admin, "publishAdd", item).await;
    assert_eq!(refused["errors"][0]["extensions"]["gaps"], json!(["PublisherAbsent", "ChannelAbsent"]));
    // An image alone is a body.
    let mut item = w.complete();
    item["html"] = json!(r#"<p><img src="/uploads/0123456789abcdef01234567.png"></p>"#);
    w.ok(&w.admin, "publishAdd", item).await;
    // Nothing was stored by the refusals.
    let count: i64 = sqlx::query_scalar("select count(*) from article").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(count, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn summary_and_publish_date_are_checked(pool: PgPool) {
    let w = world(pool).await;
    let mut item = w.complete();
    item["summary"] = json!("s".repeat(251));
    let long = w.call(&w.editor, "addArticle", item).await;
    assert_eq!(long["errors"][0]["extensions"]["fields"], json!({ "summary": "Maximum 250 characters" }));

    let mut item = w.complete();
    item["publishDate"] = json!((chrono::Utc::now() + chrono::Duration::hours(2)).to_rfc3339());
    let future = w.call(&w.editor, "publishAdd", item).await;
    assert_eq!(future["errors"][0]["extensions"]["fields"], json!({ "publishDate": "Invalid Publish Date" }));

    // A back-date from an editor is kept; the expiry counts from it.
    let mut item = w.complete();
    item["publishDate"] = json!("2024-01-05T09:00:00Z");
    let back_dated = w.ok(&w.editor, "publishAdd", item).await;
    assert_eq!(back_dated["publishDate"], "2024-01-05T09:00:00+00:00");
    assert_eq!(back_dated["premiumExpiresAt"], "2024-01-12T09:00:00+00:00");
    assert_eq!(back_dated["isPremiumActive"], false);

    // Only users with publish rights set a custom date.
    let mut item = w.complete();
    item["publishDate"] = json!("2024-01-05T09:00:00Z");
    let contributor = w.call(&w.contributor, "addArticle", item).await;
    assert_eq!(error_code(&contributor), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn only_users_with_tableau_access_change_display_in_chart_section(pool: PgPool) {
    let w = world(pool).await;
    let mut item = w.complete();
    item["displayInChartSection"] = json!(true);
    let refused = w.call(&w.editor, "addArticle", item.clone()).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));

    sqlx::query("update users set tableau_access = true where user_id = $1").bind(&w.editor_id).execute(&w.app.pool).await.unwrap();
    let charted = w.ok(&w.editor, "addArticle", item).await;
    sqlx::query("update users set tableau_access = false where user_id = $1").bind(&w.editor_id).execute(&w.app.pool).await.unwrap();
    // Without access the flag is kept as it is: an edit that leaves it passes, one that clears it does not.
    let mut keep = edit_of(&charted, w.complete());
    keep["displayInChartSection"] = json!(true);
    let kept = w.ok(&w.editor, "editArticle", keep).await;
    let cleared = w.call(&w.editor, "editArticle", edit_of(&kept, w.complete())).await;
    assert_eq!(error_code(&cleared), Some("FORBIDDEN"));
    let flag: bool = sqlx::query_scalar("select display_in_chart_section from article where article_id = $1")
        .bind(kept["_id"].as_str())
        .fetch_one(&w.app.pool)
        .await
        .unwrap();
    assert!(flag);
}

/// An article's stored access: (is_premium, premium_expiry_offset).
async fn stored_access(w: &World, article: &Value) -> (bool, Option<String>) {
    sqlx::query_as("select is_premium, premium_expiry_offset from article where article_id = $1")
        .bind(article["_id"].as_str())
        .fetch_one(&w.app.pool)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn with_premium_features_off_the_channel_decides_access_and_nothing_is_opened(pool: PgPool) {
    let w = world_with(pool, &["--feature-premium-features", "false"]).await;
    // A new article of a premium channel is for its subscribers, whatever the author asks: no
    // open-to-all, no premium period that ends.
    let mut item = w.complete();
    item["isPremium"] = json!(false);
    item["premiumExpiryOffset"] = json!("3d");
    let premium = w.ok(&w.editor, "addArticle", item).await;
    assert_eq!((premium["isPremium"].as_bool(), premium["premiumExpiryOffset"].as_str()), (Some(true), None), "{premium}");
    let mut item = w.complete();
    item["premiumChannelId"] = json!(w.open);
    let free = w.ok(&w.editor, "addArticle", item).await;
    assert_eq!((free["isPremium"].as_bool(), free["premiumExpiryOffset"].as_str()), (Some(false), None));

    // An article saved while the options were on keeps its terms while it stays in its channel.
    sqlx::query("update article set premium_expiry_offset = '1w' where article_id = $1")
        .bind(premium["_id"].as_str())
        .execute(&w.app.pool)
        .await
        .unwrap();
    let mut item = edit_of(&premium, w.complete());
    item["isPremium"] = json!(false);
    item["premiumExpiryOffset"] = Value::Null;
    let kept = w.ok(&w.editor, "editArticle", item).await;
    assert_eq!((kept["isPremium"].as_bool(), kept["premiumExpiryOffset"].as_str()), (Some(true), Some("1w")), "{kept}");
    sqlx::query("update article set is_premium = false, premium_expiry_offset = null where article_id = $1")
        .bind(premium["_id"].as_str())
        .execute(&w.app.pool)
        .await
        .unwrap();
    let open = w.ok(&w.editor, "editArticle", edit_of(&kept, w.complete())).await;
    assert_eq!(stored_access(&w, &open).await, (false, None), "an open article stays open: {open}");
    // Moved to another channel, it takes that channel's access.
    let mut item = edit_of(&open, w.complete());
    item["premiumChannelId"] = json!(w.open);
    let moved = w.ok(&w.editor, "editArticle", item).await;
    assert_eq!(stored_access(&w, &moved).await, (false, None));
    let mut item = edit_of(&moved, w.complete());
    item["isPremium"] = json!(false);
    let back = w.ok(&w.editor, "editArticle", item).await;
    assert_eq!(stored_access(&w, &back).await, (true, None), "back in the premium channel: its subscribers'");

    // Published, it is gated: a reader without a subscription gets no body.
    let published = w.ok(&w.editor, "publishEdit", edit_of(&back, w.complete())).await;
    let (reader, _) = w.app.signed_in_reader("reader@client.example").await;
    let read = w
        .app
        .gql(
            Some(&reader),
            "query($id: ID!) { findPublishedArticleById(id: $id) { canSeeFullVersion html } }",
            json!({ "id": published["_id"] }),
        )
        .await;
    assert_eq!(read["data"]["findPublishedArticleById"], json!({ "canSeeFullVersion": false, "html": null }), "{read}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_channel_sets_the_publisher_and_the_premium_flags(pool: PgPool) {
    let w = world(pool).await;
    // Premium channel: the flag is stored as sent (the inverse of open-to-all), with the offset.
    let premium = w.ok(&w.editor, "addArticle", w.complete()).await;
    assert_eq!((premium["isPremium"].as_bool(), premium["premiumExpiryOffset"].as_str()), (Some(true), Some("1w")));
    assert_eq!(premium["premiumChannel"]["name"], "Energy Premium");
    // Open to all: no premium flag, so no expiry either.
    let mut item = edit_of(&premium, w.complete());
    item["isPremium"] = json!(false);
    let open_to_all = w.ok(&w.editor, "editArticle", item).await;
    assert_eq!((open_to_all["isPremium"].as_bool(), open_to_all["premiumExpiryOffset"].as_str()), (Some(false), None));
    // A free-open channel never stores the flag.
    let mut item = w.complete();
    item["premiumChannelId"] = json!(w.open);
    let free = w.ok(&w.editor, "addArticle", item).await;
    assert_eq!((free["isPremium"].as_bool(), free["premiumExpiryOffset"].as_str()), (Some(false), None));
    assert_eq!(free["publishedBy"]["_id"], w.desk);
    // Offsets are 3d, 1w or 1m.
    let mut item = w.complete();
    item["premiumExpiryOffset"] = json!("2w");
    let bad = w.call(&w.editor, "addArticle", item).await;
    assert_eq!(bad["errors"][0]["extensions"]["fields"], json!({ "premiumExpiryOffset": "Choose 3d, 1w or 1m" }));
}

#[sqlx::test(migrations = "./migrations")]
async fn permissions_follow_contributors_channel_admins_and_desks(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    // A contributor of another desk, and an editor who administers the premium channel only.
    let outsider = tokens::for_user(&app.state, "outsider@test.example", TestRole::Contributor.scopes()).await;
    let outsider_id = app.user_id(&outsider).await;
    app.add_desk(&w.admin, "Metals desk", &[&outsider_id]).await;
    let channel_admin = tokens::for_user(&app.state, "chadmin@test.example", TestRole::Editor.scopes()).await;
    let channel_admin_id = app.user_id(&channel_admin).await;
    let admins_channel = app.add_channel(&w.admin, TestApp::premium_channel("Energy Admins", &w.desk, &[&channel_admin_id])).await;

    // Published by the energy desk in its premium channel, credited to the contributor only (an
    // administrator is not credited on what they start).
    let article = w.ok(&w.admin, "publishAdd", w.complete()).await;
    let id = json!({ "id": article["_id"] });
    // A desk member who is not credited (the editor) opens it; the outsider may not.
    assert_eq!(app.gql(Some(&w.editor), FIND, id.clone()).await["data"]["findArticleById"]["canEdit"], true);
    assert_eq!(error_code(&app.gql(Some(&outsider), FIND, id.clone()).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&w.call(&outsider, "editArticle", edit_of(&article, w.complete())).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&w.archive(&outsider, &article).await), Some("FORBIDDEN"));
    // Administrators open any article; readers none.
    assert_eq!(app.gql(Some(&w.admin), FIND, id.clone()).await["data"]["findArticleById"]["canEdit"], true);
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader), FIND, id.clone()).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&w.call(&reader, "addArticle", json!({ "title": "x" })).await), Some("FORBIDDEN"));

    // The list shows every article to staff, with canEdit by the same rule.
    let list = app.gql(Some(&outsider), LIST, json!({})).await;
    assert_eq!(list["data"]["articles"]["articles"][0]["canEdit"], false, "{list}");
    assert_eq!(list["data"]["articles"]["articles"][0]["canViewStats"], false);

    // An admin of the article's channel opens it (moved into their channel by the desk's editor).
    let mut item = edit_of(&article, w.complete());
    item["premiumChannelId"] = json!(admins_channel);
    let moved = w.ok(&w.editor, "publishEdit", item).await;
    assert_eq!(app.gql(Some(&channel_admin), FIND, json!({ "id": moved["_id"] })).await["data"]["findArticleById"]["canEdit"], true);

    // Non-admins choose only channels they may publish to.
    let mut item = w.complete();
    item["premiumChannelId"] = json!(w.premium);
    assert_eq!(error_code(&w.call(&outsider, "addArticle", item).await), Some("FORBIDDEN"));
    // Contributors do not publish, and change only drafts.
    assert_eq!(error_code(&w.call(&w.contributor, "publishAdd", w.complete()).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&w.call(&w.contributor, "editArticle", edit_of(&moved, w.complete())).await), Some("FORBIDDEN"));
    let draft = w.ok(&w.contributor, "addArticle", w.complete()).await;
    w.ok(&w.contributor, "editArticle", edit_of(&draft, w.complete())).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn two_editors_editing_at_once_one_wins_and_the_other_gets_conflict(pool: PgPool) {
    let w = world(pool).await;
    let second_editor = tokens::for_user(&w.app.state, "editor2@test.example", TestRole::Editor.scopes()).await;
    let second_id = w.app.user_id(&second_editor).await;
    w.app.gql(
        Some(&w.admin),
        "mutation($item: DeskInput!) { editDesk(item: $item) { _id } }",
        json!({ "item": { "_id": w.desk, "version": 1, "name": "Energy desk", "contributors": [w.editor_id, w.contributor_id, second_id] } }),
    )
    .await;
    let article = w.ok(&w.editor, "addArticle", w.complete()).await;
    let mut first = edit_of(&article, w.complete());
    first["title"] = json!("First editor's title");
    let mut second = edit_of(&article, w.complete());
    second["title"] = json!("Second editor's title");
    let (a, b) = tokio::join!(w.call(&w.editor, "editArticle", first), w.call(&second_editor, "editArticle", second));
    let codes = [error_code(&a), error_code(&b)];
    assert!(codes.contains(&None) && codes.contains(&Some("CONFLICT")), "{a} {b}");
    let winner = if error_code(&a).is_none() { &a } else { &b };
    let stored: (String, i32) = sqlx::query_as("select title, version from article").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(stored.0, winner["data"]["editArticle"]["title"].as_str().unwrap());
    assert_eq!(stored.1, 2);
    // The loser's stale version stays refused; archive too.
    assert_eq!(error_code(&w.archive(&w.editor, &article).await), Some("CONFLICT"));
}

#[sqlx::test(migrations = "./migrations")]
async fn html_is_sanitised_before_it_is_stored(pool: PgPool) {
    let w = world(pool).await;
    let mut item = w.complete();
    item["html"] = json!(concat!(
        r#"<h2 onclick="alert(1)">Heading</h2><script>alert(1)</script><p><a href="javascript:alert(1)">x</a></p>"#,
        r#"<iframe src="https://evil.example/embed"></iframe><iframe src="https://player.vimeo.com/video/1"></iframe>"#,
        r#"<table><tr><td>cell</td></tr></table><div data-promotional-content-id="0123456789abcdef01234567"></div>"#,
    ));
    let article = w.ok(&w.editor, "addArticle", item).await;
    let html =
        w.app.gql(Some(&w.editor), "query($id: ID!) { findArticleById(id: $id) { html } }", json!({ "id": article["_id"] })).await["data"]
            ["findArticleById"]["html"]
            .as_str()
            .unwrap()
            .to_owned();
    for gone in ["onclick", "<script", "javascript:", "evil.example", "<table", "<td"] {
        assert!(!html.contains(gone), "{gone} kept in {html}");
    }
    for kept in ["<h2>Heading</h2>", "https://player.vimeo.com/video/1", "cell", "data-promotional-content-id"] {
        assert!(html.contains(kept), "{kept} lost from {html}");
    }
    // The searchable text is the body's text.
    let body: String = sqlx::query_scalar("select body_text from article").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(body, "Heading x cell");
    // The list tells the same html when asked for it (it is read only then).
    let list = w.app.gql(Some(&w.editor), "{ articles { articles { _id html } } }", json!({})).await;
    assert_eq!(list["data"]["articles"]["articles"][0]["html"], json!(html), "{list}");
}

#[sqlx::test(migrations = "./migrations")]
async fn publishing_records_a_notification_request_when_emails_are_sent(pool: PgPool) {
    let w = world(pool).await;
    let requests = || async {
        let rows: Vec<(String,)> =
            sqlx::query_as("select article_id from article_notification_request order by request_id").fetch_all(&w.app.pool).await.unwrap();
        let jobs = w.app.jobs_like("notify_article_subscribers").await;
        (rows.len(), jobs)
    };
    // A fresh article published now always notifies, whatever the checkbox says.
    let mut item = w.complete();
    item["sendEmails"] = json!(false);
    let fresh = w.ok(&w.editor, "publishAdd", item).await;
    assert_eq!(fresh["sendEmails"], true);
    assert_eq!(requests().await, (1, 1));
    // An update follows the checkbox.
    let mut item = edit_of(&fresh, w.complete());
    item["sendEmails"] = json!(false);
    let quiet = w.ok(&w.editor, "publishEdit", item).await;
    assert_eq!(quiet["sendEmails"], false);
    assert_eq!(requests().await, (1, 1));
    let mut item = edit_of(&quiet, w.complete());
    item["sendEmails"] = json!(true);
    w.ok(&w.editor, "publishEdit", item).await;
    assert_eq!(requests().await, (2, 2));
    // The first publish announces a new article, the notifying update an updated one.
    let updates: Vec<bool> =
        sqlx::query_scalar("select is_update from article_notification_request order by request_id").fetch_all(&w.app.pool).await.unwrap();
    assert_eq!(updates, [false, true]);
    // A back-dated fresh article follows the checkbox too; drafts never notify.
    let mut item = w.complete();
    item["publishDate"] = json!("2024-01-05T09:00:00Z");
    let back_dated = w.ok(&w.editor, "publishAdd", item).await;
    assert_eq!(back_dated["sendEmails"], false);
    w.ok(&w.editor, "addArticle", w.complete()).await;
    assert_eq!(requests().await, (2, 2));
}

#[sqlx::test(migrations = "./migrations")]
async fn archiving_a_channel_archives_its_articles_and_unlinks_its_templates(pool: PgPool) {
    let w = world(pool).await;
    let published = w.ok(&w.editor, "publishAdd", w.complete()).await;
    let draft = w.ok(&w.editor, "addArticle", w.complete()).await;
    let template = w
        .app
        .gql(
            Some(&w.editor),
            "mutation($item: TemplateInput!) { addTemplate(item: $item) { _id } }",
            json!({ "item": { "title": "Daily {{today}}", "premiumChannelId": w.premium } }),
        )
        .await;
    let template_id = template["data"]["addTemplate"]["_id"].as_str().unwrap_or_else(|| panic!("{template}")).to_owned();
    let counts =
        w.app.gql(Some(&w.admin), "query($id: ID!) { channel(id: $id) { articleCount templateCount } }", json!({ "id": w.premium })).await;
    assert_eq!(counts["data"]["channel"], json!({ "articleCount": 2, "templateCount": 1 }));

    let archived = w.app.gql(Some(&w.admin), "mutation($id: ID!) { archiveChannel(id: $id) { state } }", json!({ "id": w.premium })).await;
    assert_eq!(archived["data"]["archiveChannel"]["state"], "archived", "{archived}");
    for article in [&published, &draft] {
        let found = w.app.gql(Some(&w.admin), FIND, json!({ "id": article["_id"] })).await;
        assert_eq!(found["data"]["findArticleById"]["state"], "Archived");
    }
    let template = w
        .app
        .gql(Some(&w.editor), "query($id: ID!) { findTemplateById(id: $id) { premiumChannel { _id } } }", json!({ "id": template_id }))
        .await;
    assert_eq!(template["data"]["findTemplateById"]["premiumChannel"], Value::Null, "{template}");
    // An archived channel accepts no new articles, nor unarchived ones.
    let refused = w.call(&w.editor, "addArticle", w.complete()).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"));
    assert_eq!(refused["errors"][0]["message"], "This channel is archived and accepts no new articles.");
    let found = w.app.gql(Some(&w.admin), FIND, json!({ "id": draft["_id"] })).await["data"]["findArticleById"].clone();
    let refused = w.call(&w.editor, "editArticle", edit_of(&found, w.complete())).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"));
    assert_state_counts_match(&w.app.pool).await;
    // Deleting rows keeps them right too.
    sqlx::query("delete from article where article_id = $1").bind(published["_id"].as_str()).execute(&w.app.pool).await.unwrap();
    assert_state_counts_match(&w.app.pool).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_filters_searches_sorts_and_pages_in_the_database(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let other_topic = app.add_category(&w.admin, "Gas", None).await;
    let mut ids = Vec::new();
    for (title, summary) in [("Brent crude rally", "Oil up"), ("LNG shipping", "Gas tankers"), ("Refining margins", "Diesel cracks")] {
        let mut item = w.complete();
        item["title"] = json!(title);
        item["summary"] = json!(summary);
        if title.starts_with("LNG") {
            item["categories"] = json!([other_topic, w.topic]);
        }
        ids.push(w.ok(&w.editor, "publishAdd", item).await["_id"].as_str().unwrap().to_owned());
    }
    let draft = w.ok(&w.contributor, "addArticle", json!({ "title": "Unfinished tanker note" })).await;
    let reader = app.insert_user("reader@test.example").await;
    app.insert_views(&ids[0], &reader, 3).await;
    app.insert_views(&ids[0], &w.editor_id, 1).await;

    let editor = w.editor.as_str();
    let titles = |params: Value| async move {
        let response = app.gql(Some(editor), LIST, json!({ "params": params })).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        let page = &response["data"]["articles"];
        let titles: Vec<String> = page["articles"].as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap().to_owned()).collect();
        (page["total"].as_i64().unwrap(), titles)
    };
    // Default: every article, newest first.
    let (total, all) = titles(json!({})).await;
    assert_eq!(total, 4);
    assert_eq!(all, ["Unfinished tanker note", "Refining margins", "LNG shipping", "Brent crude rally"]);
    assert_eq!(titles(json!({ "type": "pending" })).await.1, ["Unfinished tanker note"]);
    assert_eq!(titles(json!({ "type": "published" })).await.0, 3);
    assert_eq!(titles(json!({ "type": "today" })).await.0, 4);
    assert_eq!(titles(json!({ "type": "archived" })).await.0, 0);
    // 'My': authored or credited (the contributor is credited on the editor's articles too).
    let mine = app.gql(Some(&w.contributor), LIST, json!({ "params": { "type": "my" } })).await;
    assert_eq!(mine["data"]["articles"]["total"], 4);
    assert_eq!(titles(json!({ "categoryId": [other_topic] })).await, (1, vec!["LNG shipping".to_owned()]));
    // An article under both topics counts once.
    assert_eq!(titles(json!({ "categoryId": [w.topic, other_topic], "limit": 1 })).await.0, 3);
    assert_eq!(titles(json!({ "categoryId": [other_topic], "type": "pending" })).await.0, 0);
    assert_eq!(titles(json!({ "tagId": [w.tag] })).await.0, 3);
    assert_eq!(titles(json!({ "channel": [w.premium] })).await.0, 3);
    assert_eq!(titles(json!({ "publishedBy": [w.desk] })).await.0, 3);
    // Full-text search with stemming over title and summary ("tankers" finds "tanker").
    assert_eq!(titles(json!({ "searchQuery": "tanker" })).await.1, ["Unfinished tanker note", "LNG shipping"]);
    assert_eq!(titles(json!({ "searchQuery": "crude" })).await.1, ["Brent crude rally"]);
    assert_eq!(titles(json!({ "searchQuery": "crude -rally" })).await.0, 0);
    // Sorting and paging.
    let (_, by_title) = titles(json!({ "sortField": "Title", "sortDirection": "Asc", "limit": 2, "offset": 1 })).await;
    assert_eq!(by_title, ["LNG shipping", "Refining margins"]);
    // Every sort is valid SQL and keeps every row: the draft has no publisher and no publish date.
    for field in ["Title", "PublishedBy", "Views", "PublishDate", "LastEdited", "Created", "Premium"] {
        for direction in ["Asc", "Desc"] {
            let (total, rows) = titles(json!({ "sortField": field, "sortDirection": direction })).await;
            assert_eq!((total, rows.len()), (4, 4), "{field} {direction}");
        }
    }
    let (_, by_publisher) = titles(json!({ "sortField": "PublishedBy", "sortDirection": "Asc" })).await;
    assert_eq!(by_publisher.last().map(String::as_str), Some("Unfinished tanker note"));
    let (_, by_views) = titles(json!({ "sortField": "Views", "sortDirection": "Desc", "limit": 1 })).await;
    assert_eq!(by_views, ["Brent crude rally"]);
    let views = app.gql(Some(&w.editor), LIST, json!({ "params": { "sortField": "Views", "limit": 1 } })).await;
    assert_eq!(views["data"]["articles"]["articles"][0]["uniqueViews"], 2);
    assert_eq!(views["data"]["articles"]["articles"][0]["views"], 4);
    let too_many = app.gql(Some(&w.editor), LIST, json!({ "params": { "limit": 500 } })).await;
    assert_eq!(error_code(&too_many), Some("BAD_USER_INPUT"));
    // The search follows an edit of the text.
    w.ok(&w.contributor, "editArticle", edit_of(&draft, json!({ "title": "Unfinished barge note" }))).await;
    assert_eq!(titles(json!({ "searchQuery": "barge" })).await.1, ["Unfinished barge note"]);
    assert_eq!(titles(json!({ "searchQuery": "tanker" })).await.1, ["LNG shipping"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn stats_list_viewers_by_last_view_newest_first(pool: PgPool) {
    let w = world(pool).await;
    let article = w.ok(&w.editor, "publishAdd", w.complete()).await;
    let id = article["_id"].as_str().unwrap();
    let older = w.app.insert_user("older@test.example").await;
    let newer = w.app.insert_user("newer@test.example").await;
    w.app.insert_views(id, &older, 5).await;
    w.app.insert_views(id, &newer, 2).await;
    sqlx::query("update article_view set last_viewed = now() - interval '2 days' where user_id = $1")
        .bind(&older)
        .execute(&w.app.pool)
        .await
        .unwrap();
    let query = "query($id: ID!) { findArticleStats(id: $id) { views users article { title } viewers { _id email views lastViewed } } }";
    let stats = w.app.gql(Some(&w.editor), query, json!({ "id": id })).await;
    let stats = &stats["data"]["findArticleStats"];
    assert_eq!((stats["views"].as_i64(), stats["users"].as_i64()), (Some(7), Some(2)), "{stats}");
    assert_eq!(stats["viewers"][0]["_id"], newer.as_str());
    assert_eq!(stats["viewers"][1]["views"], 5);
    let outsider = tokens::for_user(&w.app.state, "outsider@test.example", TestRole::Contributor.scopes()).await;
    assert_eq!(error_code(&w.app.gql(Some(&outsider), query, json!({ "id": id })).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&w.app.gql(Some(&w.editor), query, json!({ "id": "nope" })).await), Some("NOT_FOUND"));
}

/// The lists keep each article's links in memory by its card revision (migrations 0018, 0022):
/// every change to what they show, in any state and by any path, must reach the next list.
#[sqlx::test(migrations = "./migrations")]
async fn the_lists_links_follow_every_change_to_what_they_show(pool: PgPool) {
    const LINKS: &str = "query($params: ArticleListParams) { articles(params: $params) { articles { _id title
        contributors { _id name email } categories { name } tags { name } promotionalContent { name link articleImage } } } }";
    let w = world(pool).await;
    let db = &w.app.pool;
    let promotion = "0123456789abcdef01234567";
    sqlx::query("insert into promotional_content (promotional_content_id, name, link) values ($1, 'Summit', 'https://example.com/summit')")
        .bind(promotion)
        .execute(db)
        .await
        .unwrap();
    let mut item = w.complete();
    item["promotionalContentIds"] = json!([promotion]);
    let published = w.ok(&w.editor, "publishAdd", item.clone()).await;
    item["title"] = json!("Gas outlook");
    let draft = w.ok(&w.contributor, "addArticle", item).await;
    assert_eq!(draft["state"], "Pending");
    let links = || async {
        let response = w.app.gql(Some(&w.editor), LINKS, json!({ "params": {} })).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        let articles = response["data"]["articles"]["articles"].as_array().unwrap().clone();
        assert_eq!(articles.len(), 2);
        articles.into_iter().map(|mut a| (a["title"].take(), a)).collect::<Vec<_>>()
    };
    let each = |articles: &[(Value, Value)], field: &str, key: &str| -> Vec<Value> {
        articles.iter().map(|(_, a)| a[field].as_array().unwrap().iter().map(|x| x[key].clone()).collect::<Vec<_>>().into()).collect()
    };
    let before = links().await;
    assert_eq!(each(&before, "categories", "name"), [json!(["Oil"]), json!(["Oil"])]);

    let update = |sql: &'static str, id: String| async move { sqlx::query(sql).bind(id).execute(db).await.unwrap() };
    update("update category set name = 'Crude oil' where category_id = $1", w.topic.clone()).await;
    update("update tag set name = 'Brent futures' where tag_id = $1", w.tag.clone()).await;
    update("update users set name = 'Chris Contributor', email = upper(email) where user_id = $1", w.contributor_id.clone()).await;
    update(
        "update promotional_content set name = 'Summit 2027', article_image = '/uploads/summit.png' where promotional_content_id = $1",
        promotion.to_owned(),
    )
    .await;
    let after = links().await;
    for (title, article) in &after {
        assert_eq!(article["categories"], json!([{ "name": "Crude oil" }]), "{title}");
        assert_eq!(article["tags"], json!([{ "name": "Brent futures" }]), "{title}");
        let contributor = &article["contributors"][0];
        assert_eq!(contributor["name"], "Chris Contributor", "{title}");
        let email = contributor["email"].as_str().unwrap();
        assert_eq!(email, email.to_uppercase(), "{title}: a change of case only shows too");
        assert_eq!(
            article["promotionalContent"],
            json!([{ "name": "Summit 2027", "link": "https://example.com/summit", "articleImage": "/uploads/summit.png" }]),
            "{title}"
        );
    }
    // A link removed outside an edit (a user's deletion cascades to it), and an edit's new links.
    update("delete from article_contributor where user_id = $1", w.contributor_id.clone()).await;
    let other_tag = w.app.add_tag(&w.admin, "WTI").await;
    let current = w.app.gql(Some(&w.editor), FIND, json!({ "id": published["_id"] })).await["data"]["findArticleById"].clone();
    w.ok(&w.editor, "editArticle", edit_of(&current, json!({ "title": "Oil outlook", "tags": [other_tag] }))).await;
    let last = links().await;
    assert_eq!(each(&last, "contributors", "_id"), [json!([]), json!([])]);
    let tags: Vec<(Value, Value)> = last.iter().map(|(title, a)| (title.clone(), a["tags"].clone())).collect();
    assert!(tags.contains(&(json!("Oil outlook"), json!([{ "name": "WTI" }]))), "{tags:?}");
    assert!(tags.contains(&(json!("Gas outlook"), json!([{ "name": "Brent futures" }]))), "{tags:?}");
}
