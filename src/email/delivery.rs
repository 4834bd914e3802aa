//! Delivers the outbox over SMTP (lettre): claims due emails, renders and sends them a few at a
//! time, and records each attempt. Temporary failures (connection refused, a 4xx answer, a
//! timeout) wait and try again; permanent ones (a 5xx answer, an address that cannot be one) are
//! marked failed at once, without holding up the other recipients.
//!
//! Exactly once: an email is claimed by one live worker at a time (`queries::claim`), its attempt
//! is recorded as soon as the server answers, and a worker stopping (SIGTERM) finishes what it sent
//! and gives back what it had not. A worker killed outright between the server's answer and the
//! record leaves its emails to be sent again once it is seen dead; they carry the same Message-ID
//! (from the delivery key), so mail systems can drop the copy.

use std::{str::FromStr, time::Duration};

use anyhow::Context;
use chrono::{DateTime, Utc};
use futures_util::{StreamExt, stream};
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{
        Mailbox, MultiPart,
        header::{Header, HeaderName, HeaderValue},
    },
    transport::smtp::PoolConfig,
};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::{
    Kind,
    outbox::{self, Outcome},
    queries::{self, Claimed},
    templates::{self, Frame},
    unsubscribe,
};
use crate::AppState;

/// How the outbox is delivered: the SMTP transport (none: emails are kept as sent nowhere) and
/// the sender's addresses.
pub struct Mailer {
    transport: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
    reply_to: Option<Mailbox>,
    concurrency: usize,
}

impl Mailer {
    /// Builds the mailer from the settings; a bad SMTP URL or address is named here, at start.
    pub fn from_config(config: &crate::config::EmailConfig) -> anyhow::Result<Mailer> {
        // A short signing key is refused when the workers start, not at the first email.
        config.unsubscribe_key()?;
        let from = Mailbox::from_str(&config.from).with_context(|| format!("INSIGHTS_EMAIL_FROM {:?} is not an address", config.from))?;
        let reply_to = match &config.reply_to {
            Some(reply_to) => {
                Some(Mailbox::from_str(reply_to).with_context(|| format!("INSIGHTS_EMAIL_REPLY_TO {reply_to:?} is not an address"))?)
            }
            None => None,
        };
        let concurrency = config.smtp_concurrency as usize;
        let transport = match &config.smtp_url {
            Some(url) => Some(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                    // The URL may hold a password: never print it.
                    .map_err(|_| anyhow::anyhow!("INSIGHTS_SMTP_URL is not a valid smtp:// or smtps:// URL"))?
                    .timeout(Some(Duration::from_secs(30)))
                    .pool_config(PoolConfig::new().max_size(concurrency as u32))
                    .build(),
            ),
            None => None,
        };
        Ok(Mailer { transport, from, reply_to, concurrency })
    }

    pub fn is_configured(&self) -> bool {
        self.transport.is_some()
    }

    /// Says at start when emails will not go: no SMTP server configured, or one that does not
    /// answer (named without its credentials). Emails wait in the outbox either way.
    pub async fn check_at_startup(&self, config: &crate::config::EmailConfig) {
        let Some(transport) = &self.transport else {
            tracing::warn!("INSIGHTS_SMTP_URL is not set: emails are kept in the outbox and not sent (see `insights-cli outbox`)");
            return;
        };
        let server = config.smtp_url.as_ref().map(|url| server_name(url.expose())).unwrap_or_default();
        match transport.test_connection().await {
            Ok(true) => tracing::info!(server, "SMTP server reachable"),
            Ok(false) | Err(_) => tracing::warn!(
                server,
                "the SMTP server does not answer: emails wait in the outbox and are retried (see `insights-cli outbox`)"
            ),
        }
    }
}

/// `host:port` of an SMTP URL, never its user or password.
pub fn server_name(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(url) => {
            format!("{}:{}", url.host_str().unwrap_or("?"), url.port().map(|p| p.to_string()).unwrap_or_else(|| "default port".into()))
        }
        Err(_) => "an unparsable INSIGHTS_SMTP_URL".to_owned(),
    }
}

/// What one delivery run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    pub sent: u64,
    pub retrying: u64,
    pub failed: u64,
    pub sent_nowhere: u64,
}

/// Delivers every email due at `now`, as worker `worker` (a registered worker process), until
/// none is left or `stop` is cancelled.
pub async fn deliver_due(
    state: &AppState,
    mailer: &Mailer,
    worker: Uuid,
    now: DateTime<Utc>,
    stop: &CancellationToken,
) -> anyhow::Result<Delivered> {
    let mut done = Delivered::default();
    let Some(transport) = &mailer.transport else {
        done.sent_nowhere = queries::keep_unsent(&state.pool, now).await?;
        state.metrics.emails_kept_unsent(done.sent_nowhere);
        if done.sent_nowhere > 0 {
            tracing::info!(count = done.sent_nowhere, "emails kept in the outbox: no SMTP server is configured (INSIGHTS_SMTP_URL)");
        }
        return Ok(done);
    };
    let key = unsubscribe::key(state).await?.to_vec();
    let max_attempts = state.config.email.max_attempts;
    let batch = (mailer.concurrency * 4) as i64;
    while !stop.is_cancelled() {
        let claimed = queries::claim(&state.pool, worker, now, batch).await?;
        if claimed.is_empty() {
            break;
        }
        let mut unsent = Vec::new();
        let mut attempts = stream::iter(claimed)
            .map(|email| {
                let key = &key;
                async move {
                    if stop.is_cancelled() {
                        return (email, None);
                    }
                    let outcome = send(state, mailer, transport, key, &email).await;
                    // Recorded here, as soon as the server answered, while other sends go on.
                    let recorded = outbox::record(&state.pool, &email, &outcome, max_attempts, Utc::now()).await;
                    (email, Some((outcome, recorded)))
                }
            })
            .buffer_unordered(mailer.concurrency);
        while let Some((email, outcome)) = attempts.next().await {
            let Some((outcome, recorded)) = outcome else {
                unsent.push(email.email_id);
                continue;
            };
            recorded?;
            match &outcome {
                Outcome::Sent => {
                    done.sent += 1;
                    state.metrics.email(&email.kind, "sent");
                }
                Outcome::Temporary(error) if (email.attempts as u32) < max_attempts => {
                    done.retrying += 1;
                    state.metrics.email(&email.kind, "retrying");
                    tracing::warn!(email = email.email_id, attempt = email.attempts, error, "email not sent; will retry");
                }
                Outcome::Temporary(error) | Outcome::Permanent(error) => {
                    done.failed += 1;
                    state.metrics.email(&email.kind, "failed");
                    tracing::error!(email = email.email_id, attempt = email.attempts, error, "email failed");
                }
            }
        }
        queries::release(&state.pool, &unsent).await?;
    }
    if done != Delivered::default() {
        tracing::info!(sent = done.sent, retrying = done.retrying, failed = done.failed, "outbox delivered");
    }
    Ok(done)
}

/// Renders and sends one email; the outcome says whether to try again.
async fn send(state: &AppState, mailer: &Mailer, transport: &AsyncSmtpTransport<Tokio1Executor>, key: &[u8], email: &Claimed) -> Outcome {
    let message = match compose_message(state, mailer, key, email) {
        Ok(message) => message,
        Err(error) => return Outcome::Permanent(format!("{error:#}")),
    };
    match transport.send(message).await {
        Ok(_) => Outcome::Sent,
        Err(error) if error.is_permanent() => Outcome::Permanent(error.to_string()),
        Err(error) => Outcome::Temporary(error.to_string()),
    }
}

/// The message of an email: both parts, the sender's addresses, a Message-ID from its delivery
/// key, and for notifications the one-click unsubscribe headers (RFC 8058).
pub fn compose_message(state: &AppState, mailer: &Mailer, key: &[u8], email: &Claimed) -> anyhow::Result<Message> {
    let public_url = state.config.public_url();
    let token = unsubscribe_token(key, email.unsubscribe.as_deref(), email.user_id.as_deref(), email.channel_id.as_deref());
    let rendered = render(state, &email.kind, &email.data, token.as_deref())?;
    let recipient_name = recipient_name(&email.data);

    let address = email.recipient.parse().with_context(|| format!("{:?} is not an email address", email.recipient))?;
    let to = Mailbox::new(recipient_name.map(str::to_owned), address);
    let domain = mailer.from.email.domain().to_owned();
    let mut builder = Message::builder()
        .from(mailer.from.clone())
        .to(to)
        .subject(rendered.subject)
        .message_id(Some(format!("<{}@{domain}>", hex(&Sha256::digest(email.delivery_key.as_bytes())[..16]))));
    if let Some(reply_to) = &mailer.reply_to {
        builder = builder.reply_to(reply_to.clone());
    }
    if let Some(token) = token.as_deref() {
        builder =
            builder.header(ListUnsubscribe(format!("<{}>", unsubscribe::one_click_url(public_url, token)))).header(ListUnsubscribePost);
    }
    Ok(builder.multipart(MultiPart::alternative_plain_html(rendered.text, rendered.html))?)
}

/// The signed token of an email's unsubscribe link: notifications carry one (for their channel,
/// or for all channel emails), service emails none.
pub fn unsubscribe_token(key: &[u8], unsubscribe: Option<&str>, user_id: Option<&str>, channel_id: Option<&str>) -> Option<String> {
    match (unsubscribe, user_id, channel_id) {
        (Some("channel"), Some(user), Some(channel)) => Some(unsubscribe::sign(key, user, &unsubscribe::Scope::Channel(channel.into()))),
        (Some(_), Some(user), _) => Some(unsubscribe::sign(key, user, &unsubscribe::Scope::All)),
        _ => None,
    }
}

/// What an email of `kind` with `data` says, as it is sent (with the unsubscribe page of `token`).
pub fn render(state: &AppState, kind: &str, data: &serde_json::Value, token: Option<&str>) -> anyhow::Result<templates::Rendered> {
    let public_url = state.config.public_url();
    let kind = Kind::parse(kind).with_context(|| format!("unknown kind of email {kind:?}"))?;
    let page = token.map(|token| unsubscribe::page_url(public_url, token));
    let frame =
        Frame { firm: &state.config.email.firm_name, public_url, recipient_name: recipient_name(data), unsubscribe_url: page.as_deref() };
    templates::render(kind, data, &frame).context("render the email")
}

/// The addressee's name an email's data holds, if any.
pub fn recipient_name(data: &serde_json::Value) -> Option<&str> {
    data.get("recipientName").and_then(|v| v.as_str()).filter(|name| !name.trim().is_empty())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `List-Unsubscribe: <https://…/unsubscribe?data=…>`
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(value: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(value.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}
