//! The reader side: who may read what (the entitlement matrix, checked on the raw responses),
//! not-found rules, the reader lists, views and trending, campaigns, interest, archive months.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ReaderArticle};

const ARTICLE: &str = "query($id: ID!) { findPublishedArticleById(id: $id) {
    _id title html summary canSeeFullVersion isPremium isPremiumActive isLocked showWatermark blockCopy deskEmail
    publishedBy { _id name type } premiumChannel { _id name type } categories { _id name } rootCategories { _id name }
    tags { _id name } contributors { _id name } premiumChannelDetails { _id name isCurrentUserSubscribed userChannelSubscription { subscriptionState } }
    recentChannelArticles { _id title canSeeFullVersion } randomisedPromotionalContent { _id name } } }";

struct World {
    app: TestApp,
    admin: String,
    reader: String,
    reader_id: String,
    desk: String,
    premium: String,
    open: String,
    closed: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let reader = app.token(TestRole::Subscriber).await;
    let reader_id = app.user_id(&reader).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&editor_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let open = app.channel_of_type(&admin, &desk, "Metals Open", "freeOpen").await;
    let closed = app.channel_of_type(&admin, &desk, "Metals Closed", "freeClosed").await;
    World { app, admin, reader, reader_id, desk, premium, open, closed }
}

impl World {
    async fn article(&self, token: &str, id: &str) -> (Value, String) {
        let response = self.app.gql(Some(token), ARTICLE, json!({ "id": id })).await;
        let raw = response.to_string();
        (response, raw)
    }

    /// Asserts what the caller is shown of an article whose body holds `secret`.
    async fn assert_full(&self, token: &str, id: &str, secret: &str, full: bool, case: &str) {
        let (response, raw) = self.article(token, id).await;
        assert_eq!(response["errors"], Value::Null, "{case}: {response}");
        let article = &response["data"]["findPublishedArticleById"];
        assert_eq!(article["canSeeFullVersion"], full, "{case}: {article}");
        assert_eq!(article["html"].is_string(), full, "{case}: {article}");
        assert_eq!(raw.contains(secret), full, "{case}: the body {} the raw response", if full { "is missing from" } else { "leaks into" });
        assert!(article["title"].is_string() && article["summary"].is_string(), "{case}: the teaser keeps title and summary");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn the_entitlement_matrix_decides_what_each_reader_is_shown(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let article = |channel: &str, premium: bool, expiry: Option<&'static str>, days_ago: i64, body: &'static str| ReaderArticle {
        channel: Some(channel).map(|c| Box::leak(c.to_owned().into_boxed_str()) as &str),
        desk: Some(Box::leak(w.desk.clone().into_boxed_str())),
        is_premium: premium,
        expiry,
        days_ago,
        body,
        ..Default::default()
    };
    let premium_active = app.insert_reader_article(article(&w.premium, true, None, 1, "zanzibarone premium body")).await;
    let premium_running = app.insert_reader_article(article(&w.premium, true, Some("1w"), 2, "zanzibartwo running body")).await;
    let premium_ended = app.insert_reader_article(article(&w.premium, true, Some("3d"), 10, "zanzibarthree ended body")).await;
    let open_to_all = app.insert_reader_article(article(&w.premium, false, None, 1, "zanzibarfour open body")).await;
    let free_open = app.insert_reader_article(article(&w.open, false, None, 1, "zanzibarfive freeopen body")).await;
    let closed_premium = app.insert_reader_article(article(&w.closed, true, None, 1, "zanzibarsix closed body")).await;

    // Staff read every published article in full.
    for role in [TestRole::Administrator, TestRole::Editor, TestRole::Contributor] {
        let token = app.token(role).await;
        w.assert_full(&token, &premium_active, "zanzibarone", true, &format!("{role:?}")).await;
        w.assert_full(&token, &closed_premium, "zanzibarsix", true, &format!("{role:?}")).await;
    }

    // Without a subscription: open articles in full, premium ones as teasers.
    let reader = w.reader.as_str();
    w.assert_full(reader, &premium_active, "zanzibarone", false, "no subscription, premium").await;
    w.assert_full(reader, &premium_running, "zanzibartwo", false, "no subscription, premium period running").await;
    w.assert_full(reader, &premium_ended, "zanzibarthree", true, "no subscription, premium period ended").await;
    w.assert_full(reader, &open_to_all, "zanzibarfour", true, "no subscription, open to all").await;
    w.assert_full(reader, &free_open, "zanzibarfive", true, "no subscription, free-open channel").await;
    w.assert_full(reader, &closed_premium, "zanzibarsix", false, "no subscription, free-closed premium").await;
    let (teaser, _) = w.article(reader, &premium_active).await;
    assert_eq!(teaser["data"]["findPublishedArticleById"]["isPremiumActive"], true);
    let (ended, _) = w.article(reader, &premium_ended).await;
    assert_eq!(ended["data"]["findPublishedArticleById"]["isPremiumActive"], false);

    // Each subscription type and state to the premium channel.
    let cases: &[(&str, &str, Option<i64>, bool, bool)] = &[
        ("account", "active", None, true, true),
        ("stripe", "active", Some(20), true, true),
        ("external", "active", None, true, true),
        ("nonCharge", "active", None, true, true),
        ("trial", "active", Some(3), true, true),
        ("trial", "active", Some(-1), true, false),
        ("account", "active", None, false, false),
        ("stripe", "active", Some(-1), true, false),
        ("trial", "pending", None, true, false),
        ("free", "rejected", None, true, false),
        ("stripe", "canceled", None, true, false),
        ("nonCharge", "expired", None, true, false),
        ("stripe", "paymentFailed", None, true, false),
    ];
    for &(kind, state, ends, full_content, expect) in cases {
        app.subscribe(&w.premium, &w.reader_id, kind, state, ends, full_content).await;
        let case = format!("{kind} {state} ends {ends:?} full content {full_content}");
        w.assert_full(reader, &premium_active, "zanzibarone", expect, &case).await;
        // Open articles stay open whatever the subscription.
        w.assert_full(reader, &open_to_all, "zanzibarfour", true, &case).await;
    }
    // The channel card tells the reader's state.
    app.subscribe(&w.premium, &w.reader_id, "trial", "pending", None, true).await;
    let (response, _) = w.article(reader, &premium_active).await;
    let card = &response["data"]["findPublishedArticleById"]["premiumChannelDetails"];
    assert_eq!(card["isCurrentUserSubscribed"], false, "{card}");
    assert_eq!(card["userChannelSubscription"]["subscriptionState"], "pending");

    // A subscription to the free-closed channel opens its premium articles.
    w.assert_full(reader, &closed_premium, "zanzibarsix", false, "closed, no subscription").await;
    app.subscribe(&w.closed, &w.reader_id, "free", "active", None, true).await;
    w.assert_full(reader, &closed_premium, "zanzibarsix", true, "closed, active free subscription").await;

    // Lists never carry bodies: search (documents and snippets) and recommendations. A word of a
    // body the reader may not read does not find it; one of its title does, with a teaser's snippet.
    app.subscribe(&w.premium, &w.reader_id, "account", "canceled", None, true).await;
    const SEARCH: &str = "query($q: String) { searchArticles(params: { searchQuery: $q }, first: 20) {
        totalCount documents { highlight article { _id canSeeFullVersion } } } }";
    let search = app.gql(Some(reader), SEARCH, json!({ "q": "zanzibarone" })).await;
    assert_eq!(search["data"]["searchArticles"]["totalCount"], 0, "{search}");
    let search = app.gql(Some(reader), SEARCH, json!({ "q": "copper" })).await;
    let documents = search["data"]["searchArticles"]["documents"].as_array().unwrap();
    let teaser = documents.iter().find(|d| d["article"]["_id"] == premium_active.as_str()).expect("found by its title");
    assert_eq!(teaser["article"]["canSeeFullVersion"], false);
    assert!(!search.to_string().contains("zanzibarone"), "search leaks the body: {search}");
    let full_search = app
        .gql(
            Some(reader),
            "query($q: String) { searchArticles(params: { searchQuery: $q }) { documents { highlight } } }",
            json!({ "q": "zanzibarfour" }),
        )
        .await;
    assert!(
        full_search["data"]["searchArticles"]["documents"][0]["highlight"].as_str().unwrap().contains("<mark>zanzibarfour</mark>"),
        "{full_search}"
    );
    let follow = app.add_category(&w.admin, "Copper", None).await;
    sqlx::query("insert into article_category values ($1, $2)").bind(&premium_active).bind(&follow).execute(&app.pool).await.unwrap();
    sqlx::query("insert into category_follow (category_id, user_id) values ($1, $2)")
        .bind(&follow)
        .bind(&w.reader_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let me = app.gql(Some(reader), "{ me { recommendedArticles(take: 9) { _id canSeeFullVersion } } }", json!({})).await;
    let recommended = me["data"]["me"]["recommendedArticles"].as_array().unwrap();
    assert!(recommended.iter().any(|a| a["_id"] == premium_active.as_str() && a["canSeeFullVersion"] == false), "{me}");
    assert!(!me.to_string().contains("zanzibar"), "{me}");
}

#[sqlx::test(migrations = "./migrations")]
async fn locked_topics_and_the_article_page_fields(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let sector = app.add_category(&w.admin, "Energy", None).await;
    let locked = app.add_category(&w.admin, "Restricted", Some(&sector)).await;
    sqlx::query("update category set is_locked = true where category_id = $1").bind(&locked).execute(&app.pool).await.unwrap();
    let leaf = app.add_category(&w.admin, "Deep", Some(&locked)).await;
    let tag = app.add_tag(&w.admin, "Tankers").await;
    let (channel, desk) = (w.premium.clone(), w.desk.clone());
    let id = app
        .insert_reader_article(ReaderArticle {
            channel: Some(&channel),
            desk: Some(&desk),
            is_premium: true,
            categories: &[&leaf],
            tags: &[&tag],
            show_watermark: true,
            ..Default::default()
        })
        .await;
    let older =
        app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "Older note", days_ago: 5, ..Default::default() }).await;
    app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "Too old", days_ago: 40, ..Default::default() }).await;
    let (response, _) = w.article(&w.reader, &id).await;
    let article = &response["data"]["findPublishedArticleById"];
    assert_eq!(article["isLocked"], true, "a sub-topic of a locked topic locks the article: {response}");
    assert_eq!(article["canSeeFullVersion"], false);
    assert_eq!(article["showWatermark"], true);
    assert_eq!(article["blockCopy"], true);
    assert_eq!(article["deskEmail"], "desk@insights.example");
    assert_eq!(article["publishedBy"]["_id"], w.desk.as_str());
    assert_eq!(article["rootCategories"][0]["name"], "Energy");
    assert_eq!(article["tags"][0]["name"], "Tankers");
    let recent: Vec<&str> = article["recentChannelArticles"].as_array().unwrap().iter().map(|a| a["_id"].as_str().unwrap()).collect();
    assert_eq!(recent, vec![older.as_str()], "only the last month's other articles: {article}");

    // Cards say it too, and follow a lock's removal at once (the locked set is kept with the topics).
    let cards = "{ getArticles(first: 10, page: 1) { articles { _id isLocked } } }";
    let locked_cards = |response: Value| -> Vec<String> {
        let articles = response["data"]["getArticles"]["articles"].as_array().cloned().unwrap_or_else(|| panic!("{response}"));
        articles.iter().filter(|a| a["isLocked"] == true).map(|a| a["_id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(locked_cards(app.gql(Some(&w.reader), cards, json!({})).await), vec![id.clone()]);
    let unlock = json!({ "item": { "_id": locked, "name": "Restricted", "description": "Restricted", "parent": sector, "isLocked": false,
                                   "version": app.find_category(&w.admin, &locked).await["data"]["findCategoryById"]["version"] } });
    let edited = app.gql(Some(&w.admin), "mutation($item: CategoryInput!) { editCategory(item: $item) { isLocked } }", unlock).await;
    assert_eq!(edited["data"]["editCategory"]["isLocked"], false, "{edited}");
    assert!(locked_cards(app.gql(Some(&w.reader), cards, json!({})).await).is_empty());
}

#[sqlx::test(migrations = "./migrations")]
async fn cards_are_kept_in_memory_and_follow_every_change_they_show_at_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let topic = app.add_category(&w.admin, "Energy", None).await;
    let tag = app.add_tag(&w.admin, "Tankers").await;
    let (channel, desk) = (w.premium.clone(), w.desk.clone());
    let id = app
        .insert_reader_article(ReaderArticle {
            channel: Some(&channel),
            desk: Some(&desk),
            categories: &[&topic],
            tags: &[&tag],
            ..Default::default()
        })
        .await;
    let list = "{ getArticles(first: 10, page: 1) { articles { _id title lastEdited publishedBy { name type } premiumChannel { name type }
                   categories { name } tags { name } } } }";
    let card = || async {
        let response = app.gql(Some(&w.reader), list, json!({})).await;
        let articles = response["data"]["getArticles"]["articles"].as_array().cloned().unwrap_or_else(|| panic!("{response}"));
        articles.into_iter().find(|a| a["_id"] == id.as_str())
    };
    let first = card().await.expect("listed");
    assert_eq!(first["title"], "Copper outlook");

    // Served from memory: a title changed behind the revision's back is not seen...
    app.sql("alter table article disable trigger set_updated_at").await;
    app.sql("update article set title = 'Changed behind its back'").await;
    app.sql("alter table article enable trigger set_updated_at").await;
    assert_eq!(card().await.unwrap()["title"], "Copper outlook", "the kept card");
    // ...and an edit, which moves the revision, is.
    app.sql("update article set title = 'Copper outlook, revised', version = version + 1").await;
    let edited = card().await.unwrap();
    assert_eq!(edited["title"], "Copper outlook, revised");
    assert_ne!(edited["lastEdited"], first["lastEdited"], "an edit is the article's last edit");

    // Names it shows, renamed (by case alone too): each seen at once, none an edit of the article.
    app.sql("update tag set name = 'TANKERS'").await;
    assert_eq!(card().await.unwrap()["tags"][0]["name"], "TANKERS", "a renamed tag");
    app.sql("update category set name = 'Power'").await;
    assert_eq!(card().await.unwrap()["categories"][0]["name"], "Power", "a renamed topic");
    app.sql("update channel set name = 'Metals Prime' where name = 'Metals Premium'").await;
    assert_eq!(card().await.unwrap()["premiumChannel"]["name"], "Metals Prime", "a renamed channel");
    app.sql("update channel set type = 'freeOpen' where name = 'Metals Prime'").await;
    assert_eq!(card().await.unwrap()["premiumChannel"]["type"], "freeOpen", "a channel's new type");
    app.sql("update desk set name = 'Base metals desk'").await;
    assert_eq!(card().await.unwrap()["publishedBy"]["name"], "Base metals desk", "a renamed desk");
    let renamed = card().await.unwrap();
    assert_eq!(renamed["lastEdited"], edited["lastEdited"], "renames elsewhere are not edits of the article");

    // Links added and removed.
    let second = app.add_tag(&w.admin, "Freight").await;
    sqlx::query("insert into article_tag (article_id, tag_id) values ($1, $2)").bind(&id).bind(&second).execute(&app.pool).await.unwrap();
    let names = |card: Value| card["tags"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    assert_eq!(names(card().await.unwrap()), ["Freight", "TANKERS"], "a tag added");
    app.sql("delete from article_category").await;
    assert_eq!(card().await.unwrap()["categories"], json!([]), "a topic removed");

    // A person publishing it, renamed (one who sends no request after: a request takes the name
    // from the caller's token).
    let admin_id = app.user_id(&w.admin).await;
    sqlx::query("update article set published_by_desk_id = null, published_by_user_id = $1, version = version + 1")
        .bind(&admin_id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(card().await.unwrap()["publishedBy"]["type"], "contributor");
    sqlx::query("update users set name = 'Renamed Person' where user_id = $1").bind(&admin_id).execute(&app.pool).await.unwrap();
    assert_eq!(card().await.unwrap()["publishedBy"], json!({ "name": "Renamed Person", "type": "contributor" }), "a renamed publisher");

    // Archived: no longer a card.
    app.sql("update article set state = 'Archived', version = version + 1").await;
    assert!(card().await.is_none(), "an archived article is listed no more");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_readers_subscriptions_are_kept_in_memory_and_follow_every_change_at_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let body = "The body of the article";
    let id = app.insert_reader_article(ReaderArticle { channel: Some(&w.premium), is_premium: true, ..Default::default() }).await;
    let revision = || async {
        sqlx::query_scalar::<_, i64>("select coalesce((select revision from user_subscriptions_revision where user_id = $1), 0)")
            .bind(&w.reader_id)
            .fetch_one(&app.pool)
            .await
            .unwrap()
    };
    w.assert_full(&w.reader, &id, body, false, "no subscription").await;
    app.subscribe(&w.premium, &w.reader_id, "account", "active", Some(30), true).await;
    w.assert_full(&w.reader, &id, body, true, "subscribed").await;

    // Served from memory: a subscription ended behind the revision's back is not seen...
    app.sql("alter table channel_subscription disable trigger subscriptions_revision_update").await;
    app.sql("update channel_subscription set subscription_state = 'canceled'").await;
    app.sql("alter table channel_subscription enable trigger subscriptions_revision_update").await;
    w.assert_full(&w.reader, &id, body, true, "the kept subscriptions").await;
    // ...and any change that moves it is, at once.
    app.sql("update channel_subscription set subscription_state = 'canceled'").await;
    w.assert_full(&w.reader, &id, body, false, "canceled").await;

    // The reader's subscriptions show their channels' names and types: renaming a channel moves
    // the revision of its subscribers only.
    let before = revision().await;
    app.sql("update channel set name = 'Metals Open, renamed' where name = 'Metals Open'").await;
    assert_eq!(revision().await, before, "not a channel of the reader's");
    app.sql("update channel set name = 'METALS PREMIUM' where name = 'Metals Premium'").await;
    assert_eq!(revision().await, before + 1, "a channel of the reader's, renamed by case alone");
    app.sql("update channel set type = 'freeClosed' where name = 'METALS PREMIUM'").await;
    assert_eq!(revision().await, before + 2, "its type");

    // A reader's deletion takes their subscriptions with them (the trigger skips the reader gone).
    sqlx::query("delete from users where user_id = $1").bind(&w.reader_id).execute(&app.pool).await.unwrap();
    assert_eq!(revision().await, 0, "nothing left of the reader");
}

#[sqlx::test(migrations = "./migrations")]
async fn recent_channel_articles_are_kept_by_channel_and_follow_publishing_at_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let channel = w.premium.clone();
    let page = app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "The page", ..Default::default() }).await;
    let older =
        app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "Older", days_ago: 3, ..Default::default() }).await;
    let w = &w;
    let recent = |id: String| async move {
        let (response, _) = w.article(&w.reader, &id).await;
        let articles = response["data"]["findPublishedArticleById"]["recentChannelArticles"].as_array().cloned();
        articles.unwrap_or_else(|| panic!("{response}")).iter().map(|a| a["_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(recent(page.clone()).await, [older.clone()]);
    assert_eq!(recent(older.clone()).await, [page.clone()], "the channel's kept list, without the page's own article");

    // Served from memory: an article archived behind the content revision's back is still listed...
    app.sql("alter table article disable trigger content_revision_update").await;
    app.sql("update article set state = 'Archived', version = version + 1 where title = 'Older'").await;
    app.sql("alter table article enable trigger content_revision_update").await;
    assert_eq!(recent(page.clone()).await, [older.clone()], "the kept list");
    // ...and the next publication, which moves the revision, shows with the archived one gone.
    let newer =
        app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "Newer", days_ago: 1, ..Default::default() }).await;
    assert_eq!(recent(page.clone()).await, [newer], "published and archived, at once");
}

#[sqlx::test(migrations = "./migrations")]
async fn article_pages_are_kept_and_show_each_change_to_what_they_show_at_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let analyst = app.token(TestRole::Contributor).await;
    let analyst_id = app.user_id(&analyst).await;
    let sector = app.add_category(&w.admin, "Sector", None).await;
    let metals = app.add_category(&w.admin, "Metals", Some(&sector)).await;
    let id = app
        .insert_reader_article(ReaderArticle {
            channel: Some(&w.premium),
            desk: Some(&w.desk),
            body: "first body",
            categories: &[&metals],
            contributors: &[&analyst_id],
            ..Default::default()
        })
        .await;
    let w = &w;
    let page = || async {
        let (response, _) = w.article(&w.admin, &id).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        response["data"]["findPublishedArticleById"].clone()
    };
    let first = page().await;
    assert_eq!(first["html"], "<p>first body</p>");
    assert_eq!(first["rootCategories"], json!([{ "_id": sector, "name": "Sector" }]));

    // Served from memory: a body changed behind the content revision's back is not seen...
    app.sql("alter table article disable trigger content_revision_update").await;
    app.sql("update article set html = '<p>second body</p>' where html = '<p>first body</p>'").await;
    app.sql("alter table article enable trigger content_revision_update").await;
    assert_eq!(page().await["html"], "<p>first body</p>", "the kept page");

    // ...and each change to what the page shows is seen at once: its desk's email,
    app.sql_with("update desk set email = 'metals@example.com' where desk_id = $1", &w.desk).await;
    let now = page().await;
    assert_eq!(now["deskEmail"], "metals@example.com");
    assert_eq!(now["html"], "<p>second body</p>", "read again at the new revision");
    // a contributor's name,
    app.sql_with("update users set name = 'Renamed Analyst' where user_id = $1", &analyst_id).await;
    assert_eq!(page().await["contributors"], json!([{ "_id": analyst_id, "name": "Renamed Analyst" }]));
    // its topics' tree (the root of its topic),
    let markets = app.add_category(&w.admin, "Markets", None).await;
    app.sql_with(
        "update category set parent_id = (select category_id from category where name = 'Markets') where category_id = $1",
        &metals,
    )
    .await;
    assert_eq!(page().await["rootCategories"], json!([{ "_id": markets, "name": "Markets" }]));
    // and its own promotional content.
    app.sql_with(
        "insert into promotional_content (promotional_content_id, name, link) values ($1, 'Rates', 'https://x.example')",
        "0123456789abcdef01234567",
    )
    .await;
    assert_eq!(page().await["randomisedPromotionalContent"], Value::Null, "not linked yet");
    app.sql_with("insert into article_promotional_content values ($1, '0123456789abcdef01234567')", &id).await;
    assert_eq!(page().await["randomisedPromotionalContent"]["name"], "Rates");
    // and its topic's.
    app.sql_with("delete from article_promotional_content where article_id = $1", &id).await;
    assert_eq!(page().await["randomisedPromotionalContent"], Value::Null, "none left");
    app.sql_with(
        "insert into promotional_content (promotional_content_id, name, link) values ($1, 'Metals week', 'https://y.example')",
        "0123456789abcdef01234568",
    )
    .await;
    app.sql_with("update category set promotional_content_id = '0123456789abcdef01234568' where category_id = $1", &metals).await;
    assert_eq!(page().await["randomisedPromotionalContent"]["name"], "Metals week");

    // A page that is not published is never kept: published again, it shows as it now is.
    app.sql_with("update article set state = 'Archived', version = version + 1 where article_id = $1", &id).await;
    assert_eq!(error_code(&w.app.gql(Some(&w.admin), ARTICLE, json!({ "id": id })).await), Some("ARTICLE_NOT_FOUND"));
    app.sql("alter table article disable trigger content_revision_update").await;
    app.sql_with("update article set state = 'Published', title = 'Back again' where article_id = $1", &id).await;
    app.sql("alter table article enable trigger content_revision_update").await;
    assert_eq!(page().await["title"], "Back again");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_readers_follows_and_recommendations_are_kept_and_follow_each_change_at_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let gold = app.add_category(&w.admin, "Gold", None).await;
    let first = app.insert_reader_article(ReaderArticle { title: "First", categories: &[&gold], days_ago: 2, ..Default::default() }).await;
    let w = &w;
    let for_you = || async {
        let response = w.app.gql(Some(&w.reader), "{ me { followedCategories { _id name } recommendedArticles { _id } } }", json!({})).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        let me = &response["data"]["me"];
        let ids = |list: &Value| list.as_array().unwrap().iter().map(|x| x["_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        let names = me["followedCategories"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap().to_owned()).collect();
        (names, ids(&me["recommendedArticles"]))
    };
    assert_eq!(for_you().await, (vec![], vec![]));
    let follow = "mutation($item: FollowInput!) { followEntity(item: $item) { isFollowing } }";
    let item = |is_add: bool| json!({ "item": { "entityId": gold, "entityType": "Category", "isAdd": is_add, "name": "Gold" } });
    assert_eq!(app.gql(Some(&w.reader), follow, item(true)).await["data"]["followEntity"]["isFollowing"], true);
    assert_eq!(for_you().await, (vec!["Gold".to_owned()], vec![first.clone()]), "a follow, at once");

    // Served from memory: an article read twice behind the reading revision's back is still recommended...
    app.sql("alter table article_view disable trigger reading_revision_view_insert").await;
    app.insert_views(&first, &w.reader_id, 2).await;
    app.sql("alter table article_view enable trigger reading_revision_view_insert").await;
    assert_eq!(for_you().await.1, [first.clone()], "the kept recommendations");
    // ...and a new article in the topic is recommended at once (read again: the first one has gone).
    let second = app.insert_reader_article(ReaderArticle { title: "Second", categories: &[&gold], ..Default::default() }).await;
    assert_eq!(for_you().await.1, [second.clone()]);
    // A first view changes nothing; the second one takes the article out at once.
    app.insert_views(&second, &w.reader_id, 1).await;
    assert_eq!(for_you().await.1, [second.clone()]);
    app.sql_with("update article_view set views = views + 1 where article_id = $1", &second).await;
    assert_eq!(for_you().await.1, Vec::<String>::new());
    // A renamed topic, and an unfollow.
    app.sql_with("update category set name = 'Bullion' where category_id = $1", &gold).await;
    assert_eq!(for_you().await.0, ["Bullion"]);
    assert_eq!(app.gql(Some(&w.reader), follow, item(false)).await["data"]["followEntity"]["isFollowing"], false);
    assert_eq!(for_you().await.0, Vec::<String>::new());
}

#[sqlx::test(migrations = "./migrations")]
async fn a_kept_page_of_free_articles_takes_in_a_premium_article_as_its_period_ends(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let premium = |title: &'static str, expiry: Option<&'static str>| ReaderArticle {
        title,
        channel: Some(Box::leak(w.premium.clone().into_boxed_str())),
        is_premium: true,
        expiry,
        ..Default::default()
    };
    let ending = app.insert_reader_article(premium("Ending", Some("3d"))).await;
    app.insert_reader_article(premium("Premium for good", None)).await;
    let open = app.insert_reader_article(ReaderArticle { title: "Open", days_ago: 5, ..Default::default() }).await;
    app.sql_with("update article set publish_date = now() - interval '3 days' + interval '2 seconds' where article_id = $1", &ending).await;
    let free = || async {
        let response = app.gql(Some(&w.reader), "{ getArticles(params: { freeOnly: true }) { articles { _id } } }", json!({})).await;
        let articles = response["data"]["getArticles"]["articles"].as_array().cloned().unwrap_or_else(|| panic!("{response}"));
        articles.iter().map(|a| a["_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(free().await, [open.clone()]);
    assert_eq!(free().await, [open.clone()], "kept");
    // Nothing is written meanwhile: the kept page holds only until the premium period ends.
    tokio::time::sleep(std::time::Duration::from_millis(2_200)).await;
    assert_eq!(free().await, [ending, open]);
}

#[sqlx::test(migrations = "./migrations")]
async fn unpublished_and_unknown_articles_are_not_found_and_callers_are_checked(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let channel = w.premium.clone();
    let draft = app.insert_reader_article(ReaderArticle { channel: Some(&channel), state: "Pending", ..Default::default() }).await;
    let review = app.insert_reader_article(ReaderArticle { channel: Some(&channel), state: "ReadyForReview", ..Default::default() }).await;
    let archived = app.insert_reader_article(ReaderArticle { channel: Some(&channel), state: "Archived", ..Default::default() }).await;
    let published = app.insert_reader_article(ReaderArticle { channel: Some(&channel), ..Default::default() }).await;
    let marketing = "query($id: ID!) { findMarketingArticleById(id: $id) { _id state html canSeeFullVersion } }";
    for id in [draft.as_str(), review.as_str(), archived.as_str(), "not-an-id", "0123456789abcdef01234567"] {
        for query in [ARTICLE, marketing] {
            let response = app.gql(Some(&w.admin), query, json!({ "id": id })).await;
            assert_eq!(error_code(&response), Some("ARTICLE_NOT_FOUND"), "{id}: {response}");
        }
    }
    let channel_query = "query($id: ID!) { channel(id: $id) { _id } }";
    assert_eq!(error_code(&app.gql(Some(&w.reader), channel_query, json!({ "id": "nope" })).await), Some("NOT_FOUND"));

    // Every reader query: refused to the anonymous and to an expired trial.
    let trial = app.token(TestRole::Trial).await;
    app.user_id(&trial).await;
    sqlx::query("update users set first_login = now() - interval '15 days' where email = $1")
        .bind(TestRole::Trial.email())
        .execute(&app.pool)
        .await
        .unwrap();
    let reader_queries = [
        (ARTICLE, json!({ "id": published })),
        (marketing, json!({ "id": published })),
        ("{ searchArticles { totalCount } }", json!({})),
        ("{ getArticles { articles { _id } } }", json!({})),
        ("{ getBrowseStat { tags { _id } } }", json!({})),
        ("{ getLastMonthsWithArticles { dateId } }", json!({})),
        ("query($c: ID!) { getChartsArticles(premiumChannelId: $c) { _id } }", json!({ "c": w.premium })),
        ("query($c: ID!) { getStatsByChannel(query: { channelId: $c }) { views } }", json!({ "c": w.premium })),
        ("query($c: ID!) { isSubscribedTo(channelId: $c) }", json!({ "c": w.premium })),
        ("{ contributors { _id } }", json!({})),
        (
            "query($id: ID!) { addArticleViewStat(item: { articleId: $id, type: \"article\", session: \"s\" }) { counted } }",
            json!({ "id": published }),
        ),
    ];
    for (query, variables) in reader_queries {
        let query = if query.contains("addArticleViewStat") { format!("mutation{}", &query[5..]) } else { query.to_owned() };
        assert_eq!(error_code(&app.gql(None, &query, variables.clone()).await), Some("UNAUTHENTICATED"), "{query}");
        assert_eq!(error_code(&app.gql(Some(&trial), &query, variables.clone()).await), Some("TRIAL_EXPIRED"), "{query}");
        let ok = app.gql(Some(&w.reader), &query, variables).await;
        assert_eq!(ok["errors"], Value::Null, "{query}: {ok}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn views_are_counted_once_per_session_apart_for_previews_and_by_campaign(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let channel = w.premium.clone();
    let premium = app.insert_reader_article(ReaderArticle { channel: Some(&channel), is_premium: true, ..Default::default() }).await;
    let open = app.insert_reader_article(ReaderArticle { channel: Some(&channel), title: "Open", ..Default::default() }).await;
    let view = "mutation($item: ArticleViewStatInput!) { addArticleViewStat(item: $item) { counted kind } }";
    let send = |article: &str, session: &str, campaign: Option<&str>| {
        let mut item = json!({ "articleId": article, "type": "article", "session": session });
        if let Some(campaign) = campaign {
            item["source"] = json!("campaign");
            item["sourceId"] = json!(campaign);
            item["sourceDetail"] = json!("newsletter");
        }
        app.gql(Some(&w.reader), view, json!({ "item": item }))
    };
    let first = send(&open, "session-1", None).await;
    assert_eq!(first["data"]["addArticleViewStat"], json!({ "counted": true, "kind": "full" }), "{first}");
    let reload = send(&open, "session-1", None).await;
    assert_eq!(reload["data"]["addArticleViewStat"]["counted"], false, "a reload in the same session is not counted");
    send(&open, "session-2", None).await;
    let preview = send(&premium, "session-1", None).await;
    assert_eq!(preview["data"]["addArticleViewStat"], json!({ "counted": true, "kind": "preview" }), "{preview}");

    // The stats page counts full reads per reader.
    let stats = app.gql(Some(&w.admin), "query($id: ID!) { findArticleStats(id: $id) { views users } }", json!({ "id": open })).await;
    assert_eq!(stats["data"]["findArticleStats"], json!({ "views": 2, "users": 1 }), "{stats}");
    let premium_stats =
        app.gql(Some(&w.admin), "query($id: ID!) { findArticleStats(id: $id) { views users } }", json!({ "id": premium })).await;
    assert_eq!(premium_stats["data"]["findArticleStats"], json!({ "views": 0, "users": 0 }), "previews are not full reads");
    let days: (i64, i64) = sqlx::query_as("select sum(full_views)::bigint, sum(preview_views)::bigint from article_view_day")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(days, (2, 1));

    // A campaign link attributes the view; a campaign of another article is not attributed.
    let campaign = app
        .gql(
            Some(&w.admin),
            "mutation($a: ID!) { createCampaign(articleId: $a, campaignType: \"newsletter\") { _id articleLink articleId campaignType } }",
            json!({ "a": open }),
        )
        .await;
    let campaign = &campaign["data"]["createCampaign"];
    let campaign_id = campaign["_id"].as_str().unwrap();
    assert!(
        campaign["articleLink"].as_str().unwrap().ends_with(&format!("/insights/browse/article/{open}/{campaign_id}_newsletter")),
        "{campaign}"
    );
    send(&open, "session-3", Some(campaign_id)).await;
    send(&premium, "session-3", Some(campaign_id)).await;
    let attributed: Vec<(String, Option<String>)> =
        sqlx::query_as("select article_id, campaign_id from article_view_event where session_id = 'session-3' order by kind")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(attributed, vec![(open.clone(), Some(campaign_id.to_owned())), (premium.clone(), None)]);
    let refused = app
        .gql(Some(&w.reader), "mutation($a: ID!) { createCampaign(articleId: $a, campaignType: \"x\") { _id } }", json!({ "a": open }))
        .await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn trending_archive_months_and_the_reader_lists(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let (premium, open, desk) = (w.premium.clone(), w.open.clone(), w.desk.clone());
    let sector = app.add_category(&w.admin, "Metals", None).await;
    let a = app
        .insert_reader_article(ReaderArticle {
            channel: Some(&premium),
            desk: Some(&desk),
            title: "A",
            days_ago: 1,
            categories: &[&sector],
            ..Default::default()
        })
        .await;
    let b = app
        .insert_reader_article(ReaderArticle { channel: Some(&premium), title: "B", days_ago: 2, is_premium: true, ..Default::default() })
        .await;
    let c = app
        .insert_reader_article(ReaderArticle { channel: Some(&open), title: "C", days_ago: 3, charts: true, ..Default::default() })
        .await;
    let old = app.insert_reader_article(ReaderArticle { channel: Some(&open), title: "Old", days_ago: 400, ..Default::default() }).await;
    // Views: b most in the last 30 days, old most of all but long ago.
    let day_views = |article: String, days_ago: i32, n: i32| {
        let pool = app.pool.clone();
        async move {
            sqlx::query("insert into article_view_day (article_id, day, full_views) values ($1, current_date - $2, $3)")
                .bind(article)
                .bind(days_ago)
                .bind(n)
                .execute(&pool)
                .await
                .unwrap();
        }
    };
    day_views(b.clone(), 1, 9).await;
    day_views(a.clone(), 2, 5).await;
    day_views(c.clone(), 29, 2).await;
    day_views(old.clone(), 45, 100).await;
    let stat = app.gql(Some(&w.reader), "{ getBrowseStat { trendingArticles { _id } desks { _id } channels { _id } } }", json!({})).await;
    let trending: Vec<&str> =
        stat["data"]["getBrowseStat"]["trendingArticles"].as_array().unwrap().iter().map(|x| x["_id"].as_str().unwrap()).collect();
    assert_eq!(trending, vec![b.as_str(), a.as_str(), c.as_str()], "{stat}");
    assert_eq!(stat["data"]["getBrowseStat"]["desks"][0]["_id"], w.desk.as_str());
    let by_topic = app
        .gql(Some(&w.reader), "query($c: ID) { getBrowseStat(categoryId: $c) { trendingArticles { _id } } }", json!({ "c": sector }))
        .await;
    assert_eq!(by_topic["data"]["getBrowseStat"]["trendingArticles"], json!([{ "_id": a }]), "{by_topic}");
    let channel_stats = app
        .gql(
            Some(&w.reader),
            "query($c: ID!) { getStatsByChannel(query: { channelId: $c }) { views trendingArticles { _id } } }",
            json!({ "c": premium }),
        )
        .await;
    assert_eq!(channel_stats["data"]["getStatsByChannel"]["views"], 14, "{channel_stats}");

    let months = app.gql(Some(&w.reader), "{ getLastMonthsWithArticles { dateId year month articleCount } }", json!({})).await;
    let months = months["data"]["getLastMonthsWithArticles"].as_array().unwrap().clone();
    let total: i64 = months.iter().map(|m| m["articleCount"].as_i64().unwrap()).sum();
    assert_eq!(total, 4);
    assert!(months.windows(2).all(|pair| pair[0]["dateId"].as_str() > pair[1]["dateId"].as_str()), "newest first: {months:?}");

    let charts = app.gql(Some(&w.reader), "query($c: ID!) { getChartsArticles(premiumChannelId: $c) { _id } }", json!({ "c": open })).await;
    assert_eq!(charts["data"]["getChartsArticles"], json!([{ "_id": c }]));

    // getArticles: mine, not mine, free only; total on request.
    app.subscribe(&premium, &w.reader_id, "account", "active", None, true).await;
    let list = |params: Value| {
        let token = w.reader.clone();
        async move {
            let response = app
                .gql(
                    Some(&token),
                    "query($p: GetArticlesParams) { getArticles(params: $p, first: 2) { total articles { _id } } }",
                    json!({ "p": params }),
                )
                .await;
            let ids: Vec<String> = response["data"]["getArticles"]["articles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["_id"].as_str().unwrap().to_owned())
                .collect();
            (response["data"]["getArticles"]["total"].as_i64().unwrap(), ids)
        }
    };
    assert_eq!(list(json!({ "onlyMySubscriptions": true })).await, (2, vec![a.clone(), b.clone()]));
    assert_eq!(list(json!({ "excludeMySubscriptions": true })).await, (2, vec![c.clone(), old.clone()]));
    assert_eq!(list(json!({ "freeOnly": true })).await, (3, vec![a.clone(), c.clone()]));
    let page_two = app.gql(Some(&w.reader), "{ getArticles(first: 3, page: 2) { articles { _id } } }", json!({})).await;
    assert_eq!(page_two["data"]["getArticles"]["articles"], json!([{ "_id": old }]));

    // Recommendations leave out what the reader read twice.
    app.insert_views(&a, &w.reader_id, 2).await;
    let me = app
        .gql(
            Some(&w.reader),
            "{ me { channelSubscriptions { channelId channel { name } isActive } recommendedArticles { _id } } }",
            json!({}),
        )
        .await;
    assert_eq!(me["data"]["me"]["recommendedArticles"], json!([{ "_id": b }]), "{me}");
    assert_eq!(me["data"]["me"]["channelSubscriptions"][0]["channel"]["name"], "Metals Premium");
    assert_eq!(me["data"]["me"]["channelSubscriptions"][0]["isActive"], true);
    let subscribed = app.gql(Some(&w.reader), "query($c: ID!) { isSubscribedTo(channelId: $c) }", json!({ "c": premium })).await;
    assert_eq!(subscribed["data"]["isSubscribedTo"], true);
}

/// Registers the reader's interest in a premium article of the premium channel (no desk address)
/// `times` times; returns the outbox's emails (kind, recipient, reader named).
async fn register_interest(w: &World, times: usize) -> Vec<(String, String, Option<String>)> {
    let app = &w.app;
    let channel = w.premium.clone();
    let id = app.insert_reader_article(ReaderArticle { channel: Some(&channel), is_premium: true, ..Default::default() }).await;
    let register = "mutation($a: ID!) { notifyRegisteredInterestInArticle(item: { articleId: $a }) }";
    for _ in 0..times {
        let response = app.gql(Some(&w.reader), register, json!({ "a": id })).await;
        assert_eq!(response["data"]["notifyRegisteredInterestInArticle"], true, "{response}");
    }
    assert_eq!(error_code(&app.gql(Some(&w.reader), register, json!({ "a": "bad" })).await), Some("ARTICLE_NOT_FOUND"));
    sqlx::query_as("select kind, recipient, data->>'readerEmail' from email_outbox order by email_id").fetch_all(&app.pool).await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn registering_interest_is_recorded_and_emailed_in_one_transaction(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let emails = register_interest(&w, 1).await;
    // The article has no desk address: the email goes to the channel's admins (its creator).
    assert_eq!(emails, [("articleInterest".to_owned(), TestRole::Administrator.email(), Some(TestRole::Subscriber.email()))]);
    let rows: Vec<(String, bool)> = sqlx::query_as(
        "select user_id, exists (select 1 from email_outbox o where o.interest_id = i.interest_id) from interest i where kind = 'Article'",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(rows, [(w.reader_id.clone(), true)], "linked to its email");
    assert_eq!(app.jobs_like("deliver_emails").await, 1, "the delivery is enqueued with the email");
    assert_eq!(app.jobs_like("notify_article_interest").await, 0, "no separate job any more");
}

#[sqlx::test(migrations = "./migrations")]
async fn registering_interest_twice_emails_the_desk_once(pool: PgPool) {
    let w = world(pool).await;
    let emails = register_interest(&w, 2).await;
    assert_eq!(emails.len(), 1, "one email for one pending interest: {emails:?}");
    assert_eq!(w.app.jobs_like("deliver_emails").await, 1);
}
