//! Identity: bearer-token validation against a JWKS, roles from scopes, trial state, the signed-in
//! `Viewer`, and the built-in development OpenID Connect provider (DESIGN.md §5).

pub mod jwt;
pub mod provider;
mod roles;
pub mod session;

pub use jwt::{Claims, TokenValidator};
pub use roles::{
    Identity, Role, TrialState, UNUSABLE_EMAIL, account_trial_ends, claim_limits, is_trial_reader, scopes, trial_minutes_left,
};

use crate::users::User;

/// Staff roles: they work in the publisher area.
pub const STAFF: &[Role] = &[Role::Administrator, Role::Editor, Role::Contributor];
/// Every Insights role.
pub const ALL_ROLES: &[Role] = &[Role::Administrator, Role::Editor, Role::Contributor, Role::Subscriber];

/// Who is calling, resolved once per request by the HTTP layer.
#[derive(Debug, Clone)]
pub enum Auth {
    /// No bearer token.
    Anonymous,
    /// A bearer token that failed validation.
    Invalid,
    Signed(Box<Viewer>),
}

/// A signed-in caller: the validated token's identity and the stored user, loaded per request so
/// changes take effect at once.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub identity: Identity,
    pub user: User,
    pub role: Option<Role>,
    pub trial: TrialState,
    /// -1 without a trial, 0 once expired, else minutes left.
    pub trial_minutes_left: i64,
    /// The personal access token the caller came with (`crate::access_tokens`): read-only.
    pub access_token: Option<String>,
}

impl Auth {
    pub fn viewer(&self) -> crate::error::Result<&Viewer> {
        match self {
            Auth::Signed(viewer) => Ok(viewer),
            _ => Err(crate::error::Error::Unauthenticated),
        }
    }
}

impl Viewer {
    /// The caller's role, or FORBIDDEN when the token carries no Insights scope.
    pub fn role(&self) -> crate::error::Result<Role> {
        self.role.ok_or(crate::error::Error::Forbidden)
    }

    /// `require`, for a change: a personal access token (read-only) may not make one.
    pub fn require_to_change(&self, roles: &[Role]) -> crate::error::Result<Role> {
        let role = self.require(roles)?;
        if self.access_token.is_some() { Err(crate::error::Error::Forbidden) } else { Ok(role) }
    }

    /// Requires one of `roles`; an expired trial answers TRIAL_EXPIRED first.
    pub fn require(&self, roles: &[Role]) -> crate::error::Result<Role> {
        if self.trial == TrialState::TrialExpired {
            return Err(crate::error::Error::TrialExpired);
        }
        let role = self.role()?;
        if roles.contains(&role) { Ok(role) } else { Err(crate::error::Error::Forbidden) }
    }
}
