//! Runtime configuration: every setting is a clap flag backed by an environment variable,
//! with a default that works on a developer machine. `Config` is built once by the CLI and
//! shared read-only through `AppState`.

use std::{net::SocketAddr, num::NonZeroU32, path::PathBuf, str::FromStr, time::Duration};

use clap::Args;

/// The spec's constants (spec 1 §9, spec 3 §9) that the product lets operators change.
pub const TRIAL_MIN_DAYS: u32 = 1;
pub const TRIAL_MAX_DAYS: u32 = 100;

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// PostgreSQL connection string; the database is created when missing.
    #[arg(long, env = "DATABASE_URL", default_value = "postgres://postgres@127.0.0.1:5432/insights")]
    pub database_url: String,

    /// Maximum connections in the database pool.
    #[arg(long, env = "INSIGHTS_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,

    /// Longest wait for a database connection, in milliseconds; past it the request gets 503 with `Retry-After` (short, so requests fail fast while PostgreSQL restarts).
    #[arg(long, env = "INSIGHTS_DB_ACQUIRE_TIMEOUT_MS", default_value_t = 3000)]
    pub db_acquire_timeout_ms: u64,

    /// Longest a statement of the HTTP server's requests may run, in milliseconds (PostgreSQL's `statement_timeout`; 0: no limit); past it the request is told it took too long. Operators' commands, the workers and migrations have no limit.
    #[arg(long, env = "INSIGHTS_STATEMENT_TIMEOUT_MS", default_value_t = 5000)]
    pub statement_timeout_ms: u64,

    /// Address the HTTP server listens on.
    #[arg(long, env = "INSIGHTS_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Public base URL of this server (links in emails, the built-in identity provider's issuer).
    #[arg(long, env = "INSIGHTS_PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
    pub public_url: String,

    /// Directory of the built web app, served under /insights.
    #[arg(long, env = "INSIGHTS_WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,

    #[command(flatten)]
    pub auth: AuthConfig,

    /// Prefix of user ids (token subjects) issued by the company directory: those users are internal.
    #[arg(long, env = "INSIGHTS_INTERNAL_ID_PREFIX", default_value = "ad|")]
    pub internal_id_prefix: String,

    /// Hosts or addresses a promotion page's Teams webhook may use over plain http and on loopback or private addresses (comma-separated, e.g. `127.0.0.1`): for tests and local sinks only, unset in production, where webhooks must be https on public addresses.
    #[arg(long, env = "INSIGHTS_TEAMS_WEBHOOK_TEST_HOSTS", value_delimiter = ',')]
    pub teams_webhook_test_hosts: Vec<String>,

    /// Email domains of the company (comma-separated): only their users may show a contributor photo.
    #[arg(long, env = "INSIGHTS_INTERNAL_EMAIL_DOMAINS", default_value = "insights.example", value_delimiter = ',')]
    pub internal_email_domains: Vec<String>,

    /// Where users with an incomplete profile are sent (no redirect when unset).
    #[arg(long, env = "INSIGHTS_PROFILE_LANDING_URL")]
    pub profile_landing_url: Option<String>,

    /// Where a user is sent when no token with a user id can be obtained.
    #[arg(long, env = "INSIGHTS_LANDING_URL", default_value = "https://www.example.com/insights")]
    pub landing_url: String,

    /// Support mailbox shown in the account menu and the trial-ended screen.
    #[arg(long, env = "INSIGHTS_SUPPORT_EMAIL", default_value = "insights-support@example.com")]
    pub support_email: String,

    #[command(flatten)]
    pub features: FeatureFlags,

    #[command(flatten)]
    pub constants: Constants,

    #[command(flatten)]
    pub limits: ApiLimits,

    #[command(flatten)]
    pub rate_limits: RateLimits,

    #[command(flatten)]
    pub shutdown: ShutdownConfig,

    #[command(flatten)]
    pub jobs: JobSchedules,

    #[command(flatten)]
    pub uploads: Uploads,

    #[command(flatten)]
    pub email: EmailConfig,

    #[command(flatten)]
    pub stripe: StripeConfig,

    #[command(flatten)]
    pub chat: crate::chat::ChatConfig,

    #[command(flatten)]
    pub tableau: TableauConfig,

    /// Seconds an MCP session (`/mcp`) is kept without a request; then it is closed and its memory (about 170 KB) freed, and its client starts a new one.
    #[arg(long, env = "INSIGHTS_MCP_SESSION_IDLE_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub mcp_session_idle_secs: u64,

    /// Log format: `json` (structured, for production) or `pretty` (for a terminal).
    #[arg(long, env = "INSIGHTS_LOG_FORMAT", default_value = "json", value_parser = ["json", "pretty"])]
    pub log_format: String,

    /// Log filter in `tracing` env-filter syntax.
    #[arg(long, env = "INSIGHTS_LOG", default_value = "info,sqlx=warn,apalis=warn")]
    pub log_filter: String,

    #[command(flatten)]
    pub telemetry: TelemetryConfig,
}

/// Metrics and traces for operators (issue 15).
#[derive(Debug, Clone, Args)]
pub struct TelemetryConfig {
    /// Address of the Prometheus metrics listener (`GET /metrics`), e.g. 127.0.0.1:9090; kept off the public address (unset: no metrics listener).
    #[arg(long, env = "INSIGHTS_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// OpenTelemetry collector to export traces to over OTLP/HTTP (protobuf), e.g. http://127.0.0.1:4318 (`/v1/traces` is added); unset: no traces are exported.
    #[arg(long, env = "INSIGHTS_OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,

    /// Fraction of requests and jobs whose traces are exported (0 to 1), with `INSIGHTS_OTLP_ENDPOINT`.
    #[arg(long, env = "INSIGHTS_OTLP_SAMPLE_RATIO", default_value_t = 1.0)]
    pub otlp_sample_ratio: f64,
}

#[derive(Debug, Clone, Args)]
pub struct AuthConfig {
    /// External OIDC issuer. Unset: this server is its own development identity provider.
    #[arg(long = "auth-issuer", env = "INSIGHTS_AUTH_ISSUER")]
    pub issuer: Option<String>,

    /// Audience required in access tokens.
    #[arg(long = "auth-audience", env = "INSIGHTS_AUTH_AUDIENCE", default_value = "insights-api")]
    pub audience: String,

    /// OIDC client id of the web app.
    #[arg(long = "auth-client-id", env = "INSIGHTS_AUTH_CLIENT_ID", default_value = "insights-web")]
    pub client_id: String,

    /// Scopes the web app requests at sign-in.
    #[arg(long = "auth-scope", env = "INSIGHTS_AUTH_SCOPE", default_value = "openid profile email offline_access")]
    pub scope: String,

    /// Claim holding the user's email.
    #[arg(long = "auth-email-claim", env = "INSIGHTS_AUTH_EMAIL_CLAIM", default_value = "email")]
    pub email_claim: String,

    /// Claim holding the user's display name.
    #[arg(long = "auth-name-claim", env = "INSIGHTS_AUTH_NAME_CLAIM", default_value = "name")]
    pub name_claim: String,

    /// Seconds of clock skew tolerated on `exp` and `nbf`.
    #[arg(long = "auth-leeway-secs", env = "INSIGHTS_AUTH_LEEWAY_SECS", default_value_t = 30)]
    pub leeway_secs: u64,

    /// Minimum seconds between JWKS refreshes triggered by an unknown `kid`.
    #[arg(long = "auth-jwks-refresh-secs", env = "INSIGHTS_AUTH_JWKS_REFRESH_SECS", default_value_t = 10)]
    pub jwks_refresh_secs: u64,

    /// Seconds a signed-in user's record is kept in memory between requests (dropped at once on
    /// any server when it changes, through PostgreSQL notifications); 0 reads it every request.
    #[arg(long = "auth-user-cache-secs", env = "INSIGHTS_AUTH_USER_CACHE_SECS", default_value_t = 60)]
    pub user_cache_secs: u64,

    /// Built-in provider: lifetime of access and id tokens, in seconds.
    #[arg(long = "auth-access-token-ttl-secs", env = "INSIGHTS_AUTH_ACCESS_TOKEN_TTL_SECS", default_value_t = 3600)]
    pub access_token_ttl_secs: u64,

    /// Built-in provider: lifetime of refresh tokens, in seconds.
    #[arg(long = "auth-refresh-token-ttl-secs", env = "INSIGHTS_AUTH_REFRESH_TOKEN_TTL_SECS", default_value_t = 30 * 24 * 3600)]
    pub refresh_token_ttl_secs: u64,

    /// Built-in provider on a listen address other than loopback: its sign-in page lets anyone who reaches the server sign in as any user, an Administrator too, so `serve` refuses to start there unless this is true.
    #[arg(long = "dev-sign-in", env = "INSIGHTS_DEV_SIGN_IN", default_value_t = false, action = clap::ArgAction::Set)]
    pub dev_sign_in: bool,
}

#[derive(Debug, Clone, Args)]
pub struct FeatureFlags {
    /// Premium channels (also switches the wording from 'category' to 'topic').
    #[arg(long = "feature-premium-channels", env = "INSIGHTS_FEATURE_PREMIUM_CHANNELS", default_value_t = true, action = clap::ArgAction::Set)]
    pub premium_channels: bool,

    /// Premium article options: authors choose an article's access in a premium or free-closed channel ('Open to all', and a premium period that ends: 3d, 1w, 1m). Off: the editor hides them and the server ignores them: an article keeps its access while it stays in its channel and is for the channel's subscribers when saved into a new one (the paywall is never lifted).
    #[arg(long = "feature-premium-features", env = "INSIGHTS_FEATURE_PREMIUM_FEATURES", default_value_t = true, action = clap::ArgAction::Set)]
    pub premium_features: bool,

    /// Card payments; only effective when Stripe is configured.
    #[arg(long = "feature-card-payments", env = "INSIGHTS_FEATURE_CARD_PAYMENTS", default_value_t = true, action = clap::ArgAction::Set)]
    pub card_payments: bool,

    /// Intelligence features (the AI chat widget) for users with the `intelligence` scope.
    #[arg(long = "feature-intelligence", env = "INSIGHTS_FEATURE_INTELLIGENCE", default_value_t = false, action = clap::ArgAction::Set)]
    pub intelligence: bool,
}

#[derive(Debug, Clone, Args)]
pub struct Constants {
    /// Length of a reader trial, in days, counted from the first login.
    #[arg(long, env = "INSIGHTS_TRIAL_DAYS", default_value_t = 14,
          value_parser = clap::value_parser!(u32).range(TRIAL_MIN_DAYS as i64..=TRIAL_MAX_DAYS as i64))]
    pub trial_days: u32,

    /// Default length of a trial channel subscription, in days.
    #[arg(long, env = "INSIGHTS_TRIAL_CHANNEL_DAYS", default_value_t = 14,
          value_parser = clap::value_parser!(u32).range(TRIAL_MIN_DAYS as i64..=TRIAL_MAX_DAYS as i64))]
    pub trial_channel_days: u32,

    /// The expiry banner is shown when fewer than this many days remain.
    #[arg(long, env = "INSIGHTS_EXPIRY_BANNER_DAYS", default_value_t = 7)]
    pub expiry_banner_days: u32,

    /// Interval of the editor's local autosave, in milliseconds.
    #[arg(long, env = "INSIGHTS_AUTOSAVE_INTERVAL_MS", default_value_t = 3000)]
    pub autosave_interval_ms: u32,

    /// Idle time after which the web app starts polling for a new version, in milliseconds.
    #[arg(long, env = "INSIGHTS_IDLE_TIMEOUT_MS", default_value_t = 1_200_000)]
    pub idle_timeout_ms: u32,

    /// Version poll interval once idle, in milliseconds.
    #[arg(long, env = "INSIGHTS_VERSION_POLL_MS", default_value_t = 300_000)]
    pub version_poll_ms: u32,
}

#[derive(Debug, Clone, Args)]
pub struct Uploads {
    /// Directory where uploaded files are stored, under generated names (unless `INSIGHTS_UPLOAD_URL` is set).
    #[arg(long = "upload-dir", env = "INSIGHTS_UPLOAD_DIR", default_value = "./data/uploads")]
    pub dir: PathBuf,

    /// Object storage for uploads instead of the directory, so that several servers share them:
    /// `s3://bucket/prefix`, `gs://bucket/prefix` or `az://container/prefix`. Credentials and region
    /// come from the standard environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION,
    /// AWS_ENDPOINT_URL for S3-compatible servers, AWS_ALLOW_HTTP; GOOGLE_*, AZURE_*); the store's
    /// options may also follow as a query (`?endpoint=http://minio:9000&allow_http=true`), which is
    /// never shown. `insights-cli uploads migrate` copies the directory's files there.
    #[arg(long = "upload-url", env = "INSIGHTS_UPLOAD_URL", hide_env_values = true)]
    pub url: Option<crate::uploads::store::StoreUrl>,

    /// Largest image accepted by `POST /upload`, in bytes.
    #[arg(long = "upload-max-image-bytes", env = "INSIGHTS_UPLOAD_MAX_IMAGE_BYTES", default_value_t = 5 * 1024 * 1024)]
    pub max_image_bytes: usize,

    /// Largest PDF accepted by `POST /upload-file`, in bytes (spec 2 §2: 20 MB).
    #[arg(long = "upload-max-file-bytes", env = "INSIGHTS_UPLOAD_MAX_FILE_BYTES", default_value_t = 20_971_520)]
    pub max_file_bytes: usize,

    /// Most pages of a PDF rendered to images; longer files are refused.
    #[arg(long = "upload-max-pdf-pages", env = "INSIGHTS_UPLOAD_MAX_PDF_PAGES", default_value_t = 100)]
    pub max_pdf_pages: u32,

    /// The poppler `pdftoppm` program that renders PDF pages (a name looked up in PATH, or a path).
    #[arg(long = "pdftoppm", env = "INSIGHTS_PDFTOPPM", default_value = "pdftoppm")]
    pub pdftoppm: PathBuf,

    /// The poppler `pdfinfo` program that reads a PDF's page count and sizes before it is rendered.
    #[arg(long = "pdfinfo", env = "INSIGHTS_PDFINFO", default_value = "pdfinfo")]
    pub pdfinfo: PathBuf,

    /// The poppler `pdftotext` program that reads each PDF page's text (for screen readers and search).
    #[arg(long = "pdftotext", env = "INSIGHTS_PDFTOTEXT", default_value = "pdftotext")]
    pub pdftotext: PathBuf,

    /// PDFs rendered at once by this server; more wait their turn (each render takes a core).
    #[arg(long = "pdf-renders", env = "INSIGHTS_PDF_RENDERS", default_value_t = 2)]
    pub pdf_renders: usize,
}

#[derive(Debug, Clone, Args)]
pub struct JobSchedules {
    /// When the identity provider's expired codes and refresh tokens are purged
    /// (cron with seconds: sec min hour day-of-month month day-of-week).
    #[arg(long, env = "INSIGHTS_PURGE_GRANTS_SCHEDULE", default_value = "0 */15 * * * *")]
    pub purge_grants_schedule: String,

    /// When subscriptions past their end are ended and trial reminders asked for (cron with seconds).
    #[arg(long, env = "INSIGHTS_EXPIRY_SCHEDULE", default_value = "0 */5 * * * *")]
    pub expiry_schedule: String,

    /// When emails whose retry is due (or whose worker died while sending) are delivered (cron with
    /// seconds); new emails go at once.
    #[arg(long, env = "INSIGHTS_OUTBOX_SCHEDULE", default_value = "*/15 * * * * *")]
    pub outbox_schedule: String,

    /// When daily and weekly digests whose hour has come in the reader's time zone are written
    /// (cron with seconds).
    #[arg(long, env = "INSIGHTS_DIGEST_SCHEDULE", default_value = "0 */15 * * * *")]
    pub digest_schedule: String,

    /// When firm administrators who asked for it are emailed their firm's reading of last month
    /// (cron with seconds; once per firm, administrator and month however often it runs).
    #[arg(long, env = "INSIGHTS_FIRM_USAGE_SCHEDULE", default_value = "0 0 6 * * *")]
    pub firm_usage_schedule: String,

    /// Seconds between a worker process's heartbeats; one silent for three is taken for dead (its
    /// jobs and the emails it was sending are taken up by the others).
    #[arg(long, env = "INSIGHTS_WORKER_HEARTBEAT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub worker_heartbeat_secs: u64,

    /// Days finished jobs are kept (the purge schedule deletes older ones).
    #[arg(long, env = "INSIGHTS_JOB_RETENTION_DAYS", default_value_t = 7)]
    pub job_retention_days: u32,

    /// Days sent and failed emails are kept in the outbox (the purge schedule deletes older ones).
    #[arg(long, env = "INSIGHTS_OUTBOX_RETENTION_DAYS", default_value_t = 90)]
    pub outbox_retention_days: u32,

    /// Days the audit trail is kept; 0 (the default) keeps it for ever. Regulated firms keep it
    /// for years: set this only to the period your rules ask for (the purge deletes older events).
    #[arg(long, env = "INSIGHTS_AUDIT_RETENTION_DAYS", default_value_t = 0)]
    pub audit_retention_days: u32,
}

#[derive(Debug, Clone, Args)]
pub struct EmailConfig {
    /// SMTP server: `smtp://host:port` (plain, STARTTLS when offered), `smtp://host:port?tls=required`,
    /// or `smtps://user:password@host` (TLS). Unset: emails stay in the outbox as sent nowhere
    /// (`insights-cli outbox` shows them).
    #[arg(long = "smtp-url", env = "INSIGHTS_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,

    /// The From of every email.
    #[arg(long = "email-from", env = "INSIGHTS_EMAIL_FROM", default_value = "Insights <insights@insights.example>")]
    pub from: String,

    /// The Reply-To of every email (none when unset).
    #[arg(long = "email-reply-to", env = "INSIGHTS_EMAIL_REPLY_TO")]
    pub reply_to: Option<String>,

    /// The firm's name at the top of every email.
    #[arg(long = "firm-name", env = "INSIGHTS_FIRM_NAME", default_value = "Insights")]
    pub firm_name: String,

    /// Key that signs unsubscribe links (at least 32 characters). Unset: a random key kept in the
    /// database, shared by every process.
    #[arg(long = "unsubscribe-secret", env = "INSIGHTS_UNSUBSCRIBE_SECRET", hide_env_values = true)]
    pub unsubscribe_secret: Option<Secret>,

    /// Emails sent at once by one worker process (SMTP connections in its pool).
    #[arg(long = "smtp-concurrency", env = "INSIGHTS_SMTP_CONCURRENCY", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub smtp_concurrency: u32,

    /// Attempts at an email before it is marked failed; temporary failures wait 30 s, 1 min, 2 min… (at most 1 h) between them.
    #[arg(long = "email-max-attempts", env = "INSIGHTS_EMAIL_MAX_ATTEMPTS", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=50))]
    pub max_attempts: u32,

    /// Local hour (0–23, in the reader's time zone) at which daily and weekly (Monday) digests go.
    #[arg(long = "digest-hour", env = "INSIGHTS_DIGEST_HOUR", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(0..=23))]
    pub digest_hour: u32,
}

#[derive(Debug, Clone, Args)]
pub struct StripeConfig {
    /// Stripe secret API key (`sk_…`). Unset: card payments are off and the card option is hidden.
    #[arg(long = "stripe-secret-key", env = "INSIGHTS_STRIPE_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<Secret>,

    /// Stripe publishable key (`pk_…`), handed to Stripe.js in the browser.
    #[arg(long = "stripe-publishable-key", env = "INSIGHTS_STRIPE_PUBLISHABLE_KEY")]
    pub publishable_key: Option<String>,

    /// Signing secret of the Stripe webhook endpoint (`whsec_…`) that posts to /webhooks/stripe.
    #[arg(long = "stripe-webhook-secret", env = "INSIGHTS_STRIPE_WEBHOOK_SECRET", hide_env_values = true)]
    pub webhook_secret: Option<Secret>,

    /// Base URL of the Stripe API (a test double's, in tests and `make run`). Unset: Stripe's own.
    #[arg(long = "stripe-api-base", env = "INSIGHTS_STRIPE_API_BASE")]
    pub api_base: Option<String>,

    /// Where the browser loads Stripe.js from.
    #[arg(long = "stripe-js-url", env = "INSIGHTS_STRIPE_JS_URL", default_value = "https://js.stripe.com/v3")]
    pub js_url: String,
}

impl StripeConfig {
    /// Stripe is usable: both API keys and the webhook secret are set.
    pub fn is_configured(&self) -> bool {
        self.secret_key.is_some() && self.publishable_key.is_some() && self.webhook_secret.is_some()
    }
}

#[derive(Debug, Clone, Args)]
pub struct TableauConfig {
    /// Tableau Server or Tableau Cloud URL (`https://tableau.example.com`). Unset, or without the
    /// connected app below: the chart features are hidden.
    #[arg(id = "tableau_server_url", long = "tableau-server-url", env = "INSIGHTS_TABLEAU_SERVER_URL")]
    pub server_url: Option<String>,

    /// Content URL of the Tableau site (the `{site}` of `/#/site/{site}/…`). Unset: the default site.
    #[arg(id = "tableau_site", long = "tableau-site", env = "INSIGHTS_TABLEAU_SITE")]
    pub site: Option<String>,

    /// Client id of the Tableau connected app (direct trust).
    #[arg(id = "tableau_client_id", long = "tableau-client-id", env = "INSIGHTS_TABLEAU_CLIENT_ID")]
    pub client_id: Option<String>,

    /// Id of the connected app's secret (the `kid` of the tokens it signs).
    #[arg(id = "tableau_secret_id", long = "tableau-secret-id", env = "INSIGHTS_TABLEAU_SECRET_ID")]
    pub secret_id: Option<String>,

    /// Value of the connected app's secret, which signs the tokens (HS256).
    #[arg(id = "tableau_secret_value", long = "tableau-secret-value", env = "INSIGHTS_TABLEAU_SECRET_VALUE", hide_env_values = true)]
    pub secret_value: Option<Secret>,

    /// Tableau project whose views the editor's chart button offers. Unset: every view of the site.
    #[arg(id = "tableau_project", long = "tableau-project", env = "INSIGHTS_TABLEAU_PROJECT")]
    pub project: Option<String>,

    /// A user's Tableau username is their email; when set, with its domain replaced by this one
    /// (`ann@insights.example` becomes `ann@{domain}`).
    #[arg(id = "tableau_username_domain", long = "tableau-username-domain", env = "INSIGHTS_TABLEAU_USERNAME_DOMAIN")]
    pub username_domain: Option<String>,

    /// Version of Tableau's REST API in its URLs (`/api/{version}/…`).
    #[arg(id = "tableau_api_version", long = "tableau-api-version", env = "INSIGHTS_TABLEAU_API_VERSION", default_value = "3.22")]
    pub api_version: String,
}

impl TableauConfig {
    /// The server and the whole connected app are set.
    pub fn is_configured(&self) -> bool {
        let set = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
        set(&self.server_url)
            && set(&self.client_id)
            && set(&self.secret_id)
            && self.secret_value.as_ref().is_some_and(|secret| !secret.expose().is_empty())
    }
}

/// A setting that must never be printed: its `Debug` says only whether it is set.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl EmailConfig {
    /// The configured unsubscribe signing key, refused (without printing it) when shorter than
    /// 32 characters; None when unset.
    pub fn unsubscribe_key(&self) -> anyhow::Result<Option<&[u8]>> {
        match &self.unsubscribe_secret {
            Some(secret) if secret.expose().chars().count() < 32 => {
                anyhow::bail!("INSIGHTS_UNSUBSCRIBE_SECRET must be at least 32 characters long")
            }
            Some(secret) => Ok(Some(secret.expose().as_bytes())),
            None => Ok(None),
        }
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Secret(value.to_owned()))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

#[derive(Debug, Clone, Args)]
pub struct ApiLimits {
    /// Maximum request body size, in bytes (a bulk subscriber upload of 100,000 addresses is about 3 MB).
    #[arg(long, env = "INSIGHTS_MAX_BODY_BYTES", default_value_t = 8 * 1024 * 1024)]
    pub max_body_bytes: usize,

    /// Maximum depth of a GraphQL query.
    #[arg(long, env = "INSIGHTS_GRAPHQL_MAX_DEPTH", default_value_t = 16)]
    pub graphql_max_depth: usize,

    /// Maximum complexity of a GraphQL query.
    #[arg(long, env = "INSIGHTS_GRAPHQL_MAX_COMPLEXITY", default_value_t = 2000)]
    pub graphql_max_complexity: usize,

    /// Maximum fields of a GraphQL document once its fragments are expanded, `__typename` included (the web app's largest has 142).
    #[arg(long, env = "INSIGHTS_GRAPHQL_MAX_FIELDS", default_value_t = 2000)]
    pub graphql_max_fields: usize,

    /// Maximum body of a signed-in GraphQL request, in bytes: an article's HTML, or the addresses of a bulk add (100,000 are about 3 MB).
    #[arg(long, env = "INSIGHTS_GRAPHQL_MAX_BODY_BYTES", default_value_t = 4 * 1024 * 1024)]
    pub graphql_max_body_bytes: usize,

    /// Maximum body of a GraphQL request without a valid token, in bytes: such a request can only read the client configuration (the web app's is under 1 KB).
    #[arg(long, env = "INSIGHTS_GRAPHQL_ANONYMOUS_MAX_BODY_BYTES", default_value_t = 32 * 1024)]
    pub graphql_anonymous_max_body_bytes: usize,
}

/// Request rates (issue 15), each `N/second`, `N/minute` or `N/hour` (a burst of N, then one more
/// each period/N) or `off`; over one, 429 with `Retry-After`. In memory per server process.
#[derive(Debug, Clone, Args)]
pub struct RateLimits {
    /// GraphQL requests per signed-in user (the token's subject). Off by default (benchmarks send thousands a second with one token); in production e.g. `1200/minute`.
    #[arg(long = "rate-limit-graphql-user", env = "INSIGHTS_RATE_LIMIT_GRAPHQL_USER", default_value = "off")]
    pub graphql_user: RateLimit,

    /// GraphQL requests per client address. Off by default; in production, with `INSIGHTS_TRUSTED_PROXIES` set when behind a proxy, e.g. `6000/minute`.
    #[arg(long = "rate-limit-graphql-address", env = "INSIGHTS_RATE_LIMIT_GRAPHQL_ADDRESS", default_value = "off")]
    pub graphql_address: RateLimit,

    /// Sign-in and token requests (`POST /oidc/authorize`, `POST /oidc/token` of the built-in provider) per client address.
    #[arg(long = "rate-limit-sign-in", env = "INSIGHTS_RATE_LIMIT_SIGN_IN", default_value = "300/minute")]
    pub sign_in: RateLimit,

    /// Uploads (`POST /upload`, `POST /upload-file`) per signed-in user.
    #[arg(long = "rate-limit-uploads", env = "INSIGHTS_RATE_LIMIT_UPLOADS", default_value = "120/minute")]
    pub uploads: RateLimit,

    /// `POST /unsubscribe` per client address (one-click unsubscribes come from the mail providers' servers, hence generous).
    #[arg(long = "rate-limit-unsubscribe", env = "INSIGHTS_RATE_LIMIT_UNSUBSCRIBE", default_value = "300/minute")]
    pub unsubscribe: RateLimit,

    /// Client log batches (`POST /log`) per client address (the web app sends at most one every 2 seconds while it logs).
    #[arg(long = "rate-limit-client-log", env = "INSIGHTS_RATE_LIMIT_CLIENT_LOG", default_value = "120/minute")]
    pub client_log: RateLimit,

    /// Fetches of one private feed link (`GET /feeds/{secret}.atom`); feed readers poll every few minutes to hours.
    #[arg(long = "rate-limit-feeds", env = "INSIGHTS_RATE_LIMIT_FEEDS", default_value = "60/minute")]
    pub feeds: RateLimit,

    /// MCP tool calls and resource reads (`/mcp`) per signed-in user (their AI assistant asking on their behalf).
    #[arg(long = "rate-limit-agent", env = "INSIGHTS_RATE_LIMIT_AGENT", default_value = "120/minute")]
    pub agent: RateLimit,

    /// Proxies whose `X-Forwarded-For` names the client, as addresses or CIDR blocks (comma-separated, e.g. `10.0.0.0/8,127.0.0.1`). Unset: the peer address is the client's.
    #[arg(long = "trusted-proxies", env = "INSIGHTS_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_ip_net)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

/// A rate setting (the limiters of `http::limits` are built from it): `N/second`, `N/minute` or `N/hour` (a burst of N, then one more each
/// period/N), or `off` (also `0`, `0/minute`): no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// None when the limit is off.
    pub count: Option<NonZeroU32>,
    pub period: Duration,
}

impl RateLimit {
    pub const OFF: RateLimit = RateLimit { count: None, period: Duration::ZERO };
}

impl FromStr for RateLimit {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let invalid = || format!("'{value}': expected N/second, N/minute or N/hour, or off");
        let value = value.trim();
        if value.eq_ignore_ascii_case("off") || value == "0" {
            return Ok(RateLimit::OFF);
        }
        let (count, unit) = value.split_once('/').ok_or_else(invalid)?;
        let count: u32 = count.trim().parse().map_err(|_| invalid())?;
        let seconds = match unit.trim() {
            "s" | "sec" | "second" => 1,
            "m" | "min" | "minute" => 60,
            "h" | "hour" => 3600,
            _ => return Err(invalid()),
        };
        Ok(RateLimit { count: NonZeroU32::new(count), period: Duration::from_secs(seconds) })
    }
}

/// A CIDR block, or one address (a /32 or /128).
fn parse_ip_net(value: &str) -> Result<ipnet::IpNet, String> {
    let value = value.trim();
    value
        .parse::<ipnet::IpNet>()
        .or_else(|_| value.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("'{value}': expected an IP address or a CIDR block"))
}

/// How `serve` stops on SIGTERM or Ctrl-C (a second signal stops at once).
#[derive(Debug, Clone, Args)]
pub struct ShutdownConfig {
    /// Milliseconds `serve` keeps serving after SIGTERM while `/healthz` answers 503 `draining`, so the load balancer stops sending it requests.
    #[arg(long = "shutdown-grace-ms", env = "INSIGHTS_SHUTDOWN_GRACE_MS", default_value_t = 5000)]
    pub grace_ms: u64,

    /// Milliseconds the requests in flight are given to finish once `serve` stops accepting; then it exits anyway.
    #[arg(long = "shutdown-timeout-ms", env = "INSIGHTS_SHUTDOWN_TIMEOUT_MS", default_value_t = 30_000)]
    pub timeout_ms: u64,
}

impl AuthConfig {
    /// The built-in provider's issuer, or the configured external one.
    pub fn issuer(&self, public_url: &str) -> String {
        match &self.issuer {
            Some(issuer) => issuer.trim_end_matches('/').to_owned(),
            None => format!("{}/oidc", public_url.trim_end_matches('/')),
        }
    }

    pub fn uses_builtin_provider(&self) -> bool {
        self.issuer.is_none()
    }

    pub fn access_token_ttl(&self) -> Duration {
        Duration::from_secs(self.access_token_ttl_secs)
    }

    pub fn refresh_token_ttl(&self) -> Duration {
        Duration::from_secs(self.refresh_token_ttl_secs)
    }
}

/// Parses a `Config` alone, for tests and tools that build one from flags.
#[derive(clap::Parser)]
struct ConfigOnly {
    #[command(flatten)]
    config: Config,
}

impl Config {
    /// Builds a config from command-line style flags (and the environment), as `serve` does.
    pub fn from_flags<I, T>(flags: I) -> Result<Config, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::Parser;
        let args = std::iter::once(std::ffi::OsString::from("insights")).chain(flags.into_iter().map(Into::into));
        Ok(ConfigOnly::try_parse_from(args)?.config)
    }

    /// The environment variables of every setting (the README's configuration table lists them).
    pub fn env_vars() -> Vec<String> {
        use clap::CommandFactory;
        ConfigOnly::command().get_arguments().filter_map(|arg| arg.get_env()).map(|env| env.to_string_lossy().into_owned()).collect()
    }

    pub fn issuer(&self) -> String {
        self.auth.issuer(&self.public_url)
    }

    pub fn public_url(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }

    /// Card payments need the flag and a configured Stripe account.
    pub fn card_payments_enabled(&self) -> bool {
        self.features.card_payments && self.stripe.is_configured()
    }
}

/// The version of this build: the package version plus the commit it was built from, when known.
pub fn build_version() -> &'static str {
    static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| match option_env!("INSIGHTS_BUILD_ID") {
        Some(id) if !id.is_empty() => format!("{}+{}", env!("CARGO_PKG_VERSION"), id),
        _ => env!("CARGO_PKG_VERSION").to_owned(),
    });
    &VERSION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_with_their_unit_or_off() {
        let rate: RateLimit = "10/minute".parse().unwrap();
        assert_eq!((rate.count.map(NonZeroU32::get), rate.period), (Some(10), Duration::from_secs(60)));
        assert_eq!("3/h".parse::<RateLimit>().unwrap().period, Duration::from_secs(3600));
        for off in ["off", "OFF", "0", "0/minute"] {
            assert_eq!(off.parse::<RateLimit>().unwrap().count, None, "{off}");
        }
        for bad in ["ten/minute", "10", "10/day", "", "-1/s"] {
            assert!(bad.parse::<RateLimit>().is_err(), "{bad}");
        }
    }
}
