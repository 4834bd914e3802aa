//! Campaign links (issue 14): staff create them for a published article; both links (the article
//! page and the marketing article page) attribute the views they bring; the article stats page
//! shows each campaign's views and unique readers, newest first.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ReaderArticle};

const CREATE: &str = "mutation($a: ID!, $t: String!) { createCampaign(articleId: $a, campaignType: $t) {
    _id articleLink marketingArticleLink articleId campaignType } }";
const STATS: &str = "query($id: ID!) { findArticleStats(id: $id) { views users campaigns {
    _id campaignType articleLink marketingArticleLink createdAt views uniqueReaders } } }";
const VIEW: &str = "mutation($item: ArticleViewStatInput!) { addArticleViewStat(item: $item) { counted kind } }";

async fn view(app: &TestApp, token: &str, article: &str, page: &str, session: &str, campaign: Option<(&str, &str)>) -> Value {
    let mut item = json!({ "articleId": article, "type": page, "session": session });
    if let Some((id, kind)) = campaign {
        // As the web app sends it from the link's `{campaignId}_{type}` segment.
        item["source"] = json!("campaign");
        item["sourceId"] = json!(id);
        item["sourceDetail"] = json!(kind);
    }
    let response = app.gql(Some(token), VIEW, json!({ "item": item })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["addArticleViewStat"].clone()
}

#[sqlx::test(migrations = "./migrations")]
async fn campaigns_count_the_views_and_readers_their_links_bring(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let channel = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let article = app.insert_reader_article(ReaderArticle { channel: Some(&channel), desk: Some(&desk), ..Default::default() }).await;
    let other = app.insert_reader_article(ReaderArticle { title: "Other", channel: Some(&channel), ..Default::default() }).await;

    let create = |token: &str, article: &str, kind: &str| {
        let (app, token, variables) = (&app, token.to_owned(), json!({ "a": article, "t": kind }));
        async move { app.gql(Some(&token), CREATE, variables).await }
    };
    let email = create(&editor, &article, "email").await;
    let email = &email["data"]["createCampaign"];
    let email_id = email["_id"].as_str().unwrap_or_else(|| panic!("{email}")).to_owned();
    assert_eq!(email["articleLink"], format!("{}/insights/browse/article/{article}/{email_id}_email", app.address));
    assert_eq!(email["marketingArticleLink"], format!("{}/insights/browse/marketing-article/{article}/{email_id}_email", app.address));
    assert_eq!(email["campaignType"], "email");
    sqlx::query("update campaign set created_at = created_at - interval '1 hour' where campaign_id = $1")
        .bind(&email_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let newsletter = create(&admin, &article, "weekly-newsletter_2").await;
    let newsletter_id = newsletter["data"]["createCampaign"]["_id"].as_str().unwrap_or_else(|| panic!("{newsletter}")).to_owned();
    let social = create(&admin, &article, "social").await["data"]["createCampaign"]["_id"].as_str().unwrap().to_owned();

    let (ann, _) = app.signed_in_reader("ann@client.example").await;
    let (bob, _) = app.signed_in_reader("bob@client.example").await;
    let (cat, _) = app.signed_in_reader("cat@client.example").await;
    let by_email = Some((email_id.as_str(), "email"));
    let by_newsletter = Some((newsletter_id.as_str(), "weekly-newsletter_2"));
    // Ann comes twice through the email (a reload of the same session is not counted).
    assert_eq!(view(&app, &ann, &article, "article", "s1", by_email).await["counted"], true);
    assert_eq!(view(&app, &ann, &article, "article", "s1", by_email).await["counted"], false);
    view(&app, &ann, &article, "article", "s2", by_email).await;
    // Bob through the newsletter on the marketing page, and through the email on the marketing page.
    view(&app, &bob, &article, "marketing-article", "s1", by_newsletter).await;
    view(&app, &bob, &article, "marketing-article", "s2", by_email).await;
    // Not attributed: a campaign of another article, a view without a campaign.
    view(&app, &cat, &other, "article", "s1", by_email).await;
    view(&app, &cat, &article, "article", "s1", None).await;

    let stats = app.gql(Some(&admin), STATS, json!({ "id": article })).await;
    assert_eq!(stats["errors"], Value::Null, "{stats}");
    let campaigns = stats["data"]["findArticleStats"]["campaigns"].as_array().unwrap().clone();
    let summary: Vec<(String, String, i64, i64)> = campaigns
        .iter()
        .map(|c| {
            (
                c["_id"].as_str().unwrap().to_owned(),
                c["campaignType"].as_str().unwrap().to_owned(),
                c["views"].as_i64().unwrap(),
                c["uniqueReaders"].as_i64().unwrap(),
            )
        })
        .collect();
    // Newest first.
    assert_eq!(
        summary,
        [
            (social.clone(), "social".to_owned(), 0, 0),
            (newsletter_id.clone(), "weekly-newsletter_2".to_owned(), 1, 1),
            (email_id.clone(), "email".to_owned(), 3, 2),
        ]
    );
    assert_eq!(
        campaigns[1]["marketingArticleLink"],
        format!("{}/insights/browse/marketing-article/{article}/{newsletter_id}_weekly-newsletter_2", app.address)
    );
    assert!(campaigns[2]["createdAt"].as_str().unwrap() < campaigns[1]["createdAt"].as_str().unwrap());
    let other_stats = app.gql(Some(&admin), STATS, json!({ "id": other })).await;
    assert_eq!(other_stats["data"]["findArticleStats"]["campaigns"], json!([]), "{other_stats}");

    // The stats page is for staff.
    assert_eq!(error_code(&app.gql(Some(&ann), STATS, json!({ "id": article })).await), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_campaign_needs_a_published_article_a_type_that_fits_a_link_and_staff(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let article = app.insert_reader_article(ReaderArticle::default()).await;
    let draft = app.insert_reader_article(ReaderArticle { state: "Pending", ..Default::default() }).await;
    let create = |token: &str, article: &str, kind: &str| {
        let (app, token, variables) = (&app, token.to_owned(), json!({ "a": article, "t": kind }));
        async move { app.gql(Some(&token), CREATE, variables).await }
    };
    let too_long = "a".repeat(51);
    for (kind, message) in [
        ("a/b", "Use letters, digits, '-' and '_' only".to_owned()),
        ("email news", "Use letters, digits, '-' and '_' only".to_owned()),
        ("   ", "This field is required".to_owned()),
        (too_long.as_str(), insights::validation::max_length_message(50)),
    ] {
        let response = create(&editor, &article, kind).await;
        assert_eq!(error_code(&response), Some("BAD_USER_INPUT"), "{kind:?}: {response}");
        assert_eq!(response["errors"][0]["extensions"]["fields"]["campaignType"], message.as_str(), "{kind:?}: {response}");
    }
    assert_eq!(error_code(&create(&editor, &draft, "email").await), Some("ARTICLE_NOT_FOUND"));
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&create(&reader, &article, "email").await), Some("FORBIDDEN"));
    let count: i64 = sqlx::query_scalar("select count(*) from campaign").fetch_one(&app.pool).await.unwrap();
    assert_eq!(count, 0);
}
