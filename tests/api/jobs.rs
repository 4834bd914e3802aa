//! Background jobs: the purge of expired identity-provider grants, enqueued through the core's API
//! and run by the real workers, and enqueued by its cron schedule.

use std::time::{Duration, Instant};

use chrono::Utc;
use insights::{auth::provider::queries, jobs::JobRequest};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use crate::support::TestApp;

async fn insert_grants(pool: &PgPool) {
    let claims = serde_json::json!({ "email": "a@b.c", "name": "A", "grants": [] });
    for (hash, expires) in [("expired", Utc::now() - chrono::Duration::minutes(1)), ("fresh", Utc::now() + chrono::Duration::hours(1))] {
        let code = queries::Grant {
            client_id: "insights-web".into(),
            redirect_uri: "http://127.0.0.1/insights/callback".into(),
            code_challenge: "c".into(),
            nonce: None,
            subject: "dev|1".into(),
            scope: "openid".into(),
            claims: claims.clone(),
            expires_at: expires,
        };
        queries::insert_code(pool, hash, &code).await.unwrap();
        let refresh = queries::RefreshGrant {
            client_id: "insights-web".into(),
            subject: "dev|1".into(),
            scope: "openid offline_access".into(),
            claims: claims.clone(),
            expires_at: expires,
        };
        queries::insert_refresh_token(pool, hash, &refresh).await.unwrap();
    }
}

async fn remaining(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar(
        "select code_hash from oidc_authorization_code union all select token_hash from oidc_refresh_token order by 1",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

/// Waits until only the fresh grants are left, or fails after a generous deadline.
async fn wait_for_purge(pool: &PgPool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = remaining(pool).await;
        if left == ["fresh", "fresh"] {
            return;
        }
        assert!(Instant::now() < deadline, "expired grants were not purged: {left:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn an_enqueued_purge_removes_only_expired_grants(pool: PgPool) {
    // A schedule that never fires during the test, so only the enqueued job can purge.
    let app = TestApp::spawn_with(pool, &["--purge-grants-schedule", "0 0 0 1 1 * 2099"]).await;
    insert_grants(&app.pool).await;

    let mut tx = app.pool.begin().await.unwrap();
    app.state.jobs.enqueue(&mut tx, JobRequest::PurgeExpiredGrants).await.unwrap();
    tx.commit().await.unwrap();

    let shutdown = CancellationToken::new();
    let workers = tokio::spawn(insights_jobs::run(app.state.clone(), shutdown.clone()));
    wait_for_purge(&app.pool).await;
    shutdown.cancel();
    workers.await.unwrap().unwrap();
}

#[sqlx::test(migrations = "./migrations")]
async fn a_job_enqueued_in_a_rolled_back_transaction_never_exists(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut tx = app.pool.begin().await.unwrap();
    app.state.jobs.enqueue(&mut tx, JobRequest::PurgeExpiredGrants).await.unwrap();
    tx.rollback().await.unwrap();
    let jobs: i64 = sqlx::query_scalar("select count(*) from apalis.jobs").fetch_one(&app.pool).await.unwrap();
    assert_eq!(jobs, 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_schedule_purges_without_anyone_asking(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--purge-grants-schedule", "* * * * * *"]).await;
    insert_grants(&app.pool).await;
    let shutdown = CancellationToken::new();
    let workers = tokio::spawn(insights_jobs::run(app.state.clone(), shutdown.clone()));
    wait_for_purge(&app.pool).await;
    shutdown.cancel();
    workers.await.unwrap().unwrap();
}

#[sqlx::test(migrations = "./migrations")]
async fn a_registered_client_that_signs_no_one_in_is_purged_after_its_first_day(pool: PgPool) {
    let claims = serde_json::json!({ "email": "a@b.c", "name": "A", "grants": [] });
    for client in ["mcp-unused", "mcp-in-use", "mcp-signing-in", "mcp-new"] {
        queries::insert_client(&pool, client, Some(client), &["http://127.0.0.1:33418/callback".to_owned()]).await.unwrap();
    }
    sqlx::query("update oidc_client set created_at = now() - interval '2 days' where client_id <> 'mcp-new'").execute(&pool).await.unwrap();
    let in_a_day = Utc::now() + chrono::Duration::days(1);
    let refresh = queries::RefreshGrant {
        client_id: "mcp-in-use".into(),
        subject: "dev|1".into(),
        scope: "openid offline_access".into(),
        claims: claims.clone(),
        expires_at: in_a_day,
    };
    queries::insert_refresh_token(&pool, "in-use", &refresh).await.unwrap();
    let code = queries::Grant {
        client_id: "mcp-signing-in".into(),
        redirect_uri: "http://127.0.0.1:33418/callback".into(),
        code_challenge: "c".into(),
        nonce: None,
        subject: "dev|1".into(),
        scope: "openid".into(),
        claims,
        expires_at: in_a_day,
    };
    queries::insert_code(&pool, "signing-in", &code).await.unwrap();

    let purged = queries::purge_expired(&pool, Utc::now()).await.unwrap();
    assert_eq!(purged.clients, 1);
    let left: Vec<String> = sqlx::query_scalar("select client_id from oidc_client order by 1").fetch_all(&pool).await.unwrap();
    assert_eq!(left, ["mcp-in-use", "mcp-new", "mcp-signing-in"]);
}
