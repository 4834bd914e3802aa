//! The caller's subscriptions, read through what the server keeps (`kept`): at their revision
//! (migration 0019: every change to a reader's subscriptions, or to their channels' names and
//! types, moves it; 0034: so does every change to their firm seats and the subscriptions behind
//! them), else two statements. `RequestScope::viewer_subscriptions` reads them once per query,
//! whatever asks for them.
//!
//! A reader holds a channel by their own subscription or by a seat of their firm's (issue 39):
//! every access question below asks both, so every path that decides what a reader may read
//! (`reading::entitlement::can_see_full_version` and the searches that must decide it in SQL)
//! follows a seat given or taken back at once.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use super::{
    model::{SubscriptionAccess, SubscriptionState},
    queries::{self, SubscriptionRow},
};
use crate::{error::Result, firms::queries::ReaderSeatRow, kept::RequestScope};

/// The caller's subscriptions, every state, by channel name, and their firm seats.
pub struct ViewerSubscriptions {
    pub rows: Vec<SubscriptionRow>,
    pub seats: Vec<ReaderSeatRow>,
}

/// The access a seat gives: its firm subscription's, from its start.
pub fn seat_access(seat: &ReaderSeatRow) -> SubscriptionAccess {
    SubscriptionAccess {
        state: SubscriptionState::parse(&seat.subscription_state),
        cancel_at: seat.cancel_at,
        is_full_article_content: seat.is_full_article_content,
        starts_at: Some(seat.starts_at),
    }
}

impl ViewerSubscriptions {
    /// Reads `user_id`'s subscriptions and seats (for a caller outside a request's scope).
    pub async fn read(pool: &PgPool, user_id: &str) -> sqlx::Result<ViewerSubscriptions> {
        Ok(ViewerSubscriptions {
            rows: queries::of_user(pool, user_id).await?,
            seats: crate::firms::queries::seats_of_user(pool, user_id).await?,
        })
    }

    /// The caller's own subscription to `channel_id`.
    pub fn find(&self, channel_id: &str) -> Option<&SubscriptionRow> {
        self.rows.iter().find(|row| row.channel_id == channel_id)
    }

    /// The caller's seat of `channel_id`, given by their firm.
    pub fn seat(&self, channel_id: &str) -> Option<&ReaderSeatRow> {
        self.seats.iter().find(|seat| seat.channel_id == channel_id)
    }

    /// The seat of `channel_id` that gives access at `now`, when the caller's own subscription
    /// does not (what the reader's card and Subscriptions page say they hold it by).
    pub fn providing_seat(&self, channel_id: &str, now: DateTime<Utc>) -> Option<&ReaderSeatRow> {
        let own_active = self.find(channel_id).is_some_and(|row| row.access().is_active(now));
        self.seat(channel_id).filter(|seat| !own_active && seat_access(seat).is_active(now))
    }

    /// The access the caller has to `channel_id` at `now`: the better of their own subscription
    /// and their seat (full articles over summaries, active over ended).
    pub fn access(&self, channel_id: &str, now: DateTime<Utc>) -> Option<SubscriptionAccess> {
        let own = self.find(channel_id).map(SubscriptionRow::access);
        let seat = self.seat(channel_id).map(seat_access);
        let rank = |access: &SubscriptionAccess| (access.gives_full_articles(now), access.is_active(now));
        match (own, seat) {
            (Some(own), Some(seat)) if rank(&seat) > rank(&own) => Some(seat),
            (own, seat) => own.or(seat),
        }
    }

    /// Whether the caller is actively subscribed to `channel_id` now, by either way.
    pub fn is_active(&self, channel_id: &str, now: DateTime<Utc>) -> bool {
        self.access(channel_id, now).is_some_and(|access| access.is_active(now))
    }

    /// Whether the caller holds `channel_id` now: a live subscription, one waiting for staff, or
    /// an active seat.
    pub fn holds(&self, channel_id: &str, now: DateTime<Utc>) -> bool {
        self.find(channel_id).is_some_and(|row| row.machine().is_live_or_pending(now))
            || self.seat(channel_id).is_some_and(|seat| seat_access(seat).is_active(now))
    }

    /// Channels the caller is actively subscribed to now.
    pub fn active_channel_ids(&self, now: DateTime<Utc>) -> Vec<String> {
        self.channel_ids(|access| access.is_active(now))
    }

    /// Channels whose articles the caller's subscriptions open in full now.
    pub fn full_channel_ids(&self, now: DateTime<Utc>) -> Vec<String> {
        self.channel_ids(|access| access.gives_full_articles(now))
    }

    fn channel_ids(&self, keep: impl Fn(&SubscriptionAccess) -> bool) -> Vec<String> {
        let own = self.rows.iter().filter(|row| keep(&row.access())).map(|row| &row.channel_id);
        let seats = self.seats.iter().filter(|seat| keep(&seat_access(seat))).map(|seat| &seat.channel_id);
        let mut ids: Vec<String> = own.chain(seats).cloned().collect();
        ids.sort();
        ids.dedup();
        ids
    }
}

/// `user_id`'s subscriptions (the signed-in caller's) as of the request's revision.
pub(crate) async fn of_viewer(scope: &RequestScope, user_id: &str) -> Result<Arc<ViewerSubscriptions>> {
    let state = scope.state();
    let revision = scope.revisions().await?.subscriptions;
    let read = async { Ok::<_, sqlx::Error>(Arc::new(ViewerSubscriptions::read(&state.pool, user_id).await?)) };
    Ok(state.kept.reader_subscriptions.find_or_read(user_id.to_owned(), revision, |_| true, read).await?)
}
