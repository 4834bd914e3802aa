//! Channels: what articles are published into and readers subscribe to (spec 3 §2–§6). Staff
//! manage them here; the archive routine is the one place that retires a channel and its content.

mod graphql;
mod model;
pub mod queries;
mod random_pick;
pub mod read;
pub mod service;

pub use graphql::{ChannelCountsLoader, ChannelObject, ChannelsMutation, ChannelsQuery, channels_by_ids, channels_to_publish};
pub use model::{ChannelState, ChannelType, OwnerType};
