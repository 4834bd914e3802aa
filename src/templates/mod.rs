//! Templates: the starting points of articles (spec 2 "Templates"), with a channel, contributors,
//! topics and tags; a title may hold today's date placeholder.

mod graphql;
pub mod queries;
pub mod service;

pub use graphql::{TemplatesMutation, TemplatesQuery};
