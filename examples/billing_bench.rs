//! Benchmark of card payments (issue 13), run by scripts/bench/billing.sh on a scratch database:
//! the app served in process (the same `build_app` as `serve`) against the Stripe test double,
//! reached through a timing proxy that adds up the time each request spends at the provider.
//!
//! 1. Checkout API calls: for each reader, `createStripeCustomer` then `createStripeSubscription`
//!    through GraphQL, one request at a time, each timed at the client and less the time the
//!    proxy saw it spend at the double (the provider's time). The paying readers go first.
//! 2. Webhooks under a burst: the first BENCH_PAYING readers pay with `pm_card_visa` while the
//!    double holds its events; then BENCH_EVENTS signed deliveries (the held events in order,
//!    topped up with duplicates when there are fewer) are POSTed at /webhooks/stripe with
//!    BENCH_IN_FLIGHT in flight, each timed (BENCH_ORDER=shuffled: in a fixed pseudo-random
//!    order): the endpoint records each event and answers; the workers (`insights_jobs::run`, as
//!    `serve` runs them) apply them. Then how long the workers took to apply them all, each
//!    event's time from receipt to applied, and whether every event was applied exactly once.
//!    The other readers' checkouts follow (their events stay held).
//!
//! Prints figures (a `figures: name=value …` line for the script); asserts nothing. Environment:
//! DATABASE_URL (created and migrated when needed), BENCH_READERS (200), BENCH_PAYING (100),
//! BENCH_EVENTS (1000), BENCH_IN_FLIGHT (12).

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use axum::{body::Body, extract::State, http::header, response::Response};
use futures_util::StreamExt;
use insights::{AppState, Config, auth::provider, auth::scopes};
use serde_json::{Value, json};
use stripe_double::{Options, StripeDouble};

const SECRET_KEY: &str = "sk_test_insights";
const PUBLISHABLE_KEY: &str = "pk_test_insights";
const WEBHOOK_SECRET: &str = "whsec_insights_bench_secret";

const CREATE_CUSTOMER: &str = "mutation($channelId: ID!, $businessName: String, $taxId: String, $taxIdType: String,
      $addressLine1: String, $addressCity: String, $addressPostcode: String, $addressCountryCode: String) {
    createStripeCustomer(channelId: $channelId, businessName: $businessName, taxId: $taxId, taxIdType: $taxIdType,
      addressLine1: $addressLine1, addressCity: $addressCity, addressPostcode: $addressPostcode, addressCountryCode: $addressCountryCode) }";

const CREATE_SUBSCRIPTION: &str = "mutation($channelId: ID!, $businessName: String, $taxId: String, $addressLine1: String,
      $addressCity: String, $addressPostcode: String, $addressCountryCode: String) {
    createStripeSubscription(channelId: $channelId, businessName: $businessName, taxId: $taxId, addressLine1: $addressLine1,
      addressCity: $addressCity, addressPostcode: $addressPostcode, addressCountryCode: $addressCountryCode) {
      subscriptionId clientSecret addressIsValid } }";

/// A request that reads the database, to open connections.
const WARM_UP: &str = "{ me { _id } }";

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Forwards every request to the double and adds up the time each one took there.
struct Proxy {
    target: String,
    client: reqwest::Client,
    nanos: AtomicU64,
    calls: AtomicU64,
}

impl Proxy {
    /// (calls, time at the provider) so far.
    fn total(&self) -> (u64, Duration) {
        (self.calls.load(Ordering::SeqCst), Duration::from_nanos(self.nanos.load(Ordering::SeqCst)))
    }
}

async fn forward(State(proxy): State<Arc<Proxy>>, request: axum::extract::Request) -> Response {
    let started = Instant::now();
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut outgoing = proxy.client.request(parts.method.clone(), format!("{}{path}", proxy.target)).body(body);
    for (name, value) in &parts.headers {
        if name != header::HOST && name != header::CONTENT_LENGTH {
            outgoing = outgoing.header(name, value);
        }
    }
    let response = match outgoing.send().await {
        Ok(response) => {
            let status = response.status();
            let headers = response.headers().clone();
            let bytes = response.bytes().await.unwrap_or_default();
            let mut answer = Response::new(Body::from(bytes));
            *answer.status_mut() = status;
            for (name, value) in &headers {
                if name != header::CONTENT_LENGTH && name != header::TRANSFER_ENCODING && name != header::CONNECTION {
                    answer.headers_mut().insert(name, value.clone());
                }
            }
            answer
        }
        Err(error) => {
            let mut answer = Response::new(Body::from(error.to_string()));
            *answer.status_mut() = axum::http::StatusCode::BAD_GATEWAY;
            answer
        }
    };
    proxy.nanos.fetch_add(started.elapsed().as_nanos() as u64, Ordering::SeqCst);
    proxy.calls.fetch_add(1, Ordering::SeqCst);
    response
}

struct Bench {
    address: String,
    state: AppState,
    client: reqwest::Client,
    proxy: Arc<Proxy>,
}

impl Bench {
    async fn gql(&self, token: &str, query: &str, variables: Value) -> anyhow::Result<Value> {
        let response = self
            .client
            .post(format!("{}/graphql", self.address))
            .bearer_auth(token)
            .json(&json!({ "query": query, "variables": variables }))
            .send()
            .await?
            .json::<Value>()
            .await?;
        if !response["errors"].is_null() {
            bail!("GraphQL error: {}", response["errors"]);
        }
        Ok(response["data"].clone())
    }

    async fn token(&self, email: &str, name: &str, scope: &str) -> anyhow::Result<String> {
        let claims = provider::UserClaims::new(email, name, Some("Bench Co"), vec![scope.to_owned()]);
        let subject = provider::subject_for(&self.state.config, email, false);
        provider::sign_access_token(&self.state, &subject, scope, &claims, Duration::from_secs(3600)).await
    }
}

/// Each checkout call's time at the client, and less the provider's time.
#[derive(Default)]
struct Timings {
    customer: Vec<f64>,
    customer_own: Vec<f64>,
    subscription: Vec<f64>,
    subscription_own: Vec<f64>,
    provider_calls: u64,
    provider_time: Duration,
}

/// Steps 1 and 2 of the card checkout for readers `range`, one request at a time; returns the
/// client secrets to pay.
async fn checkouts(
    bench: &Bench,
    channel: &str,
    range: std::ops::RangeInclusive<usize>,
    timings: &mut Timings,
) -> anyhow::Result<Vec<String>> {
    let billing = json!({ "channelId": channel, "businessName": "Acme Metals Ltd", "addressLine1": "1 King Street",
                          "addressCity": "London", "addressPostcode": "EC2V 8AA", "addressCountryCode": "GB" });
    let mut secrets = Vec::new();
    for i in range {
        let token = bench.token(&format!("reader{i}@client.example"), &format!("Reader {i}"), scopes::READER).await?;
        bench.gql(&token, "{ me { _id } }", json!({})).await?;
        for query in [CREATE_CUSTOMER, CREATE_SUBSCRIPTION] {
            let (calls_before, before) = bench.proxy.total();
            let sent = Instant::now();
            let data = bench.gql(&token, query, billing.clone()).await?;
            let elapsed = sent.elapsed();
            let (calls_after, after) = bench.proxy.total();
            let provider = after - before;
            timings.provider_calls += calls_after - calls_before;
            timings.provider_time += provider;
            let (total, own) = match query {
                CREATE_CUSTOMER => (&mut timings.customer, &mut timings.customer_own),
                _ => (&mut timings.subscription, &mut timings.subscription_own),
            };
            total.push(ms(elapsed));
            own.push(ms(elapsed.saturating_sub(provider)));
            if let Some(secret) = data["createStripeSubscription"]["clientSecret"].as_str() {
                secrets.push(secret.to_owned());
            }
        }
    }
    Ok(secrets)
}

/// The value at the percentile (nearest rank) of sorted milliseconds.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// "p50 1.2 ms, p99 3.4 ms, max 5.6 ms" and the sorted values.
fn spread(mut values: Vec<f64>) -> (String, Vec<f64>) {
    values.sort_by(f64::total_cmp);
    let line = format!(
        "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&values, 50.0),
        percentile(&values, 99.0),
        values.last().copied().unwrap_or(f64::NAN)
    );
    (line, values)
}

/// POSTs a Stripe event to the webhook endpoint as Stripe does: JSON, signed now.
async fn deliver(client: &reqwest::Client, url: &str, payload: String) -> reqwest::Result<reqwest::Response> {
    let signature = stripe_double::sign(&payload, WEBHOOK_SECRET, chrono::Utc::now().timestamp());
    client
        .post(url)
        .header("content-type", "application/json; charset=utf-8")
        .header("stripe-signature", signature)
        .body(payload)
        .send()
        .await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let readers = env_number("BENCH_READERS", 200);
    let paying = env_number("BENCH_PAYING", 100).min(readers);
    let burst = env_number("BENCH_EVENTS", 1000);
    let in_flight = env_number("BENCH_IN_FLIGHT", 12);

    // The double, held: events wait for the burst.
    let double = StripeDouble::start_with(Options::default()).await.context("start the Stripe double")?;
    double.hold_events();
    let proxy =
        Arc::new(Proxy { target: double.base_url(), client: reqwest::Client::new(), nanos: AtomicU64::new(0), calls: AtomicU64::new(0) });
    let proxy_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let proxy_url = format!("http://{}", proxy_listener.local_addr()?);
    let proxy_app = axum::Router::new().fallback(forward).with_state(proxy.clone());
    tokio::spawn(async move { axum::serve(proxy_listener, proxy_app).await });

    // The app, as `serve` builds it, with Stripe at the proxy.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = format!("http://{}", listener.local_addr()?);
    let flags = [
        "--public-url",
        address.as_str(),
        "--log-format",
        "pretty",
        "--stripe-secret-key",
        SECRET_KEY,
        "--stripe-publishable-key",
        PUBLISHABLE_KEY,
        "--stripe-webhook-secret",
        WEBHOOK_SECRET,
        "--stripe-api-base",
        proxy_url.as_str(),
    ];
    let config = Config::from_flags(flags).context("configuration")?;
    insights::telemetry::init("pretty", &std::env::var("INSIGHTS_LOG").unwrap_or_else(|_| "error".into()));
    let pool = insights::db::connect(&config.database_url, config.db_max_connections).await?;
    insights::db::migrate(&pool).await?;
    insights_jobs::setup(&pool).await?;
    let state = AppState::new(pool.clone(), config, insights_jobs::queue());
    // The workers, as `serve` runs them: they apply the events the webhook records.
    let shutdown = tokio_util::sync::CancellationToken::new();
    tokio::spawn(insights_jobs::run(state.clone(), shutdown.clone()));
    let app = insights::http::build_app(state.clone());
    tokio::spawn(async move { axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await });
    double.set_webhook(&format!("{address}/webhooks/stripe"), WEBHOOK_SECRET);
    let client = reqwest::Client::builder().pool_max_idle_per_host(64).build()?;
    let bench = Bench { address, state, client, proxy };

    // A premium channel at 49.50 a month.
    let admin = bench.token("bench.admin@insights.example", "Bench Admin", scopes::ADMIN).await?;
    let admin_id = bench.gql(&admin, "{ me { _id } }", json!({})).await?["me"]["_id"].as_str().unwrap_or_default().to_owned();
    let desk = bench
        .gql(
            &admin,
            "mutation($item: DeskInput!) { addDesk(item: $item) { _id } }",
            json!({ "item": { "name": "Bench desk", "email": "desk@insights.example", "contributors": [admin_id] } }),
        )
        .await?["addDesk"]["_id"]
        .clone();
    let channel = bench
        .gql(
            &admin,
            "mutation($item: ChannelInput!) { addChannel(item: $item) { _id } }",
            json!({ "item": { "name": "Bench Premium", "description": "Research for paying clients", "type": "premium",
                              "ownerType": "desk", "ownerId": desk, "adminUsers": [], "price": "49.5", "glAccount": "GL-4410",
                              "defaultTrialDurationDays": 14 } }),
        )
        .await?["addChannel"]["_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    println!("App and Stripe double in process (Stripe reached through a timing proxy); channel {channel}; {readers} readers");

    // ---- 1. Checkout calls, one at a time: the paying readers first (their events make the burst) --
    let mut timings = Timings::default();
    let started = Instant::now();
    let secrets = checkouts(&bench, &channel, 1..=paying, &mut timings).await?;
    let mut checkout_seconds = started.elapsed().as_secs_f64();

    // ---- 2. Payments, then the burst of webhooks ----------------------------------------------
    let http = reqwest::Client::new();
    let mut paid = 0;
    for secret in secrets.iter().take(paying) {
        let intent = secret.split("_secret_").next().unwrap_or(secret);
        let response: Value = http
            .post(format!("{}/v1/payment_intents/{intent}/confirm", double.base_url()))
            .basic_auth(PUBLISHABLE_KEY, Some(""))
            .form(&[("client_secret", secret.as_str()), ("payment_method", "pm_card_visa")])
            .send()
            .await?
            .json()
            .await?;
        if response["status"] == "succeeded" {
            paid += 1;
        }
    }
    let queued = double.queued();
    let mut ids: Vec<String> = queued.iter().filter_map(|e| e["id"].as_str().map(str::to_owned)).collect();
    let leftovers: Vec<String> = if ids.len() > burst { ids.split_off(burst) } else { Vec::new() };
    let distinct = ids.len();
    // Fewer events than the burst: duplicates (Stripe's redeliveries) of spread-out events, each
    // sent a little after its original.
    let mut order: Vec<usize> = (0..distinct).collect();
    let extra = burst.saturating_sub(distinct);
    for j in 0..extra {
        let original = j * distinct / extra.max(1);
        let at = (original + 1 + (j * 7) % 40).min(order.len());
        order.insert(at, original);
    }
    // BENCH_ORDER=shuffled: the deliveries in a fixed pseudo-random order (subscriptions interleaved,
    // each one's events out of order) rather than as queued (each reader's ten events together).
    let shuffled = std::env::var("BENCH_ORDER").is_ok_and(|o| o == "shuffled");
    if shuffled {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
    }
    let payloads: Vec<String> =
        ids.iter().map(|id| queued.iter().find(|e| e["id"] == id.as_str()).map(|e| e.to_string()).unwrap_or_default()).collect();
    let types = {
        let mut counts = std::collections::BTreeMap::<String, usize>::new();
        for event in queued.iter().take(distinct) {
            *counts.entry(event["type"].as_str().unwrap_or("?").to_owned()).or_default() += 1;
        }
        counts.into_iter().map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", ")
    };
    println!("{paid} of {paying} readers paid with pm_card_visa; {} events held ({types})", queued.len());
    println!(
        "Burst: {} webhook deliveries ({distinct} distinct events {}, {extra} duplicates among them{}), {in_flight} in flight",
        order.len(),
        if shuffled { "shuffled" } else { "in order" },
        if leftovers.is_empty() { String::new() } else { format!("; {} later events delivered after it", leftovers.len()) }
    );
    // A server that has been running has its database connections open: BENCH_IN_FLIGHT × 2
    // concurrent requests open them (and the client's connections) before the burst is timed.
    let warm: Vec<anyhow::Result<Value>> = futures_util::stream::iter((0..in_flight * 2).map(|_| bench.gql(&admin, WARM_UP, json!({}))))
        .buffer_unordered(in_flight * 2)
        .collect()
        .await;
    if let Some(Err(error)) = warm.into_iter().find(Result::is_err) {
        println!("  warm-up request failed: {error}");
    }
    let url = format!("{}/webhooks/stripe", bench.address);
    // ... and has recorded and applied events before: as many again of a subscription event about
    // subscriptions unknown here (ids `evt_warm_…`, left out of the counts below), then applied.
    if let Some(template) = queued.iter().find(|e| e["type"] == "customer.subscription.updated") {
        let warm_events: Vec<String> = (0..in_flight * 2)
            .map(|i| {
                let mut event = template.clone();
                event["id"] = json!(format!("evt_warm_{i}"));
                event["data"]["object"]["id"] = json!(format!("sub_warm_{i}"));
                event.to_string()
            })
            .collect();
        let statuses: Vec<u16> = futures_util::stream::iter(warm_events.into_iter().map(|payload| {
            let (client, url) = (bench.client.clone(), url.clone());
            async move { deliver(&client, &url, payload).await.map(|r| r.status().as_u16()).unwrap_or(0) }
        }))
        .buffer_unordered(in_flight * 2)
        .collect()
        .await;
        if statuses.iter().any(|status| *status != 200) {
            println!("  warm-up events not all answered 200: {statuses:?}");
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while sqlx::query_scalar::<_, i64>("select count(*) from stripe_event where applied_at is null").fetch_one(&pool).await? > 0
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let url = format!("{}/webhooks/stripe", bench.address);
    let (calls_before, provider_before) = bench.proxy.total();
    let started = Instant::now();
    let results: Vec<(f64, u16, String, usize)> = futures_util::stream::iter(order.iter().enumerate().map(|(position, &i)| {
        let payload = payloads[i].clone();
        let url = url.clone();
        let client = bench.client.clone();
        async move {
            let sent = Instant::now();
            let response = deliver(&client, &url, payload).await;
            match response {
                Ok(response) => {
                    let status = response.status().as_u16();
                    let text = response.text().await.unwrap_or_default();
                    (ms(sent.elapsed()), status, text, position)
                }
                Err(error) => (ms(sent.elapsed()), 0, error.to_string(), position),
            }
        }
    }))
    .buffer_unordered(in_flight)
    .collect()
    .await;
    let burst_seconds = started.elapsed().as_secs_f64();
    let (calls_after, provider_after) = bench.proxy.total();
    let refused: Vec<&(f64, u16, String, usize)> = results.iter().filter(|r| r.1 != 200).collect();
    let (webhook_line, webhook_sorted) = spread(results.iter().map(|r| r.0).collect());
    println!(
        "  {} deliveries in {burst_seconds:.2} s ({:.0}/s): {webhook_line}",
        results.len(),
        results.len() as f64 / burst_seconds.max(1e-9)
    );
    let first = in_flight * 2;
    let (first_line, _) = spread(results.iter().filter(|r| r.3 < first).map(|r| r.0).collect());
    let (rest_line, _) = spread(results.iter().filter(|r| r.3 >= first).map(|r| r.0).collect());
    println!("  the first {first} sent: {first_line}; the others: {rest_line}");
    println!(
        "  Stripe reads meanwhile: {} requests, {:.1} ms at the provider per delivery on average",
        calls_after - calls_before,
        ms(provider_after - provider_before) / results.len().max(1) as f64
    );
    if !refused.is_empty() {
        println!("  {} deliveries not answered 200, e.g. {:?}", refused.len(), &refused[..refused.len().min(3)]);
    }
    let leftover_ids: Vec<&str> = leftovers.iter().map(String::as_str).collect();
    let late = double.deliver_in_order(&leftover_ids).await;
    let late_failed = late.iter().filter(|d| !d.succeeded()).count();

    // ---- The workers apply what the endpoint recorded ------------------------------------------
    let drain_deadline = Instant::now() + Duration::from_secs(120);
    let mut pending: i64;
    loop {
        pending = sqlx::query_scalar("select count(*) from stripe_event where applied_at is null").fetch_one(&pool).await?;
        if pending == 0 || Instant::now() > drain_deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let drained_seconds = started.elapsed().as_secs_f64();
    let (applied_p50, applied_p99, applied_max): (Option<f64>, Option<f64>, Option<f64>) = sqlx::query_as(
        "select percentile_cont(0.5) within group (order by ms), percentile_cont(0.99) within group (order by ms), max(ms)
           from (select extract(epoch from applied_at - received_at)::float8 * 1000 as ms from stripe_event
                  where outcome not like 'ignored: % not handled' and applied_at is not null and event_id not like 'evt_warm_%') applied",
    )
    .fetch_one(&pool)
    .await?;
    let (calls_drained, _) = bench.proxy.total();
    println!(
        "  applied by the workers: {} within {drained_seconds:.2} s of the burst's start; received → applied p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; {} Stripe reads in all",
        if pending == 0 { "all".to_owned() } else { format!("NOT ALL ({pending} still pending)") },
        applied_p50.unwrap_or(f64::NAN),
        applied_p99.unwrap_or(f64::NAN),
        applied_max.unwrap_or(f64::NAN),
        calls_drained - calls_before
    );

    // ---- Exactly once ------------------------------------------------------------------------
    let (stored, stored_distinct): (i64, i64) =
        sqlx::query_as("select count(*), count(distinct event_id) from stripe_event where event_id not like 'evt_warm_%'")
            .fetch_one(&pool)
            .await?;
    let outcomes: Vec<(String, i64)> = sqlx::query_as(
        "select split_part(outcome, ':', 1), count(*) from stripe_event where event_id not like 'evt_warm_%' group by 1 order by 2 desc",
    )
    .fetch_all(&pool)
    .await?;
    let active: i64 = sqlx::query_scalar(
        "select count(*) from channel_subscription where subscription_type = 'stripe' and subscription_state = 'active'",
    )
    .fetch_one(&pool)
    .await?;
    let audits: Vec<(i64, i64)> = sqlx::query_as(
        "select n, count(*) from (select count(*) as n from subscription_audit where to_type = 'stripe' or from_type = 'stripe'
            group by channel_id, user_id) s group by n order by n",
    )
    .fetch_all(&pool)
    .await?;
    let audit_rows: i64 = audits.iter().map(|(n, users)| n * users).sum();
    let expected_events = (distinct + leftovers.len()) as i64;
    let once = stored == expected_events
        && stored_distinct == stored
        && active == paid as i64
        && refused.is_empty()
        && late_failed == 0
        && pending == 0
        && audits.iter().all(|(n, _)| *n == 1)
        && audit_rows == paid as i64;
    println!(
        "  stripe_event: {stored} rows for {expected_events} distinct events delivered ({})",
        outcomes.iter().map(|(o, n)| format!("{o} {n}")).collect::<Vec<_>>().join(", ")
    );
    println!(
        "  card subscriptions active: {active} for {paid} paid; audit rows of card subscriptions: {audit_rows} ({})",
        audits.iter().map(|(n, users)| format!("{users} subscriptions with {n}")).collect::<Vec<_>>().join(", ")
    );
    println!("  applied exactly once: {}", if once { "yes" } else { "NO" });

    // ---- 1, continued: the other readers' checkouts (their events stay held) ------------------
    let started = Instant::now();
    checkouts(&bench, &channel, paying + 1..=readers, &mut timings).await?;
    checkout_seconds += started.elapsed().as_secs_f64();
    let (customer_line, customer_sorted) = spread(timings.customer_own);
    let (subscription_line, subscription_sorted) = spread(timings.subscription_own);
    let (customer_total_line, _) = spread(timings.customer);
    let (subscription_total_line, _) = spread(timings.subscription);
    println!(
        "Checkout calls for {readers} readers in {checkout_seconds:.1} s; {} Stripe requests, {:.0} ms at the provider in all",
        timings.provider_calls,
        ms(timings.provider_time)
    );
    println!("  createStripeCustomer      excluding the provider: {customer_line}   (with it: {customer_total_line})");
    println!("  createStripeSubscription  excluding the provider: {subscription_line}   (with it: {subscription_total_line})");
    println!(
        "figures: webhook_p50={:.1} webhook_p99={:.1} webhook_max={:.1} deliveries={} rate={:.0} drained={drained_seconds:.2} applied_p99={:.0} once={} customer_p50={:.1} customer_p99={:.1} subscription_p50={:.1} subscription_p99={:.1}",
        percentile(&webhook_sorted, 50.0),
        percentile(&webhook_sorted, 99.0),
        webhook_sorted.last().copied().unwrap_or(f64::NAN),
        results.len(),
        results.len() as f64 / burst_seconds.max(1e-9),
        applied_p99.unwrap_or(f64::NAN),
        if once { "yes" } else { "no" },
        percentile(&customer_sorted, 50.0),
        percentile(&customer_sorted, 99.0),
        percentile(&subscription_sorted, 50.0),
        percentile(&subscription_sorted, 99.0)
    );
    shutdown.cancel();
    Ok(())
}
