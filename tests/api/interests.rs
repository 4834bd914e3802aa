//! Registered interest (issue 14): recorded once per reader, item and day; delivered by email
//! (to maildev) or as a message card to a Teams webhook (a local sink), exactly once, retried
//! after a failure and failed after its attempts, never failing the reader's request; the
//! Administrators' list with its filters, and the CSV export with its escaping and access.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration as StdDuration,
};

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, StatusCode, Uri},
    routing::post,
};
use chrono::{DateTime, Duration, Utc};
use insights::{auth::provider, interests::teams};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    email_support::{Mail, deliver, mailer, register_worker},
    support::{TestApp, TestRole, error_code, factories::ReaderArticle},
};

/// The Teams sinks of these tests listen on 127.0.0.1 over http: allowed by the setting for tests.
const TEAMS_SINK: &[&str] = &["--teams-webhook-test-hosts", "127.0.0.1"];
const REGISTER_ARTICLE: &str = "mutation($id: ID!) { notifyRegisteredInterestInArticle(item: { articleId: $id }) }";
const REGISTER_CHANNEL: &str = "mutation($id: ID!) { notifyRegisteredChannelInterest(channelId: $id) }";
const REGISTER_PROMOTION: &str = "mutation($id: ID!) { notifyRegisteredInterestInPromotionalContent(item: { promotionalContentId: $id }) }";
const LIST: &str = "query($params: InterestListParams) { getAllInterests(params: $params) { total interests {
    _id kind itemId itemName userId userName userEmail userCompany registeredAt deliveredTo deliveryState deliveryError } } }";

/// A reader whose token carries a name and company of its own (the stored user follows the token).
async fn reader(app: &TestApp, email: &str, name: &str, company: Option<&str>) -> (String, String) {
    let scopes = TestRole::Subscriber.scopes();
    let claims = provider::UserClaims::new(email, name, company, scopes.clone());
    let subject = provider::subject_for(&app.state.config, email, false);
    let token =
        provider::sign_access_token(&app.state, &subject, &scopes.join(" "), &claims, StdDuration::from_secs(600)).await.expect("a token");
    let id = app.user_id(&token).await;
    (token, id)
}

/// A desk with an address, a premium channel (its creator, the administrator, is its admin), a
/// premium article of both, and a reader.
struct World {
    admin: String,
    premium: String,
    article: String,
    ann: String,
    ann_id: String,
}

async fn world(app: &TestApp) -> World {
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let article = app
        .insert_reader_article(ReaderArticle { channel: Some(&premium), desk: Some(&desk), is_premium: true, ..Default::default() })
        .await;
    let (ann, ann_id) = reader(app, "ann@client.example", "Ann Lee", Some("Lee & Co")).await;
    World { admin, premium, article, ann, ann_id }
}

/// A promotional content 'Energy week' (expiring in a week) leading to the page 'Energy landing'
/// whose Teams channel is `teams_channel`; returns the content's id.
async fn promotion(app: &TestApp, name: &str, teams_channel: &str) -> String {
    let page = insights::ids::new_id();
    sqlx::query(
        "insert into promotion_page (promotion_page_id, name, html, teams_channel, page_summary, social_sharing_image_url,
                                     success_title, success_message)
         values ($1, 'Energy landing', '<p>Energy</p>', $2, 'Summary', 'a.png', 'Thank you', 'We will be in touch')",
    )
    .bind(&page)
    .bind(teams_channel)
    .execute(&app.pool)
    .await
    .unwrap();
    let content = insights::ids::new_id();
    sqlx::query(
        "insert into promotional_content (promotional_content_id, name, promotion_page_id, expiry_date)
         values ($1, $2, $3, now() + interval '7 days')",
    )
    .bind(&content)
    .bind(name)
    .bind(&page)
    .execute(&app.pool)
    .await
    .unwrap();
    content
}

async fn register(app: &TestApp, token: &str, query: &str, id: &str) {
    let response = app.gql(Some(token), query, json!({ "id": id })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    let answer = response["data"].as_object().and_then(|data| data.values().next().cloned());
    assert_eq!(answer, Some(json!(true)), "{response}");
}

/// Every interest: (kind, item, user, state, attempts, error, delivered to), oldest first.
type Row = (String, String, String, String, i32, Option<String>, Option<String>);

async fn rows(app: &TestApp) -> Vec<Row> {
    sqlx::query_as(
        "select kind, item_id, user_id, delivery_state, attempts, last_error, delivered_to from interest order by registered_at, interest_id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

async fn list(app: &TestApp, token: &str, params: Value) -> Value {
    let response = app.gql(Some(token), LIST, json!({ "params": params })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["getAllInterests"].clone()
}

#[sqlx::test(migrations = "./migrations")]
async fn interest_is_recorded_once_per_reader_item_and_day(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let w = world(&app).await;
    let content = promotion(&app, "Energy week", "marketing@insights.example").await;
    let (bob, bob_id) = reader(&app, "bob@client.example", "Bob Roe", None).await;
    for _ in 0..2 {
        register(&app, &w.ann, REGISTER_ARTICLE, &w.article).await;
        register(&app, &w.ann, REGISTER_CHANNEL, &w.premium).await;
        register(&app, &w.ann, REGISTER_PROMOTION, &content).await;
    }
    register(&app, &bob, REGISTER_ARTICLE, &w.article).await;
    let kinds: Vec<(String, String)> = rows(&app).await.into_iter().map(|r| (r.0, r.2)).collect();
    let ann = w.ann_id.clone();
    assert_eq!(
        kinds,
        [
            ("Article".to_owned(), ann.clone()),
            ("Channel".to_owned(), ann.clone()),
            ("PromotionalContent".to_owned(), ann.clone()),
            ("Article".to_owned(), bob_id.clone()),
        ]
    );
    // One email each, written with the interest and linked to it.
    let emails: Vec<(String, String)> = sqlx::query_as(
        "select o.kind, o.recipient from email_outbox o join interest i on i.interest_id = o.interest_id order by o.email_id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let admin_email = TestRole::Administrator.email();
    assert_eq!(
        emails,
        [
            ("articleInterest".to_owned(), "desk@insights.example".to_owned()),
            ("channelInterest".to_owned(), admin_email.clone()),
            ("promotionInterest".to_owned(), "marketing@insights.example".to_owned()),
            ("articleInterest".to_owned(), "desk@insights.example".to_owned()),
        ]
    );

    // The next day each is recorded (and emailed) again.
    sqlx::query("update interest set day = day - 1, registered_at = registered_at - interval '1 day'").execute(&app.pool).await.unwrap();
    register(&app, &w.ann, REGISTER_ARTICLE, &w.article).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;
    let days: Vec<(String, i64)> = sqlx::query_as("select kind, count(*) from interest where user_id = $1 group by kind order by kind")
        .bind(&ann)
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(days, [("Article".to_owned(), 2), ("Channel".to_owned(), 1), ("PromotionalContent".to_owned(), 2)]);
    let outbox: i64 = sqlx::query_scalar("select count(*) from email_outbox").fetch_one(&app.pool).await.unwrap();
    assert_eq!(outbox, 6);

    // Without an SMTP server the emails stay unsent, and the interest says so.
    let worker = register_worker(&app).await;
    deliver(&app, &mailer(&app), worker, Utc::now()).await;
    let states: Vec<(String, Option<String>)> = rows(&app).await.into_iter().map(|r| (r.3, r.5)).collect();
    assert!(
        states.iter().all(|(state, error)| state == "failed" && error.as_deref() == Some("Not sent: no SMTP server is configured")),
        "{states:?}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn article_channel_and_promotion_interest_is_emailed(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let w = world(app).await;
    let content = promotion(app, "Energy week", "marketing@insights.example").await;
    register(app, &w.ann, REGISTER_ARTICLE, &w.article).await;
    register(app, &w.ann, REGISTER_CHANNEL, &w.premium).await;
    register(app, &w.ann, REGISTER_PROMOTION, &content).await;
    let pending = list(app, &w.admin, json!({})).await;
    let states: Vec<&str> = pending["interests"].as_array().unwrap().iter().map(|i| i["deliveryState"].as_str().unwrap()).collect();
    assert_eq!(states, ["Pending", "Pending", "Pending"]);

    let delivered = mail.deliver().await;
    assert_eq!((delivered.sent, delivered.failed), (3, 0));
    let mut emails = mail.received(3).await;
    emails.sort_by(|a, b| a.to.cmp(&b.to));
    let admin_email = TestRole::Administrator.email();
    let got: Vec<(&str, &str)> = emails.iter().map(|e| (e.to.as_str(), e.subject.as_str())).collect();
    let mut expected = vec![
        (admin_email.as_str(), "Ann Lee is interested in Metals Premium"),
        ("desk@insights.example", "Ann Lee is interested in \"Copper outlook\""),
        ("marketing@insights.example", "Ann Lee is interested in Energy week"),
    ];
    expected.sort();
    assert_eq!(got, expected);
    for email in &emails {
        for says in ["Ann Lee", "Lee & Co", "ann@client.example"] {
            assert!(email.text.contains(says), "{} says {says}: {}", email.subject, email.text);
        }
    }
    let promotion_email = emails.iter().find(|e| e.to == "marketing@insights.example").unwrap();
    assert!(promotion_email.text.contains("Energy landing"), "{}", promotion_email.text);
    assert!(promotion_email.text.contains(&format!("{}/insights/publisher/interests", app.address)), "{}", promotion_email.text);

    // Their state followed the emails.
    let page = list(app, &w.admin, json!({})).await;
    let summary: Vec<(String, String, String)> = page["interests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["kind"].as_str().unwrap().to_owned(),
                i["deliveryState"].as_str().unwrap().to_owned(),
                i["deliveredTo"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("PromotionalContent".to_owned(), "Delivered".to_owned(), "marketing@insights.example".to_owned()),
            ("Channel".to_owned(), "Delivered".to_owned(), admin_email.clone()),
            ("Article".to_owned(), "Delivered".to_owned(), "desk@insights.example".to_owned()),
        ]
    );
}

/// A webhook at `/webhookb2/{secret}` on a free port that records every request and answers with
/// the statuses it is given in turn (then 200).
#[derive(Clone, Default)]
struct Sink {
    requests: Arc<Mutex<Vec<(String, Option<String>, Value)>>>,
    statuses: Arc<Mutex<VecDeque<u16>>>,
    /// How long each answer waits.
    delay: StdDuration,
}

impl Sink {
    async fn start(statuses: &[u16], delay: StdDuration) -> (Sink, String) {
        let sink = Sink { statuses: Arc::new(Mutex::new(statuses.iter().copied().collect())), delay, ..Default::default() };
        let router = Router::new().route("/webhookb2/{secret}", post(Sink::receive)).with_state(sink.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/webhookb2/s3cr3t-{}", listener.local_addr().unwrap(), insights::ids::new_id());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        (sink, url)
    }

    async fn receive(State(sink): State<Sink>, uri: Uri, headers: HeaderMap, body: String) -> StatusCode {
        let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).map(str::to_owned);
        sink.requests.lock().unwrap().push((uri.path().to_owned(), content_type, serde_json::from_str(&body).unwrap_or(Value::Null)));
        tokio::time::sleep(sink.delay).await;
        let status = sink.statuses.lock().unwrap().pop_front().unwrap_or(200);
        StatusCode::from_u16(status).unwrap()
    }

    fn requests(&self) -> Vec<(String, Option<String>, Value)> {
        self.requests.lock().unwrap().clone()
    }
}

/// The facts of a message card, by name.
fn facts(card: &Value) -> Vec<(String, String)> {
    card["sections"][0]["facts"]
        .as_array()
        .unwrap_or_else(|| panic!("facts in {card}"))
        .iter()
        .map(|f| (f["name"].as_str().unwrap().to_owned(), f["value"].as_str().unwrap().to_owned()))
        .collect()
}

async fn interest_id(app: &TestApp) -> i64 {
    sqlx::query_scalar("select max(interest_id) from interest").fetch_one(&app.pool).await.unwrap()
}

async fn next_attempt(app: &TestApp) -> DateTime<Utc> {
    sqlx::query_scalar("select next_attempt_at from interest").fetch_one(&app.pool).await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_teams_channel_gets_one_message_card_with_the_reader(pool: PgPool) {
    let app = TestApp::spawn_with(pool, TEAMS_SINK).await;
    let w = world(&app).await;
    // Slow answers: attempts that overlap must still post once.
    let (sink, url) = Sink::start(&[], StdDuration::from_millis(300)).await;
    let content = promotion(&app, "Energy week", &url).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;
    assert_eq!(app.jobs_like("deliver_interest_to_teams").await, 1, "one job for one interest");
    let id = interest_id(&app).await;

    // The job, a duplicate of it and the schedule, all at once: one post.
    let now = Utc::now();
    let (a, b, c) = tokio::join!(
        teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, Some(id)),
        teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, Some(id)),
        teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, None)
    );
    let delivered = [a.unwrap(), b.unwrap(), c.unwrap()].iter().map(|d| d.delivered).sum::<u64>();
    assert_eq!(delivered, 1);
    // And again later: it is delivered.
    assert_eq!(teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now + Duration::hours(2), Some(id)).await.unwrap(), teams::Attempted::default());
    let requests = sink.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    let (path, content_type, card) = &requests[0];
    assert!(path.starts_with("/webhookb2/s3cr3t-"));
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(card["@type"], "MessageCard");
    assert_eq!(card["@context"], "https://schema.org/extensions");
    assert_eq!(card["summary"], "Ann Lee registered interest in Energy week");
    assert_eq!(
        facts(card)[..5],
        [
            ("Name".to_owned(), "Ann Lee".to_owned()),
            ("Company".to_owned(), "Lee & Co".to_owned()),
            ("Email".to_owned(), "ann@client.example".to_owned()),
            ("Promotional content".to_owned(), "Energy week".to_owned()),
            ("Promotion page".to_owned(), "Energy landing".to_owned()),
        ]
    );
    assert_eq!(
        rows(&app).await,
        [(
            "PromotionalContent".to_owned(),
            content.clone(),
            w.ann_id.clone(),
            "delivered".to_owned(),
            1,
            None,
            Some("Microsoft Teams".to_owned())
        )]
    );

    // Administrators see where it went, never the webhook.
    let page = list(&app, &w.admin, json!({})).await;
    assert_eq!(page["interests"][0]["deliveredTo"], "Microsoft Teams");
    assert_eq!(page["interests"][0]["deliveryState"], "Delivered");
    assert!(!page.to_string().contains("s3cr3t"), "{page}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_failed_teams_post_is_retried_and_its_error_never_holds_the_url(pool: PgPool) {
    let app = TestApp::spawn_with(pool, TEAMS_SINK).await;
    let w = world(&app).await;
    let (sink, url) = Sink::start(&[500], StdDuration::ZERO).await;
    let content = promotion(&app, "Energy week", &url).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;

    let now = Utc::now();
    let first = teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, None).await.unwrap();
    assert_eq!(first, teams::Attempted { retrying: 1, ..Default::default() });
    let row = rows(&app).await.remove(0);
    assert_eq!((row.3.as_str(), row.4), ("retrying", 1));
    let error = row.5.expect("the error is recorded");
    assert!(error.starts_with("The webhook answered HTTP 500"), "{error}");
    assert!(!error.contains("s3cr3t") && !error.contains("127.0.0.1"), "{error}");
    let wait = next_attempt(&app).await - now;
    assert!((Duration::seconds(29)..=Duration::seconds(31)).contains(&wait), "30 s before the retry: {wait}");
    let listed = list(&app, &w.admin, json!({})).await;
    assert_eq!(listed["interests"][0]["deliveryState"], "Retrying");
    assert!(!listed.to_string().contains("s3cr3t"), "{listed}");

    // Not before its time; then delivered.
    assert_eq!(teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now + Duration::seconds(10), None).await.unwrap(), teams::Attempted::default());
    assert_eq!(sink.requests().len(), 1);
    let second = teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now + Duration::seconds(31), None).await.unwrap();
    assert_eq!(second, teams::Attempted { delivered: 1, ..Default::default() });
    assert_eq!(sink.requests().len(), 2);
    let row = rows(&app).await.remove(0);
    assert_eq!((row.3.as_str(), row.4, row.5), ("delivered", 2, None));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_webhook_is_checked_again_when_posting_and_a_private_address_is_never_posted_to(pool: PgPool) {
    let app = TestApp::spawn_with(pool, TEAMS_SINK).await;
    let w = world(&app).await;
    let (sink, url) = Sink::start(&[], StdDuration::ZERO).await;
    let content = promotion(&app, "Energy week", &url).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &content).await;

    // Saved while allowed; by the time of the post the address is not (here: without the
    // setting for tests, as when a name comes to resolve to a private address).
    let done = teams::deliver_due(&app.pool, &[], Utc::now(), None).await.unwrap();
    assert_eq!(done, teams::Attempted { failed: 1, ..Default::default() });
    assert!(sink.requests().is_empty(), "nothing was posted");
    let row = rows(&app).await.remove(0);
    assert_eq!((row.3.as_str(), row.5.as_deref()), ("failed", Some(teams::WEBHOOK_ADDRESS_MESSAGE)));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_teams_delivery_fails_after_its_attempts_and_the_reader_is_never_told(pool: PgPool) {
    let app = TestApp::spawn_with(pool, TEAMS_SINK).await;
    let w = world(&app).await;
    let (sink, url) = Sink::start(&[500; 20], StdDuration::ZERO).await;
    let failing = promotion(&app, "Energy week", &url).await;
    // A webhook nobody answers: the port of a listener that is gone.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/webhookb2/s3cr3t-closed", listener.local_addr().unwrap())
    };
    let unreachable = promotion(&app, "Metals week", &closed).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &failing).await;
    register(&app, &w.ann, REGISTER_PROMOTION, &unreachable).await;

    let mut now = Utc::now();
    for attempt in 1..=teams::MAX_ATTEMPTS {
        let done = teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, None).await.unwrap();
        let expected = if attempt < teams::MAX_ATTEMPTS {
            teams::Attempted { retrying: 2, ..Default::default() }
        } else {
            teams::Attempted { failed: 2, ..Default::default() }
        };
        assert_eq!(done, expected, "attempt {attempt}");
        now += Duration::hours(2);
    }
    assert_eq!(teams::deliver_due(&app.pool, &app.state.config.teams_webhook_test_hosts, now, None).await.unwrap(), teams::Attempted::default(), "no attempt after the last");
    assert_eq!(sink.requests().len(), teams::MAX_ATTEMPTS as usize);
    let rows = rows(&app).await;
    for row in &rows {
        assert_eq!((row.3.as_str(), row.4), ("failed", teams::MAX_ATTEMPTS), "{row:?}");
        assert!(!row.5.as_deref().unwrap().contains("s3cr3t"), "{row:?}");
    }
    assert!(rows[1].5.as_deref().unwrap().starts_with("Could not connect to the webhook"), "{rows:?}");
    let listed = list(&app, &w.admin, json!({})).await;
    assert_eq!(listed["interests"][0]["deliveryState"], "Failed");
    // The reader registers again the next day as if nothing happened.
    sqlx::query("update interest set day = day - 1").execute(&app.pool).await.unwrap();
    register(&app, &w.ann, REGISTER_PROMOTION, &failing).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn interest_in_promotional_content_needs_a_live_content_with_a_page(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let w = world(&app).await;
    let live = promotion(&app, "Energy week", "marketing@insights.example").await;
    let expired = promotion(&app, "Old week", "marketing@insights.example").await;
    sqlx::query("update promotional_content set expiry_date = now() - interval '1 second' where promotional_content_id = $1")
        .bind(&expired)
        .execute(&app.pool)
        .await
        .unwrap();
    let no_page = insights::ids::new_id();
    sqlx::query("insert into promotional_content (promotional_content_id, name, link) values ($1, 'Linked', 'https://x.example')")
        .bind(&no_page)
        .execute(&app.pool)
        .await
        .unwrap();
    let ask = |token: Option<&str>, id: &str| {
        let (app, token, id) = (&app, token.map(str::to_owned), id.to_owned());
        async move { app.gql(token.as_deref(), REGISTER_PROMOTION, json!({ "id": id })).await }
    };
    for (id, case) in [(expired.as_str(), "expired"), (no_page.as_str(), "no page"), ("nope", "malformed")] {
        assert_eq!(error_code(&ask(Some(&w.ann), id).await), Some("NOT_FOUND"), "{case}");
    }
    assert_eq!(error_code(&ask(Some(&w.ann), &insights::ids::new_id()).await), Some("NOT_FOUND"), "unknown");
    assert_eq!(error_code(&ask(None, &live).await), Some("UNAUTHENTICATED"));
    // Any signed-in user with a role, staff too.
    let editor = app.token(TestRole::Editor).await;
    assert_eq!(ask(Some(&editor), &live).await["data"]["notifyRegisteredInterestInPromotionalContent"], true);
    assert_eq!(rows(&app).await.len(), 1);
}

/// Interests of three readers in three items over three days, for the list and the export.
struct Listed {
    w: World,
    content: String,
    bob_id: String,
}

async fn listed(app: &TestApp) -> Listed {
    let w = world(app).await;
    let content = promotion(app, "Energy week", "marketing@insights.example").await;
    let (bob, bob_id) = reader(app, "bob@roe.example", "=HYPERLINK(\"http://evil.example\")", Some("+Roe Ltd")).await;
    let (cat, _) = reader(app, "cat@client.example", "Cat Poe", Some("-Poe & Sons")).await;
    register(app, &w.ann, REGISTER_ARTICLE, &w.article).await;
    register(app, &bob, REGISTER_ARTICLE, &w.article).await;
    register(app, &cat, REGISTER_CHANNEL, &w.premium).await;
    register(app, &bob, REGISTER_PROMOTION, &content).await;
    // The article interest two days ago, the channel interest yesterday, the promotion's today.
    sqlx::query(
        "update interest set registered_at = registered_at - make_interval(days => shift), day = day - shift
           from (values ('Article', 2), ('Channel', 1), ('PromotionalContent', 0)) as s(shift_kind, shift)
          where kind = shift_kind",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    Listed { w, content, bob_id }
}

fn names(page: &Value) -> Vec<(String, String)> {
    page["interests"]
        .as_array()
        .unwrap_or_else(|| panic!("{page}"))
        .iter()
        .map(|i| (i["kind"].as_str().unwrap().to_owned(), i["userEmail"].as_str().unwrap().to_owned()))
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn administrators_list_interest_filtered_searched_and_paged(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let l = listed(&app).await;
    let admin = &l.w.admin;
    let pair = |kind: &str, email: &str| (kind.to_owned(), email.to_owned());
    let (ann, bob, cat) = ("ann@client.example", "bob@roe.example", "cat@client.example");

    let all = list(&app, admin, json!({})).await;
    assert_eq!(all["total"], 4);
    // Newest first: ties (same moment) by id, newest first.
    assert_eq!(names(&all), [pair("PromotionalContent", bob), pair("Channel", cat), pair("Article", bob), pair("Article", ann)]);
    let first = &all["interests"][0];
    assert_eq!(first["itemId"], l.content.as_str());
    assert_eq!(first["itemName"], "Energy week");
    assert_eq!(first["userId"], l.bob_id.as_str());
    assert_eq!(first["userCompany"], "+Roe Ltd");
    assert_eq!(all["interests"][1]["itemName"], "Metals Premium");
    assert_eq!(all["interests"][3]["itemName"], "Copper outlook");
    assert_eq!(all["interests"][3]["userName"], "Ann Lee");

    let kind = list(&app, admin, json!({ "kind": "Article" })).await;
    assert_eq!((kind["total"].clone(), names(&kind)), (json!(2), vec![pair("Article", bob), pair("Article", ann)]));
    let item = list(&app, admin, json!({ "itemId": l.w.premium })).await;
    assert_eq!(names(&item), [pair("Channel", cat)]);
    let today = Utc::now().date_naive();
    let day = |days: i64| (today - Duration::days(days)).format("%Y-%m-%d").to_string();
    let range = list(&app, admin, json!({ "from": day(1), "to": day(0) })).await;
    assert_eq!(names(&range), [pair("PromotionalContent", bob), pair("Channel", cat)]);
    let older = list(&app, admin, json!({ "to": day(2) })).await;
    assert_eq!(older["total"], 2);
    for (search, expected) in [
        ("lee & co", vec![pair("Article", ann)]),
        ("ROE.EXAMPLE", vec![pair("PromotionalContent", bob), pair("Article", bob)]),
        ("poe &", vec![pair("Channel", cat)]),
    ] {
        assert_eq!(names(&list(&app, admin, json!({ "searchQuery": search })).await), expected, "{search}");
    }
    let combined = list(&app, admin, json!({ "kind": "Article", "searchQuery": "bob", "from": day(2) })).await;
    assert_eq!(names(&combined), [pair("Article", bob)]);
    assert_eq!(list(&app, admin, json!({ "kind": "Channel", "itemId": l.w.article })).await["total"], 0);

    // Pages of 15 (the smallest size): the total counts past the page.
    for _ in 0..14 {
        let id = app.insert_user(&format!("{}@bulk.example", insights::ids::new_id())).await;
        sqlx::query("insert into interest (kind, channel_id, user_id, delivery_method) values ('Channel', $1, $2, 'email')")
            .bind(&l.w.premium)
            .bind(&id)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let page_one = list(&app, admin, json!({ "page": 1, "pageSize": 15 })).await;
    assert_eq!((page_one["total"].clone(), page_one["interests"].as_array().unwrap().len()), (json!(18), 15));
    let page_two = list(&app, admin, json!({ "page": 2, "pageSize": 15 })).await;
    assert_eq!(page_two["total"], 18);
    assert_eq!(names(&page_two), [pair("Channel", cat), pair("Article", bob), pair("Article", ann)]);

    // Bad input and roles.
    let bad = app.gql(Some(admin), LIST, json!({ "params": { "pageSize": 7 } })).await;
    assert_eq!(error_code(&bad), Some("BAD_USER_INPUT"));
    let backwards = app.gql(Some(admin), LIST, json!({ "params": { "from": day(0), "to": day(1) } })).await;
    assert_eq!(backwards["errors"][0]["extensions"]["fields"]["to"], "Date should not be before minimal date", "{backwards}");
    let no_date = app.gql(Some(admin), LIST, json!({ "params": { "from": "2026-02-30" } })).await;
    assert!(no_date["errors"][0]["message"].as_str().unwrap_or_default().contains("Invalid Date"), "{no_date}");
    for role in [TestRole::Editor, TestRole::Contributor, TestRole::Subscriber] {
        let token = app.token(role).await;
        assert_eq!(error_code(&app.gql(Some(&token), LIST, json!({})).await), Some("FORBIDDEN"), "{role:?}");
    }
    assert_eq!(error_code(&app.gql(None, LIST, json!({})).await), Some("UNAUTHENTICATED"));
}

async fn export(app: &TestApp, token: Option<&str>, query: &str) -> reqwest::Response {
    let mut request = app.client.get(app.url(&format!("/export/interests.csv{query}")));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_csv_export_has_the_filters_escapes_formulas_and_is_for_administrators(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let l = listed(&app).await;
    let response = export(&app, Some(&l.w.admin), "").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    let disposition = response.headers()["content-disposition"].to_str().unwrap().to_owned();
    assert!(disposition.starts_with("attachment; filename=\"interests-") && disposition.ends_with(".csv\""), "{disposition}");
    let body = response.bytes().await.unwrap();
    assert!(body.starts_with(b"\xEF\xBB\xBF"), "a BOM, so spreadsheets read UTF-8");
    let mut csv = csv::ReaderBuilder::new().has_headers(false).from_reader(&body[3..]);
    let records: Vec<Vec<String>> = csv.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    assert_eq!(records[0], ["Registered at", "Kind", "Item", "Reader", "Email", "Company", "Delivered to", "Delivery state"]);
    assert_eq!(records.len(), 5, "{records:?}");
    let promotion = &records[1];
    assert!(promotion[0].ends_with(" UTC") && promotion[0].starts_with(&Utc::now().format("%Y-%m-%d").to_string()), "{promotion:?}");
    assert_eq!(
        promotion[1..],
        [
            "Promotional content",
            "Energy week",
            "'=HYPERLINK(\"http://evil.example\")",
            "bob@roe.example",
            "'+Roe Ltd",
            "marketing@insights.example",
            "Pending"
        ]
    );
    assert_eq!(records[2][1..6], ["Channel", "Metals Premium", "Cat Poe", "cat@client.example", "'-Poe & Sons"]);
    assert_eq!(records[4][1..6], ["Article", "Copper outlook", "Ann Lee", "ann@client.example", "Lee & Co"]);
    for record in &records[1..] {
        for cell in record {
            assert!(!cell.starts_with(['=', '+', '-', '@', '\t', '\r']), "{cell:?} would be a formula");
        }
    }

    // The list's filters.
    let filtered = export(&app, Some(&l.w.admin), &format!("?kind=Article&searchQuery=roe&itemId={}", l.w.article)).await;
    let text = filtered.text().await.unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("bob@roe.example") && !text.contains("ann@client.example"), "{text}");
    let today = Utc::now().format("%Y-%m-%d");
    let dated = export(&app, Some(&l.w.admin), &format!("?from={today}&to={today}&kind=")).await.text().await.unwrap();
    assert_eq!(dated.lines().count(), 2, "only today's: {dated}");
    let bad = export(&app, Some(&l.w.admin), "?kind=Nope").await;
    assert_eq!(bad.status(), 400);
    let no_date = export(&app, Some(&l.w.admin), "?from=31/01/2026").await;
    assert_eq!(no_date.status(), 400);
    assert_eq!(no_date.json::<serde_json::Value>().await.unwrap()["fields"]["from"], "Invalid Date");

    // Administrators only.
    assert_eq!(export(&app, None, "").await.status(), 401);
    assert_eq!(export(&app, Some("not-a-token"), "").await.status(), 401);
    for role in [TestRole::Editor, TestRole::Subscriber] {
        let token = app.token(role).await;
        assert_eq!(export(&app, Some(&token), "").await.status(), 403, "{role:?}");
    }
}
