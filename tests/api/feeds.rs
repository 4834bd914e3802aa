//! Private feeds and personal access tokens (issue 41): links made, listed and revoked (at once),
//! the Atom document as a real feed parser (Python's feedparser) reads it — valid, newest first,
//! premium text only for the entitled — its conditional requests, its rate, the readership it
//! records; access tokens that read but change nothing; Administrators revoking a reader's.

use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, clients, error_code,
    factories::{MetalsResearch, ReaderArticle},
};

/// A phrase only the premium article's body holds.
const MARKER: &str = "quillodendrite";

const CREATE_LINK: &str = "mutation($scope: FeedScopeInput!) { createFeedLink(scope: $scope) {
    url link { _id scope { kind id name } createdAt lastUsedAt } } }";
const MY_LINKS: &str = "{ myFeedLinks { _id scope { kind id name } lastUsedAt } }";
const REVOKE_LINK: &str = "mutation($id: ID!) { revokeFeedLink(id: $id) }";
const CREATE_TOKEN: &str = "mutation($name: String!) { createAccessToken(name: $name) { secret token { _id name createdAt lastUsedAt } } }";
const MY_TOKENS: &str = "{ myAccessTokens { _id name lastUsedAt } }";
const REVOKE_TOKEN: &str = "mutation($id: ID!) { revokeAccessToken(id: $id) }";

struct World {
    app: TestApp,
    admin: String,
    channel: String,
    topic: String,
    reader: String,
    reader_id: String,
    /// Older, free, under a sub-topic.
    free: String,
    /// Newer, premium, under the topic, with the marker in its body.
    premium: String,
}

async fn world(pool: PgPool, flags: &[&str]) -> World {
    let app = TestApp::spawn_with(pool, flags).await;
    let MetalsResearch { admin, admin_id, desk, channel, topic, reader, reader_id } = app.metals_research().await;
    let sub_topic = app.add_category(&admin, "Copper smelting", Some(&topic)).await;
    let free = app
        .insert_reader_article(ReaderArticle {
            title: "Smelter margins",
            summary: "Margins recover",
            body: "Smelters in Chile expanded output.",
            desk: Some(&desk),
            days_ago: 3,
            categories: &[&sub_topic],
            contributors: &[&admin_id],
            ..Default::default()
        })
        .await;
    let premium = app
        .insert_reader_article(ReaderArticle {
            title: "Premium copper squeeze",
            summary: "Inventories are thin",
            body: &format!("The {MARKER} model sees inventories at record lows."),
            channel: Some(&channel),
            desk: Some(&desk),
            is_premium: true,
            days_ago: 1,
            categories: &[&topic],
            ..Default::default()
        })
        .await;
    World { app, admin, channel, topic, reader, reader_id, free, premium }
}

impl World {
    /// A feed link of the reader's; its id and its address's path.
    async fn link(&self, scope: Value) -> (String, String) {
        let created = self.app.gql(Some(&self.reader), CREATE_LINK, json!({ "scope": scope })).await;
        let url = created["data"]["createFeedLink"]["url"].as_str().unwrap_or_else(|| panic!("{created}")).to_owned();
        let path = url[url.find("/feeds/").expect("a feed address")..].to_owned();
        (created["data"]["createFeedLink"]["link"]["_id"].as_str().unwrap().to_owned(), path)
    }

    async fn fetch(&self, path: &str, headers: &[(header::HeaderName, &str)]) -> reqwest::Response {
        let mut request = self.app.client.get(self.app.url(path));
        for (name, value) in headers {
            request = request.header(name, *value);
        }
        request.send().await.unwrap()
    }

    async fn delivered(&self) -> Vec<(String, String)> {
        sqlx::query_as("select article_id, session_id from article_view_event where kind = 'feed' order by article_id")
            .fetch_all(&self.app.pool)
            .await
            .unwrap()
    }
}

#[sqlx::test]
async fn a_topic_feed_reads_in_feedparser_newest_first_with_premium_text_only_for_subscribers(pool: PgPool) {
    let w = world(pool, &[]).await;
    let (_, path) = w.link(json!({ "kind": "topic", "id": w.topic })).await;
    assert!(path.ends_with(".atom") && path.len() > "/feeds/.atom".len() + 42, "{path}");

    let response = w.fetch(&path, &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/atom+xml; charset=utf-8");
    assert_eq!(response.headers()[header::CACHE_CONTROL], "private, no-cache");
    let etag = response.headers()[header::ETAG].to_str().unwrap().to_owned();
    let modified = response.headers()[header::LAST_MODIFIED].to_str().unwrap().to_owned();
    let body = response.bytes().await.unwrap();
    let feed = clients::feedparser(&body);
    assert_eq!((feed["bozo"].clone(), feed["version"].clone()), (json!(false), json!("atom10")), "{feed}");
    assert_eq!(feed["title"], "Copper · Insights");
    let entries = feed["entries"].as_array().unwrap();
    // The topic's and its sub-topic's articles, newest first.
    let titles: Vec<&str> = entries.iter().map(|e| e["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Premium copper squeeze", "Smelter margins"]);
    let (premium, free) = (&entries[0], &entries[1]);
    assert!(premium["link"].as_str().unwrap().ends_with(&format!("/insights/browse/article/{}", w.premium)), "{premium}");
    assert_eq!(premium["categories"], json!(["Copper"]));
    assert_eq!(free["categories"], json!(["Copper smelting"]));
    assert_eq!(free["authors"].as_array().map(Vec::len), Some(1), "{free}");
    assert!(premium["published"].is_string() && premium["updated"].is_string(), "{premium}");
    // Not subscribed: the premium entry is its summary and a way to subscribe, never its text.
    assert!(!String::from_utf8_lossy(&body).contains(MARKER));
    let locked = premium["content"][0].as_str().unwrap();
    assert!(locked.contains("Inventories are thin") && locked.contains("Subscribe to Metals Premium"), "{locked}");
    assert!(locked.contains(&format!("/insights/subscribe/channel/{}", w.channel)), "{locked}");
    assert!(free["content"][0].as_str().unwrap().contains("Smelters in Chile expanded output."), "{free}");
    // Only the free article was delivered in full.
    assert_eq!(w.delivered().await.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>(), [w.free.clone()]);

    // Nothing changed: 304 for either condition, with nothing recorded.
    let same = w.fetch(&path, &[(header::IF_NONE_MATCH, &etag)]).await;
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(same.headers()[header::ETAG], etag.as_str());
    let same = w.fetch(&path, &[(header::IF_MODIFIED_SINCE, &modified)]).await;
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);

    // Subscribed: the tag changes and the premium text is there, delivered once however often fetched.
    w.app.subscribe(&w.channel, &w.reader_id, "nonCharge", "active", Some(30), true).await;
    let changed = w.fetch(&path, &[(header::IF_NONE_MATCH, &etag)]).await;
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()[header::ETAG], etag.as_str());
    let feed = clients::feedparser(&changed.bytes().await.unwrap());
    assert!(feed["entries"][0]["content"][0].as_str().unwrap().contains(MARKER), "{feed}");
    w.fetch(&path, &[]).await;
    let delivered = w.delivered().await;
    assert_eq!(delivered.len(), 2, "{delivered:?}");
    assert!(delivered.iter().all(|(_, session)| session.starts_with("feed:")));
    // Not as full reads of the web: the article's readers are unchanged.
    let full: i64 = sqlx::query_scalar("select count(*) from article_view").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(full, 0);
}

#[sqlx::test]
async fn a_subscriptions_feed_follows_the_readers_channels_and_a_revoked_link_stops_at_once(pool: PgPool) {
    let w = world(pool, &["--rate-limit-feeds", "2/minute"]).await;
    let (id, path) = w.link(json!({ "kind": "all" })).await;
    let titles = async || {
        let feed = clients::feedparser(&w.fetch(&path, &[]).await.bytes().await.unwrap());
        feed["entries"].as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert!(titles().await.is_empty(), "no subscription yet");
    w.app.subscribe(&w.channel, &w.reader_id, "nonCharge", "active", Some(30), true).await;
    assert_eq!(titles().await, ["Premium copper squeeze"]);

    // Listed with its scope and last use; the address is never shown again.
    let links = w.app.gql(Some(&w.reader), MY_LINKS, json!({})).await;
    assert_eq!(links["data"]["myFeedLinks"][0]["scope"], json!({ "kind": "all", "id": null, "name": null }), "{links}");
    assert!(links["data"]["myFeedLinks"][0]["lastUsedAt"].is_string(), "{links}");
    assert!(!links.to_string().contains(&path[7..path.len() - 5]));

    // Its rate (two a minute here): the third fetch within the minute waits.
    let limited = w.fetch(&path, &[]).await;
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(limited.headers().contains_key(header::RETRY_AFTER));

    // Another reader cannot revoke it; its reader can, and it stops at once.
    let (other, _) = w.app.signed_in_reader("otto@other.example").await;
    assert_eq!(error_code(&w.app.gql(Some(&other), REVOKE_LINK, json!({ "id": id })).await), Some("NOT_FOUND"));
    let revoked = w.app.gql(Some(&w.reader), REVOKE_LINK, json!({ "id": id })).await;
    assert_eq!(revoked["data"]["revokeFeedLink"], true, "{revoked}");
    assert_eq!(w.fetch(&path, &[]).await.status(), StatusCode::NOT_FOUND);
    assert_eq!(w.app.gql(Some(&w.reader), MY_LINKS, json!({})).await["data"]["myFeedLinks"], json!([]));
    // A made-up address costs no lookup and finds nothing.
    assert_eq!(w.fetch("/feeds/not-a-secret.atom", &[]).await.status(), StatusCode::NOT_FOUND);
    assert_eq!(w.fetch(&format!("/feeds/{}.atom", "A".repeat(43)), &[]).await.status(), StatusCode::NOT_FOUND);

    // In the audit trail, without the secret's hash.
    let audited: Vec<Value> = sqlx::query_scalar("select change from audit_event where entity_type = 'feed_link' order by event_id")
        .fetch_all(&w.app.pool)
        .await
        .unwrap();
    assert_eq!(audited.len(), 2, "made and revoked, not each use: {audited:?}");
    assert!(audited.iter().all(|change| !change.to_string().contains("secret_hash")), "{audited:?}");
}

#[sqlx::test]
async fn a_feed_link_follows_something_that_exists_and_a_reader_holds_at_most_twenty(pool: PgPool) {
    let w = world(pool, &[]).await;
    let refused = w.app.gql(Some(&w.reader), CREATE_LINK, json!({ "scope": { "kind": "channel", "id": "0123456789abcdef01234567" } })).await;
    assert_eq!(refused["errors"][0]["extensions"]["fields"]["id"], insights::feeds::SCOPE_NOT_FOUND, "{refused}");
    let refused = w.app.gql(Some(&w.reader), CREATE_LINK, json!({ "scope": { "kind": "desk" } })).await;
    assert_eq!(refused["errors"][0]["extensions"]["fields"]["id"], insights::feeds::SCOPE_ID_REQUIRED, "{refused}");
    for _ in 0..20 {
        w.link(json!({ "kind": "channel", "id": w.channel })).await;
    }
    let refused = w.app.gql(Some(&w.reader), CREATE_LINK, json!({ "scope": { "kind": "all" } })).await;
    assert_eq!((error_code(&refused), refused["errors"][0]["message"].as_str()), (Some("CONFLICT"), Some(insights::feeds::TOO_MANY_LINKS)));
    let links = w.app.gql(Some(&w.reader), MY_LINKS, json!({})).await;
    assert_eq!(links["data"]["myFeedLinks"][0]["scope"]["name"], "Metals Premium");
}

#[sqlx::test]
async fn an_access_token_reads_as_its_reader_changes_nothing_and_administrators_revoke_it(pool: PgPool) {
    let w = world(pool, &[]).await;
    let created = w.app.gql(Some(&w.reader), CREATE_TOKEN, json!({ "name": "Claude at Acme" })).await;
    let secret = created["data"]["createAccessToken"]["secret"].as_str().unwrap_or_else(|| panic!("{created}")).to_owned();
    let id = created["data"]["createAccessToken"]["token"]["_id"].as_str().unwrap().to_owned();
    assert!(secret.starts_with(insights::access_tokens::PREFIX) && secret.len() == insights::access_tokens::PREFIX.len() + 43);
    let blank = w.app.gql(Some(&w.reader), CREATE_TOKEN, json!({ "name": "  " })).await;
    assert_eq!(error_code(&blank), Some("BAD_USER_INPUT"));

    // It reads as the reader…
    let me = w.app.gql(Some(&secret), "{ me { _id } }", json!({})).await;
    assert_eq!(me["data"]["me"]["_id"], w.reader_id.as_str(), "{me}");
    let tokens = w.app.gql(Some(&w.reader), MY_TOKENS, json!({})).await;
    assert_eq!(tokens["data"]["myAccessTokens"][0]["name"], "Claude at Acme");
    assert!(tokens["data"]["myAccessTokens"][0]["lastUsedAt"].is_string(), "{tokens}");
    // …and changes nothing: no mutation, no upload.
    let refused = w.app.gql(Some(&secret), CREATE_LINK, json!({ "scope": { "kind": "all" } })).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"), "{refused}");
    let refused = w.app.gql(Some(&secret), CREATE_TOKEN, json!({ "name": "another" })).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"), "{refused}");

    // Administrators see a reader's tokens and links and revoke them; readers see only their own.
    w.link(json!({ "kind": "all" })).await;
    let listed = w
        .app
        .gql(
            Some(&w.admin),
            "query($u: ID!) { userAccessTokens(userId: $u) { _id name } userFeedLinks(userId: $u) { _id } }",
            json!({ "u": w.reader_id }),
        )
        .await;
    assert_eq!(listed["data"]["userAccessTokens"][0]["_id"], id.as_str(), "{listed}");
    assert_eq!(listed["data"]["userFeedLinks"].as_array().map(Vec::len), Some(1), "{listed}");
    let as_reader = w.app.gql(Some(&w.reader), "query($u: ID!) { userAccessTokens(userId: $u) { _id } }", json!({ "u": w.reader_id })).await;
    assert_eq!(error_code(&as_reader), Some("FORBIDDEN"));
    let revoked = w.app.gql(Some(&w.admin), REVOKE_TOKEN, json!({ "id": id })).await;
    assert_eq!(revoked["data"]["revokeAccessToken"], true, "{revoked}");
    let refused = w.app.gql(Some(&secret), "{ me { _id } }", json!({})).await;
    assert_eq!(error_code(&refused), Some("UNAUTHENTICATED"), "revoked at once: {refused}");
    let actors: Vec<(String, Option<String>)> =
        sqlx::query_as("select action, actor_id from audit_event where entity_type = 'access_token' order by event_id")
            .fetch_all(&w.app.pool)
            .await
            .unwrap();
    assert_eq!(actors.len(), 2, "{actors:?}");
    assert_eq!(actors[1].0, "revokeAccessToken");

    // At most ten at once.
    for i in 0..10 {
        let made = w.app.gql(Some(&w.reader), CREATE_TOKEN, json!({ "name": format!("tool {i}") })).await;
        assert_eq!(made["errors"], Value::Null, "{made}");
    }
    let refused = w.app.gql(Some(&w.reader), CREATE_TOKEN, json!({ "name": "one more" })).await;
    assert_eq!(refused["errors"][0]["message"], insights::access_tokens::TOO_MANY_TOKENS);
}
