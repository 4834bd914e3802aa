//! Schema assembly: one query and one mutation object per area, merged; the request context
//! helpers; the access gate; the client configuration query.

mod access;
mod client_config;
mod pagination;
mod request_errors;

use async_graphql::{Context, EmptySubscription, MergedObject, Schema, SchemaBuilder};

use crate::{
    auth::{Auth, Viewer},
    error::Result,
    state::AppState,
    taxonomy::{TaxonomyMutation, TaxonomyQuery},
    users::{UsersMutation, UsersQuery},
};

pub use access::AccessGate;
pub use request_errors::{PARSE_FAILED, VALIDATION_FAILED};
pub use client_config::LOG_BATCH_MAX;
pub use pagination::{DEFAULT_PAGE_SIZE, DeleteResult, PAGE_SIZES, Page, PageParams, SortDirection};
use client_config::ConfigQuery;

#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct QueryRoot(ConfigQuery, UsersQuery, TaxonomyQuery);

#[derive(MergedObject, Default)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(UsersMutation, TaxonomyMutation);

pub type AppSchema = Schema<QueryRoot, MutationRoot, EmptySubscription>;

fn builder() -> SchemaBuilder<QueryRoot, MutationRoot, EmptySubscription> {
    Schema::build(QueryRoot::default(), MutationRoot::default(), EmptySubscription)
}

/// The schema served by `/graphql`, with the state and the request limits.
pub fn build_schema(state: AppState) -> AppSchema {
    let limits = state.config.limits.clone();
    builder()
        .data(state)
        .extension(request_errors::RequestErrorCodes)
        .extension(AccessGate)
        .limit_depth(limits.graphql_max_depth)
        .limit_complexity(limits.graphql_max_complexity)
        .limit_recursive_depth(64)
        .finish()
}

/// The SDL that `insights-cli schema` writes to `web/schema.graphql`.
pub fn sdl() -> String {
    builder().finish().sdl()
}

pub fn app_state<'a>(ctx: &Context<'a>) -> &'a AppState {
    ctx.data_unchecked::<AppState>()
}

/// The signed-in caller, or UNAUTHENTICATED.
pub fn viewer<'a>(ctx: &Context<'a>) -> Result<&'a Viewer> {
    ctx.data_unchecked::<Auth>().viewer()
}
