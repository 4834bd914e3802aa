//! `getTableauToken` and `getTableauCharts` (spec 1 §7), for users with tableauAccess.

use async_graphql::{Context, Object, SimpleObject};
use chrono::{DateTime, Utc};

use crate::{
    error::Result,
    graphql::{app_state, viewer},
};

/// A view of the configured Tableau project the editor can insert as a chart.
#[derive(SimpleObject)]
pub struct ChartsItem {
    /// The view's Tableau id (what a chart block stores).
    id: String,
    title: String,
    /// `Workbook/View`: the view loads from `{serverUrl}/t/{site}/views/{path}` (`/views/{path}` on the default site).
    path: String,
    /// The preview image, served by this server with the bearer token: `/tableau/views/{id}/image`.
    image: String,
}

/// A Connected App token for the Embedding API (`<tableau-viz token>`).
#[derive(SimpleObject)]
pub struct TableauToken {
    token: String,
    expires_at: DateTime<Utc>,
}

#[derive(Default)]
pub struct TableauQuery;

#[Object]
impl TableauQuery {
    /// A token that embeds Tableau views as the caller (tableauAccess only; UNAVAILABLE when Tableau is not configured).
    async fn get_tableau_token(&self, ctx: &Context<'_>) -> Result<TableauToken> {
        let (tableau, username) = super::for_viewer(app_state(ctx).tableau.as_deref(), viewer(ctx)?)?;
        let (token, expires_at) = tableau.embed_token(&username)?;
        Ok(TableauToken { token, expires_at })
    }

    /// The views of the configured Tableau project the caller may see, by title (tableauAccess only).
    async fn get_tableau_charts(&self, ctx: &Context<'_>) -> Result<Vec<ChartsItem>> {
        let (tableau, username) = super::for_viewer(app_state(ctx).tableau.as_deref(), viewer(ctx)?)?;
        let charts = tableau.charts(&username).await?;
        Ok(charts
            .iter()
            .map(|chart| ChartsItem {
                image: format!("/tableau/views/{}/image", chart.id),
                id: chart.id.clone(),
                title: chart.title.clone(),
                path: chart.path.clone(),
            })
            .collect())
    }
}
