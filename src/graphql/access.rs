//! Deny by default at the root of every operation: only the public fields answer anonymous
//! callers; only the identity fields answer callers without an Insights role; and a reader whose
//! trial has expired gets TRIAL_EXPIRED everywhere else. Resolvers then check their own roles
//! and per-record rules.

use std::sync::Arc;

use async_graphql::{
    ErrorExtensions, Pos, ServerResult, Value,
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextResolve, ResolveInfo},
};

use crate::{
    auth::{Auth, TrialState},
    error::Error,
};

/// Fields anyone may call: the client needs its configuration before sign-in.
const PUBLIC_FIELDS: &[&str] = &["config", "__typename", "__schema", "__type"];
/// Fields any signed-in caller may call, so the app can tell them why they can go no further.
const IDENTITY_FIELDS: &[&str] = &["me", "updateUserFromToken", "isUserProfileComplete"];

pub struct AccessGate;

impl ExtensionFactory for AccessGate {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(AccessGateExtension)
    }
}

struct AccessGateExtension;

/// The refusal for a root field, if any.
pub(crate) fn refusal(auth: &Auth, field: &str) -> Option<Error> {
    if PUBLIC_FIELDS.contains(&field) {
        return None;
    }
    let viewer = match auth {
        Auth::Signed(viewer) => viewer,
        Auth::Anonymous | Auth::Invalid => return Some(Error::Unauthenticated),
    };
    if IDENTITY_FIELDS.contains(&field) {
        return None;
    }
    if viewer.role.is_none() {
        return Some(Error::Forbidden);
    }
    if viewer.trial == TrialState::TrialExpired {
        return Some(Error::TrialExpired);
    }
    None
}

#[async_trait::async_trait]
impl Extension for AccessGateExtension {
    async fn resolve(&self, ctx: &ExtensionContext<'_>, info: ResolveInfo<'_>, next: NextResolve<'_>) -> ServerResult<Option<Value>> {
        if info.path_node.parent.is_none() {
            let auth = ctx.data_opt::<Auth>().unwrap_or(&Auth::Anonymous);
            if let Some(error) = refusal(auth, info.name) {
                let mut server_error = error.extend().into_server_error(Pos::default());
                server_error.locations.clear();
                server_error.path = vec![async_graphql::PathSegment::Field(info.alias.unwrap_or(info.name).to_owned())];
                return Err(server_error);
            }
        }
        next.run(ctx, info).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        auth::{Identity, Role, Viewer},
        users::User,
    };

    fn signed(role: Option<Role>, trial: TrialState) -> Auth {
        let identity = Identity {
            subject: "dev|1".into(),
            email: "a@b.c".into(),
            name: "A".into(),
            first_name: None,
            last_name: None,
            company: None,
            phone: None,
            scopes: vec![],
        };
        let user = User {
            user_id: crate::ids::new_id(),
            subject: "dev|1".into(),
            email: "a@b.c".into(),
            name: "A".into(),
            first_name: None,
            last_name: None,
            company: None,
            phone: None,
            position: None,
            scopes: vec![],
            is_internal: false,
            display_avatar: false,
            tableau_access: false,
            first_login: chrono::Utc::now(),
            last_login: None,
            version: 1,
        };
        Auth::Signed(Box::new(Viewer { identity, user, role, trial, trial_minutes_left: 0 }))
    }

    fn code(auth: &Auth, field: &str) -> Option<&'static str> {
        refusal(auth, field).map(|e| e.code())
    }

    #[test]
    fn anonymous_callers_reach_only_public_fields() {
        assert_eq!(code(&Auth::Anonymous, "config"), None);
        assert_eq!(code(&Auth::Anonymous, "__schema"), None);
        assert_eq!(code(&Auth::Anonymous, "me"), Some("UNAUTHENTICATED"));
        assert_eq!(code(&Auth::Invalid, "categoriesAsTree"), Some("UNAUTHENTICATED"));
    }

    #[test]
    fn callers_without_a_role_reach_only_identity_fields() {
        let outsider = signed(None, TrialState::NoTrial);
        assert_eq!(code(&outsider, "me"), None);
        assert_eq!(code(&outsider, "updateUserFromToken"), None);
        assert_eq!(code(&outsider, "categoriesAsTree"), Some("FORBIDDEN"));
    }

    #[test]
    fn an_expired_trial_reaches_only_identity_and_public_fields() {
        let expired = signed(Some(Role::Subscriber), TrialState::TrialExpired);
        assert_eq!(code(&expired, "searchArticles"), Some("TRIAL_EXPIRED"));
        assert_eq!(code(&expired, "categoriesAsTree"), Some("TRIAL_EXPIRED"));
        assert_eq!(code(&expired, "me"), None);
        assert_eq!(code(&expired, "isUserProfileComplete"), None);
        assert_eq!(code(&expired, "config"), None);
        assert!(refusal(&expired, "anything").unwrap().message().contains("Trial period has expired"));

        let running = signed(Some(Role::Subscriber), TrialState::TrialContinues);
        assert_eq!(code(&running, "searchArticles"), None);
    }
}
