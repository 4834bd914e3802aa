//! Signing keys of the built-in provider: ES256 keys generated once and kept in the database, so
//! every process of a deployment signs and validates with the same keys.

use anyhow::Context;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use jsonwebtoken::{EncodingKey, jwk::JwkSet};
use p256::{
    SecretKey,
    elliptic_curve::sec1::ToEncodedPoint,
    pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding},
};
use sqlx::PgPool;

use super::queries;
use crate::ids;

pub struct SigningKey {
    pub kid: String,
    pub key: EncodingKey,
}

/// The newest signing key, generating the first one when there is none.
pub async fn current(pool: &PgPool) -> anyhow::Result<SigningKey> {
    let row = queries::newest_signing_key(pool).await?;
    let (kid, pem) = match row {
        Some(row) => (row.kid, row.private_key_pem),
        None => {
            let (kid, pem) = new_key()?;
            queries::insert_first_signing_key(pool, &kid, &pem).await?;
            return Box::pin(current(pool)).await;
        }
    };
    let key = EncodingKey::from_ec_pem(pem.as_bytes()).context("read the stored signing key")?;
    Ok(SigningKey { kid, key })
}

/// Adds a new signing key; it signs from now on while older keys stay published for validation.
pub async fn rotate(pool: &PgPool) -> anyhow::Result<String> {
    let (kid, pem) = new_key()?;
    queries::insert_signing_key(pool, &kid, &pem).await?;
    Ok(kid)
}

/// A new key's id and its private key (PKCS#8 PEM).
fn new_key() -> anyhow::Result<(String, String)> {
    let secret = SecretKey::random(&mut rand::rngs::OsRng);
    let pem = secret.to_pkcs8_pem(LineEnding::LF).context("encode the signing key")?;
    Ok((ids::new_id(), pem.to_string()))
}

/// The public keys, as the JWKS document publishes them.
pub async fn jwks(pool: &PgPool) -> anyhow::Result<JwkSet> {
    let rows = queries::signing_keys(pool).await?;
    let keys = rows
        .into_iter()
        .map(|row| {
            let secret = SecretKey::from_pkcs8_pem(&row.private_key_pem).context("read the stored signing key")?;
            let point = secret.public_key().to_encoded_point(false);
            let (x, y) = (point.x().context("key point")?, point.y().context("key point")?);
            Ok(serde_json::json!({
                "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": row.kid,
                "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y),
            }))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    serde_json::from_value(serde_json::json!({ "keys": keys })).context("build the JWKS")
}
