//! Schema assembly: one query and one mutation object per area, merged; the request context
//! helpers; the access gate; the client configuration query.

pub mod access;
mod client_config;
pub mod documents;
mod pagination;
pub mod screening;

use async_graphql::{Context, EmptySubscription, ID, MergedObject, Schema, SchemaBuilder, dataloader::DataLoader};

use crate::{
    articles::{ArticlesMutation, ArticlesQuery},
    auth::{Auth, Viewer},
    billing::graphql::{BillingMutation, BillingQuery},
    channels::{ChannelCountsLoader, ChannelsMutation, ChannelsQuery},
    desks::{DesksMutation, DesksQuery},
    email::graphql::EmailMutation,
    error::Result,
    promotions::{PromotionsMutation, PromotionsQuery},
    reading::{ReadingMutation, ReadingQuery},
    search::SearchQuery,
    state::AppState,
    subscriptions::{SubscriptionsMutation, SubscriptionsQuery},
    tableau::TableauQuery,
    taxonomy::{TaxonomyMutation, TaxonomyQuery},
    templates::{TemplatesMutation, TemplatesQuery},
    users::{UsersMutation, UsersQuery},
};

use client_config::ConfigQuery;
pub use client_config::LOG_BATCH_MAX;
pub use pagination::{
    DEFAULT_PAGE_SIZE, DeleteResult, PAGE_SIZES, Page, PageParams, SortDirection, checked_limit_offset, contains_pattern, total_from_page,
};

#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct QueryRoot(
    ConfigQuery,
    UsersQuery,
    TaxonomyQuery,
    ChannelsQuery,
    DesksQuery,
    ArticlesQuery,
    TemplatesQuery,
    ReadingQuery,
    SubscriptionsQuery,
    SearchQuery,
    BillingQuery,
    TableauQuery,
    PromotionsQuery,
    crate::chat::ChatQuery,
    crate::interests::InterestsQuery,
    crate::firms::FirmsQuery,
    crate::audit::AuditQuery,
    crate::trials::TrialsQuery,
    crate::disclosures::DisclosuresQuery,
    crate::feeds::FeedsQuery,
    crate::access_tokens::AccessTokensQuery,
);

#[derive(MergedObject, Default)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(
    UsersMutation,
    TaxonomyMutation,
    ChannelsMutation,
    DesksMutation,
    ArticlesMutation,
    TemplatesMutation,
    ReadingMutation,
    SubscriptionsMutation,
    EmailMutation,
    BillingMutation,
    PromotionsMutation,
    crate::interests::InterestsMutation,
    crate::firms::FirmsMutation,
    crate::trials::TrialsMutation,
    crate::disclosures::DisclosuresMutation,
    crate::feeds::FeedsMutation,
    crate::access_tokens::AccessTokensMutation,
);

pub type AppSchema = Schema<QueryRoot, MutationRoot, EmptySubscription>;

/// Codes for errors async-graphql raises before any resolver runs (every resolver error carries
/// one of ours): a request that does not parse, and one the schema refuses (unknown field, wrong
/// arguments, depth or complexity over the limits).
pub const PARSE_FAILED: &str = "GRAPHQL_PARSE_FAILED";
pub const VALIDATION_FAILED: &str = "GRAPHQL_VALIDATION_FAILED";

fn builder() -> SchemaBuilder<QueryRoot, MutationRoot, EmptySubscription> {
    Schema::build(QueryRoot::default(), MutationRoot::default(), EmptySubscription)
}

/// The schema served by `/graphql`, with the state and the request limits.
pub fn build_schema(state: AppState) -> AppSchema {
    let limits = state.config.limits.clone();
    let loaders = DataLoader::new(ChannelCountsLoader(state.pool.clone()), tokio::spawn).delay(std::time::Duration::from_micros(200));
    builder()
        .data(loaders)
        .data(state)
        .limit_depth(limits.graphql_max_depth)
        .limit_complexity(limits.graphql_max_complexity)
        .limit_recursive_depth(screening::NESTING_MAX)
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

/// The strings of an optional list of ids (absent: none).
pub fn id_strings(ids: Option<Vec<ID>>) -> Vec<String> {
    ids.unwrap_or_default().into_iter().map(|id| id.0).collect()
}

/// A calendar day as an ISO string (`2030-01-31`): inputs that take a day rather than an instant
/// (an expiry date, a date filter). async-graphql names chrono's day `NaiveDate`; the contract
/// calls it `Date`. Anything else (`2030-02-31`, `31/01/2030`) is refused with spec 1 §5's
/// 'Invalid Date'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date(pub chrono::NaiveDate);

#[async_graphql::Scalar(name = "Date")]
impl async_graphql::ScalarType for Date {
    fn parse(value: async_graphql::Value) -> async_graphql::InputValueResult<Self> {
        match &value {
            async_graphql::Value::String(day) => chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
                .map(Date)
                .map_err(|_| async_graphql::InputValueError::custom(crate::validation::INVALID_DATE_MESSAGE)),
            _ => Err(async_graphql::InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> async_graphql::Value {
        async_graphql::Value::String(self.0.format("%Y-%m-%d").to_string())
    }
}
