//! Tokens for tests: real tokens of the built-in provider for each role, and hand-made ones
//! (expired, wrong issuer, forged) signed with the provider's real key or with others.

use insights::{
    AppState,
    auth::{provider, scopes},
};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestRole {
    Administrator,
    Editor,
    Contributor,
    Subscriber,
    Trial,
    NoScope,
}

impl TestRole {
    pub fn scopes(self) -> Vec<String> {
        let scopes: &[&str] = match self {
            TestRole::Administrator => &[scopes::ADMIN],
            TestRole::Editor => &[scopes::EDITOR],
            TestRole::Contributor => &[scopes::CONTRIBUTOR],
            TestRole::Subscriber => &[scopes::READER],
            TestRole::Trial => &[scopes::TRIAL_READER],
            TestRole::NoScope => &[],
        };
        scopes.iter().map(|s| s.to_string()).collect()
    }

    pub fn email(self) -> String {
        format!("{self:?}@test.example").to_lowercase()
    }
}

pub async fn for_role(state: &AppState, role: TestRole) -> String {
    for_user(state, &role.email(), role.scopes()).await
}

pub async fn for_user(state: &AppState, email: &str, scopes: Vec<String>) -> String {
    let claims = provider::UserClaims::new(email, "Test User", Some("Test Co"), scopes.clone());
    let subject = provider::subject_for(&state.config, email, false);
    provider::sign_access_token(state, &subject, &scopes.join(" "), &claims, std::time::Duration::from_secs(600))
        .await
        .expect("sign a token")
}

/// Claims of a valid access token for the built-in provider, to be altered by a test.
pub fn valid_claims(state: &AppState, scope: &str) -> Value {
    let now = chrono::Utc::now().timestamp();
    json!({
        "iss": state.config.issuer(), "aud": state.config.auth.audience, "sub": "dev|forged-user",
        "email": "forged@test.example", "name": "Forged", "scope": scope,
        "iat": now, "nbf": now, "exp": now + 600,
    })
}

/// Signs `claims` with the built-in provider's current key (and its real `kid`).
pub async fn sign_with_provider_key(state: &AppState, claims: &Value) -> String {
    let key = provider::keys::current(&state.pool).await.unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some(key.kid);
    jsonwebtoken::encode(&header, claims, &key.key).unwrap()
}

pub fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
