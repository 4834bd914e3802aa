//! The intelligence chat (`POST /chat`): answers only from articles the reader may read in full,
//! in both modes (a chat-completions model — the fake in support/llm.rs — or the passages
//! themselves); who may ask; the per-user rate limit; the question log and `chatQuestions`.

use insights::auth::scopes;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    factories::ReaderArticle,
    llm::{ANSWER_PIECES, FakeLlm},
    tokens,
};

/// A word only the premium article holds: it must never leave the server for a reader without
/// access, neither to the model nor to the widget.
const MARKER: &str = "zanthropoxite";
const QUESTION: &str = "What is the outlook for copper demand?";

/// One server-sent event.
#[derive(Debug)]
struct Event {
    name: String,
    data: Value,
}

/// The answer to a question: the HTTP status, the raw stream and its events.
struct Answer {
    status: u16,
    raw: String,
    events: Vec<Event>,
}

impl Answer {
    fn citations(&self) -> Vec<String> {
        let event = self.events.iter().find(|e| e.name == "citations").expect("a citations event");
        event.data.as_array().unwrap().iter().map(|c| c["articleId"].as_str().unwrap().to_owned()).collect()
    }

    fn text(&self) -> String {
        self.events.iter().filter(|e| e.name == "delta").map(|e| e.data.as_str().unwrap()).collect()
    }

    fn last(&self) -> &str {
        &self.events.last().expect("an event").name
    }
}

fn parse_events(raw: &str) -> Vec<Event> {
    raw.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event:") {
                    name = Some(value.trim().to_owned());
                } else if let Some(value) = line.strip_prefix("data:") {
                    data.push(value.strip_prefix(' ').unwrap_or(value));
                }
            }
            let name = name?;
            Some(Event { name, data: serde_json::from_str(&data.join("\n")).expect("JSON event data") })
        })
        .collect()
}

async fn ask(app: &TestApp, token: Option<&str>, body: Value) -> (reqwest::Response, u16) {
    let mut request = app.client.post(app.url("/chat")).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("POST /chat");
    let status = response.status().as_u16();
    (response, status)
}

async fn ask_question(app: &TestApp, token: &str, question: &str) -> Answer {
    let (response, status) = ask(app, Some(token), json!({ "question": question, "conversationId": "conv-1" })).await;
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
    let raw = response.text().await.unwrap();
    if status == 200 {
        assert_eq!(content_type.as_deref(), Some("text/event-stream"), "{raw}");
    }
    Answer { status, events: parse_events(&raw), raw }
}

/// Refused answers: the status and the error contract's body.
async fn refused(app: &TestApp, token: Option<&str>, body: Value) -> (u16, Value) {
    let (response, status) = ask(app, token, body).await;
    (status, response.json().await.expect("a JSON error body"))
}

struct World {
    app: TestApp,
    free: String,
    premium: String,
    /// A reader with the intelligence scope and no subscription.
    reader: String,
    /// A reader with the intelligence scope and a full subscription to the premium channel.
    subscriber: String,
}

fn intelligence_scopes() -> Vec<String> {
    vec![scopes::READER.to_owned(), scopes::INTELLIGENCE.to_owned()]
}

async fn world(pool: PgPool, flags: &[&str]) -> World {
    let mut all = vec!["--feature-intelligence", "true"];
    all.extend_from_slice(flags);
    let app = TestApp::spawn_with(pool, &all).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&editor_id]).await;
    let channel = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let free = app
        .insert_reader_article(ReaderArticle {
            title: "Copper demand outlook",
            summary: "Where copper demand goes next",
            body: "Copper demand from electric vehicles keeps rising. Grid investment adds to copper demand. \
                   Smelters in Chile expanded output this quarter.",
            desk: Some(&desk),
            ..Default::default()
        })
        .await;
    let premium = app
        .insert_reader_article(ReaderArticle {
            title: "Premium copper squeeze",
            summary: "Inventories are thin",
            body: &format!(
                "Copper demand outstrips supply and the {MARKER} model sees inventories at record lows. Copper demand will spike."
            ),
            channel: Some(&channel),
            desk: Some(&desk),
            is_premium: true,
            ..Default::default()
        })
        .await;
    // An article nobody reads on the reader side yet: never cited.
    app.insert_reader_article(ReaderArticle {
        title: "Draft copper demand",
        body: "Copper demand draft.",
        state: "Pending",
        ..Default::default()
    })
    .await;
    let reader = tokens::for_user(&app.state, "asker@test.example", intelligence_scopes()).await;
    let subscriber = tokens::for_user(&app.state, "payer@test.example", intelligence_scopes()).await;
    let subscriber_id = app.user_id(&subscriber).await;
    app.subscribe(&channel, &subscriber_id, "account", "active", None, true).await;
    World { app, free, premium, reader, subscriber }
}

async fn logged(app: &TestApp) -> Vec<(String, String, Vec<String>, String)> {
    sqlx::query_as("select question, mode, cited_article_ids, outcome from chat_question order by asked_at, chat_question_id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn without_a_model_the_answer_is_the_passages_the_reader_may_read(pool: PgPool) {
    let w = world(pool, &[]).await;

    let answer = ask_question(&w.app, &w.reader, QUESTION).await;
    assert_eq!(answer.status, 200, "{}", answer.raw);
    assert_eq!(answer.citations(), vec![w.free.clone()]);
    assert_eq!(answer.events[0].name, "citations");
    let citation = &answer.events[0].data[0];
    assert_eq!(citation["title"], "Copper demand outlook");
    assert_eq!(citation["link"], format!("/browse/article/{}", w.free));
    assert!(citation["publishDate"].is_string());
    let text = answer.text();
    assert!(text.starts_with("Here is what our research says:"), "{text}");
    assert!(text.contains("Copper demand from electric vehicles keeps rising."), "{text}");
    assert!(text.contains("[1]"), "{text}");
    assert!(!answer.raw.contains(MARKER) && !answer.raw.contains(&w.premium) && !answer.raw.contains("Premium copper squeeze"));
    assert!(!answer.raw.contains("draft"), "{}", answer.raw);
    assert_eq!(answer.last(), "done");
    let done = &answer.events.last().unwrap().data;
    assert_eq!((done["mode"].as_str(), done["conversationId"].as_str()), (Some("passages"), Some("conv-1")));

    // A subscriber of the premium channel gets the premium article too.
    let answer = ask_question(&w.app, &w.subscriber, QUESTION).await;
    assert!(answer.citations().contains(&w.premium), "{}", answer.raw);
    assert!(answer.citations().contains(&w.free), "{}", answer.raw);
    assert!(answer.text().contains(MARKER));

    // Nothing matches: no citations, and it says so.
    let answer = ask_question(&w.app, &w.reader, "Which football team won?").await;
    assert!(answer.citations().is_empty());
    assert!(answer.text().starts_with("I could not find anything"), "{}", answer.text());
    assert_eq!(answer.last(), "done");

    let log = logged(&w.app).await;
    assert_eq!(log.len(), 3);
    assert_eq!(log[0], (QUESTION.to_owned(), "passages".to_owned(), vec![w.free.clone()], "answered".to_owned()));
    assert_eq!(log[1].2.len(), 2);
    assert_eq!((log[2].2.len(), log[2].3.as_str()), (0, "answered"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_model_gets_only_passages_the_reader_may_read_and_its_answer_is_streamed(pool: PgPool) {
    let llm = FakeLlm::start().await;
    let w = world(pool, &["--chat-api-url", &llm.base_url, "--chat-api-key", "sk-test-chat", "--chat-model", "research-model"]).await;

    let answer = ask_question(&w.app, &w.reader, QUESTION).await;
    assert_eq!(answer.status, 200, "{}", answer.raw);
    assert_eq!(answer.citations(), vec![w.free.clone()]);
    assert_eq!(answer.text(), ANSWER_PIECES.concat());
    assert_eq!(answer.last(), "done");
    assert_eq!(answer.events.last().unwrap().data["mode"], "llm");
    assert!(!answer.raw.contains(MARKER));

    let requests = llm.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(sent.authorization.as_deref(), Some("Bearer sk-test-chat"));
    let body = sent.json();
    assert_eq!((body["model"].as_str(), body["stream"].as_bool()), (Some("research-model"), Some(true)));
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(messages[0]["content"].as_str().unwrap().contains("only the numbered passages"));
    let prompt = messages[1]["content"].as_str().unwrap();
    assert!(prompt.contains("[1] Copper demand outlook"), "{prompt}");
    assert!(prompt.contains("Copper demand from electric vehicles keeps rising."), "{prompt}");
    assert!(prompt.ends_with(&format!("Question: {QUESTION}")), "{prompt}");
    assert!(!sent.body.contains(MARKER) && !sent.body.contains("Premium copper squeeze"), "{}", sent.body);

    // The subscriber's question carries the premium passages.
    let answer = ask_question(&w.app, &w.subscriber, QUESTION).await;
    assert!(answer.citations().contains(&w.premium));
    assert!(llm.requests()[1].body.contains(MARKER));

    // Nothing to ground an answer on: the model is not asked.
    let answer = ask_question(&w.app, &w.reader, "Which football team won?").await;
    assert!(answer.citations().is_empty() && answer.text().starts_with("I could not find anything"));
    assert_eq!(llm.requests().len(), 2);

    // The model fails mid-answer: an error event, and the question is logged as failed.
    llm.fail();
    let answer = ask_question(&w.app, &w.reader, QUESTION).await;
    assert_eq!(answer.last(), "error", "{}", answer.raw);
    assert_eq!(answer.events.last().unwrap().data["message"], "The answer could not be completed. Please try again in a moment.");
    let log = logged(&w.app).await;
    assert_eq!(
        log.iter().map(|l| (l.1.as_str(), l.3.as_str())).collect::<Vec<_>>(),
        vec![("llm", "answered"), ("llm", "answered"), ("llm", "answered"), ("llm", "failed")]
    );
    // The key is a secret: never in the log row nor the error.
    let errors: Vec<Option<String>> = sqlx::query_scalar("select error from chat_question").fetch_all(&w.app.pool).await.unwrap();
    assert!(errors.iter().flatten().all(|e| !e.contains("sk-test-chat")));
}

#[sqlx::test(migrations = "./migrations")]
async fn only_signed_in_users_with_the_intelligence_scope_may_ask_and_only_when_the_feature_is_on(pool: PgPool) {
    let w = world(pool.clone(), &[]).await;
    let body = json!({ "question": QUESTION });

    let (status, error) = refused(&w.app, None, body.clone()).await;
    assert_eq!((status, error["code"].as_str()), (401, Some("UNAUTHENTICATED")));
    let plain_reader = w.app.token(TestRole::Subscriber).await;
    let (status, error) = refused(&w.app, Some(&plain_reader), body.clone()).await;
    assert_eq!((status, error["code"].as_str()), (403, Some("FORBIDDEN")));
    let no_role = tokens::for_user(&w.app.state, "nobody@test.example", vec![scopes::INTELLIGENCE.to_owned()]).await;
    let (status, _) = refused(&w.app, Some(&no_role), body.clone()).await;
    assert_eq!(status, 403);

    let (status, error) = refused(&w.app, Some(&w.reader), json!({ "question": "   " })).await;
    assert_eq!((status, error["fields"]["question"].as_str()), (400, Some("This field is required")));
    let (status, error) = refused(&w.app, Some(&w.reader), json!({ "question": "a".repeat(1001) })).await;
    assert_eq!((status, error["fields"]["question"].as_str()), (400, Some("Maximum 1000 characters")));
    let (status, error) = refused(&w.app, Some(&w.reader), json!({ "question": "cop\u{0}per" })).await;
    assert_eq!((status, error["fields"]["question"].as_str()), (400, Some("Text cannot contain the NUL character")));
    assert!(error["message"].as_str().is_some_and(|m| m.contains("NUL")), "{error}");
    let (status, error) = refused(&w.app, Some(&w.reader), json!({ "question": "copper", "conversationId": "<script>" })).await;
    assert_eq!((status, error["code"].as_str()), (400, Some("BAD_USER_INPUT")));

    // The feature flag off: there is no chat.
    let off = TestApp::spawn(pool).await;
    let reader = tokens::for_user(&off.state, "asker@test.example", intelligence_scopes()).await;
    let (status, error) = refused(&off, Some(&reader), body).await;
    assert_eq!((status, error["code"].as_str()), (404, Some("NOT_FOUND")));
    assert!(logged(&w.app).await.is_empty());
}

#[sqlx::test(migrations = "./migrations")]
async fn each_user_is_limited_to_the_configured_rate(pool: PgPool) {
    let w = world(pool, &["--chat-rate-limit", "2/minute"]).await;
    for _ in 0..2 {
        assert_eq!(ask_question(&w.app, &w.reader, QUESTION).await.status, 200);
    }
    let (response, status) = ask(&w.app, Some(&w.reader), json!({ "question": QUESTION })).await;
    assert_eq!(status, 429);
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&retry_after), "{retry_after}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "RATE_LIMITED");
    assert_eq!(body["retryAfter"], retry_after);
    assert_eq!(body["message"], format!("You are asking too quickly, try again in {retry_after} s"));
    // Another user has their own allowance; refused questions are not logged.
    assert_eq!(ask_question(&w.app, &w.subscriber, QUESTION).await.status, 200);
    assert_eq!(logged(&w.app).await.len(), 3);
}

const CHAT_QUESTIONS: &str = "query($p: ChatQuestionListParams) { chatQuestions(params: $p) { total questions {
    _id question askedAt mode outcome durationMs reader { _id name email } citations { articleId title } } } }";

#[sqlx::test(migrations = "./migrations")]
async fn administrators_see_what_readers_asked_and_what_was_cited(pool: PgPool) {
    let w = world(pool, &[]).await;
    ask_question(&w.app, &w.reader, QUESTION).await;
    ask_question(&w.app, &w.subscriber, "Any news on lithium?").await;

    let admin = w.app.token(TestRole::Administrator).await;
    let response = w.app.gql(Some(&admin), CHAT_QUESTIONS, json!({})).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    let page = &response["data"]["chatQuestions"];
    assert_eq!(page["total"], 2);
    let newest = &page["questions"][0];
    assert_eq!(newest["question"], "Any news on lithium?");
    assert_eq!(newest["citations"], json!([]));
    assert_eq!((newest["mode"].as_str(), newest["outcome"].as_str()), (Some("Passages"), Some("Answered")));
    assert_eq!(newest["reader"]["email"], "payer@test.example");
    let first = &page["questions"][1];
    assert_eq!(first["citations"], json!([{ "articleId": w.free, "title": "Copper demand outlook" }]));
    assert!(first["durationMs"].as_i64().is_some() && first["askedAt"].is_string());

    // Searched by question or reader, paged like every admin list.
    let response = w.app.gql(Some(&admin), CHAT_QUESTIONS, json!({ "p": { "searchQuery": "COPPER" } })).await;
    assert_eq!(response["data"]["chatQuestions"]["total"], 1, "{response}");
    let response = w.app.gql(Some(&admin), CHAT_QUESTIONS, json!({ "p": { "searchQuery": "payer@" } })).await;
    assert_eq!(response["data"]["chatQuestions"]["questions"][0]["question"], "Any news on lithium?");
    let response = w.app.gql(Some(&admin), CHAT_QUESTIONS, json!({ "p": { "page": 2, "pageSize": 15 } })).await;
    assert_eq!(
        (response["data"]["chatQuestions"]["total"].as_i64(), response["data"]["chatQuestions"]["questions"].as_array().map(Vec::len)),
        (Some(2), Some(0))
    );
    let response = w.app.gql(Some(&admin), CHAT_QUESTIONS, json!({ "p": { "pageSize": 7 } })).await;
    assert_eq!(error_code(&response), Some("BAD_USER_INPUT"));

    for role in [TestRole::Editor, TestRole::Contributor, TestRole::Subscriber] {
        let token = w.app.token(role).await;
        let response = w.app.gql(Some(&token), CHAT_QUESTIONS, json!({})).await;
        assert_eq!(error_code(&response), Some("FORBIDDEN"), "{role:?}");
    }
    let response = w.app.gql(Some(&w.reader), CHAT_QUESTIONS, json!({})).await;
    assert_eq!(error_code(&response), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_firm_seat_opens_the_premium_passages_at_once_on_two_servers(pool: PgPool) {
    let w = world(pool.clone(), &[]).await;
    let other = TestApp::spawn_with(pool, &["--feature-intelligence", "true", "--public-url", &w.app.address]).await;
    let admin = w.app.token(TestRole::Administrator).await;
    let channel: String = sqlx::query_scalar("select channel_id from channel where name = 'Metals Premium'").fetch_one(&w.app.pool).await.unwrap();
    let reader_id = w.app.user_id(&w.reader).await;
    let gql = |query: &'static str, variables: Value| {
        let (app, admin) = (&w.app, &admin);
        async move {
            let response = app.gql(Some(admin), query, variables).await;
            assert_eq!(response["errors"], Value::Null, "{response}");
            response["data"].clone()
        }
    };
    let firm = gql("mutation { addFirm(item: { name: \"Quarry Bank\", billingMethod: account }) { _id } }", json!({})).await["addFirm"]["_id"].clone();
    gql("mutation($f: ID!, $u: ID!) { addFirmMember(firmId: $f, userId: $u) { _id } }", json!({ "f": firm, "u": reader_id })).await;
    let item = json!({ "firmId": firm, "channelId": channel, "subscriptionType": "nonCharge", "seats": 1, "notes": "Pilot" });
    let subscription = gql("mutation($item: FirmSubscriptionInput!) { createFirmSubscription(item: $item) { _id } }", json!({ "item": item }))
        .await["createFirmSubscription"]["_id"]
        .clone();
    let seat = json!({ "s": subscription, "u": reader_id });
    assert!(!cites(&w.app, &w.reader, &w.premium).await && !cites(&other, &w.reader, &w.premium).await, "no seat yet");
    gql("mutation($s: ID!, $u: ID!) { assignFirmSeat(firmSubscriptionId: $s, userId: $u) }", seat.clone()).await;
    assert!(cites(&w.app, &w.reader, &w.premium).await && cites(&other, &w.reader, &w.premium).await, "a seat opens the premium passages at once");
    gql("mutation($s: ID!, $u: ID!) { releaseFirmSeat(firmSubscriptionId: $s, userId: $u) }", seat).await;
    assert!(!cites(&other, &w.reader, &w.premium).await && !cites(&w.app, &w.reader, &w.premium).await, "and taking it back closes them at once");
}

/// Whether the reader's answer cites the premium article (and holds its words exactly then).
async fn cites(server: &TestApp, reader: &str, premium: &String) -> bool {
    let answer = ask_question(server, reader, QUESTION).await;
    assert_eq!(answer.status, 200, "{}", answer.raw);
    assert_eq!(answer.raw.contains(MARKER), answer.citations().contains(premium), "{}", answer.raw);
    answer.citations().contains(premium)
}
