//! Interest in a promotional content delivered to its promotion page's Microsoft Teams channel: a
//! message card (the Office 365 connector `MessageCard` format that Teams incoming webhooks take)
//! with the reader's name, company and email, posted by a job.
//!
//! Exactly once: an attempt claims the interest's row (FOR UPDATE SKIP LOCKED) and holds it until
//! the attempt is recorded, so a duplicate job or a second worker skips it while it is posted and
//! finds it delivered afterwards. A failed attempt is tried again after 30 s, doubling to at most
//! an hour, up to `MAX_ATTEMPTS`; the outbox schedule takes up what is due, so a lost job is not a
//! lost delivery. The webhook URL is a secret: no error, log line or stored message holds it.

use std::{
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};

use super::{Delivery, queries};

/// Attempts before an interest is marked failed (30 s, 1, 2, 4, 8, 16, 32 min apart: about an hour).
pub const MAX_ATTEMPTS: i32 = 8;
/// How long the webhook has to answer.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Interests one run posts at most; the next run (15 s later) goes on.
const MAX_PER_RUN: usize = 100;

/// How long the webhook's host name has to resolve.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a webhook URL is refused when a page is saved (the form shows it) and when posting.
pub const WEBHOOK_ADDRESS_MESSAGE: &str = "The Microsoft Teams webhook must be an https:// URL of a public host: loopback, private, link-local and cloud metadata addresses are refused";
/// A webhook host that does not resolve.
pub const WEBHOOK_UNRESOLVED_MESSAGE: &str = "The Microsoft Teams webhook's host name could not be resolved";

/// What is wrong with a webhook URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebhookRefusal {
    /// Not https, or on an address that is not public: never posted to.
    NotAllowed,
    /// The host name did not resolve (now: DNS may answer later).
    Unresolved,
}

impl WebhookRefusal {
    pub fn message(self) -> &'static str {
        match self {
            WebhookRefusal::NotAllowed => WEBHOOK_ADDRESS_MESSAGE,
            WebhookRefusal::Unresolved => WEBHOOK_UNRESOLVED_MESSAGE,
        }
    }
}

/// Whether `ip` is on the public internet: not loopback, private, link-local (the cloud metadata
/// service, 169.254.169.254, among them), shared (100.64/10), unique-local, unspecified,
/// multicast, broadcast or documentation; IPv4 in IPv6 is judged as IPv4.
pub fn is_public_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            let shared = a == 100 && (64..128).contains(&b);
            let reserved = a == 0 || a >= 240 || (a == 192 && b == 0) || (a == 198 && (b == 18 || b == 19));
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || shared
                || reserved)
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_address(IpAddr::V4(v4)),
            None => !(v6.is_loopback() || v6.is_unspecified() || v6.is_multicast() || v6.is_unique_local() || v6.is_unicast_link_local()),
        },
    }
}

/// The addresses a webhook URL may be posted to: an https URL (without credentials) whose host
/// resolves to public addresses only. A host in `test_hosts` (`INSIGHTS_TEAMS_WEBHOOK_TEST_HOSTS`,
/// for tests and local sinks) may also be plain http on any address.
pub async fn checked_addresses(url: &str, test_hosts: &[String]) -> Result<(url::Url, Vec<SocketAddr>), WebhookRefusal> {
    let parsed = url::Url::parse(url).map_err(|_| WebhookRefusal::NotAllowed)?;
    let host = parsed.host_str().filter(|h| !h.is_empty()).ok_or(WebhookRefusal::NotAllowed)?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let test_host = test_hosts.iter().any(|allowed| allowed.trim().eq_ignore_ascii_case(bare));
    let scheme_allowed = parsed.scheme() == "https" || (test_host && parsed.scheme() == "http");
    if !scheme_allowed || !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(WebhookRefusal::NotAllowed);
    }
    let port = parsed.port_or_known_default().ok_or(WebhookRefusal::NotAllowed)?;
    let addresses: Vec<SocketAddr> = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(url::Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        _ => match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((bare, port))).await {
            Ok(Ok(found)) => found.collect(),
            _ => return Err(WebhookRefusal::Unresolved),
        },
    };
    if addresses.is_empty() {
        return Err(WebhookRefusal::Unresolved);
    }
    if !test_host && !addresses.iter().all(|address| is_public_address(address.ip())) {
        return Err(WebhookRefusal::NotAllowed);
    }
    Ok((parsed, addresses))
}

/// A client that connects only to `addresses` for the URL's host: what was checked is what is
/// reached, whatever DNS answers in between.
fn client_for(url: &url::Url, addresses: &[SocketAddr]) -> reqwest::Result<reqwest::Client> {
    let builder = reqwest::Client::builder()
        .timeout(TIMEOUT)
        // A redirect would be followed with the card; Teams answers where it is asked.
        .redirect(reqwest::redirect::Policy::none());
    let builder = match url.host() {
        Some(url::Host::Domain(domain)) => builder.resolve_to_addrs(domain, addresses),
        _ => builder,
    };
    builder.build()
}

/// An interest whose Teams delivery is due, with what its card says.
#[derive(Debug, Clone)]
pub struct Due {
    pub interest_id: i64,
    /// Attempts made before this one.
    pub attempts: i32,
    pub registered_at: DateTime<Utc>,
    pub reader_name: String,
    pub reader_email: String,
    pub reader_company: Option<String>,
    pub content_name: String,
    pub page_name: Option<String>,
    /// The page's Teams channel now (none: the content no longer leads to a page).
    pub teams_channel: Option<String>,
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Attempted {
    pub delivered: u64,
    pub retrying: u64,
    pub failed: u64,
}

/// What became of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Delivered,
    /// Worth another attempt (no answer, or an answer other than 2xx).
    Temporary(String),
    /// Never deliverable (the content no longer leads to a page with a webhook).
    Permanent(String),
}

/// Posts the Teams interests due at `now` (only `only`, when given), one at a time, each in its
/// own transaction holding its row; returns what became of them.
pub async fn deliver_due(pool: &PgPool, test_hosts: &[String], now: DateTime<Utc>, only: Option<i64>) -> anyhow::Result<Attempted> {
    let mut done = Attempted::default();
    for _ in 0..MAX_PER_RUN {
        let mut tx = pool.begin().await?;
        let Some(due) = queries::lock_due_teams_interest(&mut tx, now, only).await? else { break };
        let outcome = attempt(&due, test_hosts).await;
        let attempt = due.attempts + 1;
        let state = record(&mut tx, &due, &outcome, now).await?;
        tx.commit().await?;
        match (&outcome, state) {
            (Outcome::Delivered, _) => {
                done.delivered += 1;
                tracing::info!(interest = due.interest_id, attempt, "interest posted to Microsoft Teams");
            }
            (Outcome::Temporary(error), "retrying") => {
                done.retrying += 1;
                tracing::warn!(interest = due.interest_id, attempt, error, "interest not posted to Microsoft Teams; will retry");
            }
            (Outcome::Temporary(error) | Outcome::Permanent(error), _) => {
                done.failed += 1;
                tracing::error!(interest = due.interest_id, attempt, error, "interest could not be posted to Microsoft Teams");
            }
        }
        if only.is_some() {
            break;
        }
    }
    Ok(done)
}

/// Records an attempt: delivered; failed (permanent, or out of attempts); or retrying after the
/// outbox's backoff. Returns the state it left.
async fn record(conn: &mut PgConnection, due: &Due, outcome: &Outcome, now: DateTime<Utc>) -> sqlx::Result<&'static str> {
    let attempts = due.attempts + 1;
    let (state, error, next) = match outcome {
        Outcome::Delivered => ("delivered", None, now),
        Outcome::Permanent(error) => ("failed", Some(error.as_str()), now),
        Outcome::Temporary(error) if attempts >= MAX_ATTEMPTS => ("failed", Some(error.as_str()), now),
        Outcome::Temporary(error) => ("retrying", Some(error.as_str()), now + crate::email::outbox::backoff(attempts)),
    };
    queries::record_teams_attempt(conn, due.interest_id, state, attempts, error, next).await?;
    Ok(state)
}

/// One attempt: the card posted to the page's webhook, once its address is checked again (DNS
/// may have changed since the page was saved).
async fn attempt(due: &Due, test_hosts: &[String]) -> Outcome {
    let Some(url) = due.teams_channel.as_deref().filter(|channel| Delivery::of_teams_channel(channel) == Delivery::Teams) else {
        return Outcome::Permanent("The promotional content no longer leads to a promotion page with a Teams webhook".to_owned());
    };
    let client = match checked_addresses(url, test_hosts).await {
        Ok((parsed, addresses)) => client_for(&parsed, &addresses),
        Err(WebhookRefusal::NotAllowed) => return Outcome::Permanent(WEBHOOK_ADDRESS_MESSAGE.to_owned()),
        Err(WebhookRefusal::Unresolved) => return Outcome::Temporary(WEBHOOK_UNRESOLVED_MESSAGE.to_owned()),
    };
    let client = match client {
        Ok(client) => client,
        Err(error) => return Outcome::Temporary(without_secret(&describe(error), url)),
    };
    match client.post(url).json(&message_card(due)).send().await {
        Ok(response) if response.status().is_success() => Outcome::Delivered,
        Ok(response) => {
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            let excerpt: String = body.trim().chars().take(200).collect();
            let message = if excerpt.is_empty() {
                format!("The webhook answered HTTP {}", status.as_u16())
            } else {
                format!("The webhook answered HTTP {}: {excerpt}", status.as_u16())
            };
            Outcome::Temporary(without_secret(&message, url))
        }
        Err(error) => Outcome::Temporary(without_secret(&describe(error), url)),
    }
}

/// A request error in words, without its URL.
fn describe(error: reqwest::Error) -> String {
    let what = if error.is_timeout() {
        format!("The webhook did not answer within {} s", TIMEOUT.as_secs())
    } else if error.is_connect() {
        "Could not connect to the webhook".to_owned()
    } else {
        "The request to the webhook failed".to_owned()
    };
    // The causes (e.g. 'connection refused') name no URL; reqwest's own text would.
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.is_empty() { what } else { format!("{what}: {}", causes.join(": ")) }
}

/// `text` with the webhook URL (and its host and path) replaced, in case an answer echoes it.
fn without_secret(text: &str, url: &str) -> String {
    let mut text = text.replace(url, "[webhook]");
    if let Ok(parsed) = url::Url::parse(url) {
        if parsed.path().len() > 1 {
            text = text.replace(parsed.path(), "[webhook]");
        }
        if let Some(query) = parsed.query() {
            text = text.replace(query, "[webhook]");
        }
    }
    text
}

/// The message card: who registered interest in which promotional content, on which page. Plain
/// text (markdown off), so names cannot format or link.
pub fn message_card(due: &Due) -> Value {
    let company = due.reader_company.as_deref().filter(|c| !c.trim().is_empty());
    let page = due.page_name.as_deref().unwrap_or("-");
    json!({
        "@type": "MessageCard",
        "@context": "https://schema.org/extensions",
        "summary": format!("{} registered interest in {}", due.reader_name, due.content_name),
        "themeColor": "2D72D2",
        "title": format!("Registered interest: {}", due.content_name),
        "sections": [{
            "activityTitle": due.reader_name,
            "activitySubtitle": company.unwrap_or(""),
            "markdown": false,
            "facts": [
                { "name": "Name", "value": due.reader_name },
                { "name": "Company", "value": company.unwrap_or("-") },
                { "name": "Email", "value": due.reader_email },
                { "name": "Promotional content", "value": due.content_name },
                { "name": "Promotion page", "value": page },
                { "name": "Registered at", "value": due.registered_at.format("%-d %B %Y %H:%M UTC").to_string() },
            ],
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn due() -> Due {
        Due {
            interest_id: 1,
            attempts: 0,
            registered_at: "2026-03-02T09:05:00Z".parse().unwrap(),
            reader_name: "Ann *Lee*".into(),
            reader_email: "ann@lee.example".into(),
            reader_company: Some("Lee & Co".into()),
            content_name: "Energy week".into(),
            page_name: Some("Energy landing".into()),
            teams_channel: Some("https://acme.webhook.office.com/webhookb2/secret".into()),
        }
    }

    #[test]
    fn the_card_names_the_reader_the_content_and_the_page() {
        let card = message_card(&due());
        assert_eq!(card["@type"], "MessageCard");
        assert_eq!(card["@context"], "https://schema.org/extensions");
        assert_eq!(card["summary"], "Ann *Lee* registered interest in Energy week");
        let facts: Vec<(String, String)> = card["sections"][0]["facts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["name"].as_str().unwrap().to_owned(), f["value"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            facts[..5],
            [
                ("Name".to_owned(), "Ann *Lee*".to_owned()),
                ("Company".to_owned(), "Lee & Co".to_owned()),
                ("Email".to_owned(), "ann@lee.example".to_owned()),
                ("Promotional content".to_owned(), "Energy week".to_owned()),
                ("Promotion page".to_owned(), "Energy landing".to_owned()),
            ]
        );
        assert_eq!(facts[5].1, "2 March 2026 09:05 UTC");
        assert_eq!(card["sections"][0]["markdown"], false);
        assert!(!card.to_string().contains("webhook.office.com"), "the card never carries the URL");
    }

    #[test]
    fn only_public_addresses_are_webhook_addresses() {
        for public in ["52.96.0.1", "8.8.8.8", "2603:1000::1", "::ffff:52.96.0.1"] {
            assert!(is_public_address(public.parse().unwrap()), "{public}");
        }
        for internal in [
            "127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255",
            "224.0.0.1", "::1", "::", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
        ] {
            assert!(!is_public_address(internal.parse().unwrap()), "{internal}");
        }
    }

    #[tokio::test]
    async fn webhook_urls_must_be_https_to_public_addresses_unless_a_test_host() {
        for refused in [
            "http://52.96.0.1/hook",
            "https://127.0.0.1/hook",
            "https://10.1.2.3/hook",
            "https://169.254.169.254/latest/meta-data",
            "https://[::1]/hook",
            "https://localhost/hook",
            "https://user:pw@52.96.0.1/hook",
            "ftp://52.96.0.1/x",
        ] {
            assert_eq!(checked_addresses(refused, &[]).await.unwrap_err(), WebhookRefusal::NotAllowed, "{refused}");
        }
        let (_, addresses) = checked_addresses("https://52.96.0.1:8443/hook", &[]).await.unwrap();
        assert_eq!(addresses, vec!["52.96.0.1:8443".parse().unwrap()]);
        assert_eq!(checked_addresses("https://no-such-host.invalid/hook", &[]).await.unwrap_err(), WebhookRefusal::Unresolved);

        let test_hosts = vec!["127.0.0.1".to_owned()];
        let (_, addresses) = checked_addresses("http://127.0.0.1:4010/hook", &test_hosts).await.unwrap();
        assert_eq!(addresses, vec!["127.0.0.1:4010".parse().unwrap()]);
        assert!(checked_addresses("http://10.0.0.1/hook", &test_hosts).await.is_err(), "only the listed hosts");
    }

    #[test]
    fn errors_never_hold_the_webhook_url() {
        let url = "https://acme.webhook.office.com/webhookb2/secret?k=v";
        let text = format!("Bad payload for {url} and /webhookb2/secret and k=v");
        let clean = without_secret(&text, url);
        assert!(!clean.contains("secret") && !clean.contains("k=v"), "{clean}");
    }
}
