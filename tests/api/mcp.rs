//! The MCP server (issue 41), driven by a client no one here wrote: the official Python SDK (PyPI
//! `mcp`). Initialise, list the tools, call each; premium text (a marker phrase only a premium body
//! holds) never reaches a reader without access, by any tool or resource; a subscriber gets it as
//! Markdown with its table; staff see published articles only; calls are logged, rate-limited and
//! recorded as readership; sessions run concurrently; a missing or expired token is refused with
//! the challenge the MCP authorization spec names.

use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, clients,
    factories::{MetalsResearch, ReaderArticle},
    tokens,
};

const MARKER: &str = "vorpalinium";

struct World {
    app: TestApp,
    channel: String,
    reader: String,
    reader_id: String,
    free: String,
    premium: String,
}

async fn world(pool: PgPool, flags: &[&str]) -> World {
    let app = TestApp::spawn_with(pool, flags).await;
    let MetalsResearch { desk, channel, topic, reader, reader_id, .. } = app.metals_research().await;
    let free = app
        .insert_reader_article(ReaderArticle {
            title: "Copper demand outlook",
            summary: "Where copper demand goes next",
            body: "Copper demand from electric vehicles keeps rising.",
            desk: Some(&desk),
            days_ago: 2,
            categories: &[&topic],
            ..Default::default()
        })
        .await;
    let premium = app
        .insert_reader_article(ReaderArticle {
            title: "Copper price forecast",
            summary: "Our Q1 copper forecast",
            body: &format!("The {MARKER} model sees copper at record highs in Q1."),
            channel: Some(&channel),
            desk: Some(&desk),
            is_premium: true,
            days_ago: 1,
            categories: &[&topic],
            ..Default::default()
        })
        .await;
    // The forecast's table, as the editor would have it.
    sqlx::query("update article set html = html || '<table><tr><th>Quarter</th><th>USD/t</th></tr><tr><td>Q1</td><td>10,400</td></tr></table>' where article_id = $1")
        .bind(&premium)
        .execute(&app.pool)
        .await
        .unwrap();
    World { app, channel, reader, reader_id, free, premium }
}

impl World {
    fn url(&self) -> String {
        self.app.url("/mcp")
    }

    async fn run(&self, token: &str, steps: Value) -> Value {
        let answer = clients::mcp_python(&self.url(), token, 1, steps).await;
        answer["sessions"][0]["results"].clone()
    }
}

fn tool(name: &str, args: Value) -> Value {
    json!({ "tool": name, "args": args })
}

fn text_of(result: &Value) -> String {
    result["content"].as_array().map(|c| c.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n")).unwrap_or_default()
}

#[sqlx::test]
async fn the_python_sdk_lists_and_calls_every_tool_and_premium_text_reaches_only_subscribers(pool: PgPool) {
    let w = world(pool, &[]).await;
    let steps = json!([
        { "list_tools": true },
        tool("search_research", json!({ "query": "copper" })),
        tool("get_article", json!({ "id": w.premium })),
        tool("get_article", json!({ "id": w.free })),
        tool("latest", json!({ "topic": "Copper", "limit": 5 })),
        tool("list_channels", json!({})),
        tool("my_subscriptions", json!({})),
        tool("list_topics", json!({})),
        { "list_resources": true },
        { "templates": true },
        { "read": format!("insights://article/{}", w.premium) },
    ]);
    let answer = clients::mcp_python(&w.url(), &w.reader, 1, steps.clone()).await;
    let session = &answer["sessions"][0];
    assert_eq!(session["server"]["name"], "insights", "{answer}");
    let results = session["results"].as_array().unwrap();
    let mut names: Vec<&str> = results[0]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["get_article", "latest", "list_channels", "list_topics", "my_subscriptions", "search_research"]);
    // Not subscribed: no tool and no resource gives the premium text.
    assert!(!answer.to_string().contains(MARKER), "{answer}");

    let found = &results[1]["structuredContent"]["articles"];
    let titles: Vec<&str> = found.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(titles.len(), 2, "{found}");
    let forecast = found.as_array().unwrap().iter().find(|a| a["id"] == w.premium.as_str()).unwrap();
    assert_eq!(forecast["fullAccess"], false);
    assert_eq!(forecast["channel"], "Metals Premium");
    assert!(forecast["link"].as_str().unwrap().ends_with(&format!("/insights/browse/article/{}", w.premium)));
    assert!(forecast["firstPublishedAt"].is_string(), "{forecast}");
    assert!(text_of(&results[1]).contains("\"Copper price forecast\" (Metals Premium), first published"), "{}", text_of(&results[1]));

    let locked = text_of(&results[2]);
    assert!(locked.contains("Our Q1 copper forecast") && locked.contains(&format!("/insights/subscribe/channel/{}", w.channel)), "{locked}");
    assert_eq!(results[2]["structuredContent"]["fullAccess"], false);
    assert!(text_of(&results[3]).contains("Copper demand from electric vehicles keeps rising."), "{}", text_of(&results[3]));
    assert_eq!(results[4]["structuredContent"]["articles"][0]["id"], w.premium.as_str(), "latest: newest first");
    let channels = &results[5]["structuredContent"]["channels"];
    assert_eq!(channels[0]["name"], "Metals Premium");
    assert_eq!(channels[0]["access"], "not subscribed");
    assert_eq!(results[6]["structuredContent"]["subscriptions"], json!([]));
    assert_eq!(results[7]["structuredContent"]["topics"][0]["name"], "Copper");
    let uris: Vec<&str> = results[8]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert!(uris.contains(&format!("insights://article/{}", w.premium).as_str()), "{uris:?}");
    assert_eq!(results[9]["resourceTemplates"][0]["uriTemplate"], "insights://article/{id}");
    assert!(results[10]["contents"][0]["text"].as_str().unwrap().contains("Our Q1 copper forecast"));

    // Subscribed: the forecast in full, as Markdown with its table.
    w.app.subscribe(&w.channel, &w.reader_id, "nonCharge", "active", Some(30), true).await;
    let results = w.run(&w.reader, json!([tool("get_article", json!({ "id": w.premium })), { "read": format!("insights://article/{}", w.premium) }])).await;
    let markdown = text_of(&results[0]);
    assert!(markdown.contains(MARKER), "{markdown}");
    assert!(markdown.contains("| Quarter | USD/t") && markdown.contains("| ------- |") && markdown.contains("| Q1      | 10,400 |"), "a Markdown table: {markdown}");
    assert!(results[1]["contents"][0]["text"].as_str().unwrap().contains(MARKER));
    let my = w.run(&w.reader, json!([tool("my_subscriptions", json!({}))])).await;
    assert_eq!(my[0]["structuredContent"]["subscriptions"][0]["channel"], "Metals Premium", "{my}");

    // Each call logged as the chat's questions are; the articles read recorded as the assistant's.
    let logged: Vec<(String, String)> = sqlx::query_as("select question, outcome from chat_question where mode = 'agent' order by asked_at")
        .fetch_all(&w.app.pool)
        .await
        .unwrap();
    assert_eq!(logged.len(), 12, "the 9 calls and resource reads of the first session, 3 after: {logged:?}");
    assert!(logged[0].0.starts_with("search_research: {\"query\":\"copper\""), "{logged:?}");
    let reads: Vec<String> = sqlx::query_scalar("select distinct article_id from article_view_event where kind = 'agent' order by 1")
        .fetch_all(&w.app.pool)
        .await
        .unwrap();
    let mut want = vec![w.free.clone(), w.premium.clone()];
    want.sort();
    assert_eq!(reads, want, "the free article and, once subscribed, the forecast");
}

#[sqlx::test]
async fn staff_see_published_articles_only_and_personal_access_tokens_work_with_concurrent_sessions(pool: PgPool) {
    let w = world(pool, &["--rate-limit-agent", "12/minute"]).await;
    w.app
        .insert_reader_article(ReaderArticle {
            title: "Copper draft",
            body: "An unpublished copper view draftonlyword.",
            state: "Pending",
            ..Default::default()
        })
        .await;
    let editor = w.app.token(TestRole::Editor).await;
    let results = w.run(&editor, json!([tool("search_research", json!({ "query": "copper" })), tool("latest", json!({}))])).await;
    assert!(!results.to_string().contains("Copper draft") && !results.to_string().contains("draftonlyword"), "{results}");
    assert_eq!(results[0]["structuredContent"]["articles"].as_array().map(Vec::len), Some(2));
    assert!(text_of(&results[1]).contains(MARKER) || results[1]["structuredContent"]["articles"][0]["fullAccess"] == true);

    // A reader's personal access token, in eight sessions at once.
    let created = w.app.gql(Some(&w.reader), "mutation { createAccessToken(name: \"assistant\") { secret } }", json!({})).await;
    let secret = created["data"]["createAccessToken"]["secret"].as_str().unwrap().to_owned();
    let answer = clients::mcp_python(&w.url(), &secret, 8, json!([tool("search_research", json!({ "query": "copper forecast" }))])).await;
    let sessions = answer["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 8);
    for session in sessions {
        assert_eq!(session["results"][0]["isError"], false, "{session}");
        assert!(!session.to_string().contains(MARKER));
    }

    // The rate: 12 a minute for the user (one more each 5 s), 8 taken by the sessions above: of 10 more, some wait.
    let results = w.run(&w.reader, json!((0..10).map(|_| tool("list_topics", json!({}))).collect::<Vec<_>>())).await;
    let refused: Vec<&Value> = results.as_array().unwrap().iter().filter(|r| r["isError"] == true).collect();
    assert!(!refused.is_empty() && text_of(refused[0]).starts_with("Too many requests"), "{results}");
}

#[sqlx::test]
async fn a_missing_or_expired_token_is_refused_with_the_challenge_that_names_the_resource_metadata(pool: PgPool) {
    let w = world(pool, &[]).await;
    let initialize = initialize_request();
    let post = |token: Option<String>| {
        let mut request = w
            .app
            .client
            .post(w.url())
            .header(header::ACCEPT, "application/json, text/event-stream")
            .json(&initialize);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let metadata = format!("{}/.well-known/oauth-protected-resource", w.app.state.config.public_url());
    let anonymous = post(None).await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.headers()[header::WWW_AUTHENTICATE].to_str().unwrap(), format!("Bearer resource_metadata=\"{metadata}\""));

    let now = chrono::Utc::now().timestamp();
    let mut expired = tokens::valid_claims(&w.app.state, insights::auth::scopes::READER);
    expired["exp"] = json!(now - 120);
    expired["iat"] = json!(now - 720);
    expired["nbf"] = json!(now - 720);
    let expired = tokens::sign_with_provider_key(&w.app.state, &expired).await;
    let refused = post(Some(expired)).await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let challenge = refused.headers()[header::WWW_AUTHENTICATE].to_str().unwrap().to_owned();
    assert!(challenge.starts_with("Bearer error=\"invalid_token\"") && challenge.contains(&format!("resource_metadata=\"{metadata}\"")), "{challenge}");

    // The metadata names the resource and the issuer to sign in with.
    let document: Value = w.app.client.get(w.app.url("/.well-known/oauth-protected-resource")).send().await.unwrap().json().await.unwrap();
    assert_eq!(document["resource"], format!("{}/mcp", w.app.state.config.public_url()));
    assert_eq!(document["authorization_servers"], json!([w.app.state.config.issuer()]));

    // A valid token gets through.
    let answer = post(Some(w.reader.clone())).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "{:?}", answer.text().await);
}

fn initialize_request() -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": { "name": "test", "version": "1" } } })
}

const PROTOCOL_VERSION: &str = "2025-06-18";

#[sqlx::test]
async fn a_session_left_idle_is_closed_and_its_client_told_to_start_a_new_one(pool: PgPool) {
    let w = world(pool, &["--mcp-session-idle-secs", "1"]).await;
    let send = |session: Option<&str>, message: Value| {
        let mut request = w
            .app
            .client
            .post(w.url())
            .bearer_auth(&w.reader)
            .header(header::ACCEPT, "application/json, text/event-stream")
            .json(&message);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session).header("mcp-protocol-version", PROTOCOL_VERSION);
        }
        request.send()
    };
    let list_tools = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" });
    let opened = send(None, initialize_request()).await.unwrap();
    assert_eq!(opened.status(), StatusCode::OK);
    let session = opened.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    assert!(opened.text().await.unwrap().contains("\"serverInfo\""));
    let initialized = send(Some(&session), json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await.unwrap();
    assert_eq!(initialized.status(), StatusCode::ACCEPTED);

    // In use, a session lasts past the idle time.
    for _ in 0..3 {
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let listed = send(Some(&session), list_tools.clone()).await.unwrap();
        assert_eq!(listed.status(), StatusCode::OK);
        assert!(listed.text().await.unwrap().contains("search_research"));
    }
    // Left alone for longer, it is gone: 404, which tells the client to initialise again.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let expired = send(Some(&session), list_tools).await.unwrap();
    assert_eq!(expired.status(), StatusCode::NOT_FOUND, "{:?}", expired.text().await);
    assert_eq!(send(None, initialize_request()).await.unwrap().status(), StatusCode::OK);
}

#[sqlx::test]
async fn the_typescript_sdk_gets_the_same_answers(pool: PgPool) {
    let w = world(pool, &[]).await;
    let steps = json!([
        { "list_tools": true },
        tool("search_research", json!({ "query": "copper forecast", "channel": "Metals Premium" })),
        tool("get_article", json!({ "id": w.premium })),
        { "read": format!("insights://article/{}", w.premium) },
        tool("latest", json!({ "limit": 99 })),
    ]);
    let answer = clients::mcp_node(&w.url(), &w.reader, 2, steps).await;
    let sessions = answer["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{answer}");
    assert!(!answer.to_string().contains(MARKER), "{answer}");
    let results = &sessions[0]["results"];
    assert_eq!(sessions[0]["server"]["name"], "insights");
    assert_eq!(results[0]["tools"].as_array().map(Vec::len), Some(6));
    let found = results[1]["structuredContent"]["articles"].as_array().unwrap();
    assert_eq!(found.len(), 1, "the channel named: {found:?}");
    assert_eq!(found[0]["fullAccess"], false);
    assert!(text_of(&results[2]).contains("The full article is for subscribers of Metals Premium"), "{}", text_of(&results[2]));
    assert!(results[3]["contents"][0]["text"].as_str().unwrap().contains("Our Q1 copper forecast"));
    // A limit out of range is the assistant's to correct: a tool error saying so.
    assert_eq!(results[4]["isError"], true);
    assert!(text_of(&results[4]).contains("limit: Ask for 1 to 25 articles"), "{}", text_of(&results[4]));

    w.app.subscribe(&w.channel, &w.reader_id, "nonCharge", "active", Some(30), true).await;
    let answer = clients::mcp_node(&w.url(), &w.reader, 1, json!([tool("get_article", json!({ "id": w.premium }))])).await;
    assert!(text_of(&answer["sessions"][0]["results"][0]).contains(MARKER));
}
