//! Codes for errors async-graphql raises before any resolver runs, so that every error the client
//! sees carries `extensions.code`: GRAPHQL_PARSE_FAILED for a query that does not parse, and
//! GRAPHQL_VALIDATION_FAILED for unknown fields, wrong arguments and the depth and complexity limits.

use std::sync::Arc;

use async_graphql::{
    ServerError, ServerResult, ValidationResult, Variables,
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextValidation},
    parser::types::ExecutableDocument,
};

pub const PARSE_FAILED: &str = "GRAPHQL_PARSE_FAILED";
pub const VALIDATION_FAILED: &str = "GRAPHQL_VALIDATION_FAILED";

pub struct RequestErrorCodes;

impl ExtensionFactory for RequestErrorCodes {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(RequestErrorCodes)
    }
}

fn with_code(mut error: ServerError, code: &str) -> ServerError {
    let extensions = error.extensions.get_or_insert_with(Default::default);
    if extensions.get("code").is_none() {
        extensions.set("code", code);
    }
    error
}

#[async_trait::async_trait]
impl Extension for RequestErrorCodes {
    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        next.run(ctx, query, variables).await.map_err(|error| with_code(error, PARSE_FAILED))
    }

    async fn validation(&self, ctx: &ExtensionContext<'_>, next: NextValidation<'_>) -> Result<ValidationResult, Vec<ServerError>> {
        next.run(ctx)
            .await
            .map_err(|errors| errors.into_iter().map(|error| with_code(error, VALIDATION_FAILED)).collect())
    }
}
