//! Taxonomy: topics (the spec's categories, a tree at most 5 levels deep), tags, and readers
//! following topics. Counts shown in lists (articles, followers, contributors, views) are computed
//! from the article and follow tables in the same statement that lists the records.

pub mod cache;
mod graphql;
pub mod model;
pub mod queries;
pub mod seed;
pub mod shared_reads;
pub mod service;

pub use graphql::{Follower, PromotionalContentSummary, TagObject, TaxonomyMutation, TaxonomyQuery};
pub use service::{CategoryChange, TagChange};
