//! `GET /export/firms/{id}/readership.csv?from=&to=`: what a firm's readers read, one row per
//! reader, article and month, for staff and for the firm's own administrators (their firm only,
//! `service::access`). Authenticated like the other REST reads (a bearer token; the web app
//! fetches it and saves the blob); UTF-8 with a byte-order mark, every cell escaped against
//! spreadsheet formulas, streamed from the database a chunk at a time.

use axum::{
    extract::{Path, Query, State},
    http::{HeaderMap, header},
    response::Response,
};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use futures_util::StreamExt;
use serde::Deserialize;

use super::{queries, service};
use crate::{auth::session, csv_files, error::Error, http::HttpError, state::AppState, validation::INVALID_DATE_MESSAGE};

pub const HEADER: [&str; 9] = ["Month", "Channel", "Reader", "Email", "Article", "Full reads", "Previews", "First read", "Last read"];

#[derive(Debug, Default, Deserialize)]
pub struct ExportParams {
    /// yyyy-mm-dd, inclusive; default: a year before `to`.
    from: Option<String>,
    /// yyyy-mm-dd, inclusive; default: today.
    to: Option<String>,
}

fn day(field: &str, value: Option<&str>) -> crate::error::Result<Option<NaiveDate>> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| Error::field(field, INVALID_DATE_MESSAGE)))
        .transpose()
}

/// The period asked for: [from, to + 1 day).
fn period(params: &ExportParams) -> crate::error::Result<(DateTime<Utc>, DateTime<Utc>)> {
    let to = day("to", params.to.as_deref())?.map_or_else(Utc::now, |d| d.and_time(chrono::NaiveTime::MIN).and_utc() + Duration::days(1));
    let from = day("from", params.from.as_deref())?.map_or(to - Duration::days(365), |d| d.and_time(chrono::NaiveTime::MIN).and_utc());
    if from >= to {
        return Err(Error::field("from", "The start must be before the end"));
    }
    Ok((from, to))
}

pub async fn readership_csv(
    State(state): State<AppState>,
    Path(firm_id): Path<String>,
    origin: crate::audit::Origin,
    headers: HeaderMap,
    Query(params): Query<ExportParams>,
) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    let (firm_id, _) = service::access(&state.pool, auth.viewer()?, &firm_id).await?;
    let (from, to) = period(&params)?;
    let details = serde_json::json!({ "from": from, "to": to });
    crate::audit::record_export(&state, &auth, &origin, "GET /export/firms/readership.csv", Some(("firm", &firm_id)), &details).await?;
    let name = queries::name(&state.pool, &firm_id).await?.unwrap_or_default();

    let slug: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let file_name = format!("readership-{}-{}.csv", slug.trim_matches('-'), Utc::now().format("%Y-%m-%d"));
    let pool = state.pool.clone();
    Ok(csv_files::download(&file_name, &HEADER, "firm readership", move |mut csv| async move {
        let mut rows = queries::reads_by_member_and_month(&pool, &firm_id, from, to);
        while let Some(row) = rows.next().await {
            let row = row?;
            let cells = [
                row.month.format("%Y-%m").to_string(),
                row.channel_name.unwrap_or_default(),
                row.name,
                row.email,
                row.title,
                row.full_reads.to_string(),
                row.previews.to_string(),
                row.first_read.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                row.last_read.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            ];
            if !csv.write(cells).await? {
                break;
            }
        }
        Ok(csv)
    })?)
}
