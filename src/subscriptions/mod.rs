//! Channel subscriptions (spec 3 §2–§9): the one state machine every change goes through, where
//! its changes are written (with the audit log and the emails they ask for), the reader's
//! requests, staff approvals and administration, bulk CSV imports, and the expiry sweep.

pub mod bulk;
pub mod csv_emails;
pub mod expiry;
mod graphql;
pub mod import;
pub mod machine;
pub mod model;
pub mod queries;
pub mod read;
pub mod service;
pub mod store;
pub mod subscribers;

pub use graphql::{ChannelSubscriptionObject, ReaderChannelCard, SubscriptionsMutation, SubscriptionsQuery, reader_card};
pub use read::ViewerSubscriptions;
