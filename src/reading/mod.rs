//! The reader side (spec 3 §2–§9): who may read what (`entitlement`), published articles as
//! cards and pages, the reader lists and browse facts, views and trending, campaigns and
//! registered interest. Full-text search is the `search` area, built on the same cards.

pub mod entitlement;
mod graphql;
pub mod queries;
pub mod read;
pub mod service;
pub mod statement;

pub use graphql::{ArticleCard, PageInfo, Reader, ReadingMutation, ReadingQuery, page_size, recommended_articles, row_facts};
