//! Promotional content and promotion pages: the form rules and messages, one destination, expiry
//! (for readers, at once, while administrators still see it), the counts of the grid, paging,
//! search and sort, page deletion refused while other content uses the page, the Teams channel,
//! sanitised page html, and Administrator-only management.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    factories::{EDIT_CATEGORY, ReaderArticle},
};

const CONTENT_FIELDS: &str =
    "_id name description articleImage sidebarImage link promotionPageId destination target expiryDate expired version";
const ADD: &str = "mutation($item: PromotionalContentInput!) { addPromotionalContent(item: $item) {
    _id name description articleImage sidebarImage link promotionPageId destination target expiryDate expired version } }";
const EDIT: &str = "mutation($item: PromotionalContentInput!) { editPromotionalContent(item: $item) {
    _id name description articleImage sidebarImage link promotionPageId destination target expiryDate expired version } }";
const DELETE: &str = "mutation($id: ID!) { deletePromotionalContent(id: $id) }";
const FIND: &str = "query($id: ID!) { findPromotionalContentById(id: $id) {
    _id name target expired promotionPage { _id name html successTitle successMessage } } }";
const FIND_WITH_COUNTS: &str = "query($id: ID!) { findPromotionalContentById(id: $id) {
    _id categoriesCount articlesCount impressions clicks clickThroughRate } }";
const LIST: &str = "query($params: PromotionalContentListParams) { promotionalContent(params: $params) {
    total promotionalContent { _id name expired expiryDate categoriesCount articlesCount impressions clicks clickThroughRate
                               promotionPage { _id name inUse promotionalContent { _id name } } } } }";
const OPTIONS: &str = "{ promotionalContentOptions { _id name } }";
const ADD_PAGE: &str = "mutation($item: PromotionPageInput!) { addPromotionPage(item: $item) {
    _id name html teamsChannel pageSummary socialSharingImageUrl successTitle successMessage version inUse } }";
const EDIT_PAGE: &str = "mutation($item: PromotionPageInput!) { editPromotionPage(item: $item) { _id name html version inUse } }";
const DELETE_PAGE: &str = "mutation($item: DeletePromotionPageInput!) { deletePromotionPage(item: $item) }";
const FIND_PAGE: &str = "query($id: ID!) { findPromotionPageById(id: $id) { _id name inUse promotionalContent { _id name } } }";
const PAGES: &str = "query($params: PromotionPageListParams) { allPages(params: $params) {
    total pages { _id name inUse promotionalContent { _id name } } } }";
const IMPRESSION: &str = "mutation($id: ID!) { logPromotionalContentImpression(promotionalContentId: $id) }";
const CLICK: &str = "mutation($id: ID!) { logPromotionalContentClick(promotionalContentId: $id) }";
const ARTICLE: &str = "query($id: ID!) { findPublishedArticleById(id: $id) {
    randomisedPromotionalContent { _id link } embeddedPromotionalContent { _id name description articleImage target } } }";
const MARKETING_ARTICLE: &str = "query($id: ID!) { findMarketingArticleById(id: $id) { embeddedPromotionalContent { _id target } } }";

const IMAGE: &str = "0123456789abcdef01234567.png";

fn fields(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["fields"]
}

fn today() -> chrono::NaiveDate {
    chrono::Utc::now().date_naive()
}

fn link_content(name: &str) -> Value {
    json!({ "name": name, "description": format!("About {name}"), "destination": "ExternalLink", "link": "https://example.com/promo" })
}

fn page_item(name: &str) -> Value {
    json!({
        "name": name, "html": "<p>Join our energy week</p>", "teamsChannel": "events@insights.example", "pageSummary": "Energy week",
        "socialSharingImageUrl": IMAGE, "successTitle": "Thank you", "successMessage": "We will be in touch",
    })
}

impl TestApp {
    async fn add_promotion(&self, admin: &str, item: Value) -> Value {
        let response = self.gql(Some(admin), ADD, json!({ "item": item })).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        response["data"]["addPromotionalContent"].clone()
    }

    async fn add_page(&self, admin: &str, name: &str) -> String {
        let response = self.gql(Some(admin), ADD_PAGE, json!({ "item": page_item(name) })).await;
        response["data"]["addPromotionPage"]["_id"].as_str().unwrap_or_else(|| panic!("add page: {response}")).to_owned()
    }

    async fn landing_content(&self, admin: &str, name: &str, page: &str) -> String {
        let item = json!({ "name": name, "destination": "CustomLandingPage", "promotionPageId": page });
        self.add_promotion(admin, item).await["_id"].as_str().unwrap().to_owned()
    }

    async fn expire(&self, id: &str) {
        sqlx::query("update promotional_content set expiry_date = now() - interval '1 second' where promotional_content_id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .unwrap();
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn promotional_content_fields_are_checked_with_the_spec_messages(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let add = |item: Value| app.gql(Some(&admin), ADD, json!({ "item": item }));

    let bad = add(json!({
        "name": " ", "description": "d".repeat(251), "articleImage": "https://elsewhere.example/a.png", "sidebarImage": IMAGE,
        "destination": "NotSelected", "expiryDate": (today() - chrono::Days::new(1)).to_string(),
    }))
    .await;
    assert_eq!(error_code(&bad), Some("BAD_USER_INPUT"));
    assert_eq!(
        fields(&bad),
        &json!({
            "name": "This field is required", "description": "Maximum 250 characters", "articleImage": "Upload the image first",
            "destination": "Please choose a destination link", "expiryDate": "Date cannot be in the past",
        })
    );
    // Spec 1 §5's shared date messages where spec 2 gives none of its own: a day that is no date.
    let no_date = add(json!({ "name": "Promo", "destination": "ExternalLink", "link": "/browse", "expiryDate": "2030-02-31" })).await;
    let message = no_date["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("Invalid Date"), "{no_date}");
    let long = add(json!({ "name": "n".repeat(51), "destination": "ExternalLink", "link": " " })).await;
    assert_eq!(fields(&long), &json!({ "name": "Maximum 50 characters", "link": "This field is required" }));
    for link in ["javascript:alert(1)", "//evil.example/x", "www.example.com", "https://"] {
        let response = add(json!({ "name": "Promo", "destination": "ExternalLink", "link": link })).await;
        assert_eq!(fields(&response), &json!({ "link": "Enter a link starting with https://, http:// or /" }), "{link}");
    }
    let no_page = add(json!({ "name": "Promo", "destination": "CustomLandingPage", "link": "https://example.com" })).await;
    assert_eq!(fields(&no_page), &json!({ "promotionPageId": "This field is required" }));
    let unknown_page =
        add(json!({ "name": "Promo", "destination": "CustomLandingPage", "promotionPageId": insights::ids::new_id() })).await;
    assert_eq!(fields(&unknown_page), &json!({ "promotionPageId": "Choose an existing promotion page" }));

    // Today is allowed and lasts until the end of the day (UTC); an app path is a valid link.
    let saved = app
        .add_promotion(
            &admin,
            json!({
                "name": " Energy week ", "articleImage": IMAGE, "destination": "ExternalLink", "link": "/browse/channel/energy",
                "expiryDate": today().to_string(),
            }),
        )
        .await;
    assert_eq!(saved["name"], "Energy week");
    assert_eq!(saved["description"], "");
    assert_eq!(saved["articleImage"], IMAGE);
    assert_eq!(saved["expiryDate"], format!("{}T23:59:59+00:00", today()));
    assert_eq!(saved["expired"], false);
    assert_eq!((&saved["destination"], &saved["target"]), (&json!("ExternalLink"), &json!("/browse/channel/energy")));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_content_keeps_one_destination_and_edits_check_versions(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let page = app.add_page(&admin, "Energy week").await;

    // The link destination drops a page sent along with it.
    let mut item = link_content("Energy");
    item["promotionPageId"] = json!(page);
    let saved = app.add_promotion(&admin, item).await;
    let id = saved["_id"].as_str().unwrap().to_owned();
    assert_eq!(
        (&saved["link"], &saved["promotionPageId"], &saved["version"]),
        (&json!("https://example.com/promo"), &Value::Null, &json!(1))
    );

    // Switching to the landing page clears the link; the target becomes the landing page.
    let edit = json!({ "_id": id, "version": 1, "name": "Energy", "destination": "CustomLandingPage", "promotionPageId": page,
                       "link": "https://example.com/promo" });
    let edited = app.gql(Some(&admin), EDIT, json!({ "item": edit })).await;
    let edited = &edited["data"]["editPromotionalContent"];
    assert_eq!((&edited["link"], &edited["promotionPageId"], &edited["version"]), (&Value::Null, &json!(page), &json!(2)));
    assert_eq!(edited["destination"], "CustomLandingPage");
    assert_eq!(edited["target"], format!("/promotion/{id}"));

    let stale = app.gql(Some(&admin), EDIT, json!({ "item": edit })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    let mut unknown = edit.clone();
    unknown["_id"] = json!(insights::ids::new_id());
    assert_eq!(error_code(&app.gql(Some(&admin), EDIT, json!({ "item": unknown })).await), Some("NOT_FOUND"));
    let mut unversioned = edit.clone();
    unversioned["version"] = Value::Null;
    assert_eq!(fields(&app.gql(Some(&admin), EDIT, json!({ "item": unversioned })).await), &json!({ "version": "This field is required" }));
    let mut invalid = edit.clone();
    invalid["version"] = json!(2);
    invalid["destination"] = json!("NotSelected");
    let refused = app.gql(Some(&admin), EDIT, json!({ "item": invalid })).await;
    assert_eq!(fields(&refused), &json!({ "destination": "Please choose a destination link" }));

    // The landing page reads the content with its page.
    let found = app.gql(Some(&admin), FIND, json!({ "id": id })).await;
    assert_eq!(found["data"]["findPromotionalContentById"]["promotionPage"]["name"], "Energy week", "{found}");

    // Deleting it removes it from its topics and articles too.
    let topic = app.add_category(&admin, "Oil", None).await;
    sqlx::query("update category set promotional_content_id = $1 where category_id = $2")
        .bind(&id)
        .bind(&topic)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(app.gql(Some(&admin), DELETE, json!({ "id": id })).await["data"]["deletePromotionalContent"], true);
    assert_eq!(error_code(&app.gql(Some(&admin), FIND, json!({ "id": id })).await), Some("NOT_FOUND"));
    assert_eq!(error_code(&app.gql(Some(&admin), DELETE, json!({ "id": id })).await), Some("NOT_FOUND"));
    let topic_content: Option<String> = sqlx::query_scalar("select promotional_content_id from category where category_id = $1")
        .bind(&topic)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(topic_content, None, "the topic stays, without it");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_administrators_manage_promotional_content_and_pages(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let page = app.add_page(&admin, "Energy week").await;
    let id = app.landing_content(&admin, "Energy", &page).await;
    let delete_page = json!({ "item": { "_id": page } });

    for role in [TestRole::Editor, TestRole::Contributor, TestRole::Subscriber] {
        let token = app.token(role).await;
        let calls: [(&str, Value); 9] = [
            (LIST, json!({})),
            (ADD, json!({ "item": link_content("Mine") })),
            (
                EDIT,
                json!({ "item": { "_id": id, "version": 1, "name": "Mine", "destination": "ExternalLink", "link": "https://x.example" } }),
            ),
            (DELETE, json!({ "id": id })),
            (PAGES, json!({})),
            (FIND_PAGE, json!({ "id": page })),
            (ADD_PAGE, json!({ "item": page_item("Mine") })),
            (EDIT_PAGE, json!({ "item": page_edit(&page, 1, "Mine") })),
            (DELETE_PAGE, delete_page.clone()),
        ];
        for (query, variables) in calls {
            assert_eq!(error_code(&app.gql(Some(&token), query, variables).await), Some("FORBIDDEN"), "{role:?}: {query}");
        }
        // Everyone signed in reads a live content for its landing page, without its counts or the
        // page's Teams channel.
        let found = app.gql(Some(&token), FIND, json!({ "id": id })).await;
        assert_eq!(found["data"]["findPromotionalContentById"]["promotionPage"]["successTitle"], "Thank you", "{found}");
        let counts = app.gql(Some(&token), FIND_WITH_COUNTS, json!({ "id": id })).await;
        assert_eq!(error_code(&counts), Some("FORBIDDEN"), "{counts}");
        let secret = "query($id: ID!) { findPromotionalContentById(id: $id) { promotionPage { teamsChannel } } }";
        assert_eq!(error_code(&app.gql(Some(&token), secret, json!({ "id": id })).await), Some("FORBIDDEN"));
    }
    // Staff pick promotional content for topics and articles; readers do not.
    let editor = app.token(TestRole::Editor).await;
    assert_eq!(
        app.gql(Some(&editor), OPTIONS, json!({})).await["data"]["promotionalContentOptions"],
        json!([{ "_id": id, "name": "Energy" }])
    );
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader), OPTIONS, json!({})).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&app.gql(None, IMPRESSION, json!({ "id": id })).await), Some("UNAUTHENTICATED"));
    // Nothing was changed by the refused calls.
    let counts = app.gql(Some(&admin), FIND_WITH_COUNTS, json!({ "id": id })).await;
    assert_eq!(counts["errors"], Value::Null, "{counts}");
    assert_eq!(app.gql(Some(&admin), FIND_PAGE, json!({ "id": page })).await["data"]["findPromotionPageById"]["name"], "Energy week");
}

fn page_edit(id: &str, version: i32, name: &str) -> Value {
    let mut item = page_item(name);
    item["_id"] = json!(id);
    item["version"] = json!(version);
    item
}

#[sqlx::test(migrations = "./migrations")]
async fn promotion_page_fields_are_required_and_its_html_is_sanitised(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let add = |item: Value| app.gql(Some(&admin), ADD_PAGE, json!({ "item": item }));
    let required = "This field is required.";

    let empty = add(json!({
        "name": " ", "html": "<p><br></p><script>alert(1)</script>", "teamsChannel": "", "pageSummary": "",
        "socialSharingImageUrl": "", "successTitle": "", "successMessage": "",
    }))
    .await;
    assert_eq!(
        fields(&empty),
        &json!({
            "name": required, "html": required, "teamsChannel": required, "pageSummary": required,
            "socialSharingImageUrl": required, "successTitle": required, "successMessage": required,
        })
    );
    let mut long = page_item("Long");
    long["pageSummary"] = json!("s".repeat(201));
    long["successMessage"] = json!("m".repeat(201));
    long["socialSharingImageUrl"] = json!("https://elsewhere.example/share.png");
    assert_eq!(
        fields(&add(long).await),
        &json!({ "pageSummary": "Maximum 200 characters", "successMessage": "Maximum 200 characters", "socialSharingImageUrl": "Upload the image first" })
    );
    let teams_message = "Enter an email address or a Microsoft Teams webhook URL starting with https://";
    for channel in ["events", "ftp://hooks.example", "events@localhost"] {
        let mut item = page_item("Teams");
        item["teamsChannel"] = json!(channel);
        assert_eq!(fields(&add(item).await), &json!({ "teamsChannel": teams_message }), "{channel}");
    }
    // Webhooks: https to public addresses only (a name is resolved: localhost is loopback).
    for channel in [
        "http://52.96.0.1/webhookb2/x",
        "https://127.0.0.1:9/hook",
        "https://10.0.0.8/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/hook",
        "https://localhost/hook",
        "http://127.0.0.1:9/hook",
    ] {
        let mut item = page_item("Teams");
        item["teamsChannel"] = json!(channel);
        assert_eq!(fields(&add(item).await), &json!({ "teamsChannel": insights::interests::teams::WEBHOOK_ADDRESS_MESSAGE }), "{channel}");
    }
    for channel in ["https://52.96.0.1/webhookb2/x", "events@insights.example"] {
        let mut item = page_item("Teams");
        item["teamsChannel"] = json!(channel);
        assert_eq!(add(item).await["errors"], Value::Null, "{channel}");
    }
    // The setting for tests lets a local sink through, and only the hosts it names.
    let sink_app = TestApp::spawn_with(app.pool.clone(), &["--teams-webhook-test-hosts", "127.0.0.1"]).await;
    let sink_admin = sink_app.token(TestRole::Administrator).await;
    for (channel, allowed) in [("http://127.0.0.1:9/hook", true), ("http://10.0.0.8/hook", false)] {
        let mut item = page_item("Teams");
        item["teamsChannel"] = json!(channel);
        let response = sink_app.gql(Some(&sink_admin), ADD_PAGE, json!({ "item": item })).await;
        assert_eq!(response["errors"] == Value::Null, allowed, "{channel}: {response}");
    }

    let mut dirty = page_item("Energy week");
    dirty["html"] = json!(
        r#"<h2 onclick="steal()">Energy week</h2><script>alert(1)</script><p><a href="javascript:x()">Register</a><img src="https://tracker.example/p.gif"></p>"#
    );
    let saved = add(dirty).await;
    let saved = &saved["data"]["addPromotionPage"];
    assert_eq!(saved["html"], "<h2>Energy week</h2><p><a rel=\"noopener noreferrer\">Register</a></p>");
    assert_eq!((&saved["version"], &saved["inUse"], &saved["teamsChannel"]), (&json!(1), &json!(false), &json!("events@insights.example")));

    // Edits: sanitised too, versions checked.
    let id = saved["_id"].as_str().unwrap();
    let mut edit = page_edit(id, 1, "Energy week 2");
    edit["html"] = json!("<p style=\"position: fixed\">Updated</p>");
    let edited = app.gql(Some(&admin), EDIT_PAGE, json!({ "item": edit })).await;
    assert_eq!(edited["data"]["editPromotionPage"]["html"], "<p>Updated</p>", "{edited}");
    assert_eq!(edited["data"]["editPromotionPage"]["version"], 2);
    assert_eq!(error_code(&app.gql(Some(&admin), EDIT_PAGE, json!({ "item": edit })).await), Some("CONFLICT"));
    edit["_id"] = json!(insights::ids::new_id());
    assert_eq!(error_code(&app.gql(Some(&admin), EDIT_PAGE, json!({ "item": edit })).await), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_page_used_by_other_content_cannot_be_deleted_but_the_content_using_it_may_delete_it(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let page = app.add_page(&admin, "Energy week").await;
    let first = app.landing_content(&admin, "First", &page).await;
    let second = app.landing_content(&admin, "Second", &page).await;

    let found = app.gql(Some(&admin), FIND_PAGE, json!({ "id": page })).await;
    assert_eq!(
        found["data"]["findPromotionPageById"],
        json!({ "_id": page, "name": "Energy week", "inUse": true, "promotionalContent": [{ "_id": first, "name": "First" }, { "_id": second, "name": "Second" }] })
    );

    let message = "This page is used by another Promotional Content, so it can’t be deleted.";
    for parent in [Value::Null, json!(first)] {
        let refused = app.gql(Some(&admin), DELETE_PAGE, json!({ "item": { "_id": page, "parentContentId": parent } })).await;
        assert_eq!(error_code(&refused), Some("CONFLICT"));
        assert_eq!(refused["errors"][0]["message"], message);
    }
    let first_now = app.gql(Some(&admin), FIND, json!({ "id": first })).await;
    assert_eq!(first_now["data"]["findPromotionalContentById"]["promotionPage"]["_id"], json!(page), "nothing changed on refusal");

    // Once the second content leads elsewhere, the first one's form may delete the page: its own
    // pointer is cleared with it.
    let relink = json!({ "_id": second, "version": 1, "name": "Second", "destination": "ExternalLink", "link": "https://x.example" });
    assert_eq!(app.gql(Some(&admin), EDIT, json!({ "item": relink })).await["errors"], Value::Null);
    let deleted = app.gql(Some(&admin), DELETE_PAGE, json!({ "item": { "_id": page, "parentContentId": first } })).await;
    assert_eq!(deleted["data"]["deletePromotionPage"], true, "{deleted}");
    let first_now = app.gql(Some(&admin), FIND, json!({ "id": first })).await;
    assert_eq!(first_now["data"]["findPromotionalContentById"]["promotionPage"], Value::Null);
    assert_eq!(first_now["data"]["findPromotionalContentById"]["target"], Value::Null);
    assert_eq!(error_code(&app.gql(Some(&admin), FIND_PAGE, json!({ "id": page })).await), Some("NOT_FOUND"));
    assert_eq!(error_code(&app.gql(Some(&admin), DELETE_PAGE, json!({ "item": { "_id": page } })).await), Some("NOT_FOUND"));

    // An unused page is deleted without a parent.
    let unused = app.add_page(&admin, "Unused").await;
    assert_eq!(app.gql(Some(&admin), DELETE_PAGE, json!({ "item": { "_id": unused } })).await["data"]["deletePromotionPage"], true);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_sidebar_promotion_leaves_a_kept_article_page_as_it_expires(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let reader = app.token(TestRole::Subscriber).await;
    let id = app.add_promotion(&admin, link_content("Rates")).await["_id"].as_str().unwrap().to_owned();
    let article = app.insert_reader_article(ReaderArticle::default()).await;
    sqlx::query("insert into article_promotional_content values ($1, $2)").bind(&article).bind(&id).execute(&app.pool).await.unwrap();
    sqlx::query("update promotional_content set expiry_date = now() + interval '2 seconds' where promotional_content_id = $1")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    let sidebar = || async { app.gql(Some(&reader), ARTICLE, json!({ "id": article })).await["data"]["findPublishedArticleById"].clone() };
    assert_eq!(sidebar().await["randomisedPromotionalContent"]["_id"], id.as_str());
    // Nothing is written meanwhile: the page is kept, and its promotion is picked per request.
    tokio::time::sleep(std::time::Duration::from_millis(2_200)).await;
    assert_eq!(sidebar().await["randomisedPromotionalContent"], Value::Null);
}

#[sqlx::test(migrations = "./migrations")]
async fn expired_content_disappears_for_readers_at_once_while_administrators_still_see_it(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let reader = app.token(TestRole::Subscriber).await;
    let page = app.add_page(&admin, "Energy week").await;
    let id = app.landing_content(&admin, "Energy", &page).await;
    let mut item = link_content("Rates");
    item["articleImage"] = json!(IMAGE);
    let other = app.add_promotion(&admin, item).await["_id"].as_str().unwrap().to_owned();

    let article = app.insert_reader_article(ReaderArticle::default()).await;
    let html = format!(
        r#"<p>Intro</p><div data-promotional-content-id="{id}"></div><div data-promotional-content-id="{other}"></div><div data-promotional-content-id="{}"></div>"#,
        insights::ids::new_id()
    );
    sqlx::query("update article set html = $2 where article_id = $1").bind(&article).bind(&html).execute(&app.pool).await.unwrap();
    sqlx::query("insert into article_promotional_content values ($1, $2)").bind(&article).bind(&id).execute(&app.pool).await.unwrap();

    let seen = app.gql(Some(&reader), ARTICLE, json!({ "id": article })).await;
    let seen = &seen["data"]["findPublishedArticleById"];
    assert_eq!(seen["randomisedPromotionalContent"], json!({ "_id": id, "link": format!("/promotion/{id}") }));
    assert_eq!(
        seen["embeddedPromotionalContent"],
        json!([
            { "_id": id, "name": "Energy", "description": "", "articleImage": null, "target": format!("/promotion/{id}") },
            { "_id": other, "name": "Rates", "description": "About Rates", "articleImage": IMAGE, "target": "https://example.com/promo" },
        ])
    );
    let marketing = app.gql(Some(&reader), MARKETING_ARTICLE, json!({ "id": article })).await;
    assert_eq!(marketing["data"]["findMarketingArticleById"]["embeddedPromotionalContent"].as_array().unwrap().len(), 2, "{marketing}");
    assert_eq!(app.gql(Some(&reader), IMPRESSION, json!({ "id": id })).await["data"]["logPromotionalContentImpression"], true);

    // It expires: gone for readers and from the staff pickers at once, no restart.
    app.expire(&id).await;
    let seen = app.gql(Some(&reader), ARTICLE, json!({ "id": article })).await;
    let seen = &seen["data"]["findPublishedArticleById"];
    assert_eq!(seen["randomisedPromotionalContent"], Value::Null);
    assert_eq!(
        seen["embeddedPromotionalContent"],
        json!([{ "_id": other, "name": "Rates", "description": "About Rates", "articleImage": IMAGE, "target": "https://example.com/promo" }])
    );
    let marketing = app.gql(Some(&reader), MARKETING_ARTICLE, json!({ "id": article })).await;
    assert_eq!(
        marketing["data"]["findMarketingArticleById"]["embeddedPromotionalContent"],
        json!([{ "_id": other, "target": "https://example.com/promo" }])
    );
    assert_eq!(error_code(&app.gql(Some(&reader), FIND, json!({ "id": id })).await), Some("NOT_FOUND"));
    assert_eq!(error_code(&app.gql(Some(&editor), FIND, json!({ "id": id })).await), Some("NOT_FOUND"));
    let options = app.gql(Some(&editor), OPTIONS, json!({})).await;
    assert_eq!(options["data"]["promotionalContentOptions"], json!([{ "_id": other, "name": "Rates" }]));
    assert_eq!(app.gql(Some(&reader), IMPRESSION, json!({ "id": id })).await["data"]["logPromotionalContentImpression"], false);
    assert_eq!(app.gql(Some(&reader), CLICK, json!({ "id": id })).await["data"]["logPromotionalContentClick"], false);

    let found = app.gql(Some(&admin), FIND, json!({ "id": id })).await;
    assert_eq!(found["data"]["findPromotionalContentById"]["expired"], true, "{found}");
    let list = app.gql(Some(&admin), LIST, json!({})).await;
    let expired: Vec<&Value> =
        list["data"]["promotionalContent"]["promotionalContent"].as_array().unwrap().iter().filter(|c| c["_id"] == json!(id)).collect();
    assert_eq!((expired[0]["expired"].clone(), expired[0]["impressions"].clone()), (json!(true), json!(1)));

    // A premium article's body is not shown to a reader without access, nor are its blocks.
    sqlx::query("update article set is_premium = true, premium_channel_id = $2 where article_id = $1")
        .bind(&article)
        .bind(premium_channel(&app, &admin).await)
        .execute(&app.pool)
        .await
        .unwrap();
    let teaser = app.gql(Some(&reader), ARTICLE, json!({ "id": article })).await;
    assert_eq!(teaser["data"]["findPublishedArticleById"]["embeddedPromotionalContent"], json!([]), "{teaser}");
}

async fn premium_channel(app: &TestApp, admin: &str) -> String {
    let admin_id = app.user_id(admin).await;
    let desk = app.add_desk(admin, "Energy desk", &[&admin_id]).await;
    app.channel_of_type(admin, &desk, "Energy premium", "premium").await
}

#[sqlx::test(migrations = "./migrations")]
async fn the_grid_counts_topics_articles_impressions_and_clicks(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let reader = app.token(TestRole::Subscriber).await;
    let page = app.add_page(&admin, "Energy week").await;
    let id = app.landing_content(&admin, "Energy", &page).await;
    let quiet = app.add_promotion(&admin, link_content("Quiet")).await["_id"].as_str().unwrap().to_owned();

    for name in ["Oil", "Gas"] {
        let topic = app.add_category(&admin, name, None).await;
        let item = json!({ "_id": topic, "version": 1, "name": name, "description": format!("About {name}"), "promotionalContentId": id });
        let edited = app.gql(Some(&admin), EDIT_CATEGORY, json!({ "item": item })).await;
        assert_eq!(edited["errors"], Value::Null, "{edited}");
    }
    for _ in 0..3 {
        let article = app.insert_article(&[], &[], &[]).await;
        sqlx::query("insert into article_promotional_content values ($1, $2)").bind(&article).bind(&id).execute(&app.pool).await.unwrap();
    }
    for _ in 0..8 {
        assert_eq!(app.gql(Some(&reader), IMPRESSION, json!({ "id": id })).await["data"]["logPromotionalContentImpression"], true);
    }
    // Yesterday's counters add up with today's.
    sqlx::query("insert into promotional_content_day values ($1, (now() at time zone 'utc')::date - 1, 2, 1)")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(app.gql(Some(&reader), CLICK, json!({ "id": id })).await["data"]["logPromotionalContentClick"], true);
    for unknown in [insights::ids::new_id(), "not-an-id".to_owned()] {
        let response = app.gql(Some(&reader), CLICK, json!({ "id": unknown })).await;
        assert_eq!(response["data"]["logPromotionalContentClick"], false, "{response}");
    }

    let list = app.gql(Some(&admin), LIST, json!({})).await;
    assert_eq!(list["errors"], Value::Null, "{list}");
    let list = &list["data"]["promotionalContent"];
    assert_eq!(list["total"], 2);
    let energy = &list["promotionalContent"][0];
    assert_eq!(
        [
            &energy["_id"],
            &energy["categoriesCount"],
            &energy["articlesCount"],
            &energy["impressions"],
            &energy["clicks"],
            &energy["clickThroughRate"]
        ],
        [&json!(id), &json!(2), &json!(3), &json!(10), &json!(2), &json!(0.2)]
    );
    assert_eq!(
        energy["promotionPage"],
        json!({ "_id": page, "name": "Energy week", "inUse": true, "promotionalContent": [{ "_id": id, "name": "Energy" }] })
    );
    let quiet_row = &list["promotionalContent"][1];
    assert_eq!(
        [&quiet_row["_id"], &quiet_row["impressions"], &quiet_row["clickThroughRate"], &quiet_row["promotionPage"]],
        [&json!(quiet), &json!(0), &Value::Null, &Value::Null]
    );
    let one = app.gql(Some(&admin), FIND_WITH_COUNTS, json!({ "id": id })).await;
    assert_eq!(one["data"]["findPromotionalContentById"]["clickThroughRate"], 0.2);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_grids_page_search_and_sort_in_the_database(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let mut ids = Vec::new();
    for n in 0..17 {
        let mut item = link_content(&format!("Promo {n:02}"));
        if n % 5 == 0 {
            item["description"] = json!(format!("Special_{n} 100% offer"));
        }
        if n < 3 {
            item["expiryDate"] = json!((today() + chrono::Days::new(10 - n as u64)).to_string());
        }
        ids.push(app.add_promotion(&admin, item).await["_id"].as_str().unwrap().to_owned());
    }
    let names = |response: &Value| -> Vec<String> {
        response["data"]["promotionalContent"]["promotionalContent"]
            .as_array()
            .unwrap_or_else(|| panic!("{response}"))
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let list = |params: Value| app.gql(Some(&admin), LIST, json!({ "params": params }));

    let second = list(json!({ "page": 2 })).await;
    assert_eq!(
        (names(&second), &second["data"]["promotionalContent"]["total"]),
        (vec!["Promo 15".to_owned(), "Promo 16".to_owned()], &json!(17))
    );
    let past_end = list(json!({ "page": 3 })).await;
    assert_eq!((names(&past_end).len(), &past_end["data"]["promotionalContent"]["total"]), (0, &json!(17)));
    assert_eq!(error_code(&list(json!({ "pageSize": 7 })).await), Some("BAD_USER_INPUT"));

    // Search: name or description, ignoring case; LIKE wildcards are plain characters.
    let special = list(json!({ "searchQuery": "  SPECIAL_1 " })).await;
    assert_eq!(names(&special), vec!["Promo 10", "Promo 15"]);
    assert_eq!(names(&list(json!({ "searchQuery": "100%" })).await).len(), 4);
    assert_eq!(names(&list(json!({ "searchQuery": "promo 1" })).await).len(), 7);
    let none = list(json!({ "searchQuery": "nothing like it" })).await;
    assert_eq!((names(&none).len(), &none["data"]["promotionalContent"]["total"]), (0, &json!(0)));

    // Sort: by expiry (no expiry counts as never), by clicks, by name descending.
    let by_expiry = names(&list(json!({ "sortField": "ExpiryDate", "pageSize": 15 })).await);
    assert_eq!(&by_expiry[..4], ["Promo 02", "Promo 01", "Promo 00", "Promo 03"]);
    let by_expiry_desc = names(&list(json!({ "sortField": "ExpiryDate", "sortDirection": "Desc", "pageSize": 30 })).await);
    assert_eq!(&by_expiry_desc[14..], ["Promo 00", "Promo 01", "Promo 02"]);
    let reader = app.token(TestRole::Subscriber).await;
    for _ in 0..2 {
        app.gql(Some(&reader), CLICK, json!({ "id": ids[7] })).await;
    }
    app.gql(Some(&reader), CLICK, json!({ "id": ids[4] })).await;
    let by_clicks = names(&list(json!({ "sortField": "Clicks", "sortDirection": "Desc" })).await);
    assert_eq!(&by_clicks[..3], ["Promo 07", "Promo 04", "Promo 00"]);
    let by_name_desc = names(&list(json!({ "sortDirection": "Desc" })).await);
    assert_eq!(by_name_desc[0], "Promo 16");

    // Pages: by name, paged and searched.
    for n in 0..16 {
        app.add_page(&admin, &format!("Page {n:02}")).await;
    }
    let pages = app.gql(Some(&admin), PAGES, json!({ "params": { "page": 2 } })).await;
    assert_eq!(pages["data"]["allPages"]["total"], 16, "{pages}");
    assert_eq!(pages["data"]["allPages"]["pages"][0]["name"], "Page 15");
    let searched = app.gql(Some(&admin), PAGES, json!({ "params": { "searchQuery": "page 1" } })).await;
    assert_eq!(searched["data"]["allPages"]["total"], 6);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_contract_fields_are_in_the_schema(pool: PgPool) {
    // The content's own fields, selected all at once by an administrator, resolve without errors.
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let id = app.add_promotion(&admin, link_content("Energy")).await["_id"].as_str().unwrap().to_owned();
    let query = format!("query($id: ID!) {{ findPromotionalContentById(id: $id) {{ {CONTENT_FIELDS} promotionPage {{ _id }} }} }}");
    let found = app.gql(Some(&admin), &query, json!({ "id": id })).await;
    assert_eq!(found["errors"], Value::Null, "{found}");
    assert_eq!(found["data"]["findPromotionalContentById"]["destination"], "ExternalLink");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_demo_promotes_a_landing_page_on_the_welcome_article(pool: PgPool) {
    let (app, _uploads) = crate::support::uploads::spawn(pool, &[]).await;
    insights::demo::seed_demo(&app.state, insights::demo::DemoOptions::default()).await.unwrap();
    let reader = app.token(TestRole::Subscriber).await;
    let welcome: String = sqlx::query_scalar("select article_id from article where title = $1")
        .bind(insights::demo::WELCOME_TITLE)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let seen = app.gql(Some(&reader), ARTICLE, json!({ "id": welcome })).await;
    let promotion = &seen["data"]["findPublishedArticleById"]["randomisedPromotionalContent"];
    let id = promotion["_id"].as_str().unwrap_or_else(|| panic!("{seen}"));
    assert_eq!(promotion["link"], format!("/promotion/{id}"));
    let landing = app.gql(Some(&reader), FIND, json!({ "id": id })).await;
    assert_eq!(landing["data"]["findPromotionalContentById"]["promotionPage"]["successTitle"], "Thank you for your interest", "{landing}");
}
