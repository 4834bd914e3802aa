//! GraphQL of the templates area.

use async_graphql::{Context, ID, InputObject, Object};
use chrono::{DateTime, Utc};

use super::{
    queries::{self, TemplateRow},
    service::{self, TemplateChange},
};
use crate::{
    articles::{ArticleChannel, ArticlePublisher, ArticleTag, ArticleTopic, channel, publisher, service::title_for_today, tags, topics},
    auth::{Role, STAFF},
    error::{Error, Result},
    graphql::{DeleteResult, app_state, id_strings, viewer},
    users::UserSummary,
    validation::optional_id,
};

pub struct TemplateObject {
    row: TemplateRow,
    can_edit: bool,
}

#[Object(name = "Template")]
impl TemplateObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.template_id
    }

    /// May hold the today-date placeholder {{today}}.
    async fn title(&self) -> &str {
        &self.row.title
    }

    /// The title with the placeholder replaced by today's date, like '05 Jan 2024' (use it to
    /// start an article).
    async fn title_for_today(&self) -> String {
        title_for_today(&self.row.title, Utc::now())
    }

    async fn html(&self) -> &str {
        &self.row.html
    }

    async fn contributors(&self) -> &[UserSummary] {
        &self.row.contributors.0
    }

    async fn categories(&self) -> Vec<ArticleTopic> {
        topics(&self.row.categories)
    }

    async fn tags(&self) -> Vec<ArticleTag> {
        tags(&self.row.tags)
    }

    /// The owner of the template's channel.
    async fn published_by(&self) -> Option<ArticlePublisher> {
        let row = &self.row;
        publisher(row.publisher_type.as_deref(), row.publisher_id.as_deref(), row.publisher_name.as_deref())
    }

    /// Null once its channel was archived.
    async fn premium_channel(&self) -> Option<ArticleChannel> {
        let row = &self.row;
        channel(row.premium_channel_id.as_deref(), row.channel_name.as_deref(), row.channel_type.as_deref(), row.channel_state.as_deref())
    }

    /// Articles started from it.
    async fn used_articles_number(&self) -> i64 {
        self.row.used_articles
    }

    async fn author(&self) -> Option<UserSummary> {
        UserSummary::from_columns(&self.row.author_id, &self.row.author_name, &self.row.author_email)
    }

    async fn created(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn last_edited(&self) -> DateTime<Utc> {
        self.row.updated_at
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    /// The caller may edit or delete it (Editors).
    async fn can_edit(&self) -> bool {
        self.can_edit
    }
}

fn objects(rows: Vec<TemplateRow>, role: Role) -> Vec<TemplateObject> {
    let can_edit = service::may_change(role);
    rows.into_iter().map(|row| TemplateObject { row, can_edit }).collect()
}

async fn load_template(ctx: &Context<'_>, id: &str, role: Role) -> Result<TemplateObject> {
    let id = optional_id(Some(id), "Template")?.ok_or(Error::NotFound("Template"))?;
    let rows = queries::select_templates(&app_state(ctx).pool, Some(&id)).await?;
    objects(rows, role).pop().ok_or(Error::NotFound("Template"))
}

#[derive(Default)]
pub struct TemplatesQuery;

#[Object]
impl TemplatesQuery {
    /// Staff: every template, by title.
    async fn templates(&self, ctx: &Context<'_>) -> Result<Vec<TemplateObject>> {
        let role = viewer(ctx)?.require(STAFF)?;
        Ok(objects(queries::select_templates(&app_state(ctx).pool, None).await?, role))
    }

    /// Staff.
    async fn find_template_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<TemplateObject> {
        let role = viewer(ctx)?.require(STAFF)?;
        load_template(ctx, &id, role).await
    }
}

#[derive(InputObject)]
pub struct TemplateInput {
    /// Edits only.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Edits only: the version the edit is based on.
    version: Option<i32>,
    /// Required; may hold {{today}}.
    title: String,
    html: Option<String>,
    /// Required: a channel the caller may publish to.
    premium_channel_id: Option<ID>,
    contributors: Option<Vec<ID>>,
    categories: Option<Vec<ID>>,
    tags: Option<Vec<ID>>,
}

impl From<TemplateInput> for TemplateChange {
    fn from(input: TemplateInput) -> Self {
        TemplateChange {
            id: input.id.map(|id| id.0),
            version: input.version,
            title: input.title,
            html: input.html,
            premium_channel_id: input.premium_channel_id.map(|id| id.0),
            contributors: id_strings(input.contributors),
            categories: id_strings(input.categories),
            tags: id_strings(input.tags),
        }
    }
}

#[derive(Default)]
pub struct TemplatesMutation;

#[Object]
impl TemplatesMutation {
    /// Editors.
    async fn add_template(&self, ctx: &Context<'_>, item: TemplateInput) -> Result<TemplateObject> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let id = service::add_template(app_state(ctx), (&viewer.user.user_id, role), &item.into()).await?;
        load_template(ctx, &id, role).await
    }

    /// Editors.
    async fn edit_template(&self, ctx: &Context<'_>, item: TemplateInput) -> Result<TemplateObject> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let id = service::edit_template(app_state(ctx), (&viewer.user.user_id, role), &item.into()).await?;
        load_template(ctx, &id, role).await
    }

    /// Editors; articles started from it keep their content.
    async fn delete_template(&self, ctx: &Context<'_>, id: ID) -> Result<DeleteResult> {
        let role = viewer(ctx)?.require(STAFF)?;
        let (id, name) = service::delete_template(app_state(ctx), role, &id).await?;
        Ok(DeleteResult { id: ID(id), name })
    }
}
