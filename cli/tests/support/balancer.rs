//! A small HTTP load balancer, as the firm's would behave: round robin over the backends whose
//! `/healthz` answered 200 at the last poll (every 100 ms); a request whose connection is refused
//! goes to the next backend (it never reached the first); a request that reached a backend is
//! never sent again, whatever happened to it. When no backend is healthy it sends to all of them
//! anyway (as cloud load balancers "fail open"), so the servers' own answers (503 while the
//! database is away) reach the clients.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    http::{HeaderName, StatusCode, header},
    response::{IntoResponse, Response},
};
use tokio::task::JoinHandle;

/// How often each backend's `/healthz` is polled.
pub const HEALTH_POLL: Duration = Duration::from_millis(100);

pub struct Balancer {
    pub url: String,
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

struct Shared {
    backends: Vec<Backend>,
    next: AtomicUsize,
    client: reqwest::Client,
    /// Requests sent to another backend after a refused connection.
    retried: AtomicU64,
    /// Requests no backend accepted (answered 502).
    refused_everywhere: AtomicU64,
}

struct Backend {
    url: String,
    healthy: AtomicBool,
    served: AtomicU64,
}

/// What the balancer did, for the test's report.
#[derive(Debug)]
pub struct Stats {
    /// Requests each backend answered, in backend order.
    pub served: Vec<u64>,
    pub retried: u64,
    pub refused_everywhere: u64,
}

impl Balancer {
    /// Serves on `listener` in front of `backends` (base URLs); returns once their health is known.
    pub async fn start(listener: std::net::TcpListener, backends: Vec<String>) -> Balancer {
        let url = format!("http://{}", listener.local_addr().unwrap());
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .pool_idle_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap();
        let backends =
            backends.into_iter().map(|url| Backend { url, healthy: AtomicBool::new(false), served: AtomicU64::new(0) }).collect();
        let shared = Arc::new(Shared {
            backends,
            next: AtomicUsize::new(0),
            client,
            retried: AtomicU64::new(0),
            refused_everywhere: AtomicU64::new(0),
        });
        let checker = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(1)).build().unwrap();
        poll_health(&shared, &checker).await;
        let polls = tokio::spawn({
            let shared = shared.clone();
            async move {
                loop {
                    tokio::time::sleep(HEALTH_POLL).await;
                    poll_health(&shared, &checker).await;
                }
            }
        });
        listener.set_nonblocking(true).unwrap();
        let listener = tokio::net::TcpListener::from_std(listener).expect("the load balancer's listener");
        let app = Router::new().fallback(proxy).with_state(shared.clone());
        let serving = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the load balancer serves");
        });
        Balancer { url, shared, tasks: vec![polls, serving] }
    }

    pub fn is_healthy(&self, backend: usize) -> bool {
        self.shared.backends[backend].healthy.load(Ordering::Relaxed)
    }

    /// Waits until the balancer takes backend `index` for `healthy` (or not); panics after `within`.
    pub async fn wait_until(&self, backend: usize, healthy: bool, within: Duration) {
        let deadline = Instant::now() + within;
        while self.is_healthy(backend) != healthy {
            let url = &self.shared.backends[backend].url;
            assert!(Instant::now() < deadline, "the balancer did not see {url} as healthy={healthy} within {within:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            served: self.shared.backends.iter().map(|b| b.served.load(Ordering::Relaxed)).collect(),
            retried: self.shared.retried.load(Ordering::Relaxed),
            refused_everywhere: self.shared.refused_everywhere.load(Ordering::Relaxed),
        }
    }
}

impl Stats {
    pub fn summary(&self) -> String {
        format!(
            "balancer: requests answered per backend {:?}; {} sent to another backend after a refused connection; {} refused by every backend",
            self.served, self.retried, self.refused_everywhere
        )
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

async fn poll_health(shared: &Arc<Shared>, checker: &reqwest::Client) {
    let mut checks = tokio::task::JoinSet::new();
    for index in 0..shared.backends.len() {
        let (shared, checker) = (shared.clone(), checker.clone());
        checks.spawn(async move {
            let backend = &shared.backends[index];
            let healthy = checker.get(format!("{}/healthz", backend.url)).send().await.is_ok_and(|r| r.status() == StatusCode::OK);
            backend.healthy.store(healthy, Ordering::Relaxed);
        });
    }
    checks.join_all().await;
}

/// The backends to try for the next request: the healthy ones from the next in turn, then the
/// others (tried only when the healthy ones refuse, or when none is healthy).
fn order(shared: &Shared) -> Vec<usize> {
    let n = shared.backends.len();
    let start = shared.next.fetch_add(1, Ordering::Relaxed);
    let turn: Vec<usize> = (0..n).map(|i| (start + i) % n).collect();
    let healthy = |i: &usize| shared.backends[*i].healthy.load(Ordering::Relaxed);
    turn.iter().copied().filter(healthy).chain(turn.iter().copied().filter(|i| !healthy(i))).collect()
}

/// Headers of one connection, not of the message (RFC 9110 §7.6.1).
fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(name.as_str(), "connection" | "keep-alive" | "proxy-connection" | "transfer-encoding" | "te" | "trailer" | "upgrade" | "host")
}

async fn proxy(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 64 << 20).await else {
        return (StatusCode::BAD_REQUEST, "unreadable request body").into_response();
    };
    let path = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    for index in order(&shared) {
        let backend = &shared.backends[index];
        let mut forwarded = shared.client.request(parts.method.clone(), format!("{}{path}", backend.url)).body(body.clone());
        for (name, value) in &parts.headers {
            if !hop_by_hop(name) {
                forwarded = forwarded.header(name, value);
            }
        }
        match forwarded.send().await {
            Ok(response) => {
                backend.served.fetch_add(1, Ordering::Relaxed);
                return relay(response).await;
            }
            // Never reached the backend: the next one may take it.
            Err(error) if error.is_connect() => {
                backend.healthy.store(false, Ordering::Relaxed);
                shared.retried.fetch_add(1, Ordering::Relaxed);
            }
            Err(error) => return (StatusCode::BAD_GATEWAY, format!("balancer: {} failed: {error:?}", backend.url)).into_response(),
        }
    }
    shared.refused_everywhere.fetch_add(1, Ordering::Relaxed);
    (StatusCode::BAD_GATEWAY, "balancer: every backend refused the connection").into_response()
}

async fn relay(response: reqwest::Response) -> Response {
    let status = response.status();
    let mut headers = response.headers().clone();
    let names: Vec<HeaderName> = headers.keys().filter(|name| hop_by_hop(name)).cloned().collect();
    for name in names {
        headers.remove(name);
    }
    headers.remove(header::CONTENT_LENGTH);
    match response.bytes().await {
        Ok(bytes) => {
            let mut relayed = Response::new(Body::from(bytes));
            *relayed.status_mut() = status;
            *relayed.headers_mut() = headers;
            relayed
        }
        Err(error) => (StatusCode::BAD_GATEWAY, format!("balancer: the response broke off: {error:?}")).into_response(),
    }
}
