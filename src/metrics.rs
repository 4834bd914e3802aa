//! Prometheus metrics (issue 15): counters and histograms recorded where things happen (HTTP
//! requests, GraphQL operations, jobs, emails, Stripe events), and gauges sampled from the
//! database when `GET /metrics` is scraped (pool, job queue, outbox). Served by `router` on its own
//! listen address (`INSIGHTS_METRICS_LISTEN`), never on the public router.
//!
//! Each `AppState` has its own registry (tests spawn several apps in one process); `serve` with its
//! workers shares one. Label values come from small fixed sets (matched routes, job and email
//! kinds, error codes); the one label a client chooses, the GraphQL operation name, is guarded by
//! `operation_label` and a cap on distinct names.

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    http::header,
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
};
use prometheus_client::{
    encoding::{EncodeLabelSet, prometheus_text},
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram, info::Info},
    registry::Registry,
};
use sqlx::PgPool;

use crate::{AppState, jobs::JobRequest};

/// Request and operation latencies: 1 ms to 10 s.
const LATENCY_BUCKETS: [f64; 13] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Job run times: 10 ms to 15 minutes (a digest run or a large delivery takes minutes).
const JOB_BUCKETS: [f64; 11] = [0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0];
/// Distinct GraphQL operation names kept as labels; later new names count as "other". The web app
/// has a few dozen; this bounds what a client making up names can add.
const MAX_OPERATION_NAMES: usize = 500;
/// How long a scrape waits for the database before leaving the sampled series out.
const SAMPLE_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteStatus {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabel {
    operation: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationCode {
    operation: String,
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindOutcome {
    kind: String,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindState {
    kind: String,
    state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TypeOutcome {
    r#type: String,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VersionLabel {
    version: String,
}

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

fn job_histogram() -> Histogram {
    Histogram::new(JOB_BUCKETS)
}

/// The application's metrics and their registry.
pub struct Metrics {
    registry: Registry,
    http_requests: Family<RouteStatus, Counter>,
    http_duration: Family<RouteLabel, Histogram>,
    graphql_duration: Family<OperationLabel, Histogram>,
    graphql_errors: Family<OperationCode, Counter>,
    operation_names: Mutex<HashSet<String>>,
    jobs: Family<KindOutcome, Counter>,
    job_duration: Family<KindLabel, Histogram>,
    job_queue: Family<KindState, Gauge>,
    emails: Family<KindOutcome, Counter>,
    emails_kept_unsent: Counter,
    stripe_received: Family<TypeOutcome, Counter>,
    stripe_applied: Family<TypeOutcome, Counter>,
    outbox: Family<StateLabel, Gauge>,
    db_connections: Family<StateLabel, Gauge>,
    db_max_connections: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("insights");
        let metrics = Metrics {
            registry: Registry::default(),
            http_requests: Family::default(),
            http_duration: Family::new_with_constructor(latency_histogram),
            graphql_duration: Family::new_with_constructor(latency_histogram),
            graphql_errors: Family::default(),
            operation_names: Mutex::default(),
            jobs: Family::default(),
            job_duration: Family::new_with_constructor(job_histogram),
            job_queue: Family::default(),
            emails: Family::default(),
            emails_kept_unsent: Counter::default(),
            stripe_received: Family::default(),
            stripe_applied: Family::default(),
            outbox: Family::default(),
            db_connections: Family::default(),
            db_max_connections: Gauge::default(),
        };
        let m = &metrics;
        registry.register(
            "build",
            "The running build's version",
            Info::new(VersionLabel { version: crate::config::build_version().to_owned() }),
        );
        registry.register("http_requests", "HTTP requests answered, by matched route and status", m.http_requests.clone());
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (to its headers), by matched route",
            m.http_duration.clone(),
        );
        registry.register(
            "graphql_operation_duration_seconds",
            "Time to answer a GraphQL operation, by operation name",
            m.graphql_duration.clone(),
        );
        registry.register("graphql_errors", "Errors in GraphQL responses, by operation name and error code", m.graphql_errors.clone());
        registry.register("jobs", "Background job runs, by kind and outcome (done, retried, failed)", m.jobs.clone());
        registry.register("job_duration_seconds", "Run time of a background job, by kind", m.job_duration.clone());
        registry.register("job_queue_depth", "Jobs not done, by kind and state (sampled on scrape)", m.job_queue.clone());
        registry.register("emails", "Email delivery attempts, by kind and outcome (sent, retrying, failed)", m.emails.clone());
        registry.register(
            "emails_kept_unsent",
            "Emails kept in the outbox because no SMTP server is configured",
            m.emails_kept_unsent.clone(),
        );
        registry.register(
            "stripe_events_received",
            "Stripe webhook events, by type and outcome (pending, ignored, duplicate)",
            m.stripe_received.clone(),
        );
        registry.register(
            "stripe_events_applied",
            "Stripe events applied by the job, by type and outcome (applied, ignored, refused, retrying)",
            m.stripe_applied.clone(),
        );
        registry.register("email_outbox_depth", "Emails waiting in the outbox, by state (sampled on scrape)", m.outbox.clone());
        registry.register(
            "db_pool_connections",
            "Database pool connections, by state (in_use, idle; sampled on scrape)",
            m.db_connections.clone(),
        );
        registry.register("db_pool_max_connections", "The database pool's maximum size", m.db_max_connections.clone());
        Metrics { registry, ..metrics }
    }

    /// One HTTP request: its matched route (never the raw path) and status.
    fn http_request(&self, route: String, status: u16, elapsed: Duration) {
        self.http_duration.get_or_create(&RouteLabel { route: route.clone() }).observe(elapsed.as_secs_f64());
        self.http_requests.get_or_create(&RouteStatus { route, status }).inc();
    }

    /// Starts timing a GraphQL operation; the duration is recorded when the returned guard drops.
    pub fn graphql(&self, request: &async_graphql::Request) -> GraphqlOperation<'_> {
        let operation = self.operation(operation_label(request.operation_name.as_deref(), &request.query));
        GraphqlOperation { metrics: self, operation, started: Instant::now() }
    }

    /// The label of a guarded name: "other" once `MAX_OPERATION_NAMES` names are in use.
    fn operation(&self, label: Option<String>) -> String {
        let Some(name) = label else { return "other".to_owned() };
        if name == "anonymous" {
            return name;
        }
        let mut names = self.operation_names.lock().expect("operation names");
        if names.contains(&name) || names.len() < MAX_OPERATION_NAMES && names.insert(name.clone()) { name } else { "other".to_owned() }
    }

    /// One job run: done, failed with a retry to come (`retried`), or failed for good.
    pub fn job(&self, kind: &'static str, succeeded: bool, will_retry: bool, elapsed: Duration) {
        let outcome = match (succeeded, will_retry) {
            (true, _) => "done",
            (false, true) => "retried",
            (false, false) => "failed",
        };
        self.job_duration.get_or_create(&KindLabel { kind }).observe(elapsed.as_secs_f64());
        self.jobs.get_or_create(&KindOutcome { kind: kind.to_owned(), outcome }).inc();
    }

    /// One email delivery attempt of `kind` (`sent`, `retrying` or `failed`).
    pub fn email(&self, kind: &str, outcome: &'static str) {
        self.emails.get_or_create(&KindOutcome { kind: kind.to_owned(), outcome }).inc();
    }

    /// Emails kept unsent because no SMTP server is configured.
    pub fn emails_kept_unsent(&self, count: u64) {
        self.emails_kept_unsent.inc_by(count);
    }

    /// A Stripe webhook event as recorded: its `record` outcome (`pending`, `ignored: …`, `duplicate`).
    pub fn stripe_event_received(&self, event_type: &str, outcome: &str) {
        self.stripe_received.get_or_create(&TypeOutcome { r#type: event_type.to_owned(), outcome: outcome_word(outcome) }).inc();
    }

    /// A Stripe event as applied by the job (`applied: …`, `ignored: …`, `refused: …`, `retrying: …`).
    pub fn stripe_event_applied(&self, event_type: &str, outcome: &str) {
        self.stripe_applied.get_or_create(&TypeOutcome { r#type: event_type.to_owned(), outcome: outcome_word(outcome) }).inc();
    }

    /// Samples the gauges that are read from the database. A query that fails or takes longer than
    /// `SAMPLE_TIMEOUT` leaves its series out of this scrape (and is logged); the scrape goes on.
    async fn sample(&self, pool: &PgPool) {
        let idle = pool.num_idle() as i64;
        self.db_connections.get_or_create(&StateLabel { state: "in_use".into() }).set(pool.size() as i64 - idle);
        self.db_connections.get_or_create(&StateLabel { state: "idle".into() }).set(idle);
        self.db_max_connections.set(pool.options().get_max_connections() as i64);

        // Done jobs and delivered emails are history, not depth: both queries read only the
        // states that are (partially) indexed, so they stay cheap on a large table. (The job
        // queue's statement stays here: it reads apalis's own table, which no area owns.)
        let queue = sqlx::query_as::<_, (String, String, i64)>(
            "select coalesce(convert_from(job, 'UTF8')::jsonb ->> 'kind', '?'), status, count(*)
               from apalis.jobs where status in ('Pending', 'Queued', 'Running', 'Failed', 'Killed')
              group by 1, 2",
        )
        .fetch_all(pool);
        self.job_queue.clear();
        match tokio::time::timeout(SAMPLE_TIMEOUT, queue).await {
            Ok(Ok(rows)) => {
                for (kind, state, count) in rows {
                    self.job_queue.get_or_create(&KindState { kind, state }).set(count);
                }
            }
            Ok(Err(error)) => tracing::warn!(%error, "metrics: the job queue could not be counted"),
            Err(_) => tracing::warn!("metrics: counting the job queue timed out"),
        }
        let outbox = crate::email::queries::waiting_counts(pool);
        self.outbox.clear();
        match tokio::time::timeout(SAMPLE_TIMEOUT, outbox).await {
            Ok(Ok(rows)) => {
                // Both states are always present, so "nothing waiting" reads as 0.
                for state in ["pending", "sending"] {
                    let count = rows.iter().find(|(s, _)| s == state).map_or(0, |(_, count)| *count);
                    self.outbox.get_or_create(&StateLabel { state: state.into() }).set(count);
                }
            }
            Ok(Err(error)) => tracing::warn!(%error, "metrics: the outbox could not be counted"),
            Err(_) => tracing::warn!("metrics: counting the outbox timed out"),
        }
    }

    /// The registry in the Prometheus text format.
    pub fn encode(&self) -> String {
        let mut body = String::new();
        prometheus_text::encode(&mut body, &self.registry).expect("writing to a String cannot fail");
        body
    }
}

/// The first word of a recorded Stripe outcome ("applied: renewed" → "applied"), from a fixed set.
fn outcome_word(outcome: &str) -> &'static str {
    match outcome.split(':').next().unwrap_or_default().trim() {
        "pending" => "pending",
        "duplicate" => "duplicate",
        "applied" => "applied",
        "ignored" => "ignored",
        "refused" => "refused",
        "retrying" => "retrying",
        _ => "other",
    }
}

/// Times a GraphQL operation until dropped; `errors` counts the response's errors by code.
pub struct GraphqlOperation<'a> {
    metrics: &'a Metrics,
    operation: String,
    started: Instant,
}

impl GraphqlOperation<'_> {
    pub fn errors(&self, errors: &[async_graphql::ServerError]) {
        for error in errors {
            let code = match error.extensions.as_ref().and_then(|e| e.get("code")) {
                Some(async_graphql::Value::String(code)) if is_label_name(code) => code.clone(),
                Some(_) => "other".to_owned(),
                None => "none".to_owned(),
            };
            self.metrics.graphql_errors.get_or_create(&OperationCode { operation: self.operation.clone(), code }).inc();
        }
    }
}

impl Drop for GraphqlOperation<'_> {
    fn drop(&mut self) {
        let label = OperationLabel { operation: std::mem::take(&mut self.operation) };
        self.metrics.graphql_duration.get_or_create(&label).observe(self.started.elapsed().as_secs_f64());
    }
}

/// The operation's label: its `operationName`, else the name in the document (`query Name …`);
/// "anonymous" when it has none; `None` (counted as "other") when the name is not a GraphQL name
/// of at most 64 characters.
pub fn operation_label(operation_name: Option<&str>, query: &str) -> Option<String> {
    let name = match operation_name.filter(|name| !name.is_empty()) {
        Some(name) => name,
        None => match document_operation_name(query) {
            Some(name) => name,
            None => return Some("anonymous".to_owned()),
        },
    };
    is_label_name(name).then(|| name.to_owned())
}

/// A GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`) of at most 64 characters.
fn is_label_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    let first_ok = bytes.next().is_some_and(|b| b == b'_' || b.is_ascii_alphabetic());
    first_ok && name.len() <= 64 && bytes.all(|b| b == b'_' || b.is_ascii_alphanumeric())
}

/// The name of the document's first operation, read from its text without parsing it: the word
/// after a leading `query`, `mutation` or `subscription` (comments and commas skipped).
fn document_operation_name(query: &str) -> Option<&str> {
    let mut rest = query;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == '\u{feff}');
        match rest.strip_prefix('#') {
            Some(comment) => rest = comment.split_once('\n').map_or("", |(_, after)| after),
            None => break,
        }
    }
    let keyword_end = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if !matches!(&rest[..keyword_end], "query" | "mutation" | "subscription") {
        return None;
    }
    let rest = rest[keyword_end..].trim_start();
    let end = rest.find(|c: char| !(c == '_' || c.is_ascii_alphanumeric())).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// A job's kind, as its payload's `kind` tag names it.
pub fn job_kind(job: &JobRequest) -> &'static str {
    match job {
        JobRequest::PurgeExpiredGrants => "purge_expired_grants",
        JobRequest::NotifyArticleSubscribers { .. } => "notify_article_subscribers",
        JobRequest::NotifyArticleInterest { .. } => "notify_article_interest",
        JobRequest::DeliverEmails => "deliver_emails",
        JobRequest::ComposeDigests => "compose_digests",
        JobRequest::ExpireSubscriptions => "expire_subscriptions",
        JobRequest::ApplyStripeEvents => "apply_stripe_events",
        JobRequest::DeliverInterestToTeams { .. } => "deliver_interest_to_teams",
        JobRequest::EmailFirmUsage => "email_firm_usage",
    }
}

/// Counts every request of the router it wraps, by matched route ("unmatched" for the fallback)
/// and status.
pub async fn track_http(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let started = Instant::now();
    let response = next.run(request).await;
    metrics.http_request(route, response.status().as_u16(), started.elapsed());
    response
}

/// The metrics listener's router: `GET /metrics` only.
pub fn router(state: AppState) -> Router {
    Router::new().route("/metrics", get(scrape)).with_state(state)
}

async fn scrape(State(state): State<AppState>) -> Response {
    state.metrics.sample(&state.pool).await;
    ([(header::CONTENT_TYPE, prometheus_text::CONTENT_TYPE)], state.metrics.encode()).into_response()
}

/// Serves `router` on `listen` in the background until `shutdown`; an address that cannot be bound
/// fails at start, like the main listener.
pub async fn serve(state: AppState, listen: std::net::SocketAddr, shutdown: tokio_util::sync::CancellationToken) -> anyhow::Result<()> {
    use anyhow::Context;
    let listener = tokio::net::TcpListener::bind(listen).await.with_context(|| format!("listen for metrics on {listen}"))?;
    tracing::info!(%listen, "serving metrics at /metrics");
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router(state)).with_graceful_shutdown(shutdown.cancelled_owned()).await {
            tracing::error!(%error, "the metrics listener stopped");
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_are_guarded() {
        assert_eq!(operation_label(Some("Me"), "query Me { me { id } }").as_deref(), Some("Me"));
        assert_eq!(operation_label(None, "  # a comment\n query Articles($id: ID) { a }").as_deref(), Some("Articles"));
        assert_eq!(operation_label(None, "mutation SaveArticle{ save }").as_deref(), Some("SaveArticle"));
        assert_eq!(operation_label(None, "{ me { id } }").as_deref(), Some("anonymous"));
        assert_eq!(operation_label(None, "query { me { id } }").as_deref(), Some("anonymous"));
        assert_eq!(operation_label(Some(""), "query ($a: Int) { a }").as_deref(), Some("anonymous"));
        assert_eq!(operation_label(Some(&"A".repeat(64)), "").as_deref(), Some("A".repeat(64).as_str()));
        assert_eq!(operation_label(Some(&"A".repeat(65)), ""), None);
        assert_eq!(operation_label(Some("Me\"} 1\nfake_metric"), ""), None);
        assert_eq!(operation_label(Some("1abc"), ""), None);
        assert_eq!(operation_label(Some("naïve"), ""), None);
    }

    #[test]
    fn distinct_operation_names_are_capped() {
        let metrics = Metrics::new();
        for n in 0..MAX_OPERATION_NAMES {
            assert_eq!(metrics.operation(Some(format!("Op{n}"))), format!("Op{n}"));
        }
        assert_eq!(metrics.operation(Some("OneTooMany".into())), "other");
        assert_eq!(metrics.operation(Some("Op7".into())), "Op7");
        assert_eq!(metrics.operation(Some("anonymous".into())), "anonymous");
        assert_eq!(metrics.operation(None), "other");
    }

    #[test]
    fn stripe_outcomes_are_a_fixed_set() {
        assert_eq!(outcome_word("applied: subscription renewed"), "applied");
        assert_eq!(outcome_word("ignored: charge.succeeded not handled"), "ignored");
        assert_eq!(outcome_word("duplicate"), "duplicate");
        assert_eq!(outcome_word("something new"), "other");
    }
}
