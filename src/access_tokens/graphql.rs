//! `myAccessTokens`, `createAccessToken(name)` (the secret shown once), `revokeAccessToken(id)`;
//! for Administrators, a reader's tokens (`userAccessTokens`) and revoking any of them.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::queries;
use crate::{
    auth::{ALL_ROLES, Role},
    error::Result,
    graphql::{app_state, viewer},
};

#[derive(SimpleObject)]
pub struct AccessToken {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    created_at: DateTime<Utc>,
    /// The last request made with it (to the minute); none before the first.
    last_used_at: Option<DateTime<Utc>>,
}

impl From<queries::AccessTokenRow> for AccessToken {
    fn from(row: queries::AccessTokenRow) -> Self {
        AccessToken { id: ID(row.access_token_id), name: row.name, created_at: row.created_at, last_used_at: row.last_used_at }
    }
}

#[derive(SimpleObject)]
pub struct CreatedAccessToken {
    token: AccessToken,
    /// The bearer value (`insights_pat_…`): shown this once, never again.
    secret: String,
}

#[derive(Default)]
pub struct AccessTokensQuery;

#[Object]
impl AccessTokensQuery {
    /// The caller's access tokens, newest first (revoked ones are gone).
    async fn my_access_tokens(&self, ctx: &Context<'_>) -> Result<Vec<AccessToken>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        Ok(queries::tokens_of(&app_state(ctx).pool, &viewer.user.user_id).await?.into_iter().map(AccessToken::from).collect())
    }

    /// Administrators: a user's active access tokens.
    async fn user_access_tokens(&self, ctx: &Context<'_>, user_id: ID) -> Result<Vec<AccessToken>> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        Ok(queries::tokens_of(&app_state(ctx).pool, &user_id).await?.into_iter().map(AccessToken::from).collect())
    }
}

#[derive(Default)]
pub struct AccessTokensMutation;

#[Object]
impl AccessTokensMutation {
    /// A new read-only access token of the caller's, named for where it is used (at most 100
    /// characters). At most 10 at once (CONFLICT).
    async fn create_access_token(&self, ctx: &Context<'_>, name: String) -> Result<CreatedAccessToken> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let (token, secret) = super::create(app_state(ctx), &viewer.user.user_id, &name).await?;
        Ok(CreatedAccessToken { token: token.into(), secret })
    }

    /// Revokes one of the caller's tokens (Administrators: anyone's); it stops at once.
    async fn revoke_access_token(&self, ctx: &Context<'_>, id: ID) -> Result<bool> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(ALL_ROLES)?;
        super::revoke(app_state(ctx), &viewer.user.user_id, role == Role::Administrator, &id).await?;
        Ok(true)
    }
}
