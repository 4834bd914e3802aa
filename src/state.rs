//! The application state, built once from `Config` by the CLI (or the test harness).

use std::{sync::Arc, time::Duration};

use sqlx::PgPool;

use crate::{
    articles::sanitize::Sanitizer,
    auth::{TokenValidator, jwt::KeySource},
    billing::stripe::StripeApi,
    config::Config,
    jobs::JobQueue,
    kept::Kept,
    uploads::{PdfRenderer, UploadStore},
};

/// What every request and job of one process shares, behind one `Arc`: axum clones the state into
/// each request's extractors and middleware, and one reference count is cheaper to bump and drop
/// than the thirty of the parts.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

impl From<Services> for AppState {
    fn from(services: Services) -> Self {
        AppState(Arc::new(services))
    }
}

/// The services of one process: the database, the configuration, what it keeps in memory, the
/// clients of outside services.
#[derive(Clone)]
pub struct Services {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub tokens: Arc<TokenValidator>,
    pub jobs: Arc<dyn JobQueue>,
    /// Every value kept in memory under a revision (`kept`).
    pub kept: Arc<Kept>,
    /// Parsed GraphQL documents by their text (`graphql::documents`).
    pub documents: Arc<crate::graphql::documents::ParsedDocuments>,
    /// The HTML allow-list every stored article, template and page goes through.
    pub sanitizer: Arc<Sanitizer>,
    /// How search ranks matches, found out on the first search (RUM index present or not).
    pub search_ranking: Arc<tokio::sync::OnceCell<crate::search::Ranking>>,
    /// Poppler's `pdftoppm` for `POST /upload-file`, and whether it can be run.
    pub pdf_renderer: Arc<PdfRenderer>,
    /// Where uploaded files are kept: the upload directory or a bucket (`uploads::store`).
    pub uploads: Arc<UploadStore>,
    /// The key links to upload files are signed with (`uploads::access`).
    pub upload_access: Arc<crate::uploads::access::UploadAccess>,
    /// The key unsubscribe links are signed with, loaded on first use (`email::unsubscribe::key`).
    pub unsubscribe_key: Arc<tokio::sync::OnceCell<Vec<u8>>>,
    /// The Stripe account card payments go through; None when Stripe is not configured.
    pub stripe: Option<Arc<StripeApi>>,
    /// The Tableau server embedded charts come from; None when Tableau is not configured.
    pub tableau: Option<Arc<crate::tableau::Tableau>>,
    /// This process's Prometheus metrics (`GET /metrics` on `INSIGHTS_METRICS_LISTEN`).
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The per-user and per-address rate limiters (`http::limits`).
    pub limits: Arc<crate::http::limits::Limits>,
    /// Signed-in users kept between requests (`users::kept`).
    pub users: Arc<crate::users::kept::KeptUsers>,
    /// Set when `serve` is shutting down: `/healthz` answers 503 `draining` so the load balancer
    /// moves away, while requests are still served.
    pub draining: Arc<std::sync::atomic::AtomicBool>,
    /// This state with the audited pool (`audit::audited_pool`), for the requests that change
    /// things; None in that state itself.
    pub audited: Option<AppState>,
}

impl AppState {
    pub fn new(pool: PgPool, config: Config, jobs: Arc<dyn JobQueue>) -> Self {
        let issuer = config.issuer();
        let source = match &config.auth.issuer {
            None => KeySource::BuiltIn(pool.clone()),
            Some(_) => KeySource::Http {
                issuer: issuer.clone(),
                client: reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("build the HTTP client"),
            },
        };
        let tokens = TokenValidator::new(issuer, source, config.auth.leeway_secs, Duration::from_secs(config.auth.jwks_refresh_secs));
        let sanitizer = Arc::new(Sanitizer::new(config.public_url()));
        let pdf_renderer = Arc::new(PdfRenderer::new(
            config.uploads.pdftoppm.clone(),
            config.uploads.pdfinfo.clone(),
            config.uploads.pdftotext.clone(),
            config.uploads.pdf_renders,
        ));
        let uploads = Arc::new(UploadStore::from_config(&config.uploads));
        let stripe = match StripeApi::from_config(&config.stripe) {
            Ok(stripe) => stripe.map(Arc::new),
            Err(error) => {
                tracing::error!(%error, "card payments are off: the Stripe client could not be built");
                None
            }
        };
        let tableau = crate::tableau::Tableau::from_config(&config.tableau).map(Arc::new);
        let limits = Arc::new(crate::http::limits::Limits::new(&config));
        let users = Arc::new(crate::users::kept::KeptUsers::new(Duration::from_secs(config.auth.user_cache_secs)));
        AppState::from(Services {
            pool,
            config: Arc::new(config),
            tokens: Arc::new(tokens),
            jobs,
            kept: Arc::default(),
            documents: Arc::default(),
            sanitizer,
            search_ranking: Arc::default(),
            pdf_renderer,
            uploads,
            upload_access: Arc::default(),
            unsubscribe_key: Arc::default(),
            stripe,
            tableau,
            metrics: Arc::default(),
            limits,
            users,
            draining: Arc::default(),
            audited: None,
        })
        .with_audited_pool()
    }

    fn with_audited_pool(self) -> AppState {
        let audited = AppState::from(Services { pool: crate::audit::audited_pool(&self.pool), ..Services::clone(&self) });
        AppState::from(Services { audited: Some(audited), ..Services::clone(&self) })
    }

    /// The state a change runs with: its connections carry the actor of the task that takes
    /// them (`audit::scoped`), so the trail's triggers know who made the change.
    pub fn audited(&self) -> AppState {
        self.audited.clone().unwrap_or_else(|| self.clone())
    }
}
