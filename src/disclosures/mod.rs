//! Disclosures (issue 40): regulatory texts per channel and per desk, versioned; an article shows
//! the versions it was published under (pinned in its revision, `articles::queries::record_revision`).

pub mod queries;

use async_graphql::{Context, Enum, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use crate::{
    auth::{Role, STAFF},
    error::{Error, Result},
    graphql::{app_state, viewer},
    validation::optional_id,
};

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum DisclosureScope {
    Channel,
    Desk,
}

impl DisclosureScope {
    pub fn as_str(self) -> &'static str {
        match self {
            DisclosureScope::Channel => "channel",
            DisclosureScope::Desk => "desk",
        }
    }

    fn parse(value: &str) -> DisclosureScope {
        if value == "desk" { DisclosureScope::Desk } else { DisclosureScope::Channel }
    }
}

/// A channel's or desk's disclosure at one version.
#[derive(SimpleObject)]
pub struct Disclosure {
    scope_type: DisclosureScope,
    scope_id: String,
    /// The channel's or desk's name now.
    scope_name: Option<String>,
    version: i32,
    /// Sanitised HTML; empty: withdrawn.
    html: String,
    created_at: DateTime<Utc>,
    created_by_name: Option<String>,
}

impl From<queries::DisclosureRow> for Disclosure {
    fn from(row: queries::DisclosureRow) -> Self {
        Disclosure {
            scope_type: DisclosureScope::parse(&row.scope_type),
            scope_id: row.scope_id,
            scope_name: row.scope_name,
            version: row.version,
            html: row.html,
            created_at: row.created_at,
            created_by_name: row.created_by_name,
        }
    }
}

pub fn disclosures(rows: Vec<queries::DisclosureRow>) -> Vec<Disclosure> {
    rows.into_iter().map(Disclosure::from).collect()
}

#[derive(InputObject)]
pub struct DisclosureInput {
    scope_type: DisclosureScope,
    scope_id: String,
    /// Rich text; empty withdraws the disclosure (from articles published after).
    html: String,
    /// The version it was edited from (0 for a first one); CONFLICT when another was saved since.
    version: i32,
}

#[derive(Default)]
pub struct DisclosuresQuery;

#[Object]
impl DisclosuresQuery {
    /// Staff: every channel's and desk's current disclosure.
    async fn disclosures(&self, ctx: &Context<'_>) -> Result<Vec<Disclosure>> {
        viewer(ctx)?.require(STAFF)?;
        Ok(disclosures(queries::current(&app_state(ctx).pool).await?))
    }
}

#[derive(Default)]
pub struct DisclosuresMutation;

#[Object]
impl DisclosuresMutation {
    /// Administrators: a channel's or desk's disclosure as a new version (sanitised). Articles
    /// published from now on show it; those published before keep the version they were published under.
    async fn edit_disclosure(&self, ctx: &Context<'_>, item: DisclosureInput) -> Result<Disclosure> {
        let viewer = viewer(ctx)?;
        viewer.require(&[Role::Administrator])?;
        Ok(edit(app_state(ctx), &viewer.user.user_id, &item).await?.into())
    }
}

/// Writes `item` as the next version of its channel's or desk's disclosure (sanitised; a text
/// with no words or media withdraws it); NOT_FOUND for an unknown channel or desk, CONFLICT when
/// `item.version` is not the current one.
pub async fn edit(state: &crate::AppState, by: &str, item: &DisclosureInput) -> Result<queries::DisclosureRow> {
    let scope_type = item.scope_type.as_str();
    let scope_id = optional_id(Some(&item.scope_id), "Channel or desk")?.ok_or(Error::NotFound("Channel or desk"))?;
    if !queries::scope_exists(&state.pool, scope_type, &scope_id).await? {
        return Err(Error::NotFound(if item.scope_type == DisclosureScope::Desk { "Desk" } else { "Channel" }));
    }
    let html = state.sanitizer.clean(&item.html);
    let html = if crate::articles::text::body_text(&html).is_empty() { String::new() } else { html };
    if !queries::add(&state.pool, scope_type, &scope_id, &html, item.version, by).await? {
        return Err(Error::stale_version());
    }
    let current = queries::current(&state.pool).await?;
    current.into_iter().find(|d| d.scope_type == scope_type && d.scope_id == scope_id).ok_or(Error::NotFound("Disclosure"))
}
