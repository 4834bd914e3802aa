//! Bearer-token validation: one path for the built-in provider and an external issuer. Tokens are
//! JWTs signed with a key from the issuer's JWKS (RS*/PS*/ES* only: `none` and HS* are refused),
//! checked for issuer, audience, expiry and not-before. The JWKS is cached and refreshed when a
//! token names an unknown `kid` (key rotation), at most once per cooldown. A token that passed is
//! remembered (by its hash) for a few minutes, so a client's every request does not pay for the
//! signature check again; its expiry and not-before are still checked on each use.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex as SyncMutex},
    time::{Duration, Instant},
};

use anyhow::Context;
use jsonwebtoken::{Algorithm, DecodingKey, Validation, jwk::JwkSet};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tokio::sync::{Mutex, RwLock};

use super::provider;

pub type Claims = serde_json::Map<String, serde_json::Value>;

/// Asymmetric algorithms only: a symmetric one would let anyone holding the public key sign.
const ALLOWED_ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
];

/// Keys are re-read at least this often even when every `kid` is known.
const JWKS_MAX_AGE: Duration = Duration::from_secs(3600);

/// How long a verified token is remembered (a key withdrawn from the JWKS stops being trusted
/// within this), and how many are.
const VERIFIED_MAX_AGE: Duration = Duration::from_secs(300);
const VERIFIED_CAPACITY: usize = 10_000;

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("malformed token: {0}")]
    Malformed(String),
    #[error("algorithm {0:?} is not allowed")]
    AlgorithmNotAllowed(Algorithm),
    #[error("token has no kid")]
    MissingKid,
    #[error("unknown signing key {0}")]
    UnknownKid(String),
    #[error("invalid token: {0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
    #[error("signing keys unavailable: {0:#}")]
    KeysUnavailable(anyhow::Error),
}

/// Where the signing keys come from.
pub enum KeySource {
    /// An external issuer: its discovery document names the JWKS address.
    Http { issuer: String, client: reqwest::Client },
    /// The built-in provider: its keys are in our own database.
    BuiltIn(PgPool),
}

pub struct TokenValidator {
    issuer: String,
    leeway: u64,
    refresh_cooldown: Duration,
    source: KeySource,
    keys: RwLock<KeyCache>,
    refreshing: Mutex<()>,
    verified: SyncMutex<lru::LruCache<[u8; 32], Verified>>,
}

/// A token that passed every check, by the hash of the token and the audience it was checked for.
#[derive(Clone)]
struct Verified {
    claims: Arc<Claims>,
    at: Instant,
}

#[derive(Default)]
struct KeyCache {
    keys: HashMap<String, DecodingKey>,
    fetched_at: Option<Instant>,
}

impl TokenValidator {
    pub fn new(issuer: String, source: KeySource, leeway: u64, refresh_cooldown: Duration) -> Self {
        TokenValidator {
            issuer,
            leeway,
            refresh_cooldown,
            source,
            keys: RwLock::default(),
            refreshing: Mutex::new(()),
            verified: SyncMutex::new(crate::kept::lru(VERIFIED_CAPACITY)),
        }
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Validates `token` for `audience` and returns its claims.
    pub async fn validate(&self, token: &str, audience: &str) -> Result<Arc<Claims>, TokenError> {
        let hash: [u8; 32] = Sha256::new().chain_update(audience).chain_update([0]).chain_update(token).finalize().into();
        let remembered = self.verified.lock().expect("verified tokens").get(&hash).cloned();
        if let Some(verified) = remembered
            && verified.at.elapsed() < VERIFIED_MAX_AGE
            && self.in_time(&verified.claims)
        {
            return Ok(verified.claims);
        }
        let claims = Arc::new(self.validate_with(token, audience, true).await?);
        self.verified.lock().expect("verified tokens").put(hash, Verified { claims: claims.clone(), at: Instant::now() });
        Ok(claims)
    }

    /// Expiry and not-before, with the leeway, as `jsonwebtoken` checks them.
    fn in_time(&self, claims: &Claims) -> bool {
        let now = jsonwebtoken::get_current_timestamp();
        let exp = claims.get("exp").and_then(serde_json::Value::as_u64);
        let nbf = claims.get("nbf").and_then(serde_json::Value::as_u64);
        exp.is_some_and(|exp| now < exp.saturating_add(self.leeway)) && nbf.is_none_or(|nbf| nbf <= now.saturating_add(self.leeway))
    }

    /// Like `validate`, but accepts an expired token (an end-session `id_token_hint`).
    pub async fn validate_allowing_expired(&self, token: &str, audience: &str) -> Result<Claims, TokenError> {
        self.validate_with(token, audience, false).await
    }

    async fn validate_with(&self, token: &str, audience: &str, check_expiry: bool) -> Result<Claims, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| TokenError::Malformed(e.to_string()))?;
        if !ALLOWED_ALGORITHMS.contains(&header.alg) {
            return Err(TokenError::AlgorithmNotAllowed(header.alg));
        }
        let kid = header.kid.ok_or(TokenError::MissingKid)?;
        let key = self.key(&kid).await?;

        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.validate_exp = check_expiry;
        validation.leeway = self.leeway;
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation)?;
        Ok(data.claims)
    }

    async fn key(&self, kid: &str) -> Result<DecodingKey, TokenError> {
        {
            let cache = self.keys.read().await;
            let fresh = cache.fetched_at.is_some_and(|at| at.elapsed() < JWKS_MAX_AGE);
            if let (true, Some(key)) = (fresh, cache.keys.get(kid)) {
                return Ok(key.clone());
            }
        }
        // One refresh at a time; the others wait and then read what it fetched.
        let _guard = self.refreshing.lock().await;
        {
            let cache = self.keys.read().await;
            let fresh = cache.fetched_at.is_some_and(|at| at.elapsed() < JWKS_MAX_AGE);
            if let (true, Some(key)) = (fresh, cache.keys.get(kid)) {
                return Ok(key.clone());
            }
            // An unknown kid refreshes at most once per cooldown, so garbage tokens cannot
            // make us hammer the issuer.
            let recently = cache.fetched_at.is_some_and(|at| at.elapsed() < self.refresh_cooldown);
            if fresh && recently {
                return Err(TokenError::UnknownKid(kid.to_owned()));
            }
        }
        let keys = self.fetch().await.map_err(TokenError::KeysUnavailable)?;
        let mut cache = self.keys.write().await;
        cache.keys = keys;
        cache.fetched_at = Some(Instant::now());
        cache.keys.get(kid).cloned().ok_or_else(|| TokenError::UnknownKid(kid.to_owned()))
    }

    async fn fetch(&self) -> anyhow::Result<HashMap<String, DecodingKey>> {
        let set: JwkSet = match &self.source {
            KeySource::BuiltIn(pool) => provider::keys::jwks(pool).await?,
            KeySource::Http { issuer, client } => {
                let discovery: serde_json::Value =
                    get_json(client, &format!("{issuer}/.well-known/openid-configuration"), "the issuer's discovery document").await?;
                let jwks_uri = discovery["jwks_uri"].as_str().context("discovery document has no jwks_uri")?;
                get_json(client, jwks_uri, "the issuer's JWKS").await?
            }
        };
        let keys = set
            .keys
            .iter()
            .filter_map(|jwk| {
                let kid = jwk.common.key_id.clone()?;
                match DecodingKey::from_jwk(jwk) {
                    Ok(key) => Some((kid, key)),
                    Err(error) => {
                        tracing::warn!(%kid, %error, "skipping an unusable JWKS key");
                        None
                    }
                }
            })
            .collect();
        Ok(keys)
    }
}

async fn get_json<T: serde::de::DeserializeOwned>(client: &reqwest::Client, url: &str, what: &str) -> anyhow::Result<T> {
    let response = client.get(url).send().await.and_then(|r| r.error_for_status()).with_context(|| format!("fetch {what}"))?;
    response.json().await.with_context(|| format!("parse {what}"))
}
