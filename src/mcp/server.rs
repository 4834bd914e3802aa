//! The MCP server's tools and resources (`rmcp`'s handler). Each call: its caller (the request's
//! `auth::Caller`; a session stays its first caller's), the per-user rate, the work (`tools`), and
//! the call's log row (as the chat's questions, mode `agent`). A refused argument answers a tool
//! error saying what to change; articles are resources `insights://article/{id}`.

use std::{sync::Arc, time::Instant};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::*,
    service::RequestContext,
    tool, tool_handler, tool_router,
};
use tokio::sync::OnceCell;

use super::{
    auth::Caller,
    tools::{self, Answer, Call},
};
use crate::{error::Error, http::limits::Key, ids, state::AppState};

pub const ARTICLE_URI: &str = "insights://article/";
const INSTRUCTIONS: &str = "Insights publishes market research. Search it with search_research, list the newest with latest \
(by channel, topic or desk), read one with get_article (Markdown). Everything answers as the signed-in reader sees it: \
premium articles of channels they do not subscribe to come as title and summary only. Cite articles by title, link and \
first-publication time.";

#[derive(Clone)]
pub struct Research {
    state: AppState,
    /// The user of the session's first call: a session is never anyone else's.
    owner: Arc<OnceCell<String>>,
    tool_router: ToolRouter<Research>,
}

fn caller(ctx: &RequestContext<RoleServer>) -> Result<Caller, McpError> {
    ctx.extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
        .cloned()
        .ok_or_else(|| McpError::invalid_request("Sign in: a bearer token is required", None))
}

fn session_of(ctx: &RequestContext<RoleServer>) -> Option<String> {
    let parts = ctx.extensions.get::<axum::http::request::Parts>()?;
    let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    // The chat's conversation ids: at most 64 of these characters.
    (id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')).then(|| id.to_owned())
}

/// An answer as a tool's result: the structured content, and the text beside it.
fn result(answer: Answer) -> CallToolResult {
    let mut result = CallToolResult::structured(answer.structured);
    result.content = vec![ContentBlock::text(answer.text)];
    result
}

#[tool_router]
impl Research {
    pub fn new(state: AppState) -> Research {
        Research { state, owner: Arc::new(OnceCell::new()), tool_router: Self::tool_router() }
    }

    /// Who calls, within their rate, on the session they began; then `work`, logged.
    async fn run(
        &self,
        ctx: &RequestContext<RoleServer>,
        question: String,
        work: impl AsyncFnOnce(&Call) -> crate::error::Result<Answer>,
    ) -> Result<CallToolResult, McpError> {
        let caller = caller(ctx)?;
        let owner = self.owner.get_or_init(async || caller.user_id.clone()).await;
        if *owner != caller.user_id {
            return Err(McpError::invalid_request("This session belongs to another user", None));
        }
        if let Err(seconds) = self.state.limits.agent.check(&Key::User(caller.user_id.clone())) {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!("Too many requests: try again in {seconds} s."))]));
        }
        let session = session_of(ctx);
        let started = Instant::now();
        let call = Call::new(&self.state, &caller.user_id, caller.role, session.clone().unwrap_or_else(|| "none".into()))
            .await
            .map_err(internal)?;
        let outcome = work(&call).await;
        let (cited, error) = match &outcome {
            Ok(answer) => (answer.cited.clone(), None),
            Err(error) => (Vec::new(), Some(error.message())),
        };
        let duration = i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX);
        let logged =
            super::queries::log_call(&self.state.pool, &ids::new_id(), &caller.user_id, &question, session.as_deref(), &cited, error.as_deref(), duration)
                .await;
        if let Err(failed) = logged {
            tracing::error!(error = %failed, "mcp: could not log the call");
        }
        match outcome {
            Ok(answer) => Ok(result(answer)),
            // What the assistant can correct: a tool error saying so.
            Err(Error::BadUserInput { fields, .. }) => {
                let said: Vec<String> = fields.iter().map(|(field, message)| format!("{field}: {message}")).collect();
                Ok(CallToolResult::error(vec![ContentBlock::text(said.join("; "))]))
            }
            Err(error) => Err(internal(error)),
        }
    }

    #[tool(description = "Search the research the reader can see: ranked, with a snippet and a citation (title, link, \
        first-publication time, channel) for each article. Premium articles the reader does not subscribe to are listed \
        with their summary only.")]
    async fn search_research(
        &self,
        Parameters(args): Parameters<tools::SearchArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let question = format!("search_research: {}", serde_json::to_string(&args).unwrap_or_default());
        self.run(&ctx, question, async |call| tools::search_research(call, args).await).await
    }

    #[tool(description = "One article as Markdown (tables kept) when the reader's subscriptions include it, otherwise its \
        title, summary and how to subscribe; with its citation.")]
    async fn get_article(&self, Parameters(args): Parameters<tools::ArticleArgs>, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let question = format!("get_article: {}", args.id);
        self.run(&ctx, question, async |call| match tools::article(call, &args.id).await? {
            Some(answer) => Ok(answer),
            None => Err(Error::field("id", "No published article has this id")),
        })
        .await
    }

    #[tool(description = "The newest published research, optionally of one channel, topic (with its sub-topics) or desk, \
        each with its citation.")]
    async fn latest(&self, Parameters(args): Parameters<tools::LatestArgs>, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let question = format!("latest: {}", serde_json::to_string(&args).unwrap_or_default());
        self.run(&ctx, question, async |call| tools::latest(call, args).await).await
    }

    #[tool(description = "The channels research is published in, with the reader's access to each.")]
    async fn list_channels(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        self.run(&ctx, "list_channels".into(), async |call| tools::list_channels(call).await).await
    }

    #[tool(description = "The reader's active subscriptions (their own and their firm's seats), full or summaries only.")]
    async fn my_subscriptions(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        self.run(&ctx, "my_subscriptions".into(), async |call| tools::my_subscriptions(call).await).await
    }

    #[tool(description = "The topics research is filed under (a tree: each with its parent).")]
    async fn list_topics(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        self.run(&ctx, "list_topics".into(), async |call| tools::list_topics(call).await).await
    }
}

fn internal(error: Error) -> McpError {
    error.log_if_internal();
    McpError::internal_error(error.message(), None)
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Research {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("insights", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS.to_owned())
    }

    /// The newest articles, as `latest` lists them.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let listed = self.run(&ctx, "resources/list".into(), async |call| tools::latest(call, tools::LatestArgs::default()).await).await?;
        let articles = listed.structured_content.as_ref().and_then(|v| v["articles"].as_array().cloned()).unwrap_or_default();
        let resources = articles
            .iter()
            .filter_map(|article| {
                let id = article["id"].as_str()?;
                let title = article["title"].as_str().unwrap_or(id);
                let mut resource = Resource::new(format!("{ARTICLE_URI}{id}"), title).with_title(title).with_mime_type("text/markdown");
                if let Some(summary) = article["summary"].as_str() {
                    resource = resource.with_description(summary);
                }
                Some(resource)
            })
            .collect();
        Ok(ListResourcesResult { resources, ..Default::default() })
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let template = ResourceTemplate::new(format!("{ARTICLE_URI}{{id}}"), "article")
            .with_title("An article")
            .with_description("An article as Markdown when the reader's subscriptions include it, else its summary")
            .with_mime_type("text/markdown");
        Ok(ListResourceTemplatesResult { resource_templates: vec![template], ..Default::default() })
    }

    async fn read_resource(&self, request: ReadResourceRequestParams, ctx: RequestContext<RoleServer>) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.clone();
        let Some(id) = uri.strip_prefix(ARTICLE_URI).map(str::to_owned) else {
            return Err(McpError::resource_not_found("No such resource", Some(serde_json::json!({ "uri": uri }))));
        };
        let read = self
            .run(&ctx, format!("resources/read: {uri}"), async |call| match tools::article(call, &id).await? {
                Some(answer) => Ok(answer),
                None => Err(Error::field("uri", "No published article has this id")),
            })
            .await?;
        if read.is_error == Some(true) {
            return Err(McpError::resource_not_found("No published article has this id", Some(serde_json::json!({ "uri": uri }))));
        }
        let markdown = read.structured_content.as_ref().and_then(|v| v["markdown"].as_str()).unwrap_or_default().to_owned();
        let contents = ResourceContents::TextResourceContents { uri, mime_type: Some("text/markdown".into()), text: markdown, meta: None };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
