//! Taxonomy: topics (the spec's categories, a tree at most 5 levels deep), tags, and readers
//! following topics. Topic counts (articles, followers, contributors, views) are computed for every
//! topic in one statement and kept while their revision is unchanged (read.rs); tag counts in the
//! statement that lists the tags.

mod graphql;
pub mod model;
pub mod queries;
pub mod read;
pub mod seed;
pub mod service;
pub mod shared_reads;

pub use graphql::{Follower, PromotionalContentSummary, TagObject, TaxonomyMutation, TaxonomyQuery};
pub use service::{CategoryChange, TagChange};
