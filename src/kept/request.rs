//! One request's scope: what its fields share, read once by the first field that needs it.

use std::sync::Arc;

use async_graphql::Context;
use tokio::sync::OnceCell;

use super::revisions::{self, Revisions};
use crate::{error::Result, state::AppState, subscriptions::ViewerSubscriptions, taxonomy::read::Topics};

/// Inserted by the router into every GraphQL request (`http::request_data`). In a query, the
/// revisions, the topics and the caller's subscriptions are read once, by the first field that
/// needs them, so that the fields agree; a mutation reads them again at each use, for its later
/// fields must see what earlier ones wrote.
pub struct RequestScope {
    state: AppState,
    /// The signed-in caller's user id.
    user_id: Option<String>,
    /// A query: read once and shared by the fields.
    shared: bool,
    revisions: OnceCell<Revisions>,
    topics: OnceCell<Arc<Topics>>,
    subscriptions: OnceCell<Arc<ViewerSubscriptions>>,
    trial_cool_off: OnceCell<chrono::Duration>,
}

impl RequestScope {
    pub fn new(state: AppState, user_id: Option<String>, is_query: bool) -> Self {
        RequestScope {
            state,
            user_id,
            shared: is_query,
            revisions: OnceCell::new(),
            topics: OnceCell::new(),
            subscriptions: OnceCell::new(),
            trial_cool_off: OnceCell::new(),
        }
    }

    /// The scope of the request a resolver runs in.
    pub fn of<'a>(ctx: &Context<'a>) -> &'a RequestScope {
        ctx.data_unchecked::<RequestScope>()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// `read` once per query; at each call in a mutation.
    async fn once<T: Clone>(&self, cell: &OnceCell<T>, read: impl AsyncFnOnce() -> Result<T>) -> Result<T> {
        if self.shared { cell.get_or_try_init(async || read().await).await.cloned() } else { read().await }
    }

    /// The revisions as of this request, for the signed-in caller.
    pub async fn revisions(&self) -> Result<Revisions> {
        self.once(&self.revisions, async || Ok(revisions::read(&self.state.pool, self.user_id.as_deref()).await?)).await
    }

    /// Every topic as of this request's topics revision.
    pub async fn topics(&self) -> Result<Arc<Topics>> {
        self.once(&self.topics, async || crate::taxonomy::read::topics(self).await).await
    }

    /// The signed-in caller's subscriptions as of this request (UNAUTHENTICATED without a caller).
    pub async fn viewer_subscriptions(&self) -> Result<Arc<ViewerSubscriptions>> {
        let user_id = self.user_id.as_deref().ok_or(crate::error::Error::Unauthenticated)?;
        self.once(&self.subscriptions, async || crate::subscriptions::read::of_viewer(self, user_id).await).await
    }

    /// The trial policy's cool-off (the readers' cards offer a trial only after it).
    pub async fn trial_cool_off(&self) -> Result<chrono::Duration> {
        self.once(&self.trial_cool_off, async || crate::trials::cool_off(&self.state.pool).await).await
    }
}
