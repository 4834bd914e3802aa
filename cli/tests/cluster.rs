//! Several processes of the real binary on one database (issue 15), driven over HTTP as a
//! deployment would be: two `serve --no-worker` processes and `worker` processes, a load
//! balancer and a load generator in the test.
//!
//! - Writes through one server are read through the other at once (articles, subscriptions,
//!   taxonomy and its per-process cache, uploads); with two workers each job runs once and each
//!   email goes out once (to a real SMTP server).
//! - A rolling restart (SIGTERM, drain, start again; one server then the other) under load fails
//!   no request.
//! - A PostgreSQL restart under load: 503 with `Retry-After` (never 500), `/healthz` says the
//!   database is unreachable, and service resumes by itself.
//!
//! The tests need DATABASE_URL (the `postgres` database of a server, as the API tests), maildev
//! (`make web-deps`) and PostgreSQL's server binaries; they fail, saying so, without them.

mod support;

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use support::{
    Cluster,
    load::{Load, Op, Outcome},
    maildev::{Email, Maildev},
    postgres::PrivatePostgres,
};

/// A 1×1 PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

const ME: &str = "{ me { _id } }";
const ADD_DESK: &str = "mutation($item: DeskInput!) { addDesk(item: $item) { _id } }";
const ADD_CHANNEL: &str = "mutation($item: ChannelInput!) { addChannel(item: $item) { _id } }";
const ADD_CATEGORY: &str = "mutation($item: CategoryInput!) { addCategory(item: $item) { _id name } }";
const ADD_TAG: &str = "mutation($item: TagInput!) { addTag(item: $item) { _id } }";
const TREE: &str = "{ categoriesAsTree { _id name children { _id name } } }";
const GRANT: &str = "mutation($item: ChannelSubscriptionInput!) { createNonChargeChannelSubscription(item: $item) { subscriptionState } }";
const ADD_ARTICLE: &str = "mutation($item: ArticleInput!) { addArticle(item: $item) { _id title state version } }";
const PUBLISH: &str = "mutation($item: ArticleInput!) { publishEdit(item: $item) { _id title state version } }";

/// How long the test waits for the workers to send every email.
const DELIVERY: Duration = Duration::from_secs(60);

/// Readers subscribed with SQL beside the two added through the API, so that the fan-out and the
/// delivery have work both workers may reach for.
const BULK_READERS: i32 = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_and_two_workers_on_one_database_see_each_others_writes_and_run_each_job_once() {
    let _turn = support::one_at_a_time().await;
    let maildev = Maildev::start().await;
    let smtp = maildev.smtp_url();
    let mut cluster = Cluster::on_fresh_database(&[("INSIGHTS_SMTP_URL", &smtp)]).await;
    // The first token creates the provider's signing key, which every server then validates with.
    let admin = cluster.token("admin@insights.example", "admin").await;
    let (editor, contributor, ann, bob) = tokio::join!(
        cluster.token("editor@insights.example", "editor"),
        cluster.token("contributor@insights.example", "contributor"),
        cluster.token("ann@client.example", "subscriber"),
        cluster.token("bob@client.example", "subscriber"),
    );
    let a = cluster.start_server("server-a").await;
    let b = cluster.start_server("server-b").await;
    let (a, b) = (cluster.servers[a].url.clone(), cluster.servers[b].url.clone());
    cluster.start_worker("worker-1").await;
    cluster.start_worker("worker-2").await;

    // Users appear on their first request, whichever server it reaches.
    let id = |value: Value| value["_id"].as_str().unwrap().to_owned();
    let editor_id = id(cluster.ok(&a, &editor, ME, json!({})).await);
    let contributor_id = id(cluster.ok(&b, &contributor, ME, json!({})).await);
    let ann_id = id(cluster.ok(&a, &ann, ME, json!({})).await);
    let bob_id = id(cluster.ok(&b, &bob, ME, json!({})).await);
    assert_eq!(id(cluster.ok(&b, &ann, ME, json!({})).await), ann_id, "one user whichever server answers");
    // As the web app's sign-in records it (staff add only readers who have signed in).
    sqlx::query("update users set last_login = now() where user_id = any($1)")
        .bind(vec![ann_id.clone(), bob_id.clone()])
        .execute(cluster.pool().await)
        .await
        .unwrap();
    let desk = json!({ "name": "Metals desk", "email": "desk@insights.example", "contributors": [editor_id, contributor_id] });
    let desk = id(cluster.ok(&a, &admin, ADD_DESK, json!({ "item": desk })).await);
    let channel = json!({
        "name": "Cluster Premium", "description": "Research for paying clients", "type": "premium", "ownerType": "desk",
        "ownerId": desk, "adminUsers": [], "price": "49.5", "glAccount": "GL-4410", "defaultTrialDurationDays": 14,
    });
    let channel = id(cluster.ok(&b, &admin, ADD_CHANNEL, json!({ "item": channel })).await);

    // Taxonomy: each server keeps its topic reads keyed by the database's taxonomy revision, so a
    // topic added through one server is in the other's tree at once, though that one has just
    // cached the tree without it.
    let names = |tree: &Value| -> Vec<String> {
        let topics = tree.as_array().unwrap().iter();
        topics
            .flat_map(|t| std::iter::once(t).chain(t["children"].as_array().unwrap()))
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(names(&cluster.ok(&b, &editor, TREE, json!({})).await).is_empty());
    assert!(names(&cluster.ok(&a, &editor, TREE, json!({})).await).is_empty());
    let copper = json!({ "name": "Copper", "description": "About copper", "parent": null });
    let topic = id(cluster.ok(&a, &admin, ADD_CATEGORY, json!({ "item": copper })).await);
    assert_eq!(names(&cluster.ok(&b, &editor, TREE, json!({})).await), ["Copper"], "a topic added through A, read through B");
    let cathodes = json!({ "name": "Cathodes", "description": "About cathodes", "parent": topic });
    cluster.ok(&b, &admin, ADD_CATEGORY, json!({ "item": cathodes })).await;
    assert_eq!(
        names(&cluster.ok(&a, &editor, TREE, json!({})).await),
        ["Copper", "Cathodes"],
        "a sub-topic added through B, read through A"
    );
    let tag = id(cluster.ok(&a, &admin, ADD_TAG, json!({ "item": { "name": "LME", "description": "About LME" } })).await);

    // Subscriptions: added through A, seen through B (by staff and by the reader).
    for user in [&ann_id, &bob_id] {
        let item = json!({ "channelId": channel, "userId": user, "notes": "Press pass" });
        assert_eq!(cluster.ok(&a, &admin, GRANT, json!({ "item": item })).await["subscriptionState"], "active");
    }
    let count = "query($c: ID!) { getSubscribersCount(channelId: $c) }";
    assert_eq!(cluster.ok(&b, &admin, count, json!({ "c": channel })).await, 2, "subscriptions added through A, counted through B");
    let subscribed = "query($c: ID!) { isSubscribedTo(channelId: $c) }";
    assert_eq!(cluster.ok(&b, &ann, subscribed, json!({ "c": channel })).await, true);
    let bulk = bulk_subscribers(&mut cluster, &channel).await;
    assert_eq!(cluster.ok(&b, &admin, count, json!({ "c": channel })).await, 2 + BULK_READERS);

    // An article: a draft written through A is read through B; published through B (which asks
    // the workers to tell the subscribers), it is read by a reader through A.
    let item = json!({
        "title": "Copper outlook", "html": "<p>Copper stocks fell by a third.</p>", "summary": "Summary of Copper outlook",
        "premiumChannelId": channel, "contributors": [contributor_id], "categories": [topic], "tags": [tag],
        "isPremium": true, "premiumExpiryOffset": "1w",
    });
    let draft = cluster.ok(&a, &editor, ADD_ARTICLE, json!({ "item": item })).await;
    let find = "query($id: ID!) { findArticleById(id: $id) { _id title state version } }";
    assert_eq!(cluster.ok(&b, &editor, find, json!({ "id": draft["_id"] })).await, draft, "a draft written through A, read through B");
    let mut publish = item.clone();
    publish["_id"] = draft["_id"].clone();
    publish["version"] = draft["version"].clone();
    let published = cluster.ok(&b, &editor, PUBLISH, json!({ "item": publish })).await;
    assert_eq!(published["state"], "Published");
    let read = "query($id: ID!) { findPublishedArticleById(id: $id) { _id title canSeeFullVersion } }";
    let seen = cluster.ok(&a, &ann, read, json!({ "id": draft["_id"] })).await;
    assert_eq!((seen["title"].as_str(), seen["canSeeFullVersion"].as_bool()), (Some("Copper outlook"), Some(true)), "{seen}");

    // An upload through A is served by B (to staff: a file linked from nothing is theirs alone).
    let form = reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(PNG.to_vec()).file_name("chart.png"));
    let response = cluster.http.post(format!("{a}/upload")).bearer_auth(&admin).multipart(form).send().await.unwrap();
    assert_eq!(response.status(), 201, "POST /upload through A");
    let link = response.json::<Value>().await.unwrap()["link"].as_str().unwrap().to_owned();
    let served = cluster.http.get(format!("{b}{link}")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(served.status(), 200, "GET {link} through B");
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG, "B serves the bytes uploaded through A");

    // Each email once: a welcome for the two readers staff added, the new article for every subscriber.
    // (recipient, subject) of each email.
    let mut expected: Vec<(String, String)> = ["ann@client.example", "bob@client.example"]
        .iter()
        .map(|to| (to.to_string(), "You now have access to Cluster Premium".to_owned()))
        .collect();
    let readers = bulk.iter().chain(["ann@client.example".to_owned(), "bob@client.example".to_owned()].iter()).cloned().collect::<Vec<_>>();
    expected.extend(readers.iter().map(|to| (to.clone(), "Copper outlook".to_owned())));
    expected.sort();
    let received = settled(&mut cluster, &maildev, expected.len()).await;
    let mut times: BTreeMap<(String, String), usize> = BTreeMap::new();
    for email in &received {
        *times.entry((email.to.clone(), email.subject.clone())).or_default() += 1;
    }
    let twice: Vec<_> = times.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "sent more than once: {twice:?}");
    assert_eq!(times.into_keys().collect::<Vec<_>>(), expected, "each expected email, and no other");

    // Each job ran once (apalis counts an attempt when a worker takes the job) and both workers
    // took part in the work.
    let pool = cluster.pool().await;
    let jobs: Vec<(String, String, String, i32, Option<String>)> = sqlx::query_as(
        "select id, convert_from(job, 'UTF8'), status, attempts, lock_by from apalis.jobs where job_type = 'insights' order by run_at",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let requests: i64 = sqlx::query_scalar("select count(*) from article_notification_request where processed_at is not null")
        .fetch_one(pool)
        .await
        .unwrap();
    println!("jobs (id, job, status, attempts, worker):");
    for job in &jobs {
        println!("  {job:?}");
    }
    // What each worker says it sent (its log), to show the work was shared.
    let sent = |log: String| -> u64 {
        log.lines().filter_map(|line| line.split(" sent=").nth(1)?.split_whitespace().next()?.parse::<u64>().ok()).sum()
    };
    let by_worker: Vec<(String, u64)> = cluster.workers.iter().map(|w| (w.name.clone(), sent(w.log_text()))).collect();
    println!("emails sent by worker (their logs): {by_worker:?}; {} received, {} expected", received.len(), expected.len());
    assert!(jobs.iter().any(|j| j.1.contains("notify_article_subscribers")), "the publish enqueued its notification: {jobs:?}");
    for (id, job, status, attempts, _) in &jobs {
        assert_eq!((status.as_str(), *attempts), ("Done", 1), "job {id} {job} ran once and succeeded");
    }
    assert_eq!(requests, 1, "the notification request was processed once");
    for worker in &mut cluster.workers {
        assert!(worker.is_running(), "{} is still running", worker.name);
    }
}

/// `BULK_READERS` readers who have signed in, each with an active account subscription to
/// `channel`; returns their addresses.
async fn bulk_subscribers(cluster: &mut Cluster, channel: &str) -> Vec<String> {
    let pool = cluster.pool().await;
    sqlx::query(
        "insert into users (user_id, subject, email, name, scopes, last_login)
         select id, 'dev|' || id, 'reader' || g || '@client.example', 'Reader ' || g, '{insights:content-reader}', now()
           from generate_series(1, $1) g, lateral (select substr(md5('reader' || g), 1, 24) as id) x",
    )
    .bind(BULK_READERS)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, account_number)
         select $1, user_id, 'account', 'active', 'ACC-1' from users where email collate \"C\" like 'reader%@client.example'",
    )
    .bind(channel)
    .execute(pool)
    .await
    .unwrap();
    (1..=BULK_READERS).map(|i| format!("reader{i}@client.example")).collect()
}

/// Waits until the workers are done (every job done, every email of the outbox sent and `n`
/// received), then a moment more for any email sent twice; returns what maildev received.
async fn settled(cluster: &mut Cluster, maildev: &Maildev, n: usize) -> Vec<Email> {
    let deadline = Instant::now() + DELIVERY;
    loop {
        let pool = cluster.pool().await;
        let busy: i64 = sqlx::query_scalar("select count(*) from apalis.jobs where status <> 'Done'").fetch_one(pool).await.unwrap();
        let unsent: i64 = sqlx::query_scalar("select count(*) from email_outbox where state <> 'sent'").fetch_one(pool).await.unwrap();
        let received = maildev.emails().await;
        if busy == 0 && unsent == 0 && received.len() >= n {
            break;
        }
        let states: Vec<(String, i64)> =
            sqlx::query_as("select state, count(*) from email_outbox group by 1").fetch_all(pool).await.unwrap_or_default();
        assert!(
            Instant::now() < deadline,
            "after {DELIVERY:?}: {busy} jobs not done, outbox {states:?}, {} of {n} emails received",
            received.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    maildev.emails().await
}

/// The tokens of the load: a reader and an editor (who also writes).
struct Tokens {
    reader: String,
    editor: String,
}

impl Tokens {
    async fn of(cluster: &Cluster) -> Tokens {
        let editor = cluster.token("editor@insights.example", "editor").await;
        let reader = cluster.token("reader@client.example", "subscriber").await;
        Tokens { reader, editor }
    }

    /// The load's mix: the reader's `me` and article list, the staff article list, and a draft saved.
    fn mix(&self) -> Vec<Op> {
        let write = Op {
            variables: |client, n| json!({ "item": { "title": format!("Load draft {client}-{n}") } }),
            ..Op::new("addArticle", &self.editor, "mutation($item: ArticleInput!) { addArticle(item: $item) { _id } }")
        };
        vec![
            Op::new("me", &self.reader, ME),
            Op::new("getArticles", &self.reader, "{ getArticles(first: 9) { hasMore articles { _id title } } }"),
            Op::new("me", &self.editor, ME),
            Op::new("articles", &self.editor, "{ articles(params: { limit: 15 }) { total articles { _id title state } } }"),
            write,
        ]
    }

    /// Creates both users (their first request) before the load starts.
    async fn sign_in(&self, cluster: &Cluster, base: &str) {
        cluster.ok(base, &self.reader, ME, json!({})).await;
        cluster.ok(base, &self.editor, ME, json!({})).await;
    }
}

/// How many clients send requests at once.
const CLIENTS: usize = 16;

/// The least time the load runs.
const LOAD_FOR: Duration = Duration::from_secs(8);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rolling_restart_of_both_servers_under_load_fails_no_request() {
    let _turn = support::one_at_a_time().await;
    let mut cluster = Cluster::on_fresh_database(&[]).await;
    let tokens = Tokens::of(&cluster).await;
    cluster.start_server("server-a").await;
    cluster.start_server("server-b").await;
    let balancer = cluster.balancer().await;
    tokens.sign_in(&cluster, &balancer.url).await;

    let load = Load::start(&balancer.url, CLIENTS, tokens.mix());
    let started = Instant::now();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut steps = Vec::new();
    for index in 0..cluster.servers.len() {
        let name = cluster.servers[index].name.clone();
        let signalled = Instant::now();
        cluster.servers[index].process.terminate();
        // Draining: /healthz answers 503 while requests are still served, and the balancer moves away.
        balancer.wait_until(index, false, Duration::from_secs(2)).await;
        let out_of_rotation = signalled.elapsed();
        let status = cluster.servers[index].process.wait_exit(Duration::from_secs(30)).await;
        let exited = signalled.elapsed();
        assert!(status.success(), "{name} exited with {status} after SIGTERM");
        cluster.restart_server(index).await;
        balancer.wait_until(index, true, Duration::from_secs(5)).await;
        steps.push(format!(
            "{name}: out of rotation {} ms after SIGTERM, exited (0) after {} ms, back after {} ms",
            out_of_rotation.as_millis(),
            exited.as_millis(),
            signalled.elapsed().as_millis()
        ));
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    tokio::time::sleep(LOAD_FOR.saturating_sub(started.elapsed())).await;
    let report = load.stop().await;
    let stats = balancer.stats();

    println!("rolling restart under load ({CLIENTS} clients through the balancer):");
    for step in &steps {
        println!("  {step}");
    }
    print!("{}", report.summary());
    println!("{}", stats.summary());
    assert!(report.ok() > 50, "the load ran: {}", report.summary());
    assert_eq!(
        (report.failures().len(), report.unavailable(), stats.refused_everywhere),
        (0, 0, 0),
        "a rolling restart fails no request:\n{}",
        report.summary()
    );
}

/// How long PostgreSQL stays down (the measurement: a 3 s restart).
const OUTAGE: Duration = Duration::from_secs(3);

/// From how long after PostgreSQL is back every request must succeed.
const RECOVERY: Duration = Duration::from_secs(2);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_postgresql_restart_under_load_answers_503_with_retry_after_and_service_resumes_by_itself() {
    let _turn = support::one_at_a_time().await;
    let pg = PrivatePostgres::start().await;
    let mut cluster = Cluster::on(pg.url("insights"), None, &[]).await;
    cluster.extra_logs.push(("postgresql".into(), pg.log()));
    let tokens = Tokens::of(&cluster).await;
    cluster.start_server("server-a").await;
    cluster.start_server("server-b").await;
    cluster.start_worker("worker").await;
    let balancer = cluster.balancer().await;
    tokens.sign_in(&cluster, &balancer.url).await;
    let a = cluster.servers[0].url.clone();

    let load = Load::start(&balancer.url, CLIENTS, tokens.mix());
    tokio::time::sleep(Duration::from_secs(2)).await;
    let down = Instant::now();
    tokio::task::block_in_place(|| pg.stop_server());
    // While it is down, /healthz says why (asked directly, not through the balancer).
    let health = cluster.http.get(format!("{a}/healthz")).timeout(Duration::from_secs(10)).send().await.expect("/healthz answers");
    let health_status = health.status().as_u16();
    let health_retry_after = health.headers().get("retry-after").map(|v| v.to_str().unwrap_or_default().to_owned());
    let health_body: Value = health.json().await.unwrap_or(Value::Null);
    tokio::time::sleep(OUTAGE.saturating_sub(down.elapsed())).await;
    tokio::task::block_in_place(|| pg.start_server());
    let up = Instant::now();
    tokio::time::sleep(RECOVERY + Duration::from_secs(3)).await;
    let report = load.stop().await;
    let stats = balancer.stats();

    let recovered = up + RECOVERY;
    let after: Vec<_> = report.since(recovered).collect();
    let after_ok = after.iter().filter(|s| s.outcome == Outcome::Ok).count();
    let first_ok_after_up = report.since(up).filter(|s| s.outcome == Outcome::Ok).map(|s| s.started + s.latency).min();
    println!("PostgreSQL restart under load ({CLIENTS} clients through the balancer):");
    println!("  PostgreSQL down for {} ms", up.duration_since(down).as_millis());
    println!("  /healthz while down: {health_status} retry-after {health_retry_after:?} {health_body}");
    if let Some(first) = first_ok_after_up {
        println!("  first success completed {} ms after PostgreSQL was back", first.saturating_duration_since(up).as_millis());
    }
    print!("{}", report.summary());
    println!(
        "  200: {}, 503 with Retry-After: {}, other: {}; from {} s after recovery: {after_ok} of {} succeeded",
        report.ok(),
        report.unavailable(),
        report.failures().len(),
        RECOVERY.as_secs(),
        after.len()
    );
    println!("{}", stats.summary());

    assert_eq!(health_status, 503, "/healthz while PostgreSQL is down: {health_body}");
    assert_eq!(health_body["database"], "unreachable", "/healthz says why: {health_body}");
    assert!(health_retry_after.is_some(), "/healthz while PostgreSQL is down has Retry-After");
    assert!(report.unavailable() > 0, "the outage was seen by the load (503s): {}", report.summary());
    assert_eq!(report.failures().len(), 0, "no 500s or broken requests while PostgreSQL restarts:\n{}", report.summary());
    assert!(
        !after.is_empty() && after_ok == after.len(),
        "every request {RECOVERY:?} after PostgreSQL is back succeeds:\n{}",
        report.summary()
    );
    for index in 0..cluster.servers.len() {
        cluster.wait_healthy(index).await;
    }
    let worker = &mut cluster.workers[0];
    assert!(worker.is_running(), "the worker survives the restart:\n{}", support::tail(&worker.log_text(), 40));
}
