//! Insights core library: domain areas, database, GraphQL schema and HTTP router. The `insights-cli`
//! binary wires it together; the `insights-jobs` crate runs its background work.

// Every area's resolvers merge into one schema: checking its futures are Send goes deeper than
// the default limit.
#![recursion_limit = "256"]

pub mod access_tokens;
pub mod articles;
pub mod audit;
pub mod auth;
pub mod billing;
pub mod channels;
pub mod chat;
pub mod config;
pub mod csv_files;
pub mod db;
pub mod demo;
pub mod desks;
pub mod disclosures;
pub mod email;
pub mod error;
pub mod feeds;
pub mod firms;
pub mod graphql;
pub mod http;
pub mod ids;
pub mod interests;
pub mod jobs;
pub mod kept;
pub mod mcp;
pub mod metrics;
pub mod promotions;
pub mod reading;
pub mod search;
pub mod state;
pub mod subscriptions;
pub mod tableau;
pub mod taxonomy;
pub mod telemetry;
pub mod templates;
pub mod trials;
pub mod uploads;
pub mod users;
pub mod validation;
pub mod workers;

pub use config::Config;
pub use state::AppState;
