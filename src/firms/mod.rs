//! Client firms (issue 39): organisations that buy channels for their people. Staff keep firms
//! (domains, members, subscriptions with seats); a firm's own administrators give seats, invite
//! colleagues and read their firm's usage; a seat opens its channel to its holder through the one
//! entitlement rule (`subscriptions::read`).

pub mod domains;
pub mod export;
mod graphql;
pub mod import;
pub mod queries;
pub mod seats;
pub mod service;
pub mod subscriptions;
pub mod usage;

pub use graphql::{FirmOfUser, FirmsMutation, FirmsQuery, firm_of_user};
