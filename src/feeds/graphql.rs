//! `myFeedLinks`, `createFeedLink(scope)` (the address shown once), `revokeFeedLink(id)`; for
//! Administrators, a reader's links (`userFeedLinks`) and revoking any of them.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{ScopeKind, queries};
use crate::{
    auth::{ALL_ROLES, Role},
    error::Result,
    graphql::{app_state, viewer},
};

#[derive(InputObject)]
#[graphql(name = "FeedScopeInput")]
pub struct ScopeInput {
    kind: ScopeKind,
    /// The channel, topic, desk or contributor (none for `all`).
    id: Option<ID>,
}

#[derive(SimpleObject)]
pub struct FeedScope {
    kind: ScopeKind,
    id: Option<ID>,
    /// The channel's, topic's, desk's or contributor's name now (none for `all`, or when deleted).
    name: Option<String>,
}

#[derive(SimpleObject)]
pub struct FeedLink {
    #[graphql(name = "_id")]
    id: ID,
    scope: FeedScope,
    created_at: DateTime<Utc>,
    /// The last fetch (to the minute); none before the first.
    last_used_at: Option<DateTime<Utc>>,
}

impl From<queries::FeedLinkRow> for FeedLink {
    fn from(row: queries::FeedLinkRow) -> Self {
        FeedLink {
            id: ID(row.feed_link_id),
            scope: FeedScope { kind: ScopeKind::parse(&row.scope_kind), id: row.scope_id.map(ID), name: row.scope_name },
            created_at: row.created_at,
            last_used_at: row.last_used_at,
        }
    }
}

#[derive(SimpleObject)]
pub struct CreatedFeedLink {
    link: FeedLink,
    /// The feed's address with its secret: shown this once, never again.
    url: String,
}

#[derive(Default)]
pub struct FeedsQuery;

#[Object]
impl FeedsQuery {
    /// The caller's feed links, newest first (revoked ones are gone).
    async fn my_feed_links(&self, ctx: &Context<'_>) -> Result<Vec<FeedLink>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        Ok(queries::links_of(&app_state(ctx).pool, &viewer.user.user_id).await?.into_iter().map(FeedLink::from).collect())
    }

    /// Administrators: a user's active feed links.
    async fn user_feed_links(&self, ctx: &Context<'_>, user_id: ID) -> Result<Vec<FeedLink>> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        Ok(queries::links_of(&app_state(ctx).pool, &user_id).await?.into_iter().map(FeedLink::from).collect())
    }
}

#[derive(Default)]
pub struct FeedsMutation;

#[Object]
impl FeedsMutation {
    /// A new feed link of the caller's: their subscriptions (`all`), or a channel, topic (with its
    /// sub-topics), desk or contributor. At most 20 at once (CONFLICT).
    async fn create_feed_link(&self, ctx: &Context<'_>, scope: ScopeInput) -> Result<CreatedFeedLink> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let state = app_state(ctx);
        let (link, secret) = super::create_link(state, &viewer.user.user_id, scope.kind, scope.id.as_ref().map(|id| id.as_str())).await?;
        Ok(CreatedFeedLink { link: link.into(), url: super::feed_url(state, &secret) })
    }

    /// Revokes one of the caller's links (Administrators: anyone's); it stops at once.
    async fn revoke_feed_link(&self, ctx: &Context<'_>, id: ID) -> Result<bool> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(ALL_ROLES)?;
        super::revoke_link(app_state(ctx), &viewer.user.user_id, role == Role::Administrator, &id).await?;
        Ok(true)
    }
}
