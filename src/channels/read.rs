//! Every channel kept in memory at the channels' revision (migration 0020): reader channel lists
//! and an article's channel card are answered from it. Channels are few (hundreds at most), so the
//! whole set is read on a miss.

use std::{collections::HashMap, sync::Arc};

use super::queries::{self, ChannelFilter, ChannelRow};
use crate::{error::Result, kept::RequestScope};

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

/// Every channel as of this request's channels revision: kept, else read (two statements) and kept.
pub async fn every_channel(scope: &RequestScope) -> Result<Arc<AllChannels>> {
    let state = scope.state();
    let revision = scope.revisions().await?.channels;
    let read = async {
        // No user has the empty id: `viewer_is_admin` is false in every row.
        let rows = queries::select_channels(&state.pool, &ChannelFilter { viewer: "", sort: "name", ..Default::default() }).await?;
        let ids: Vec<String> = rows.iter().map(|row| row.channel_id.clone()).collect();
        let mut admins: HashMap<String, Vec<String>> = HashMap::new();
        for (channel_id, user) in queries::admins_of(&state.pool, &ids).await? {
            admins.entry(channel_id).or_default().push(user.user_id);
        }
        Ok::<_, sqlx::Error>(Arc::new(AllChannels { channels: rows.into_iter().map(Arc::new).collect(), admins }))
    };
    Ok(state.kept.all_channels.find_or_read((), revision, |_| true, read).await?)
}
