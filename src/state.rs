//! Shared application state, built once from `Config` by the CLI (or the test harness).

use std::{sync::Arc, time::Duration};

use sqlx::PgPool;

use crate::{
    articles::sanitize::Sanitizer,
    auth::{TokenValidator, jwt::KeySource},
    billing::stripe::StripeApi,
    config::Config,
    jobs::JobQueue,
    revisions::KeptByRevision,
    taxonomy::{cache::TopicListCache, shared_reads::SharedReadCache},
    uploads::{PdfRenderer, UploadStore},
};

/// What every request and job of one process shares, behind one `Arc`: axum clones the state into
/// each request's extractors and middleware, and one reference count is cheaper to bump and drop
/// than the thirty of the parts.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl From<Shared> for AppState {
    fn from(shared: Shared) -> Self {
        AppState(Arc::new(shared))
    }
}

#[derive(Clone)]
pub struct Shared {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub tokens: Arc<TokenValidator>,
    pub jobs: Arc<dyn JobQueue>,
    /// The computed topic list, shared by requests while the taxonomy is unchanged.
    pub topic_list: Arc<TopicListCache>,
    /// Serialised responses of shared topic reads, reused while the taxonomy is unchanged.
    pub shared_reads: Arc<SharedReadCache>,
    /// Parsed GraphQL documents by their text (`graphql::documents`).
    pub documents: Arc<crate::graphql::documents::ParsedDocuments>,
    /// Readers' article cards, kept by article and card revision (`reading::cache`).
    pub cards: Arc<KeptByRevision<crate::reading::queries::CardRow>>,
    /// Each channel's newest articles, kept by channel and the content revision (`reading::cache`).
    pub recent: Arc<KeptByRevision<crate::reading::cache::Recent>>,
    /// Search snippets, kept by article revision, words and access (`search::snippets`).
    pub snippets: Arc<crate::search::snippets::SnippetCache>,
    /// Readers' subscriptions, kept by reader and their revision (migration 0019).
    pub subscriptions: Arc<KeptByRevision<crate::subscriptions::ViewerSubscriptions>>,
    /// Staff lists' article links, kept by article and card revision (`articles::queries::RELATIONS`).
    pub article_relations: Arc<KeptByRevision<crate::articles::queries::Relations>>,
    /// Published articles' pages, kept by article and the content revision (`reading::cache`).
    pub article_pages: Arc<KeptByRevision<crate::reading::queries::ArticleRow, (i64, i64)>>,
    /// Readers' followed topics and recommendations, kept by their reading revision (`reading::cache`).
    pub followed: Arc<KeptByRevision<Vec<(String, String)>, (i64, i64)>>,
    pub recommended: Arc<KeptByRevision<Vec<crate::reading::queries::Listed>, (i64, i64)>>,
    /// Pages of the latest articles, kept by the content revision (`reading::cache`).
    pub latest: Arc<KeptByRevision<crate::reading::cache::Latest>>,
    /// Every channel, kept at the channels' revision (`channels::cache`).
    pub channels: Arc<crate::channels::cache::KeptChannels>,
    /// Search pages and counts, kept by the published content's revision (`search::cache`).
    pub searches: Arc<crate::search::cache::SearchCache>,
    /// The HTML allow-list every stored article, template and page goes through.
    pub sanitizer: Arc<Sanitizer>,
    /// How search ranks matches, found out on the first search (RUM index present or not).
    pub search_ranking: Arc<tokio::sync::OnceCell<crate::search::Ranking>>,
    /// Poppler's `pdftoppm` for `POST /upload-file`, and whether it can be run.
    pub pdf_renderer: Arc<PdfRenderer>,
    /// Where uploaded files are kept: the upload directory or a bucket (`uploads::store`).
    pub uploads: Arc<UploadStore>,
    /// Who may read upload files: the link-signing key and the names known public (`uploads::access`).
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
    /// Signed-in users kept between requests (`users::cache`).
    pub users: Arc<crate::users::cache::UserCache>,
    /// Set when `serve` is shutting down: `/healthz` answers 503 `draining` so the load balancer
    /// moves away, while requests are still served.
    pub draining: Arc<std::sync::atomic::AtomicBool>,
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
        let users = Arc::new(crate::users::cache::UserCache::new(Duration::from_secs(config.auth.user_cache_secs)));
        AppState::from(Shared {
            pool,
            config: Arc::new(config),
            tokens: Arc::new(tokens),
            jobs,
            topic_list: Arc::default(),
            shared_reads: Arc::default(),
            documents: Arc::default(),
            cards: Arc::new(KeptByRevision::new(crate::reading::cache::CARDS)),
            snippets: Arc::default(),
            recent: Arc::new(KeptByRevision::new(crate::reading::cache::CHANNELS)),
            subscriptions: Arc::new(KeptByRevision::new(crate::subscriptions::KEPT_READERS)),
            searches: Arc::default(),
            channels: Arc::new(crate::channels::cache::kept()),
            latest: Arc::new(KeptByRevision::new(crate::reading::cache::LATEST_PAGES)),
            followed: Arc::new(KeptByRevision::new(crate::reading::cache::READERS)),
            recommended: Arc::new(KeptByRevision::new(crate::reading::cache::READERS)),
            article_relations: Arc::new(KeptByRevision::new(crate::articles::queries::RELATIONS)),
            article_pages: Arc::new(KeptByRevision::weighed(
                crate::reading::cache::ARTICLE_PAGES_BYTES,
                crate::reading::cache::page_weight,
            )),
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
        })
    }
}

/// A least-recently-used map of at most `capacity` entries, as the in-memory caches keep values.
pub fn lru<K: std::hash::Hash + Eq, V>(capacity: usize) -> lru::LruCache<K, V> {
    lru::LruCache::new(std::num::NonZeroUsize::new(capacity).expect("a non-zero capacity"))
}
