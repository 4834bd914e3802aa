//! The caller's subscriptions, read through what the server keeps (`kept`): at their revision
//! (migration 0019: every change to a reader's subscriptions, or to their channels' names and
//! types, moves it), else one statement. `RequestScope::viewer_subscriptions` reads them once per
//! query, whatever asks for them.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::{
    model::SubscriptionAccess,
    queries::{self, SubscriptionRow},
};
use crate::{error::Result, kept::RequestScope};

/// The caller's subscriptions, every state, by channel name.
pub struct ViewerSubscriptions {
    pub rows: Vec<SubscriptionRow>,
}

impl ViewerSubscriptions {
    pub fn find(&self, channel_id: &str) -> Option<&SubscriptionRow> {
        self.rows.iter().find(|row| row.channel_id == channel_id)
    }

    /// The access the caller's subscription to `channel_id` gives, if they have one.
    pub fn access(&self, channel_id: &str) -> Option<SubscriptionAccess> {
        self.find(channel_id).map(SubscriptionRow::access)
    }

    /// Whether the caller holds `channel_id` now: a live subscription, or one waiting for staff.
    pub fn holds(&self, channel_id: &str, now: DateTime<Utc>) -> bool {
        self.find(channel_id).is_some_and(|row| row.machine().is_live_or_pending(now))
    }

    /// Channels the caller is actively subscribed to now.
    pub fn active_channel_ids(&self, now: DateTime<Utc>) -> Vec<String> {
        self.rows.iter().filter(|row| row.access().is_active(now)).map(|row| row.channel_id.clone()).collect()
    }

    /// Channels whose articles the caller's subscription opens in full now.
    pub fn full_channel_ids(&self, now: DateTime<Utc>) -> Vec<String> {
        self.rows.iter().filter(|row| row.access().gives_full_articles(now)).map(|row| row.channel_id.clone()).collect()
    }
}

/// `user_id`'s subscriptions (the signed-in caller's) as of the request's revision.
pub(crate) async fn of_viewer(scope: &RequestScope, user_id: &str) -> Result<Arc<ViewerSubscriptions>> {
    let state = scope.state();
    let revision = scope.revisions().await?.subscriptions;
    let read = async { Ok::<_, sqlx::Error>(Arc::new(ViewerSubscriptions { rows: queries::of_user(&state.pool, user_id).await? })) };
    Ok(state.kept.reader_subscriptions.find_or_read(user_id.to_owned(), revision, |_| true, read).await?)
}
