//! `insights-cli seed demo`: the core it calls on an empty database (what it creates, views that
//! add up, ready users who sign in as the seeded rows), run twice, and with other content.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use insights::{
    auth::provider,
    demo::{self, DemoOptions, DemoReport, DemoStatus, HasContent, WELCOME_TITLE},
};
use serde_json::json;
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, uploads};

async fn seed(app: &TestApp, options: DemoOptions<'_>) -> anyhow::Result<DemoReport> {
    demo::seed_demo(&app.state, options).await
}

async fn scalar(pool: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn strings(pool: &PgPool, sql: &'static str) -> BTreeSet<String> {
    sqlx::query_scalar(sql).fetch_all(pool).await.unwrap_or_else(|e| panic!("{sql}: {e}")).into_iter().collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A token of the built-in provider for a ready user of the sign-in page, as its button signs in.
async fn ready_user_token(app: &TestApp, key: &str) -> String {
    let user = provider::READY_USERS.iter().find(|u| u.key == key).unwrap();
    let grants: Vec<String> = user.scopes.iter().map(|s| s.to_string()).collect();
    let claims = provider::UserClaims::new(user.email, user.name, Some(user.company), grants.clone());
    let subject = provider::subject_for(&app.state.config, user.email, user.internal);
    provider::sign_access_token(&app.state, &subject, &grants.join(" "), &claims, std::time::Duration::from_secs(600)).await.unwrap()
}

/// Row counts and version sums of everything the seed writes, to compare before and after.
async fn snapshot(pool: &PgPool) -> Vec<i64> {
    let figure = |sql: String| async move { sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).fetch_one(pool).await.unwrap() };
    let mut figures = Vec::new();
    for table in [
        "users",
        "desk",
        "desk_contributor",
        "channel",
        "channel_admin",
        "channel_subscription",
        "category",
        "tag",
        "article",
        "article_category",
        "article_tag",
        "article_contributor",
        "category_follow",
        "article_view_event",
        "article_view_day",
        "article_view",
        "article_notification_request",
    ] {
        figures.push(figure(format!("select count(*) from {table}")).await);
    }
    for table in ["users", "desk", "channel", "category", "tag", "article"] {
        figures.push(figure(format!("select coalesce(sum(version), 0)::bigint from {table}")).await);
    }
    figures.push(scalar(pool, "select coalesce(sum(views), 0)::bigint from article_view").await);
    figures
}

#[sqlx::test(migrations = "./migrations")]
async fn the_demo_fills_an_empty_database(pool: PgPool) {
    let (app, upload_dir) = uploads::spawn(pool.clone(), &[]).await;

    let report = seed(&app, DemoOptions::default()).await.unwrap();

    assert_eq!(report.status, DemoStatus::Seeded);
    assert!(report.before.is_empty());
    assert!(report.elapsed < std::time::Duration::from_secs(60), "took {:?}", report.elapsed);
    // Desks with their contributors, channels of each type.
    assert_eq!(scalar(&pool, "select count(*) from desk").await, 5);
    assert_eq!(
        scalar(
            &pool,
            "select count(*) from desk d where (select count(*) from desk_contributor c where c.desk_id = d.desk_id) not between 2 and 3"
        )
        .await,
        0
    );
    assert_eq!(scalar(&pool, "select count(*) from channel where type = 'premium' and price > 0 and gl_account is not null and default_trial_duration_days > 0").await, 3);
    assert_eq!(scalar(&pool, "select count(*) from channel where type = 'freeOpen'").await, 2);
    assert_eq!(scalar(&pool, "select count(*) from channel where type = 'freeClosed'").await, 2);
    assert_eq!(scalar(&pool, "select count(*) from channel where owner_type = 'contributor'").await, 1);
    // Their images are uploads that exist.
    let images = strings(&pool, "select profile_image from channel union select cover_image from channel union select small_image from category where small_image is not null").await;
    assert!(images.len() >= 4, "{images:?}");
    for image in &images {
        assert!(upload_dir.join(image).is_file(), "{image} is not in the upload directory");
    }
    // The shipped taxonomy.
    assert!(scalar(&pool, "select count(*) from category").await >= 500);
    assert_eq!(scalar(&pool, "select count(*) from tag").await, 40);

    // Articles: published over two years, drafts, archived ones.
    let published = scalar(&pool, "select count(*) from article where state = 'Published'").await;
    assert!(published >= 250, "{published} published");
    assert_eq!(published as usize, report.counts.published);
    assert!(scalar(&pool, "select count(*) from article where state = 'Pending'").await >= 5);
    assert_eq!(scalar(&pool, "select count(*) from article where state = 'Archived'").await, 3);
    let (oldest, newest): (DateTime<Utc>, DateTime<Utc>) =
        sqlx::query_as("select min(publish_date), max(publish_date) from article where state = 'Published'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(oldest < Utc::now() - Duration::days(600) && oldest > Utc::now() - Duration::days(740), "{oldest}");
    assert!(newest > Utc::now() - Duration::days(2) && newest <= Utc::now(), "{newest}");
    assert!(
        scalar(&pool, "select count(*) from article where state = 'Published' and publish_date > now() - interval '60 days'").await >= 30
    );
    // Each research note: a summary, 3–5 topics, 2–4 tags, 3–8 paragraphs; through the service, so sanitised and searchable.
    let odd = scalar(
        &pool,
        "select count(*) from article a where state = 'Published' and title <> 'Welcome to Insights: a tour of the demo portal' and (
             summary is null or length(summary) > 250
             or (select count(*) from article_category c where c.article_id = a.article_id) not between 3 and 5
             or (select count(*) from article_tag t where t.article_id = a.article_id) not between 2 and 4
             or (length(html) - length(replace(html, '<p>', ''))) / 3 not between 3 and 8
             or search_vector = ''::tsvector or published_by_desk_id is null and published_by_user_id is null)",
    )
    .await;
    assert_eq!(odd, 0);
    assert!(scalar(&pool, "select count(*) from article where html like '%<img src=\"/uploads/%' and html like '%<h2>%'").await >= 5);
    assert!(
        scalar(&pool, "select count(*) from article where search_vector @@ websearch_to_tsquery('english', 'copper inventories')").await
            > 0
    );
    // Premium access that is still on and that has ended; pinned, chart-section and watermarked notes.
    assert!(scalar(&pool, "select count(*) from article where state = 'Published' and premium_expires_at > now()").await >= 1);
    assert!(scalar(&pool, "select count(*) from article where state = 'Published' and premium_expires_at <= now()").await >= 1);
    assert!(scalar(&pool, "select count(*) from article where is_pinned").await >= 3);
    assert!(scalar(&pool, "select count(*) from article where display_in_chart_section").await >= 3);
    assert!(scalar(&pool, "select count(*) from article where show_watermark").await >= 3);
    // Back-dated publishing sends nothing.
    assert_eq!(scalar(&pool, "select count(*) from article_notification_request").await, 0);
    assert_eq!(scalar(&pool, "select count(*) from email_outbox").await, 0, "the demo emails nobody");

    // Subscriptions of every type and state.
    let types = strings(&pool, "select distinct subscription_type from channel_subscription").await;
    assert_eq!(types, set(&["stripe", "account", "external", "nonCharge", "trial", "free"]));
    let states = strings(&pool, "select distinct subscription_state from channel_subscription").await;
    assert_eq!(states, set(&["active", "canceled", "rejected", "expired", "pending", "paymentFailed"]));
    assert!(scalar(&pool, "select count(*) from users where role = 'Subscriber'").await >= 40);
    assert!(scalar(&pool, "select count(*) from users where role = 'Subscriber' and company is not null").await >= 40);

    // Views add up: each reader's count is their full views, each day's totals are that day's events.
    assert!(report.counts.view_events >= 300, "{} views", report.counts.view_events);
    let reader_mismatch = scalar(
        &pool,
        "select count(*) from article_view v
         full join (select article_id, user_id, count(*) as n, max(viewed_at) as last from article_view_event
                    where kind = 'full' group by 1, 2) e using (article_id, user_id)
         where v.views is distinct from e.n or v.last_viewed is distinct from e.last",
    )
    .await;
    assert_eq!(reader_mismatch, 0);
    let day_mismatch = scalar(
        &pool,
        "select count(*) from article_view_day d
         full join (select article_id, (viewed_at at time zone 'UTC')::date as day,
                           count(*) filter (where kind = 'full') as f, count(*) filter (where kind = 'preview') as p
                    from article_view_event group by 1, 2) e using (article_id, day)
         where d.full_views is distinct from e.f or d.preview_views is distinct from e.p",
    )
    .await;
    assert_eq!(day_mismatch, 0);
    assert_eq!(
        scalar(&pool, "select count(*) from article_view_event where viewed_at < now() - interval '60 days' or viewed_at > now()").await,
        0
    );
    assert!(
        scalar(&pool, "select count(distinct article_id) from article_view_day where day > current_date - 30").await >= 10,
        "trending has data"
    );
    assert_eq!(
        scalar(&pool, "select count(*) from article_view_event e join article a using (article_id) where e.viewed_at < a.publish_date")
            .await,
        0
    );
    assert!(scalar(&pool, "select count(*) from article_view_event where kind = 'preview'").await > 0);

    // The ready users sign in as the seeded rows: no new user, their subscriptions, follows and views.
    let users_before = scalar(&pool, "select count(*) from users").await;
    let sam = ready_user_token(&app, "subscriber").await;
    let me = app.gql(Some(&sam), "{ me { _id email role trialMinLeft } }", json!({})).await;
    let sam_id = me["data"]["me"]["_id"].as_str().unwrap_or_else(|| panic!("{me}")).to_owned();
    assert_eq!(me["data"]["me"]["trialMinLeft"], -1);
    let sam_subscriptions: Vec<(String, String, bool)> = sqlx::query_as(
        "select subscription_type, subscription_state, cancel_at_period_end from channel_subscription where user_id = $1 order by 1, 2",
    )
    .bind(&sam_id)
    .fetch_all(&pool)
    .await
    .unwrap();
    for wanted in [("account", "active", false), ("free", "active", false), ("free", "pending", false), ("stripe", "active", true)] {
        assert!(sam_subscriptions.contains(&(wanted.0.into(), wanted.1.into(), wanted.2)), "{wanted:?} in {sam_subscriptions:?}");
    }
    let follows: i64 =
        sqlx::query_scalar("select count(*) from category_follow where user_id = $1").bind(&sam_id).fetch_one(&pool).await.unwrap();
    assert!(follows >= 5);
    let views: i64 =
        sqlx::query_scalar("select count(*) from article_view where user_id = $1").bind(&sam_id).fetch_one(&pool).await.unwrap();
    assert!(views >= 10);

    let tara = ready_user_token(&app, "trial").await;
    let me = app.gql(Some(&tara), "{ me { _id trialMinLeft } }", json!({})).await;
    let minutes_left = me["data"]["me"]["trialMinLeft"].as_i64().unwrap_or_else(|| panic!("{me}"));
    assert!((9 * 1440..=10 * 1440).contains(&minutes_left), "{minutes_left} minutes of trial left");
    let (kind, state, cancel_at): (String, String, DateTime<Utc>) = sqlx::query_as(
        "select subscription_type, subscription_state, cancel_at from channel_subscription s where user_id = $1 and subscription_type = 'trial'",
    )
    .bind(me["data"]["me"]["_id"].as_str().unwrap())
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!((kind.as_str(), state.as_str()), ("trial", "active"));
    assert!(cancel_at > Utc::now() + Duration::days(9) && cancel_at < Utc::now() + Duration::days(11), "{cancel_at}");

    // Client firms: three, with seats given to some of their readers; Fiona administers hers.
    assert_eq!(scalar(&pool, "select count(*) from firm").await, 3);
    assert!(scalar(&pool, "select count(*) from firm_seat").await >= 4);
    assert!(scalar(&pool, "select count(*) from firm_member m where not exists (select from firm_seat s where s.user_id = m.user_id)").await > 0);
    let fiona = ready_user_token(&app, "firmadmin").await;
    let me = app.gql(Some(&fiona), "{ me { firm { name isAdmin } firmSeats { channelName } } myFirm { readers { total } } }", json!({})).await;
    assert_eq!(me["data"]["me"]["firm"], json!({ "name": "Northbridge Capital", "isAdmin": true }), "{me}");
    assert!(!me["data"]["me"]["firmSeats"].as_array().unwrap().is_empty(), "{me}");
    assert!(me["data"]["myFirm"]["readers"]["total"].as_i64().unwrap() >= 2, "{me}");
    assert_eq!(scalar(&pool, "select count(*) from email_outbox where data ? 'firmName'").await, 0, "the demo emails no one");

    for key in ["admin", "editor", "contributor"] {
        let token = ready_user_token(&app, key).await;
        let me = app.gql(Some(&token), "{ me { _id role } }", json!({})).await;
        assert!(me["data"]["me"]["role"].is_string(), "{key}: {me}");
    }
    let erin = ready_user_token(&app, "editor").await;
    let erin_id = app.user_id(&erin).await;
    let erin_desks: i64 =
        sqlx::query_scalar("select count(*) from desk_contributor where user_id = $1").bind(&erin_id).fetch_one(&pool).await.unwrap();
    assert_eq!(erin_desks, 2, "Erin Editor is a member of the Energy and Macro desks");
    assert_eq!(scalar(&pool, "select count(*) from users").await, users_before, "signing in created no user");
    let _ = std::fs::remove_dir_all(upload_dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_second_run_says_the_demo_is_there_and_changes_nothing(pool: PgPool) {
    let (app, upload_dir) = uploads::spawn(pool.clone(), &[]).await;
    seed(&app, DemoOptions::default()).await.unwrap();
    let before = snapshot(&pool).await;
    let files = std::fs::read_dir(&upload_dir).unwrap().count();

    let again = seed(&app, DemoOptions::default()).await.unwrap();
    let forced = seed(&app, DemoOptions { force: true, ..DemoOptions::default() }).await.unwrap();

    assert_eq!(again.status, DemoStatus::AlreadySeeded);
    assert!(again.before.demo_seeded);
    assert_eq!(forced.status, DemoStatus::AlreadySeeded);
    assert_eq!(snapshot(&pool).await, before);
    assert_eq!(std::fs::read_dir(&upload_dir).unwrap().count(), files, "no image was stored again");
    let _ = std::fs::remove_dir_all(upload_dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_database_with_other_content_is_refused_unless_forced(pool: PgPool) {
    let (app, upload_dir) = uploads::spawn(pool.clone(), &[]).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let energy = app.add_desk(&editor, "Energy", &[&editor_id]).await;
    let before = snapshot(&pool).await;

    let refused = seed(&app, DemoOptions::default()).await.unwrap_err();
    let skipped = seed(&app, DemoOptions { if_empty: true, ..DemoOptions::default() }).await.unwrap();

    let content = refused.downcast_ref::<HasContent>().unwrap_or_else(|| panic!("{refused:#}"));
    assert_eq!((content.0.desks, content.0.channels, content.0.articles), (1, 0, 0));
    assert!(refused.to_string().contains("--force"), "{refused}");
    assert_eq!(skipped.status, DemoStatus::SkippedHasContent);
    assert_eq!(snapshot(&pool).await, before, "nothing was written");
    assert_eq!(std::fs::read_dir(&upload_dir).map(|d| d.count()).unwrap_or(0), 0, "no image was stored");

    // Forced: the demo goes beside it and the desk of the same name is kept as it is.
    let forced = seed(&app, DemoOptions { force: true, ..DemoOptions::default() }).await.unwrap();
    assert_eq!(forced.status, DemoStatus::Seeded);
    assert_eq!((forced.counts.desks_added, forced.counts.desks_kept), (4, 1));
    assert_eq!(scalar(&pool, "select count(*) from desk").await, 5);
    let members: Vec<String> =
        sqlx::query_scalar("select user_id from desk_contributor where desk_id = $1").bind(&energy).fetch_all(&pool).await.unwrap();
    assert_eq!(members, vec![editor_id]);
    assert!(forced.counts.published >= 250);
    assert!(demo::database_content(&pool).await.unwrap().demo_seeded);
    let welcome: i64 =
        sqlx::query_scalar("select count(*) from article where title = $1").bind(WELCOME_TITLE).fetch_one(&pool).await.unwrap();
    assert_eq!(welcome, 1);
    let _ = std::fs::remove_dir_all(upload_dir);
}
