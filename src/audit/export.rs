//! `GET /export/audit.csv?actorId=&entityType=&entityId=&action=&from=&to=`: the trail as CSV for
//! Administrators, with `auditEvents`' filters (`from`/`to`: an instant or a day; `to` a day
//! counts whole). Bearer token; UTF-8 with a byte-order mark, every cell escaped against
//! spreadsheet formulas, read a chunk at a time. The export is itself recorded.

use axum::{
    extract::{Query, State},
    http::{HeaderMap, header},
    response::Response,
};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

use super::{
    Origin,
    graphql::{details, field_changes},
    queries::{self, EventFilter, EventRow},
};
use crate::{
    auth::{Role, session},
    csv_files,
    error::{Error, Result},
    http::HttpError,
    state::AppState,
    validation::INVALID_DATE_MESSAGE,
};

pub const HEADER: [&str; 14] = [
    "Time",
    "Actor kind",
    "Actor",
    "Role",
    "Email",
    "Address",
    "User agent",
    "Request id",
    "Action",
    "Entity type",
    "Entity id",
    "Operation",
    "Changes",
    "Details",
];

/// Rows read from the database at a time.
const CHUNK: i64 = 1000;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportParams {
    actor_id: Option<String>,
    entity_type: Option<String>,
    entity_id: Option<String>,
    action: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

/// An instant (RFC 3339) or a day (its start; for the end of a range, the next day's start).
pub fn instant(field: &str, value: Option<&str>, end_of_range: bool) -> Result<Option<DateTime<Utc>>> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    if let Ok(instant) = DateTime::parse_from_rfc3339(value) {
        return Ok(Some(instant.with_timezone(&Utc)));
    }
    let day = NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| Error::field(field, INVALID_DATE_MESSAGE))?;
    let day = if end_of_range { day.succ_opt().unwrap_or(day) } else { day };
    Ok(Some(day.and_time(chrono::NaiveTime::MIN).and_utc()))
}

fn filter(params: &ExportParams) -> Result<EventFilter> {
    let text = |value: &Option<String>| value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    Ok(EventFilter {
        actor_id: text(&params.actor_id),
        entity_type: text(&params.entity_type),
        entity_id: text(&params.entity_id),
        action: text(&params.action),
        from: instant("from", params.from.as_deref(), false)?,
        to: instant("to", params.to.as_deref(), true)?,
    })
}

/// An event's cells, in `HEADER`'s order (the CLI prints the same).
pub fn cells(row: &EventRow) -> [String; 14] {
    let changes = field_changes(&row.change)
        .into_iter()
        .map(|c| format!("{}: {} → {}", c.field, c.before.as_deref().unwrap_or("—"), c.after.as_deref().unwrap_or("—")))
        .collect::<Vec<_>>()
        .join("; ");
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    [
        row.occurred_at.format("%Y-%m-%d %H:%M:%S%.3f UTC").to_string(),
        row.actor_kind.clone(),
        row.actor_name.clone().or_else(|| row.actor_id.clone()).unwrap_or_default(),
        text(&row.actor_role),
        text(&row.actor_email),
        text(&row.source_address),
        text(&row.user_agent),
        text(&row.request_id),
        row.action.clone(),
        text(&row.entity_type),
        text(&row.entity_id),
        row.change.get("op").and_then(|op| op.as_str()).unwrap_or_default().to_owned(),
        changes,
        details(&row.change).unwrap_or_default(),
    ]
}

pub async fn audit_csv(
    State(state): State<AppState>,
    origin: Origin,
    headers: HeaderMap,
    Query(params): Query<ExportParams>,
) -> std::result::Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    auth.viewer()?.require(&[Role::Administrator])?;
    let filter = filter(&params)?;
    super::record_export(&state, &auth, &origin, "GET /export/audit.csv", None, &serde_json::json!({ "filters": filter })).await?;

    let file_name = format!("audit-trail-{}.csv", Utc::now().format("%Y-%m-%d"));
    let pool = state.pool.clone();
    Ok(csv_files::download(&file_name, &HEADER, "audit trail", move |mut csv| async move {
        let mut after = None;
        loop {
            let rows = queries::events_before(&pool, &filter, after, CHUNK).await?;
            for row in &rows {
                if !csv.write(cells(row)).await? {
                    return Ok(csv);
                }
            }
            match rows.last() {
                Some(last) if rows.len() as i64 == CHUNK => after = Some((last.occurred_at, last.event_id)),
                _ => return Ok(csv),
            }
        }
    })?)
}
