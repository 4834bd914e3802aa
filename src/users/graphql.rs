//! GraphQL of the users area: the `User` object and the identity operations.

use async_graphql::{Context, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{User, queries};
use crate::{
    auth::{Identity, Role, TrialState, is_trial_reader, trial_minutes_left},
    error::{Error, Result},
    graphql::{app_state, viewer},
};

#[Object]
impl User {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.user_id
    }

    /// The identity provider's subject for this user.
    async fn insights_user_id(&self) -> &str {
        &self.subject
    }

    async fn email(&self) -> &str {
        &self.email
    }

    async fn name(&self) -> &str {
        &self.name
    }

    async fn first_name(&self) -> Option<&str> {
        self.first_name.as_deref()
    }

    async fn last_name(&self) -> Option<&str> {
        self.last_name.as_deref()
    }

    async fn company(&self) -> Option<&str> {
        self.company.as_deref()
    }

    async fn phone(&self) -> Option<&str> {
        self.phone.as_deref()
    }

    /// The user's function (job title).
    async fn position(&self) -> Option<&str> {
        self.position.as_deref()
    }

    /// The highest role of the user's scopes; null when they carry no Insights scope.
    async fn role(&self) -> Option<Role> {
        Role::from_scopes(&self.scopes)
    }

    async fn scopes(&self) -> &[String] {
        &self.scopes
    }

    async fn is_internal(&self) -> bool {
        self.is_internal
    }

    /// Whether the user holds the `intelligence` scope.
    async fn intelligence(&self) -> bool {
        self.scopes.iter().any(|s| s == crate::auth::scopes::INTELLIGENCE)
    }

    async fn first_login(&self) -> DateTime<Utc> {
        self.first_login
    }

    async fn last_login(&self) -> Option<DateTime<Utc>> {
        self.last_login
    }

    async fn trial_state(&self, ctx: &Context<'_>) -> TrialState {
        TrialState::from_minutes_left(self.trial_minutes_left(ctx))
    }

    /// Minutes of trial left: -1 without a trial, 0 once expired.
    async fn trial_min_left(&self, ctx: &Context<'_>) -> i64 {
        self.trial_minutes_left(ctx)
    }

    async fn tableau_access(&self) -> bool {
        self.tableau_access
    }

    async fn display_avatar(&self) -> bool {
        self.display_avatar
    }

    async fn version(&self) -> i32 {
        self.version
    }
}

impl User {
    fn trial_minutes_left(&self, ctx: &Context<'_>) -> i64 {
        let trial_days = app_state(ctx).config.constants.trial_days;
        trial_minutes_left(is_trial_reader(&self.scopes), self.first_login, trial_days, Utc::now())
    }

    /// A profile is complete when the identity provider gave us a name and an email, and, for
    /// clients (external users), their company.
    pub fn is_profile_complete(&self) -> bool {
        !self.name.trim().is_empty()
            && !self.email.trim().is_empty()
            && (self.is_internal || self.company.as_deref().is_some_and(|c| !c.trim().is_empty()))
    }
}

#[derive(SimpleObject)]
pub struct UserFromToken {
    /// True on the user's first sign-in.
    is_new_user: bool,
    user: User,
}

#[derive(SimpleObject)]
pub struct ProfileCompleteness {
    is_profile_complete: bool,
}

#[derive(Default)]
pub struct UsersQuery;

#[Object]
impl UsersQuery {
    /// The signed-in user.
    async fn me(&self, ctx: &Context<'_>) -> Result<User> {
        Ok(viewer(ctx)?.user.clone())
    }

    async fn is_user_profile_complete(&self, ctx: &Context<'_>) -> Result<ProfileCompleteness> {
        Ok(ProfileCompleteness { is_profile_complete: viewer(ctx)?.user.is_profile_complete() })
    }
}

#[derive(Default)]
pub struct UsersMutation;

#[Object]
impl UsersMutation {
    /// Records a sign-in: creates or updates the user from the id token's claims. The id token must
    /// be valid for our client and belong to the caller of the access token.
    async fn update_user_from_token(&self, ctx: &Context<'_>, id_token: String) -> Result<UserFromToken> {
        let viewer = viewer(ctx)?;
        let state = app_state(ctx);
        let claims = state.tokens.validate(&id_token, &state.config.auth.client_id).await.map_err(|error| {
            tracing::info!(%error, "id token refused");
            Error::Unauthenticated
        })?;
        let config = &state.config;
        let from_id_token = Identity::from_claims(&claims, &config.auth.email_claim, &config.auth.name_claim)
            .ok_or(Error::Unauthenticated)?;
        if from_id_token.subject != viewer.identity.subject {
            return Err(Error::Forbidden);
        }
        // Scopes come from the access token: id tokens do not carry API permissions.
        let identity = Identity { scopes: viewer.identity.scopes.clone(), ..from_id_token };
        let is_internal = identity.subject.starts_with(&config.internal_id_prefix);
        let mut tx = state.pool.begin().await?;
        let (_, _) = queries::upsert_from_identity(&mut *tx, &identity, is_internal).await?;
        let previous_sign_in = queries::record_sign_in(&mut *tx, &viewer.user.user_id).await?;
        let user = queries::find_by_subject(&mut *tx, &identity.subject).await?.ok_or(Error::NotFound("User"))?;
        tx.commit().await?;
        Ok(UserFromToken { is_new_user: previous_sign_in.is_none(), user })
    }
}
