//! Every channel kept in memory at the channels' revision (migration 0020): reader channel lists
//! and an article's channel card are answered from it. Channels are few (hundreds at most), so the
//! whole set is read on a miss.

use std::{collections::HashMap, sync::Arc};

use async_graphql::Context;

use super::queries::{self, ChannelFilter, ChannelRow};
use crate::{error::Result, graphql::app_state, revisions::KeptByRevision, revisions::request_revisions};

/// Every channel, archived ones included, in the name order every reader list shows.
pub struct AllChannels {
    /// `viewer_is_admin` is false in each: ask `is_admin`.
    pub channels: Vec<Arc<ChannelRow>>,
    /// Each channel's admins' user ids.
    admins: HashMap<String, Vec<String>>,
}

impl AllChannels {
    pub fn is_admin(&self, channel_id: &str, user_id: &str) -> bool {
        self.admins.get(channel_id).is_some_and(|admins| admins.iter().any(|admin| admin == user_id))
    }
}

/// One value: the whole set.
pub type KeptChannels = KeptByRevision<AllChannels>;

pub fn kept() -> KeptChannels {
    KeptByRevision::new(1)
}

/// Every channel as of this request's channels revision: kept, else read (two statements) and kept.
pub async fn all_channels(ctx: &Context<'_>) -> Result<Arc<AllChannels>> {
    let state = app_state(ctx);
    let revision = request_revisions(ctx).await?.channels;
    let read = async {
        // No user has the empty id: `viewer_is_admin` is false in every row.
        let rows = queries::select_channels(&state.pool, &ChannelFilter { viewer: "", sort: "name", ..Default::default() }).await?;
        let ids: Vec<String> = rows.iter().map(|row| row.channel_id.clone()).collect();
        let mut admins: HashMap<String, Vec<String>> = HashMap::new();
        for (channel_id, user) in queries::admins_of(&state.pool, &ids).await? {
            admins.entry(channel_id).or_default().push(user.user_id);
        }
        Ok::<_, sqlx::Error>(AllChannels { channels: rows.into_iter().map(Arc::new).collect(), admins })
    };
    Ok(state.channels.find_or_read("", revision, |_| true, read).await?)
}
