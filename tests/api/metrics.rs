//! Metrics and traces (issue 15): the series of `GET /metrics` after a few requests, a delivered
//! email and a job, the metrics router kept off the public one, and the spans exported over OTLP
//! to a collector of the test's own.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{body::Bytes, http::StatusCode};
use insights::{
    config::TelemetryConfig,
    email::{
        Kind,
        outbox::{self, Outgoing},
    },
    jobs::JobRequest,
};
use opentelemetry_proto::tonic::{
    collector::trace::v1::ExportTraceServiceRequest,
    common::v1::{AnyValue, KeyValue, any_value},
    trace::v1::Span,
};
use prost::Message;
use serde_json::json;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use crate::{
    email_support::{deliver, mailer, register_worker},
    support::{TestApp, TestRole, smtp_sink::SmtpSink},
};

/// What the app's metrics router answers to `GET /metrics`, as series → value.
async fn scrape(app: &TestApp) -> HashMap<String, f64> {
    let request = axum::http::Request::get("/metrics").body(axum::body::Body::empty()).unwrap();
    let response = insights::metrics::router(app.state.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let text = String::from_utf8(body.to_vec()).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("a sample line: {line}"));
            (series.to_owned(), value.parse().unwrap_or_else(|_| panic!("a number: {line}")))
        })
        .collect()
}

fn value(samples: &HashMap<String, f64>, series: &str) -> f64 {
    *samples.get(series).unwrap_or_else(|| {
        let mut names: Vec<_> = samples.keys().filter(|k| k.starts_with(series.split('{').next().unwrap())).collect();
        names.sort();
        panic!("no series {series}; found {names:#?}")
    })
}

#[sqlx::test(migrations = "./migrations")]
async fn metrics_count_requests_operations_jobs_and_emails(pool: PgPool) {
    let sink = SmtpSink::start(true).await.unwrap();
    let url = sink.url();
    // Schedules that never fire during the test, so only the enqueued job runs.
    let app = TestApp::spawn_with(pool, &["--smtp-url", &url, "--purge-grants-schedule", "0 0 0 1 1 * 2099"]).await;
    let token = app.token(TestRole::Subscriber).await;

    // Three named operations, one chosen by operationName, one anonymous, one failing validation.
    for _ in 0..3 {
        let response = app.gql(Some(&token), "query Me { me { isInternal } }", json!({})).await;
        assert_eq!(response["errors"], serde_json::Value::Null, "{response}");
    }
    let body = json!({ "query": "query A { me { isInternal } } query B { me { isInternal } }", "operationName": "B" });
    let response: serde_json::Value =
        app.client.post(app.url("/graphql")).bearer_auth(&token).json(&body).send().await.unwrap().json().await.unwrap();
    assert_eq!(response["errors"], serde_json::Value::Null, "{response}");
    let response = app.gql(Some(&token), "{ me { isInternal } }", json!({})).await;
    assert_eq!(response["errors"], serde_json::Value::Null, "{response}");
    let broken = app.gql(Some(&token), "query Broken { noSuchField }", json!({})).await;
    assert_eq!(crate::support::error_code(&broken), Some("GRAPHQL_VALIDATION_FAILED"));
    // A name that would forge a series counts as "other".
    let forged = json!({ "query": "{ me { isInternal } }", "operationName": "x\"} 1\nfake 2" });
    app.client.post(app.url("/graphql")).bearer_auth(&token).json(&forged).send().await.unwrap();
    // REST, a route with a parameter, and paths that match nothing.
    assert_eq!(app.client.post(app.url("/version")).send().await.unwrap().status(), StatusCode::OK);
    assert_eq!(app.client.get(app.url("/uploads/missing.png")).send().await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(app.client.get(app.url("/no/such/page/42")).send().await.unwrap().status(), StatusCode::NOT_FOUND);
    // Never served on the public address.
    assert_eq!(app.client.get(app.url("/metrics")).send().await.unwrap().status(), StatusCode::NOT_FOUND);

    // An email waiting in the outbox, with its delivery job.
    let email = Outgoing {
        delivery_key: "welcome:metrics@client.example:test".into(),
        kind: Kind::Welcome,
        user_id: None,
        recipient: "metrics@client.example".into(),
        channel_id: None,
        unsubscribe: None,
        content_id: None,
        data: json!({"channelName": "Metals Premium", "channelId": "c1", "recipientName": "Metrics Reader"}),
    };
    let mut tx = app.pool.begin().await.unwrap();
    outbox::write(&mut tx, app.state.jobs.as_ref(), &[email]).await.unwrap();
    app.state.jobs.enqueue(&mut tx, JobRequest::PurgeExpiredGrants).await.unwrap();
    tx.commit().await.unwrap();

    let before = scrape(&app).await;
    assert_eq!(value(&before, r#"insights_http_requests_total{route="/graphql",status="200"}"#), 7.0);
    assert_eq!(value(&before, r#"insights_http_requests_total{route="/version",status="200"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_http_requests_total{route="/uploads/{name}",status="404"}"#), 1.0);
    // The unmatched paths: /no/such/page/42 and /metrics (the web app's /insights is a route of its own).
    assert_eq!(value(&before, r#"insights_http_requests_total{route="unmatched",status="404"}"#), 2.0);
    assert!(!before.keys().any(|series| series.contains("/no/such")), "a raw path became a label");
    assert_eq!(value(&before, r#"insights_http_request_duration_seconds_count{route="/graphql"}"#), 7.0);
    assert_eq!(value(&before, r#"insights_http_request_duration_seconds_bucket{route="/graphql",le="+Inf"}"#), 7.0);
    assert!(before.contains_key(r#"insights_http_request_duration_seconds_bucket{route="/graphql",le="0.001"}"#));
    assert!(before.contains_key(r#"insights_http_request_duration_seconds_bucket{route="/graphql",le="10"}"#));
    assert_eq!(value(&before, r#"insights_graphql_operation_duration_seconds_count{operation="Me"}"#), 3.0);
    assert_eq!(value(&before, r#"insights_graphql_operation_duration_seconds_count{operation="B"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_graphql_operation_duration_seconds_count{operation="anonymous"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_graphql_operation_duration_seconds_count{operation="Broken"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_graphql_operation_duration_seconds_count{operation="other"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_graphql_errors_total{operation="Broken",code="GRAPHQL_VALIDATION_FAILED"}"#), 1.0);
    // The build, the pool and the sampled depths.
    let version = insights::config::build_version();
    assert_eq!(value(&before, &format!(r#"insights_build_info{{version="{version}"}}"#)), 1.0);
    assert!(value(&before, r#"insights_db_pool_connections{state="idle"}"#) >= 0.0);
    assert!(value(&before, r#"insights_db_pool_connections{state="in_use"}"#) >= 0.0);
    assert!(value(&before, "insights_db_pool_max_connections") >= 1.0);
    assert_eq!(value(&before, r#"insights_email_outbox_depth{state="pending"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_email_outbox_depth{state="sending"}"#), 0.0);
    assert_eq!(value(&before, r#"insights_job_queue_depth{kind="deliver_emails",state="Pending"}"#), 1.0);
    assert_eq!(value(&before, r#"insights_job_queue_depth{kind="purge_expired_grants",state="Pending"}"#), 1.0);

    // The email delivered by a worker's run, and the purge job run by the real workers.
    let worker = register_worker(&app).await;
    deliver(&app, &mailer(&app), worker, chrono::Utc::now()).await;
    let shutdown = CancellationToken::new();
    let workers = tokio::spawn(insights_jobs::run(app.state.clone(), shutdown.clone()));
    let deadline = Instant::now() + Duration::from_secs(30);
    // The handler counts the job before apalis marks its row done: wait for both.
    let pending = r#"insights_job_queue_depth{kind="purge_expired_grants",state="Pending"}"#;
    let after = loop {
        let samples = scrape(&app).await;
        let counted = samples.get(r#"insights_jobs_total{kind="purge_expired_grants",outcome="done"}"#) == Some(&1.0);
        if counted && !samples.contains_key(pending) {
            break samples;
        }
        assert!(Instant::now() < deadline, "the purge job was not counted, or its row is still depth: {samples:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    shutdown.cancel();
    workers.await.unwrap().unwrap();
    assert_eq!(value(&after, r#"insights_job_duration_seconds_count{kind="purge_expired_grants"}"#), 1.0);
    assert_eq!(value(&after, r#"insights_emails_total{kind="welcome",outcome="sent"}"#), 1.0);
    assert_eq!(value(&after, r#"insights_email_outbox_depth{state="pending"}"#), 0.0);
    assert_eq!(sink.count(), 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_scrape_without_the_database_leaves_the_sampled_series_out(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let before = scrape(&app).await;
    assert!(before.contains_key(r#"insights_email_outbox_depth{state="pending"}"#));
    app.pool.close().await;
    let after = scrape(&app).await;
    assert!(
        !after.keys().any(|series| series.starts_with("insights_email_outbox_depth") || series.starts_with("insights_job_queue_depth"))
    );
    let version = insights::config::build_version();
    assert_eq!(value(&after, &format!(r#"insights_build_info{{version="{version}"}}"#)), 1.0);
}

/// A stand-in OpenTelemetry collector: accepts OTLP/HTTP protobuf trace exports on a free port, on
/// its own thread and runtime (the exporter's flush blocks the test's thread until it answers).
struct Collector {
    endpoint: String,
    received: Arc<Mutex<Vec<ExportTraceServiceRequest>>>,
}

impl Collector {
    fn start() -> Collector {
        let received = Arc::new(Mutex::new(Vec::new()));
        let kept = received.clone();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new().route(
                    "/v1/traces",
                    axum::routing::post(move |body: Bytes| async move {
                        kept.lock().unwrap().push(ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf export"));
                        ([("content-type", "application/x-protobuf")], Vec::<u8>::new())
                    }),
                );
                axum::serve(tokio::net::TcpListener::from_std(listener).unwrap(), app).await.unwrap();
            });
        });
        Collector { endpoint, received }
    }

    fn spans(&self) -> Vec<(Vec<KeyValue>, Span)> {
        let received = self.received.lock().unwrap();
        let mut spans = Vec::new();
        for export in received.iter() {
            for resource in &export.resource_spans {
                let attributes = resource.resource.as_ref().map(|r| r.attributes.clone()).unwrap_or_default();
                for scope in &resource.scope_spans {
                    spans.extend(scope.spans.iter().map(|span| (attributes.clone(), span.clone())));
                }
            }
        }
        spans
    }
}

fn attribute<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a str> {
    attributes.iter().find(|kv| kv.key == key).and_then(|kv| match kv.value.as_ref() {
        Some(AnyValue { value: Some(any_value::Value::StringValue(text)) }) => Some(text.as_str()),
        _ => None,
    })
}

#[sqlx::test(migrations = "./migrations")]
async fn requests_are_exported_as_traces_with_their_request_id_and_sql(pool: PgPool) {
    let collector = Collector::start();
    let config = TelemetryConfig { metrics_listen: None, otlp_endpoint: Some(collector.endpoint.clone()), otlp_sample_ratio: 1.0 };
    let (dispatch, traces) = insights::telemetry::dispatch_with_traces("pretty", "warn", &config).unwrap();
    // The test's runtime is single-threaded: the app's requests run on this thread, under this subscriber.
    let _default = tracing::dispatcher::set_default(&dispatch);
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Subscriber).await;

    let response = app
        .client
        .post(app.url("/graphql"))
        .bearer_auth(&token)
        .header("x-request-id", "otlp-test-request-1")
        .json(&json!({ "query": "query Me { me { isInternal } }" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let traces = tokio::task::spawn_blocking(move || {
        traces.flush();
        traces
    })
    .await
    .unwrap();

    let spans = collector.spans();
    let (resource, request) = spans
        .iter()
        .find(|(_, span)| span.name == "request" && attribute(&span.attributes, "request_id") == Some("otlp-test-request-1"))
        .unwrap_or_else(|| panic!("no request span among {:?}", spans.iter().map(|(_, s)| &s.name).collect::<Vec<_>>()));
    assert_eq!(attribute(resource, "service.name"), Some("insights"));
    assert_eq!(attribute(resource, "service.version"), Some(insights::config::build_version()));
    assert_eq!(attribute(&request.attributes, "path"), Some("/graphql"));
    assert!(request.parent_span_id.is_empty(), "a request is the root of its trace");
    // Its statements (the token's user, at least) are client spans of the same trace under it.
    let sql: Vec<&Span> = spans
        .iter()
        .map(|(_, span)| span)
        .filter(|span| span.trace_id == request.trace_id && attribute(&span.attributes, "db.system.name") == Some("postgresql"))
        .collect();
    assert!(!sql.is_empty(), "no SQL spans in the request's trace");
    for span in &sql {
        assert!(attribute(&span.attributes, "db.query.text").is_some_and(|text| !text.is_empty()));
        assert!(span.start_time_unix_nano <= span.end_time_unix_nano);
        assert!(request.start_time_unix_nano <= span.start_time_unix_nano && span.end_time_unix_nano <= request.end_time_unix_nano);
    }
    traces.shutdown();
}
