//! Desks: teams of contributors that publish articles and own channels (spec 2 §2 Desks).

mod graphql;
pub mod queries;
pub mod service;

pub use graphql::{DesksMutation, DesksQuery};
