//! A stand-in external OpenID provider on a free port: a discovery document and a JWKS, with a
//! key that can be rotated, so tests prove the validation path against a third-party issuer.

use std::sync::{Arc, RwLock};

use axum::{Json, Router, routing::get};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

const RSA_PEM: &str = include_str!("fixtures/external_rsa.pem");
const RSA_JWK: &str = include_str!("fixtures/external_rsa.jwk.json");

pub struct ExternalIssuer {
    pub issuer: String,
    /// Published keys (JWKs with their kid).
    keys: Arc<RwLock<Vec<Value>>>,
    current_kid: RwLock<String>,
}

impl ExternalIssuer {
    pub async fn start() -> ExternalIssuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let keys: Arc<RwLock<Vec<Value>>> = Arc::new(RwLock::new(vec![jwk_with_kid("rsa-1")]));
        let discovery = json!({ "issuer": issuer, "jwks_uri": format!("{issuer}/jwks") });
        let published = keys.clone();
        let app = Router::new()
            .route("/.well-known/openid-configuration", get(move || async move { Json(discovery) }))
            .route("/jwks", get(move || async move { Json(json!({ "keys": published.read().unwrap().clone() })) }));
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        ExternalIssuer { issuer, keys, current_kid: RwLock::new("rsa-1".into()) }
    }

    /// Publishes the key under a new `kid` and signs with it from now on (the old one is retired).
    pub fn rotate(&self, kid: &str) {
        *self.keys.write().unwrap() = vec![jwk_with_kid(kid)];
        *self.current_kid.write().unwrap() = kid.to_owned();
    }

    pub fn sign(&self, claims: &Value) -> String {
        self.sign_with_kid(claims, &self.current_kid.read().unwrap().clone())
    }

    pub fn sign_with_kid(&self, claims: &Value, kid: &str) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_rsa_pem(RSA_PEM.as_bytes()).unwrap()).unwrap()
    }

    pub fn claims(&self, audience: &str, sub: &str, scope: &str) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({
            "iss": self.issuer, "aud": audience, "sub": sub, "email": format!("{sub}@corp.example"),
            "name": "External User", "permissions": scope.split_whitespace().collect::<Vec<_>>(),
            "iat": now, "nbf": now, "exp": now + 600,
        })
    }
}

fn jwk_with_kid(kid: &str) -> Value {
    let mut jwk: Value = serde_json::from_str(RSA_JWK).unwrap();
    jwk["kid"] = json!(kid);
    jwk
}
