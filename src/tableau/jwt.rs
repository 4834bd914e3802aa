//! Connected App (direct trust) tokens: HS256 JWTs signed with the app's secret value, which
//! Tableau accepts for embedding (`<tableau-viz token>`) and for REST sign-in.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Serialize;

/// Scope of the token the browser embeds views with.
pub const EMBED_SCOPES: &[&str] = &["tableau:views:embed"];
/// Scopes of the server's REST session: list content (views, projects) and read view images.
pub const REST_SCOPES: &[&str] = &["tableau:content:read", "tableau:views:download"];
/// Lifetime of a token. Tableau refuses more than 10 minutes (LOGIN_FAILED); the web app keeps an
/// embed token for 5, so the one it uses always has minutes left.
pub const TOKEN_LIFETIME: chrono::Duration = chrono::Duration::minutes(9);

/// The connected app: client id, secret id and secret value.
pub struct ConnectedApp {
    pub client_id: String,
    pub secret_id: String,
    pub key: EncodingKey,
}

#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'static str,
    exp: i64,
    iat: i64,
    jti: String,
    scp: &'a [&'a str],
}

impl ConnectedApp {
    pub fn new(client_id: &str, secret_id: &str, secret_value: &str) -> Self {
        ConnectedApp {
            client_id: client_id.to_owned(),
            secret_id: secret_id.to_owned(),
            key: EncodingKey::from_secret(secret_value.as_bytes()),
        }
    }

    /// A token for the Tableau user `username` with `scopes`, and when it expires. Each has its
    /// own `jti`: Tableau refuses a token id it has seen.
    pub fn sign(&self, username: &str, scopes: &[&str], now: DateTime<Utc>) -> anyhow::Result<(String, DateTime<Utc>)> {
        let expires_at = now + TOKEN_LIFETIME;
        let mut header = Header::new(Algorithm::HS256);
        header.typ = Some("JWT".to_owned());
        header.kid = Some(self.secret_id.clone());
        header.extras.insert("iss", &self.client_id);
        let claims = Claims {
            iss: &self.client_id,
            sub: username,
            aud: "tableau",
            exp: expires_at.timestamp(),
            iat: now.timestamp(),
            jti: uuid::Uuid::new_v4().to_string(),
            scp: scopes,
        };
        let token = jsonwebtoken::encode(&header, &claims, &self.key)?;
        Ok((token, expires_at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_the_connected_app_and_a_fresh_id() {
        let app = ConnectedApp::new("client-1", "secret-1", "value");
        let now = Utc::now();
        let (first, expires_at) = app.sign("ann@firm.example", EMBED_SCOPES, now).unwrap();
        let (second, _) = app.sign("ann@firm.example", EMBED_SCOPES, now).unwrap();
        assert_eq!(expires_at, now + TOKEN_LIFETIME);
        assert!(TOKEN_LIFETIME <= chrono::Duration::minutes(10));
        let header = jsonwebtoken::decode_header(&first).unwrap();
        assert_eq!(header.kid.as_deref(), Some("secret-1"));
        assert_eq!(header.extras.get::<String>("iss").unwrap().as_deref(), Some("client-1"));
        let claims = |token: &str| jsonwebtoken::dangerous::insecure_decode::<serde_json::Value>(token).unwrap().claims;
        assert_ne!(claims(&first)["jti"], claims(&second)["jti"]);
    }
}
