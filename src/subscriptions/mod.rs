//! Channel subscriptions (spec 3 §3–§4): their types and states, when one gives access, and the
//! signed-in reader's subscriptions as every reader query sees them. (Requests, approvals and
//! administration come with the subscriptions issue.)

mod graphql;
pub mod model;
pub mod queries;

pub use graphql::{ChannelSubscriptionObject, ViewerSubscriptions, ViewerSubscriptionsCell, viewer_subscriptions};
