//! The audit trail's SQL: the connection's actor, events, and the trail's pages.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, Postgres, QueryBuilder};

use super::Actor;

/// Gives the connection `setting` (an actor as JSON, or empty: nobody) until it is set again.
pub async fn set_actor(conn: &mut PgConnection, setting: &str) -> sqlx::Result<()> {
    sqlx::query_scalar!("select set_config('insights.audit', $1, false)", setting).fetch_one(conn).await?;
    Ok(())
}

/// Gives the transaction `actor`: its changes are audited as theirs.
pub async fn act_as(conn: &mut PgConnection, actor: &Actor) -> sqlx::Result<()> {
    sqlx::query_scalar!("select set_config('insights.audit', $1, true)", actor.to_json()).fetch_one(conn).await?;
    Ok(())
}

/// Records an event of `actor` (none: the connection's actor).
pub async fn record(
    db: impl PgExecutor<'_>,
    actor: Option<&Actor>,
    action: Option<&str>,
    entity_type: Option<&str>,
    entity_id: Option<&str>,
    change: &serde_json::Value,
) -> sqlx::Result<()> {
    let actor = actor.map(|actor| serde_json::to_value(actor).expect("an actor serialises"));
    sqlx::query!("select audit_record($1, $2, $3, $4, $5)", actor, action, entity_type, entity_id, change).execute(db).await?;
    Ok(())
}

/// Deletes the events older than `retention_days` (0: none, the default); how many. The trail
/// refuses deletes but this one (`insights.audit_purge`, for its transaction only).
pub async fn purge(pool: &sqlx::PgPool, retention_days: u32) -> sqlx::Result<u64> {
    if retention_days == 0 {
        return Ok(0);
    }
    let mut tx = pool.begin().await?;
    sqlx::query_scalar!("select set_config('insights.audit_purge', 'on', true)").fetch_one(&mut *tx).await?;
    let purged = sqlx::query!("delete from audit_event where occurred_at < now() - make_interval(days => $1)", retention_days as i32)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(purged)
}

/// What a page of the trail asks for; absent filters are left out of the SQL.
#[derive(Debug, Default, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventFilter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub event_id: i64,
    pub occurred_at: DateTime<Utc>,
    pub actor_kind: String,
    pub actor_id: Option<String>,
    pub actor_role: Option<String>,
    pub actor_email: Option<String>,
    /// The actor's name now, when they are a user still known.
    pub actor_name: Option<String>,
    pub source_address: Option<String>,
    pub user_agent: Option<String>,
    pub request_id: Option<String>,
    pub action: String,
    pub entity_type: Option<String>,
    pub entity_id: Option<String>,
    pub change: serde_json::Value,
}

fn push_filters(q: &mut QueryBuilder<Postgres>, f: &EventFilter) {
    q.push(" where true");
    if let Some(actor) = &f.actor_id {
        q.push(" and e.actor_id = ").push_bind(actor.clone());
    }
    if let Some(entity_type) = &f.entity_type {
        q.push(" and e.entity_type = ").push_bind(entity_type.clone());
    }
    if let Some(entity_id) = &f.entity_id {
        q.push(" and e.entity_id = ").push_bind(entity_id.clone());
    }
    if let Some(action) = &f.action {
        q.push(" and e.action = ").push_bind(action.clone());
    }
    if let Some(from) = f.from {
        q.push(" and e.occurred_at >= ").push_bind(from);
    }
    if let Some(to) = f.to {
        q.push(" and e.occurred_at < ").push_bind(to);
    }
}

const EVENT_COLUMNS: &str = "select e.event_id, e.occurred_at, e.actor_kind, e.actor_id, e.actor_role, e.actor_email::text as actor_email,
        u.name as actor_name, e.source_address, e.user_agent, e.request_id, e.action, e.entity_type, e.entity_id, e.change
     from audit_event e left join users u on u.user_id = e.actor_id";

/// A page of events, newest first. Built for its filters and unnamed, so PostgreSQL plans each
/// combination with its values (an actor's few rows by their index, a date range by the time index).
pub async fn events(db: impl PgExecutor<'_>, f: &EventFilter, limit: i64, offset: i64) -> sqlx::Result<Vec<EventRow>> {
    let mut q = QueryBuilder::<Postgres>::new(EVENT_COLUMNS);
    push_filters(&mut q, f);
    q.push(" order by e.occurred_at desc, e.event_id desc limit ").push_bind(limit).push(" offset ").push_bind(offset);
    q.build_query_as().persistent(false).fetch_all(db).await
}

/// How many events the filters select.
pub async fn count(db: impl PgExecutor<'_>, f: &EventFilter) -> sqlx::Result<i64> {
    let mut q = QueryBuilder::<Postgres>::new("select count(*) from audit_event e");
    push_filters(&mut q, f);
    q.build_query_scalar().persistent(false).fetch_one(db).await
}

/// The next `limit` events the filters select older than `after` (an event's time and id; none:
/// the newest), newest first: the CSV export and the CLI read the trail a chunk at a time.
pub async fn events_before(
    db: impl PgExecutor<'_>,
    f: &EventFilter,
    after: Option<(DateTime<Utc>, i64)>,
    limit: i64,
) -> sqlx::Result<Vec<EventRow>> {
    let mut q = QueryBuilder::<Postgres>::new(EVENT_COLUMNS);
    push_filters(&mut q, f);
    if let Some((time, id)) = after {
        q.push(" and (e.occurred_at, e.event_id) < (").push_bind(time).push(", ").push_bind(id).push(")");
    }
    q.push(" order by e.occurred_at desc, e.event_id desc limit ").push_bind(limit);
    q.build_query_as().persistent(false).fetch_all(db).await
}
