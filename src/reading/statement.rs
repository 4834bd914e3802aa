//! A reader's reading statement (issue 40: MiFID II makes clients account for the research they
//! consume): for one month, each article they opened, its channel, the first read, how many reads
//! and whether any was of the full article or previews only. `myReadingStatement(month)` shows it
//! on the Subscriptions page; `GET /export/reading-statement.csv?month=2026-11` downloads it
//! (bearer token; UTF-8 with a byte-order mark, formula-escaped; recorded in the audit trail).

use async_graphql::SimpleObject;
use axum::{
    extract::{Query, State},
    http::{HeaderMap, header},
    response::Response,
};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Deserialize;

use super::queries::{self, StatementRow};
use crate::{
    audit::{self, Origin},
    auth::{ALL_ROLES, session},
    csv_files,
    error::{Error, Result},
    http::HttpError,
    state::AppState,
};

pub const MONTH_MESSAGE: &str = "Choose a month as yyyy-mm";
pub const HEADER: [&str; 6] = ["Article", "Channel", "First read", "Reads", "Read", "Source"];

#[derive(SimpleObject)]
pub struct ReadingStatementLine {
    article_id: String,
    title: String,
    channel_name: Option<String>,
    first_read: DateTime<Utc>,
    reads: i64,
    /// Read in full at least once; else previews only.
    full: bool,
    /// How it reached the reader: `web`, `feed` (a private feed), `agent` (their AI assistant).
    sources: Vec<String>,
}

impl From<StatementRow> for ReadingStatementLine {
    fn from(row: StatementRow) -> Self {
        ReadingStatementLine {
            article_id: row.article_id,
            title: row.title,
            channel_name: row.channel_name,
            first_read: row.first_read,
            reads: row.reads,
            full: row.full,
            sources: row.sources,
        }
    }
}

/// The month `yyyy-mm` as [its first instant, the next month's) in UTC.
pub fn month_bounds(month: &str) -> Result<(DateTime<Utc>, DateTime<Utc>)> {
    let first = NaiveDate::parse_from_str(&format!("{}-01", month.trim()), "%Y-%m-%d").map_err(|_| Error::field("month", MONTH_MESSAGE))?;
    let next = if first.month() == 12 {
        NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(first.year(), first.month() + 1, 1)
    }
    .ok_or_else(|| Error::field("month", MONTH_MESSAGE))?;
    Ok((first.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc(), next.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc()))
}

pub async fn lines(pool: &sqlx::PgPool, user_id: &str, month: &str) -> Result<Vec<ReadingStatementLine>> {
    let (from, to) = month_bounds(month)?;
    Ok(queries::reading_statement(pool, user_id, from, to).await?.into_iter().map(ReadingStatementLine::from).collect())
}

#[derive(Debug, Deserialize)]
pub struct StatementParams {
    month: Option<String>,
}

pub async fn statement_csv(
    State(state): State<AppState>,
    origin: Origin,
    headers: HeaderMap,
    Query(params): Query<StatementParams>,
) -> std::result::Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    let user_id = auth.viewer()?.user.user_id.clone();
    auth.viewer()?.require(ALL_ROLES)?;
    let month = params.month.unwrap_or_default();
    let (from, to) = month_bounds(&month)?;
    let details = serde_json::json!({ "month": month });
    audit::record_export(&state, &auth, &origin, "GET /export/reading-statement.csv", Some(("user", &user_id)), &details).await?;
    let rows = queries::reading_statement(&state.pool, &user_id, from, to).await.map_err(Error::from)?;
    let file_name = format!("reading-statement-{}.csv", month.trim());
    Ok(csv_files::download(&file_name, &HEADER, "reading statement", move |mut csv| async move {
        for row in rows {
            let cells = [
                row.title,
                row.channel_name.unwrap_or_default(),
                row.first_read.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                row.reads.to_string(),
                if row.full { "Full".to_owned() } else { "Preview".to_owned() },
                row.sources.iter().map(|source| source_label(source)).collect::<Vec<_>>().join(", "),
            ];
            if !csv.write(cells).await? {
                break;
            }
        }
        Ok(csv)
    })?)
}

/// 'Web', 'Feed', 'AI assistant'.
pub fn source_label(source: &str) -> &'static str {
    match source {
        "feed" => "Feed",
        "agent" => "AI assistant",
        _ => "Web",
    }
}
