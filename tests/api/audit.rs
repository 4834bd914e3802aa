//! The audit trail (issue 40): a change is recorded with who made it, from where, and the fields
//! that changed, in the transaction of the change (none when it fails); the table is append-only;
//! only Administrators read it, and reading it is recorded; the CSV export; the subscription
//! audit kept in the trail.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

const EVENTS: &str = "query($p: AuditEventParams) { auditEvents(params: $p) { total events { _id occurredAt actorKind actorId actorRole
    actorEmail actorName sourceAddress userAgent requestId action entityType entityId operation details
    changes { field before after } } } }";

async fn events(app: &TestApp, admin: &str, params: Value) -> Value {
    let response = app.gql(Some(admin), EVENTS, json!({ "p": params })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["auditEvents"].clone()
}

fn change<'a>(event: &'a Value, field: &str) -> Option<(&'a Value, &'a Value)> {
    let changes = event["changes"].as_array()?;
    let change = changes.iter().find(|c| c["field"] == field)?;
    Some((&change["before"], &change["after"]))
}

#[sqlx::test]
async fn a_change_is_recorded_with_its_actor_origin_and_changed_fields(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let tag = app.add_tag(&editor, "Copper").await;

    let edit = "mutation($item: TagInput!) { editTag(item: $item) { _id version } }";
    let response = app
        .client
        .post(app.url("/graphql"))
        .bearer_auth(&editor)
        .header("x-request-id", "audit-test-1")
        .header("user-agent", "AuditTest/1.0")
        .json(&json!({ "query": edit, "variables": { "item": { "_id": tag, "name": "Copper cathodes", "description": "Refined", "version": 1 } } }))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(response["errors"], Value::Null, "{response}");

    let page = events(&app, &admin, json!({ "entityType": "tag", "entityId": tag })).await;
    assert_eq!(page["total"], 2, "{page}");
    let (edited, added) = (&page["events"][0], &page["events"][1]);
    assert_eq!(added["action"], "addTag");
    assert_eq!(added["operation"], "insert");
    assert_eq!(change(added, "name"), Some((&Value::Null, &json!("\"Copper\""))));

    assert_eq!(edited["action"], "editTag");
    assert_eq!(edited["operation"], "update");
    assert_eq!(edited["actorKind"], "user");
    assert_eq!(edited["actorId"], editor_id.as_str());
    assert_eq!(edited["actorRole"], "Editor");
    assert!(edited["actorEmail"].as_str().unwrap().contains('@'), "{edited}");
    assert_eq!(edited["sourceAddress"], "127.0.0.1");
    assert_eq!(edited["userAgent"], "AuditTest/1.0");
    assert_eq!(edited["requestId"], "audit-test-1");
    assert_eq!(change(edited, "name"), Some((&json!("\"Copper\""), &json!("\"Copper cathodes\""))));
    assert_eq!(change(edited, "description").map(|(_, after)| after), Some(&json!("\"Refined\"")));
    // Bookkeeping is not kept: the version moved, the trail does not say so.
    assert_eq!(change(edited, "version"), None);

    // Filters: by actor and action.
    let by_actor = events(&app, &admin, json!({ "actorId": editor_id, "action": "editTag" })).await;
    assert_eq!(by_actor["total"], 1);
    let none = events(&app, &admin, json!({ "actorId": editor_id, "from": "2999-01-01T00:00:00Z" })).await;
    assert_eq!(none["total"], 0);
}

#[sqlx::test]
async fn a_change_that_fails_leaves_no_row_and_one_that_commits_has_its_row(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    app.add_tag(&admin, "Copper").await;
    let count = |action: &'static str| {
        let pool = app.pool.clone();
        async move { sqlx::query_scalar::<_, i64>("select count(*) from audit_event where action = $1").bind(action).fetch_one(&pool).await.unwrap() }
    };
    assert_eq!(count("addTag").await, 1);

    // A duplicate name: the insert fails, and with it its row.
    let add = "mutation($item: TagInput!) { addTag(item: $item) { _id } }";
    let response = app.gql(Some(&admin), add, json!({ "item": { "name": "Copper", "description": "again" } })).await;
    assert_eq!(error_code(&response), Some("DUPLICATE"), "{response}");
    assert_eq!(count("addTag").await, 1);

    // A transaction that writes and then rolls back takes its rows with it.
    let mut tx = app.pool.begin().await.unwrap();
    sqlx::query("select set_config('insights.audit', '{\"kind\": \"cli\", \"action\": \"rolled back\"}', true)").execute(&mut *tx).await.unwrap();
    sqlx::query("update tag set description = 'Changed' where name = 'Copper'").execute(&mut *tx).await.unwrap();
    let inside: i64 = sqlx::query_scalar("select count(*) from audit_event where action = 'rolled back'").fetch_one(&mut *tx).await.unwrap();
    assert_eq!(inside, 1);
    tx.rollback().await.unwrap();
    assert_eq!(count("rolled back").await, 0);
}

#[sqlx::test]
async fn the_trail_is_append_only(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    app.add_tag(&admin, "Copper").await;
    for statement in ["update audit_event set action = 'forged'", "delete from audit_event", "truncate audit_event"] {
        let error = sqlx::query(statement).execute(&app.pool).await.unwrap_err();
        assert!(error.to_string().contains("append-only"), "{statement}: {error}");
    }
    let kept: i64 = sqlx::query_scalar("select count(*) from audit_event where action = 'addTag'").fetch_one(&app.pool).await.unwrap();
    assert_eq!(kept, 1);
}

#[sqlx::test]
async fn only_administrators_read_the_trail_and_reading_it_is_recorded(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    for role in [TestRole::Editor, TestRole::Contributor, TestRole::Subscriber] {
        let token = app.token(role).await;
        let response = app.gql(Some(&token), EVENTS, json!({})).await;
        assert_eq!(error_code(&response), Some("FORBIDDEN"), "{response}");
        let csv = app.client.get(app.url("/export/audit.csv")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(csv.status(), 403);
    }
    let anonymous = app.client.get(app.url("/export/audit.csv")).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);

    events(&app, &admin, json!({ "entityType": "tag" })).await;
    let reads = events(&app, &admin, json!({ "action": "auditEvents" })).await;
    assert_eq!(reads["total"], 2, "{reads}");
    let first = &reads["events"][1];
    assert_eq!(first["actorId"], admin_id.as_str());
    assert_eq!(first["details"], json!({ "filters": { "entityType": "tag" }, "skip": 0 }).to_string());

    let response = app.gql(Some(&admin), EVENTS, json!({ "p": { "limit": 500 } })).await;
    assert_eq!(error_code(&response), Some("BAD_USER_INPUT"), "{response}");
}

#[sqlx::test]
async fn the_csv_export_has_the_filtered_events_escaped_and_is_recorded(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    app.add_tag(&admin, "=HYPERLINK(\"x\")").await;
    app.add_tag(&admin, "Zinc").await;

    let response = app.client.get(app.url("/export/audit.csv?entityType=tag&from=2020-01-01")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(response.headers()["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"audit-trail-"));
    let body = response.bytes().await.unwrap();
    assert!(body.starts_with(b"\xEF\xBB\xBF"), "a byte-order mark first");
    let mut reader = csv::Reader::from_reader(&body[3..]);
    assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>()[..3], ["Time", "Actor kind", "Actor"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|row| &row[8] == "addTag" && &row[9] == "tag"));
    // Newest first; a value that starts a formula is escaped.
    assert!(rows[0][12].contains("Zinc"), "{:?}", rows[0]);
    assert!(rows[1][12].contains("=HYPERLINK"), "{:?}", rows[1]);
    assert!(!rows.iter().flat_map(|row| row.iter()).any(|cell| cell.starts_with('=')));

    let bad = app.client.get(app.url("/export/audit.csv?from=yesterday")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(bad.status(), 400);

    let exports = events(&app, &admin, json!({ "action": "GET /export/audit.csv" })).await;
    assert_eq!(exports["total"], 1, "{exports}");
    assert_eq!(exports["events"][0]["details"], json!({ "filters": { "entityType": "tag", "from": "2020-01-01T00:00:00Z" } }).to_string());
}

#[sqlx::test]
async fn the_retention_purge_keeps_everything_unless_an_operator_sets_a_retention(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    app.add_tag(&admin, "Copper").await;
    sqlx::query("insert into audit_event (occurred_at, actor_kind, action) values (now() - interval '400 days', 'cli', 'cli old')")
        .execute(&app.pool)
        .await
        .unwrap();
    let count = || async { sqlx::query_scalar::<_, i64>("select count(*) from audit_event").fetch_one(&app.pool).await.unwrap() };
    let before = count().await;
    assert_eq!(insights::audit::queries::purge(&app.pool, 0).await.unwrap(), 0);
    assert_eq!(count().await, before);
    assert_eq!(insights::audit::queries::purge(&app.pool, 365).await.unwrap(), 1);
    assert_eq!(count().await, before - 1);
    // Outside the purge, deletes are still refused.
    assert!(sqlx::query("delete from audit_event").execute(&app.pool).await.is_err());
}
