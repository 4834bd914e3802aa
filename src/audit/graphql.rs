//! `auditEvents`: the trail, for Administrators. Reading it is itself recorded.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    Actor, Origin,
    queries::{self, EventFilter, EventRow},
};
use crate::{
    auth::{Auth, Role},
    error::Result,
    graphql::{app_state, checked_limit_offset, total_from_page, viewer},
};

#[derive(InputObject, Default)]
pub struct AuditEventParams {
    pub actor_id: Option<ID>,
    pub entity_type: Option<String>,
    pub entity_id: Option<String>,
    /// The GraphQL operation, REST endpoint or CLI command (`editArticle`, `GET /export/audit.csv`).
    pub action: Option<String>,
    /// From this instant, inclusive.
    pub from: Option<DateTime<Utc>>,
    /// Until this instant, exclusive.
    pub to: Option<DateTime<Utc>>,
    #[graphql(default = 0)]
    pub skip: i32,
    #[graphql(default = 50)]
    pub limit: i32,
}

impl AuditEventParams {
    pub fn filter(&self) -> EventFilter {
        let text = |value: &Option<String>| value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
        EventFilter {
            actor_id: text(&self.actor_id.as_ref().map(|id| id.0.clone())),
            entity_type: text(&self.entity_type),
            entity_id: text(&self.entity_id),
            action: text(&self.action),
            from: self.from,
            to: self.to,
        }
    }
}

/// One field a change touched: its value before and after, as JSON text (absent: null).
#[derive(SimpleObject)]
pub struct AuditFieldChange {
    pub field: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

pub struct AuditEvent(pub EventRow);

#[Object]
impl AuditEvent {
    #[graphql(name = "_id")]
    async fn id(&self) -> ID {
        ID(self.0.event_id.to_string())
    }
    async fn occurred_at(&self) -> DateTime<Utc> {
        self.0.occurred_at
    }
    /// user, cli, worker, stripe or system (a change nobody was named for).
    async fn actor_kind(&self) -> &str {
        &self.0.actor_kind
    }
    async fn actor_id(&self) -> Option<&str> {
        self.0.actor_id.as_deref()
    }
    /// The role at the time.
    async fn actor_role(&self) -> Option<&str> {
        self.0.actor_role.as_deref()
    }
    /// The address at the time.
    async fn actor_email(&self) -> Option<&str> {
        self.0.actor_email.as_deref()
    }
    /// The actor's name now, when they are a user still known.
    async fn actor_name(&self) -> Option<&str> {
        self.0.actor_name.as_deref()
    }
    async fn source_address(&self) -> Option<&str> {
        self.0.source_address.as_deref()
    }
    async fn user_agent(&self) -> Option<&str> {
        self.0.user_agent.as_deref()
    }
    async fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }
    async fn action(&self) -> &str {
        &self.0.action
    }
    async fn entity_type(&self) -> Option<&str> {
        self.0.entity_type.as_deref()
    }
    async fn entity_id(&self) -> Option<&str> {
        self.0.entity_id.as_deref()
    }
    /// insert, update or delete for a change of a record; none for other events.
    async fn operation(&self) -> Option<&str> {
        self.0.change.get("op").and_then(|op| op.as_str())
    }
    /// The fields the change touched, by name.
    async fn changes(&self) -> Vec<AuditFieldChange> {
        field_changes(&self.0.change)
    }
    /// What else the event says, as JSON (a refused sign-in's reason, an export's filters, a
    /// subscription change's route and transition); none when nothing.
    async fn details(&self) -> Option<String> {
        details(&self.0.change)
    }
}

/// The fields of a change's `before` and `after`, by name.
pub fn field_changes(change: &serde_json::Value) -> Vec<AuditFieldChange> {
    let side = |name: &str| change.get(name).and_then(|v| v.as_object()).cloned().unwrap_or_default();
    let (before, after) = (side("before"), side("after"));
    let mut fields: Vec<&String> = before.keys().chain(after.keys()).collect();
    fields.sort();
    fields.dedup();
    fields
        .into_iter()
        .map(|field| AuditFieldChange {
            field: field.clone(),
            before: before.get(field).map(|v| v.to_string()),
            after: after.get(field).map(|v| v.to_string()),
        })
        .collect()
}

/// The rest of a change, beside its operation, table and fields.
pub fn details(change: &serde_json::Value) -> Option<String> {
    let mut rest = change.as_object()?.clone();
    for key in ["op", "table", "before", "after"] {
        rest.remove(key);
    }
    (!rest.is_empty()).then(|| serde_json::Value::Object(rest).to_string())
}

/// Records that the caller of this query read `entity` (type and id; none: the trail itself):
/// staff opening a reader's data, an Administrator reading the trail.
pub async fn record_read(ctx: &Context<'_>, action: &str, entity: Option<(&str, &str)>, details: &serde_json::Value) -> Result<()> {
    let actor = Actor::of_request(ctx.data_unchecked::<Auth>(), ctx.data_unchecked::<Origin>(), action);
    let (entity_type, entity_id) = entity.unzip();
    queries::record(&app_state(ctx).pool, Some(&actor), None, entity_type, entity_id, details).await?;
    Ok(())
}

#[derive(SimpleObject)]
pub struct AuditEventPage {
    pub events: Vec<AuditEvent>,
    pub total: i64,
}

#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// Administrators: the audit trail, newest first, filtered. The read is recorded.
    async fn audit_events(&self, ctx: &Context<'_>, params: Option<AuditEventParams>) -> Result<AuditEventPage> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        let params = params.unwrap_or(AuditEventParams { limit: 50, ..Default::default() });
        let (limit, offset) = checked_limit_offset(params.limit, params.skip)?;
        let filter = params.filter();
        let pool = &app_state(ctx).pool;
        record_read(ctx, "auditEvents", None, &serde_json::json!({ "filters": filter, "skip": offset })).await?;
        let rows = queries::events(pool, &filter, limit, offset).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count(pool, &filter).await?,
        };
        Ok(AuditEventPage { events: rows.into_iter().map(AuditEvent).collect(), total })
    }
}
