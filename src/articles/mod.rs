//! Articles: authoring, the lifecycle, the list and stats (spec 2): the HTML sanitiser every
//! stored article, template and page goes through, the body's text, the rules and the API.

mod graphql;
pub mod model;
pub mod queries;
mod read;
pub mod sanitize;
pub mod service;
pub mod text;

pub use graphql::{
    ArticleChannel, ArticlePublisher, ArticleTag, ArticleTopic, ArticlesMutation, ArticlesQuery, channel, publisher, tags, topics,
};
