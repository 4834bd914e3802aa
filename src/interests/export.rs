//! `GET /export/interests.csv?kind=&itemId=&from=&to=&searchQuery=`: the Administrators' list of
//! registered interest as CSV, with the list's filters, newest first. Authenticated like the other
//! REST reads (a bearer token; the web app fetches it and saves the blob). Streamed from the
//! database row by row, so a large export holds one chunk in memory. Every cell is escaped against
//! spreadsheet formulas.

use std::borrow::Cow;

use axum::{
    body::Body,
    extract::{Query, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use chrono::{NaiveDate, Utc};
use futures_util::StreamExt;
use serde::Deserialize;
use tokio::sync::mpsc::Sender;

use super::{
    DeliveryState, InterestKind,
    graphql::{ADMINISTRATOR, filter},
    queries::{self, InterestFilter, InterestRow},
};
use crate::{auth::session, error::Error, http::HttpError, state::AppState, subscriptions::csv_emails::BOM, validation::INVALID_DATE_MESSAGE};

pub const HEADER: [&str; 8] = ["Registered at", "Kind", "Item", "Reader", "Email", "Company", "Delivered to", "Delivery state"];

/// Bytes gathered before a chunk is sent.
const CHUNK: usize = 64 * 1024;

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
    headers: HeaderMap,
    Query(params): Query<ExportParams>,
) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    session::authenticate(&state, authorization).await?.viewer()?.require(ADMINISTRATOR)?;
    let kind = present(&params.kind)
        .map(|k| InterestKind::parse(k).ok_or_else(|| Error::field("kind", "Use Article, Channel or PromotionalContent")))
        .transpose()?;
    let filter = filter(kind, present(&params.item_id), day("from", &params.from)?, day("to", &params.to)?, present(&params.search_query))?;

    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    let pool = state.pool.clone();
    tokio::spawn(async move {
        if let Err(error) = write_rows(&pool, &filter, &sender).await {
            // Ends the body with an error, so the client sees a broken download, not a short file.
            tracing::error!(%error, "interest export failed");
            let _ = sender.send(Err(std::io::Error::other("the export could not be completed"))).await;
        }
    });
    let body = Body::from_stream(futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    }));
    let filename = format!("attachment; filename=\"interests-{}.csv\"", Utc::now().format("%Y-%m-%d"));
    let mut response = body.into_response();
    let response_headers = response.headers_mut();
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    response_headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&filename).map_err(anyhow::Error::from)?);
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Writes the CSV to `sender` in chunks of about `CHUNK` bytes. Returns early when the client went away.
async fn write_rows(pool: &sqlx::PgPool, filter: &InterestFilter, sender: &Sender<Result<Bytes, std::io::Error>>) -> anyhow::Result<()> {
    let writer = |start: &[u8]| {
        let mut buffer = Vec::with_capacity(CHUNK + 8 * 1024);
        buffer.extend_from_slice(start);
        csv::Writer::from_writer(buffer)
    };
    let mut csv = writer(BOM);
    csv.write_record(HEADER)?;
    let mut rows = queries::stream(pool, filter);
    while let Some(row) = rows.next().await {
        csv.write_record(record(&row?).iter().map(|cell| escape(cell).into_owned()))?;
        // The writer hands its own buffer on every few KB: a chunk is ready once enough has come.
        if csv.get_ref().len() >= CHUNK {
            let full = std::mem::replace(&mut csv, writer(b""));
            if sender.send(Ok(full.into_inner().map_err(|e| e.into_error())?.into())).await.is_err() {
                return Ok(());
            }
        }
    }
    let _ = sender.send(Ok(csv.into_inner().map_err(|e| e.into_error())?.into())).await;
    Ok(())
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

/// A cell a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage
/// return) gets a leading apostrophe, so it shows as the text it is.
pub fn escape(cell: &str) -> Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { Cow::Owned(format!("'{cell}")) } else { Cow::Borrowed(cell) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_text() {
        for (cell, expected) in [
            ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"),
            ("+1", "'+1"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("Ann = Lee", "Ann = Lee"),
            ("", ""),
        ] {
            assert_eq!(escape(cell), expected, "{cell:?}");
        }
    }
}
