//! A load generator: concurrent clients sending a mix of GraphQL operations in turn until told to
//! stop, each request recorded with its start, latency and outcome.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// One kind of request of the mix.
#[derive(Clone)]
pub struct Op {
    pub name: &'static str,
    pub token: String,
    pub query: &'static str,
    /// The variables of a client's n-th request (writes make unique values from them).
    pub variables: fn(usize, u64) -> Value,
}

impl Op {
    pub fn new(name: &'static str, token: &str, query: &'static str) -> Op {
        Op { name, token: token.to_owned(), query, variables: |_, _| json!({}) }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// 2xx without GraphQL errors.
    Ok,
    /// 503 with `Retry-After`: a temporary refusal a client may retry.
    Unavailable,
    /// Anything else: another status, a 503 without `Retry-After`, GraphQL errors, a transport error.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Sample {
    pub op: &'static str,
    pub started: Instant,
    pub latency: Duration,
    pub outcome: Outcome,
}

/// Clients sending requests until `stop`.
pub struct Load {
    stop: CancellationToken,
    clients: Vec<JoinHandle<()>>,
    samples: Arc<Mutex<Vec<Sample>>>,
    started: Instant,
}

impl Load {
    /// Starts `clients` clients against `base`, each going through `ops` in turn (from a
    /// different one each, so the mix is even from the start).
    pub fn start(base: &str, clients: usize, ops: Vec<Op>) -> Load {
        let stop = CancellationToken::new();
        let samples = Arc::new(Mutex::new(Vec::new()));
        let ops = Arc::new(ops);
        let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(20)).build().unwrap();
        let url = format!("{base}/graphql");
        let clients = (0..clients)
            .map(|client| {
                let (stop, samples, ops, http, url) = (stop.clone(), samples.clone(), ops.clone(), http.clone(), url.clone());
                tokio::spawn(async move {
                    let mut n = 0u64;
                    while !stop.is_cancelled() {
                        let op = &ops[(client + n as usize) % ops.len()];
                        let started = Instant::now();
                        let outcome = send(&http, &url, op, client, n).await;
                        let sample = Sample { op: op.name, started, latency: started.elapsed(), outcome };
                        samples.lock().unwrap().push(sample);
                        n += 1;
                    }
                })
            })
            .collect();
        Load { stop, clients, samples, started: Instant::now() }
    }

    /// Stops the clients (each finishes its request) and returns what they recorded.
    pub async fn stop(self) -> Report {
        self.stop.cancel();
        for client in self.clients {
            client.await.expect("a load client panicked");
        }
        let samples = std::mem::take(&mut *self.samples.lock().unwrap());
        Report { samples, started: self.started, elapsed: self.started.elapsed() }
    }
}

async fn send(http: &reqwest::Client, url: &str, op: &Op, client: usize, n: u64) -> Outcome {
    let body = json!({ "query": op.query, "variables": (op.variables)(client, n) });
    let response = match http.post(url).bearer_auth(&op.token).json(&body).send().await {
        Ok(response) => response,
        Err(error) => return Outcome::Failed(format!("transport: {error:?}")),
    };
    let status = response.status();
    let retry_after = response.headers().contains_key("retry-after");
    let text = match response.text().await {
        Ok(text) => text,
        Err(error) => return Outcome::Failed(format!("{status}, body broke off: {error:?}")),
    };
    if status == 503 && retry_after {
        return Outcome::Unavailable;
    }
    let errors = serde_json::from_str::<Value>(&text).map(|body| body["errors"].clone()).unwrap_or(Value::Null);
    if status.is_success() && errors.is_null() {
        Outcome::Ok
    } else {
        let head: String = text.chars().take(300).collect();
        Outcome::Failed(format!("{status} (retry-after: {retry_after}): {head}"))
    }
}

/// What the clients saw.
pub struct Report {
    pub samples: Vec<Sample>,
    pub started: Instant,
    pub elapsed: Duration,
}

impl Report {
    pub fn ok(&self) -> usize {
        self.samples.iter().filter(|s| s.outcome == Outcome::Ok).count()
    }

    pub fn unavailable(&self) -> usize {
        self.samples.iter().filter(|s| s.outcome == Outcome::Unavailable).count()
    }

    pub fn failures(&self) -> Vec<&Sample> {
        self.samples.iter().filter(|s| matches!(s.outcome, Outcome::Failed(_))).collect()
    }

    /// The requests started at or after `instant`.
    pub fn since(&self, instant: Instant) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(move |s| s.started >= instant)
    }

    /// Totals, per operation, latency percentiles and the first failures, for the test's output.
    pub fn summary(&self) -> String {
        let total = self.samples.len();
        let seconds = self.elapsed.as_secs_f64();
        let mut out = format!(
            "{total} requests in {seconds:.1} s ({:.0}/s): {} ok, {} 503 with Retry-After, {} failed\n",
            total as f64 / seconds,
            self.ok(),
            self.unavailable(),
            self.failures().len()
        );
        let mut by_op: BTreeMap<&str, Vec<&Sample>> = BTreeMap::new();
        for sample in &self.samples {
            by_op.entry(sample.op).or_default().push(sample);
        }
        for (op, samples) in by_op {
            let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
            latencies.sort();
            let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)].as_millis();
            let ok = samples.iter().filter(|s| s.outcome == Outcome::Ok).count();
            let unavailable = samples.iter().filter(|s| s.outcome == Outcome::Unavailable).count();
            out += &format!(
                "  {op:<12} {:>6} requests: {ok} ok, {unavailable} 503, {} failed; p50 {} ms, p99 {} ms, max {} ms\n",
                samples.len(),
                samples.len() - ok - unavailable,
                at(0.5),
                at(0.99),
                latencies.last().unwrap().as_millis()
            );
        }
        for failure in self.failures().iter().take(10) {
            let at = failure.started.duration_since(self.started).as_secs_f64();
            out += &format!("  failed at {at:.2} s ({}): {:?}\n", failure.op, failure.outcome);
        }
        out
    }
}
