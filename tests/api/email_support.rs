//! What the email tests share: an app that delivers to its own maildev, a registered worker that
//! runs the delivery when the test says so (deterministic), a newsroom that publishes through the
//! real API, bulk subscribers written with SQL, and readers of the emails (links, tokens).

use std::{collections::BTreeMap, time::Duration};

use chrono::{DateTime, Utc};
use insights::email::{
    delivery::{self, Delivered, Mailer},
    notifications::{self, FanOut},
};
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::support::{
    TestApp, TestRole,
    maildev::{Email, Maildev},
};

/// How long a test waits for emails to show in maildev once they were handed over.
pub const ARRIVAL: Duration = Duration::from_secs(15);

/// An app whose emails go to its own maildev, and a worker process of its own to deliver them.
pub struct Mail {
    pub app: TestApp,
    pub maildev: Maildev,
    pub mailer: Mailer,
    pub worker: Uuid,
}

impl Mail {
    pub async fn spawn(pool: PgPool) -> Mail {
        Mail::spawn_with(pool, &[]).await
    }

    pub async fn spawn_with(pool: PgPool, flags: &[&str]) -> Mail {
        let maildev = Maildev::start().await;
        let url = maildev.smtp_url();
        let mut all = vec!["--smtp-url", url.as_str()];
        all.extend_from_slice(flags);
        let app = TestApp::spawn_with(pool, &all).await;
        let mailer = mailer(&app);
        let worker = register_worker(&app).await;
        Mail { app, maildev, mailer, worker }
    }

    /// Delivers what is due now, as this test's worker.
    pub async fn deliver(&self) -> Delivered {
        self.deliver_at(Utc::now()).await
    }

    pub async fn deliver_at(&self, now: DateTime<Utc>) -> Delivered {
        deliver(&self.app, &self.mailer, self.worker, now).await
    }

    /// Waits for exactly `n` emails (failing on fewer after a while, or more) and returns them.
    pub async fn received(&self, n: usize) -> Vec<Email> {
        let emails = self.maildev.wait_for(n, ARRIVAL).await;
        assert_eq!(emails.len(), n, "{:#?}", emails.iter().map(|e| (&e.to, &e.subject)).collect::<Vec<_>>());
        emails
    }
}

pub fn mailer(app: &TestApp) -> Mailer {
    Mailer::from_config(&app.state.config.email).expect("the mailer of the test configuration")
}

/// A worker process in the registry (alive while the test runs: it beats every 10 s and the test
/// is over long before it is taken for dead).
pub async fn register_worker(app: &TestApp) -> Uuid {
    insights::workers::register(&app.pool, Duration::from_secs(600)).await.expect("register a worker")
}

pub async fn deliver(app: &TestApp, mailer: &Mailer, worker: Uuid, now: DateTime<Utc>) -> Delivered {
    delivery::deliver_due(&app.state, mailer, worker, now, &CancellationToken::new()).await.expect("deliver the outbox")
}

/// The fan-out of a notification request, as the job runs it.
pub async fn fan_out(app: &TestApp, request_id: i64) -> FanOut {
    notifications::fan_out(&app.pool, app.state.jobs.as_ref(), request_id, Utc::now()).await.expect("fan out")
}

/// A desk of an editor and a contributor, with a topic, a tag and channels of each type, all
/// made through the API by an administrator (the channels' admin).
pub struct Newsroom {
    pub admin: String,
    pub admin_id: String,
    pub editor: String,
    pub contributor_id: String,
    pub premium: String,
    pub open: String,
    pub closed: String,
    pub topic: String,
    pub tag: String,
}

pub const ARTICLE_FIELDS: &str = "_id title version state sendEmails";

impl Newsroom {
    pub async fn new(app: &TestApp) -> Newsroom {
        let admin = app.token(TestRole::Administrator).await;
        let admin_id = app.user_id(&admin).await;
        let editor = app.token(TestRole::Editor).await;
        let editor_id = app.user_id(&editor).await;
        let contributor = app.token(TestRole::Contributor).await;
        let contributor_id = app.user_id(&contributor).await;
        let desk = app.add_desk(&admin, "Metals desk", &[&editor_id, &contributor_id]).await;
        let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
        let open = app.channel_of_type(&admin, &desk, "Metals Open", "freeOpen").await;
        let closed = app.channel_of_type(&admin, &desk, "Metals Closed", "freeClosed").await;
        let topic = app.add_category(&admin, "Copper", None).await;
        let tag = app.add_tag(&admin, "LME").await;
        Newsroom { admin, admin_id, editor, contributor_id, premium, open, closed, topic, tag }
    }

    /// A complete premium article of `channel` (premium for a week) whose body is `body`.
    pub fn article(&self, channel: &str, title: &str, body: &str) -> Value {
        json!({
            "title": title, "html": format!("<p>{body}</p>"), "summary": format!("Summary of {title}"),
            "premiumChannelId": channel, "contributors": [self.contributor_id], "categories": [self.topic],
            "tags": [self.tag], "isPremium": true, "premiumExpiryOffset": "1w",
        })
    }

    /// Publishes a new article (which always notifies) and returns it with its notification request.
    pub async fn publish(&self, app: &TestApp, item: Value) -> (Value, i64) {
        let query = format!("mutation($item: ArticleInput!) {{ publishAdd(item: $item) {{ {ARTICLE_FIELDS} }} }}");
        let response = app.gql(Some(&self.editor), &query, json!({ "item": item })).await;
        assert_eq!(response["errors"], Value::Null, "publishAdd: {response}");
        let article = response["data"]["publishAdd"].clone();
        let request = latest_request(app, article["_id"].as_str().unwrap()).await.expect("a publish now notifies");
        (article, request)
    }

    /// 'Update' of a published article, with or without the notify-subscribers checkbox; returns
    /// the article and the request it recorded, if any.
    pub async fn update(&self, app: &TestApp, article: &Value, mut item: Value, notify: bool) -> (Value, Option<i64>) {
        let id = article["_id"].as_str().unwrap();
        let before = latest_request(app, id).await;
        item["_id"] = article["_id"].clone();
        item["version"] = article["version"].clone();
        item["sendEmails"] = json!(notify);
        let query = format!("mutation($item: ArticleInput!) {{ publishEdit(item: $item) {{ {ARTICLE_FIELDS} }} }}");
        let response = app.gql(Some(&self.editor), &query, json!({ "item": item })).await;
        assert_eq!(response["errors"], Value::Null, "publishEdit: {response}");
        let request = latest_request(app, id).await.filter(|r| Some(*r) != before);
        (response["data"]["publishEdit"].clone(), request)
    }
}

/// The newest notification request of an article.
pub async fn latest_request(app: &TestApp, article_id: &str) -> Option<i64> {
    sqlx::query_scalar("select max(request_id) from article_notification_request where article_id = $1")
        .bind(article_id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// `n` readers who have signed in (reader scope), `{prefix}{i}@client.example` from 1, each with
/// an active account subscription to `channel`; returns their addresses in order.
pub async fn bulk_subscribers(app: &TestApp, channel: &str, prefix: &str, n: i32) -> Vec<String> {
    sqlx::query(
        "insert into users (user_id, subject, email, name, scopes, last_login)
         select id, 'dev|' || id, $1 || g || '@client.example', 'Reader ' || g, '{insights:content-reader}', now()
           from generate_series(1, $2) g, lateral (select substr(md5($1 || g), 1, 24) as id) x",
    )
    .bind(prefix)
    .bind(n)
    .execute(&app.pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, account_number)
         select $1, user_id, 'account', 'active', 'ACC-1' from users where email collate \"C\" like $2 || '%@client.example'",
    )
    .bind(channel)
    .bind(prefix)
    .execute(&app.pool)
    .await
    .unwrap();
    (1..=n).map(|i| format!("{prefix}{i}@client.example")).collect()
}

/// How many emails each recipient got, and with which subjects.
pub fn by_recipient(emails: &[Email]) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for email in emails {
        map.entry(email.to.clone()).or_default().push(email.subject.clone());
    }
    map
}

/// Asserts every address got exactly one email, and nobody else got any.
pub fn assert_each_once(emails: &[Email], expected: &[String]) {
    let got = by_recipient(emails);
    let doubled: Vec<_> = got.iter().filter(|(_, subjects)| subjects.len() > 1).collect();
    assert!(doubled.is_empty(), "sent more than once: {doubled:?}");
    let mut want: Vec<String> = expected.iter().map(|a| a.to_lowercase()).collect();
    want.sort();
    assert_eq!(got.keys().cloned().collect::<Vec<_>>(), want);
}

/// Every http(s) link of an email: the HTML part's hrefs and the text part's URLs.
pub fn links(email: &Email) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = email.html.as_str();
    while let Some(start) = rest.find("href=\"") {
        rest = &rest[start + 6..];
        let end = rest.find('"').unwrap_or(rest.len());
        let href = rest[..end].replace("&amp;", "&").replace("&#x2f;", "/").replace("&#47;", "/");
        if href.starts_with("http") {
            links.push(href);
        }
        rest = &rest[end..];
    }
    for word in email.text.split_whitespace() {
        if word.starts_with("http://") || word.starts_with("https://") {
            links.push(word.trim_end_matches(['.', ',', ')', '>']).to_owned());
        }
    }
    links
}

/// The `data` query parameter of an unsubscribe link.
pub fn data_of(link: &str) -> String {
    let url = url::Url::parse(link).unwrap_or_else(|e| panic!("{link}: {e}"));
    url.query_pairs().find(|(name, _)| name == "data").map(|(_, value)| value.into_owned()).unwrap_or_else(|| panic!("no data in {link}"))
}

/// The unsubscribe page link of an email (its footer), if it has one.
pub fn unsubscribe_page_link(email: &Email, public_url: &str) -> Option<String> {
    let page = format!("{public_url}/insights/unsubscribe?data=");
    links(email).into_iter().find(|link| link.starts_with(&page))
}

/// `POST /unsubscribe` with a JSON body: (status, body).
pub async fn post_unsubscribe(app: &TestApp, body: Value) -> (u16, Value) {
    let response = app.client.post(app.url("/unsubscribe")).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The one-click request of RFC 8058 a mail client sends to the `List-Unsubscribe` address.
pub async fn one_click(app: &TestApp, url: &str) -> (u16, Value) {
    let response = app
        .client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The outbox by state: state → count.
pub async fn outbox_states(app: &TestApp) -> BTreeMap<String, i64> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("select state, count(*) from email_outbox group by state").fetch_all(&app.pool).await.unwrap();
    rows.into_iter().collect()
}

pub async fn scalar(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Sends a GraphQL mutation and returns its field, panicking with the response on an error.
pub async fn ok(app: &TestApp, token: &str, query: &str, variables: Value) -> Value {
    let response = app.gql(Some(token), query, variables).await;
    assert_eq!(response["errors"], Value::Null, "{query}: {response}");
    let data = response["data"].as_object().unwrap_or_else(|| panic!("{response}"));
    data.values().next().cloned().unwrap_or(Value::Null)
}
