//! Rate limits (issue 15): per-user and per-address request rates, one `governor` keyed limiter
//! per class, in memory (with several server processes, each allows the configured rate).
//!
//! Classes: GraphQL (per user and per address), sign-in and token (`POST /oidc/…`, per address),
//! uploads (per user), unsubscribe and client log batches (per address) and the chat (per user,
//! checked by its handler after the question's own checks). A request over a limit gets 429 with `Retry-After` and the
//! error contract's body: GraphQL-shaped on `/graphql`, `{code, message}` elsewhere.
//!
//! The user is the bearer token's subject, when the token is valid (validation is remembered by
//! `TokenValidator`, so this costs a hash); without one, only the address limits apply. The
//! address is the socket peer's, or the client named by `X-Forwarded-For` when the peer is one of
//! `INSIGHTS_TRUSTED_PROXIES`. IPv6 clients are counted by their /64, what one host usually has.

use std::{
    net::{IpAddr, Ipv6Addr, SocketAddr},
    sync::{Arc, Weak},
    time::Duration,
};

use axum::{
    Json,
    extract::{ConnectInfo, Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};
use ipnet::IpNet;

use crate::{
    config::{Config, RateLimit},
    state::AppState,
};

/// The error code of a refused request (`extensions.code` on GraphQL).
pub const RATE_LIMITED: &str = "RATE_LIMITED";
/// How often idle limiter entries are dropped, so memory follows the active users and addresses.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// A rate's `governor` quota: a burst of `count`, then one more each period/count; None when off.
fn quota(rate: RateLimit) -> Option<Quota> {
    let count = rate.count?;
    // A period shorter than a nanosecond per request cannot be expressed: that is no limit.
    Some(Quota::with_period(rate.period / count.get())?.allow_burst(count))
}

/// What a limiter counts by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A token's subject (or, for the chat, the user's id).
    User(String),
    /// A client address (IPv6: its /64).
    Address(IpAddr),
}

/// One class's limiter; `check` always passes when the class is off.
pub struct Limiter {
    class: &'static str,
    inner: Option<DefaultKeyedRateLimiter<Key>>,
}

impl Limiter {
    pub fn new(class: &'static str, rate: RateLimit) -> Limiter {
        Limiter { class, inner: quota(rate).map(RateLimiter::keyed) }
    }

    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// Counts a request of `key`; refused: the whole seconds until one is allowed (at least 1).
    pub fn check(&self, key: &Key) -> Result<(), u64> {
        let Some(limiter) = &self.inner else { return Ok(()) };
        limiter.check_key(key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
            // The subject or address, never the token.
            tracing::warn!(class = self.class, key = ?key, retry_after = seconds, "rate limited");
            seconds
        })
    }

    fn prune(&self) {
        if let Some(limiter) = &self.inner {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// Every class's limiter, shared by the requests of one server (`AppState::limits`).
pub struct Limits {
    pub graphql_user: Limiter,
    pub graphql_address: Limiter,
    pub sign_in: Limiter,
    pub uploads: Limiter,
    pub unsubscribe: Limiter,
    pub client_log: Limiter,
    pub chat: Limiter,
    pub feeds: Limiter,
    pub agent: Limiter,
    trusted_proxies: Vec<IpNet>,
}

impl Limits {
    pub fn new(config: &Config) -> Limits {
        let rates = &config.rate_limits;
        Limits {
            graphql_user: Limiter::new("graphql_user", rates.graphql_user),
            graphql_address: Limiter::new("graphql_address", rates.graphql_address),
            sign_in: Limiter::new("sign_in", rates.sign_in),
            uploads: Limiter::new("uploads", rates.uploads),
            unsubscribe: Limiter::new("unsubscribe", rates.unsubscribe),
            client_log: Limiter::new("client_log", rates.client_log),
            chat: Limiter::new("chat", config.chat.rate_limit),
            feeds: Limiter::new("feeds", rates.feeds),
            agent: Limiter::new("agent", rates.agent),
            trusted_proxies: rates.trusted_proxies.clone(),
        }
    }

    fn all(&self) -> [&Limiter; 7] {
        [&self.graphql_user, &self.graphql_address, &self.sign_in, &self.uploads, &self.unsubscribe, &self.client_log, &self.chat]
    }

    /// Drops idle entries every minute while the limits are in use (the task ends with them).
    pub fn start_pruning(limits: &Arc<Limits>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let limits: Weak<Limits> = Arc::downgrade(limits);
        runtime.spawn(async move {
            let mut ticks = tokio::time::interval(PRUNE_EVERY);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(limits) = limits.upgrade() else { return };
                limits.all().iter().for_each(|limiter| limiter.prune());
            }
        });
    }

    /// The client's address: the peer's, or when the peer is a trusted proxy, the nearest
    /// address of `X-Forwarded-For` that is not one (the leftmost when all are).
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let trusted = |ip: &IpAddr| self.trusted_proxies.iter().any(|net| net.contains(ip));
        let peer = peer.to_canonical();
        if !trusted(&peer) {
            return peer;
        }
        let mut client = peer;
        let forwarded = headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(','));
        let hops: Vec<&str> = forwarded.collect();
        for hop in hops.iter().rev() {
            let Ok(ip) = hop.trim().parse::<IpAddr>() else { break };
            client = ip.to_canonical();
            if !trusted(&client) {
                break;
            }
        }
        client
    }
}

/// The address key: IPv4 as is, IPv6 by its /64.
fn address_key(ip: IpAddr) -> Key {
    match ip {
        IpAddr::V4(_) => Key::Address(ip),
        IpAddr::V6(v6) => {
            let [a, b, c, d, ..] = v6.segments();
            Key::Address(IpAddr::V6(Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0)))
        }
    }
}

/// The route groups the middleware guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `/graphql`: per address, then per user.
    GraphQl,
    /// The built-in provider's POSTs (`/oidc/authorize`, `/oidc/token`): per address.
    SignIn,
    /// `/upload`, `/upload-file`: per user.
    Uploads,
    /// `/unsubscribe`: per address.
    Unsubscribe,
    /// `/log`: per address (the web app logs before sign-in too).
    ClientLog,
}

/// The middleware: `axum::middleware::from_fn_with_state((state, class), limits::enforce)`.
pub async fn enforce(State((state, class)): State<(AppState, Class)>, request: Request, next: Next) -> Response {
    let limits = &state.limits;
    let (address, user) = match class {
        Class::GraphQl => (Some(&limits.graphql_address), Some(&limits.graphql_user)),
        Class::SignIn if request.method() == Method::POST => (Some(&limits.sign_in), None),
        Class::SignIn => (None, None),
        Class::Uploads => (None, Some(&limits.uploads)),
        Class::Unsubscribe => (Some(&limits.unsubscribe), None),
        Class::ClientLog => (Some(&limits.client_log), None),
    };
    if let Some(limiter) = address.filter(|l| l.is_on()) {
        // Without the peer (an app served without connect info) there is no address to count.
        if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
            let key = address_key(limits.client_address(peer.ip(), request.headers()));
            if let Err(seconds) = limiter.check(&key) {
                return refusal(class, seconds);
            }
        }
    }
    if let Some(limiter) = user.filter(|l| l.is_on())
        && let Some(subject) = subject(&state, request.headers()).await
        && let Err(seconds) = limiter.check(&Key::User(subject))
    {
        return refusal(class, seconds);
    }
    next.run(request).await
}

/// The subject of a valid bearer token.
async fn subject(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = crate::auth::session::bearer_token(value)?;
    let claims = state.tokens.validate(token, &state.config.auth.audience).await.ok()?;
    claims.get("sub")?.as_str().map(str::to_owned)
}

fn refusal(class: Class, seconds: u64) -> Response {
    let message = format!("Too many requests, try again in {seconds} s");
    if class == Class::GraphQl {
        let body = serde_json::json!({
            "errors": [{ "message": message, "extensions": { "code": RATE_LIMITED, "retryAfter": seconds } }]
        });
        return with_retry_after(StatusCode::TOO_MANY_REQUESTS, seconds, Json(body));
    }
    too_many_requests(seconds, &message)
}

/// 429 with `Retry-After` and the REST error body (`{code, message, retryAfter}`).
pub fn too_many_requests(seconds: u64, message: &str) -> Response {
    let body = serde_json::json!({ "code": RATE_LIMITED, "message": message, "retryAfter": seconds });
    with_retry_after(StatusCode::TOO_MANY_REQUESTS, seconds, Json(body))
}

/// A response with `status` and a `Retry-After` of `seconds`.
pub fn with_retry_after(status: StatusCode, seconds: u64, body: impl IntoResponse) -> Response {
    (status, [(header::RETRY_AFTER, HeaderValue::from(seconds))], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limiter_allows_the_burst_then_says_when_to_come_back() {
        let limiter = Limiter::new("test", "2/minute".parse().unwrap());
        let key = Key::User("ad|ann".into());
        assert_eq!((limiter.check(&key), limiter.check(&key)), (Ok(()), Ok(())));
        let wait = limiter.check(&key).unwrap_err();
        assert!((29..=30).contains(&wait), "{wait}");
        assert_eq!(limiter.check(&Key::User("ad|bob".into())), Ok(()));
        let off = Limiter::new("test", RateLimit::OFF);
        assert!((0..100).all(|_| off.check(&key).is_ok()));
    }

    fn limits_trusting(proxies: &[&str]) -> Limits {
        let mut config = Config::from_flags(Vec::<String>::new()).unwrap();
        config.rate_limits.trusted_proxies = proxies.iter().map(|p| p.parse().unwrap()).collect();
        Limits::new(&config)
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let none = limits_trusting(&[]);
        assert_eq!(none.client_address(ip("10.0.0.5"), &forwarded("1.2.3.4")), ip("10.0.0.5"));

        let proxies = limits_trusting(&["10.0.0.0/8"]);
        // Trusted peer: the nearest untrusted hop, whatever the client put further left.
        assert_eq!(proxies.client_address(ip("10.0.0.5"), &forwarded("6.6.6.6, 1.2.3.4, 10.0.0.9")), ip("1.2.3.4"));
        assert_eq!(proxies.client_address(ip("10.0.0.5"), &HeaderMap::new()), ip("10.0.0.5"));
        assert_eq!(proxies.client_address(ip("10.0.0.5"), &forwarded("10.1.1.1")), ip("10.1.1.1"));
        // An untrusted peer's header is ignored; a mapped IPv4 peer is the IPv4 address.
        assert_eq!(proxies.client_address(ip("1.2.3.4"), &forwarded("5.6.7.8")), ip("1.2.3.4"));
        assert_eq!(proxies.client_address(ip("::ffff:10.0.0.5"), &forwarded("5.6.7.8")), ip("5.6.7.8"));
        // Garbage stops the walk at the last good hop.
        assert_eq!(proxies.client_address(ip("10.0.0.5"), &forwarded("1.2.3.4, junk, 10.0.0.7")), ip("10.0.0.7"));
    }

    #[test]
    fn ipv6_clients_count_by_their_64() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::2"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_ne!(key("192.0.2.1"), key("192.0.2.2"));
    }
}
