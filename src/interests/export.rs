//! `GET /export/interests.csv?kind=&itemId=&from=&to=&searchQuery=`: the Administrators' list of
//! registered interest as CSV, with the list's filters, newest first. Authenticated like the other
//! REST reads (a bearer token; the web app fetches it and saves the blob). Streamed from the
//! database row by row, so a large export holds one chunk in memory. Every cell is escaped against
//! spreadsheet formulas.

use axum::{
    extract::{Query, State},
    http::{HeaderMap, header},
    response::Response,
};
use chrono::{NaiveDate, Utc};
use futures_util::StreamExt;
use serde::Deserialize;

use super::{
    DeliveryState, InterestKind,
    graphql::{ADMINISTRATOR, filter},
    queries::{self, InterestRow},
};
use crate::{auth::session, csv_files, error::Error, http::HttpError, state::AppState, validation::INVALID_DATE_MESSAGE};

pub const HEADER: [&str; 8] = ["Registered at", "Kind", "Item", "Reader", "Email", "Company", "Delivered to", "Delivery state"];

/// The query string: the list's filters by their GraphQL names; blank means none.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportParams {
    kind: Option<String>,
    item_id: Option<String>,
    from: Option<String>,
    to: Option<String>,
    search_query: Option<String>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn day(field: &str, value: &Option<String>) -> crate::error::Result<Option<NaiveDate>> {
    present(value)
        .map(|v| NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| Error::field(field, INVALID_DATE_MESSAGE)))
        .transpose()
}

pub async fn interests_csv(
    State(state): State<AppState>,
    origin: crate::audit::Origin,
    headers: HeaderMap,
    Query(params): Query<ExportParams>,
) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    auth.viewer()?.require(ADMINISTRATOR)?;
    let kind = present(&params.kind)
        .map(|k| InterestKind::parse(k).ok_or_else(|| Error::field("kind", "Use Article, Channel or PromotionalContent")))
        .transpose()?;
    let filter = filter(kind, present(&params.item_id), day("from", &params.from)?, day("to", &params.to)?, present(&params.search_query))?;
    let details = serde_json::json!({ "kind": params.kind, "itemId": params.item_id, "from": params.from, "to": params.to, "searchQuery": params.search_query });
    crate::audit::record_export(&state, &auth, &origin, "GET /export/interests.csv", None, &details).await?;
    let pool = state.pool.clone();
    let file_name = format!("interests-{}.csv", Utc::now().format("%Y-%m-%d"));
    Ok(csv_files::download(&file_name, &HEADER, "interests", move |mut csv| async move {
        let mut rows = queries::stream(&pool, &filter);
        while let Some(row) = rows.next().await {
            if !csv.write(record(&row?)).await? {
                break;
            }
        }
        Ok(csv)
    })?)
}

/// One interest's cells, in `HEADER`'s order.
fn record(row: &InterestRow) -> [String; 8] {
    let kind = InterestKind::parse(&row.kind).map(InterestKind::label).unwrap_or(row.kind.as_str());
    [
        row.registered_at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
        kind.to_owned(),
        row.item_name.clone(),
        row.user_name.clone(),
        row.user_email.clone(),
        row.user_company.clone().unwrap_or_default(),
        row.delivered_to.clone().unwrap_or_default(),
        DeliveryState::parse(&row.delivery_state).label().to_owned(),
    ]
}
