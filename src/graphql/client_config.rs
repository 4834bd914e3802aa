//! The `config` query: what the web app needs to start (auth settings, feature flags, constants),
//! served at run time so one build runs in every environment.

use async_graphql::{Context, Object, SimpleObject};

use super::app_state;

#[derive(SimpleObject)]
pub struct AuthSettings {
    /// The OIDC issuer the web app signs in with.
    authority: String,
    client_id: String,
    scope: String,
    audience: Option<String>,
    /// True when this server is its own development identity provider.
    built_in_provider: bool,
}

#[derive(SimpleObject)]
pub struct FeatureFlags {
    premium_channels: bool,
    premium_features: bool,
    card_payments: bool,
    intelligence: bool,
}

#[derive(SimpleObject)]
pub struct Constants {
    trial_length_days: u32,
    trial_min_days: u32,
    trial_max_days: u32,
    default_trial_channel_days: u32,
    expiry_banner_days: u32,
    autosave_interval_ms: u32,
    busy_indicator_delay_ms: u32,
    idle_timeout_ms: u32,
    version_poll_ms: u32,
    log_batch_size: u32,
    log_batch_max: u32,
    log_batch_timeout_ms: u32,
    search_debounce_ms: u32,
    page_sizes: Vec<u32>,
    default_page_size: u32,
    tree_page_size: u32,
}

#[derive(SimpleObject)]
pub struct ClientConfig {
    version: String,
    auth: AuthSettings,
    features: FeatureFlags,
    constants: Constants,
    support_email: String,
    /// Where a user goes when no token with a user id can be obtained.
    landing_url: String,
    /// Where users with an incomplete profile are sent; null for no redirect.
    profile_landing_url: Option<String>,
    /// Stripe.js for card checkout; null when card payments are off.
    stripe: Option<StripeSettings>,
    /// Embedded Tableau charts; null when Tableau is not configured (the chart features are hidden).
    tableau: Option<TableauSettings>,
}

#[derive(SimpleObject)]
pub struct TableauSettings {
    server_url: String,
    /// Content URL of the site; '' for the default site.
    site: String,
    /// Tableau's Embedding API v3, loaded once as a module script.
    embedding_script_url: String,
}

#[derive(SimpleObject)]
pub struct StripeSettings {
    publishable_key: String,
    /// Where the browser loads Stripe.js from.
    js_url: String,
}

/// Client log batches: the web app flushes every `LOG_BATCH_SIZE` entries or after the timeout,
/// and `/log` refuses batches larger than `LOG_BATCH_MAX`.
pub const LOG_BATCH_SIZE: u32 = 10;
pub const LOG_BATCH_MAX: usize = 100;
pub const LOG_BATCH_TIMEOUT_MS: u32 = 2000;

#[derive(Default)]
pub struct ConfigQuery;

#[Object]
impl ConfigQuery {
    /// The web app's configuration; needs no sign-in.
    async fn config(&self, ctx: &Context<'_>) -> ClientConfig {
        let config = &app_state(ctx).config;
        let constants = &config.constants;
        ClientConfig {
            version: crate::config::build_version().to_owned(),
            auth: AuthSettings {
                authority: config.issuer(),
                client_id: config.auth.client_id.clone(),
                scope: config.auth.scope.clone(),
                audience: Some(config.auth.audience.clone()),
                built_in_provider: config.auth.uses_builtin_provider(),
            },
            features: FeatureFlags {
                premium_channels: config.features.premium_channels,
                premium_features: config.features.premium_features,
                card_payments: config.card_payments_enabled(),
                intelligence: config.features.intelligence,
            },
            constants: Constants {
                trial_length_days: constants.trial_days,
                trial_min_days: crate::config::TRIAL_MIN_DAYS,
                trial_max_days: crate::config::TRIAL_MAX_DAYS,
                default_trial_channel_days: constants.trial_channel_days,
                expiry_banner_days: constants.expiry_banner_days,
                autosave_interval_ms: constants.autosave_interval_ms,
                busy_indicator_delay_ms: 2000,
                idle_timeout_ms: constants.idle_timeout_ms,
                version_poll_ms: constants.version_poll_ms,
                log_batch_size: LOG_BATCH_SIZE,
                log_batch_max: LOG_BATCH_MAX as u32,
                log_batch_timeout_ms: LOG_BATCH_TIMEOUT_MS,
                search_debounce_ms: 500,
                page_sizes: vec![15, 30, 50, 100, 200],
                default_page_size: 15,
                tree_page_size: 100,
            },
            support_email: config.support_email.clone(),
            landing_url: config.landing_url.clone(),
            profile_landing_url: config.profile_landing_url.clone().filter(|url| !url.trim().is_empty()),
            stripe: config.card_payments_enabled().then(|| StripeSettings {
                publishable_key: config.stripe.publishable_key.clone().unwrap_or_default(),
                js_url: config.stripe.js_url.clone(),
            }),
            tableau: app_state(ctx).tableau.as_ref().map(|tableau| TableauSettings {
                server_url: tableau.server_url().to_owned(),
                site: tableau.site().to_owned(),
                embedding_script_url: tableau.embedding_script_url(),
            }),
        }
    }
}
