//! Subscriptions, the staff side (spec 3 §2, §4, §5, §7): approving and rejecting requests, who
//! may do it, the subscriber form's rules and messages, editing, cancelling and deleting, the
//! user search, subscriber stats (views, paging, search, sorting, article views), the bulk CSV
//! check and creation, and the expiry sweep (also with two workers at once).

use std::time::Instant;

use chrono::{DateTime, Duration, TimeZone, Utc};
use insights::subscriptions::expiry;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    subscriptions::{SUBSCRIPTION, at, audit_rows, email_requests},
    support::{TestApp, TestRole, error_code, factories::ReaderArticle, tokens},
};

const STAFF_FIELDS: &str = "notes accountNumber rebate billingMethod pricePerMonth addedByAdmin";
const CHECK: &str = "query($c: ID!, $csv: String, $emails: [String!]) { checkEmails(channelId: $c, csv: $csv, emails: $emails) {
    identified users { _id email subscriptionType subscriptionState } existing { _id email subscriptionType subscriptionState }
    insightsUsers { _id email } unmatched } }";
const BULK: &str = "mutation($item: BulkSubscriptionInput!, $users: [ID!]!, $existing: [ID!]!) {
    createBulkSubscriptions(item: $item, users: $users, existing: $existing) { added updated alreadySubscribed refused } }";
const PAGE: &str = "query($c: ID!, $view: SubscriberView!, $q: String, $sort: SubscriberSortField, $dir: SortDirection, $limit: Int!, $offset: Int!) {
    channelSubscribedUsers(channelId: $c, view: $view, searchQuery: $q, sortField: $sort, sortDirection: $dir, limit: $limit, offset: $offset) {
        total users { _id name email company articleViewsByChannel channelId channelSubscription { subscriptionType } } } }";

struct World {
    app: TestApp,
    admin: String,
    admin_id: String,
    /// An Editor who is an admin of `premium`, `plain` and `closed`.
    editor: String,
    editor_id: String,
    /// An Editor who administers none of them.
    other_editor: String,
    contributor: String,
    desk: String,
    /// Premium, 30 trial days, 49.50 a month.
    premium: String,
    /// Premium without trial days of its own.
    plain: String,
    open: String,
    closed: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let other_editor = tokens::for_user(&app.state, "other.editor@test.example", TestRole::Editor.scopes()).await;
    app.user_id(&other_editor).await;
    let contributor = app.token(TestRole::Contributor).await;
    app.user_id(&contributor).await;
    let desk = app.add_desk(&admin, "Rates desk", &[&admin_id]).await;
    let mut item = TestApp::premium_channel("Rates Premium", &desk, &[&editor_id]);
    item["defaultTrialDurationDays"] = json!(30);
    let premium = app.add_channel(&admin, item).await;
    let mut item = TestApp::premium_channel("Rates Plain", &desk, &[&editor_id]);
    item["defaultTrialDurationDays"] = Value::Null;
    let plain = app.add_channel(&admin, item).await;
    let open = app.channel_of_type(&admin, &desk, "Rates Open", "freeOpen").await;
    let mut item = TestApp::premium_channel("Rates Closed", &desk, &[&editor_id]);
    item["type"] = json!("freeClosed");
    item["price"] = Value::Null;
    item["glAccount"] = Value::Null;
    let closed = app.add_channel(&admin, item).await;
    World { app, admin, admin_id, editor, editor_id, other_editor, contributor, desk, premium, plain, open, closed }
}

fn done(response: &Value, field: &str) -> Value {
    assert_eq!(response["errors"], Value::Null, "{field}: {response}");
    response["data"][field].clone()
}

fn assert_refused(response: &Value, code: &str, message: &str) {
    assert_eq!(error_code(response), Some(code), "{response}");
    assert_eq!(response["errors"][0]["message"], message, "{response}");
}

fn assert_fields(response: &Value, fields: Value) {
    assert_eq!(error_code(response), Some("BAD_USER_INPUT"), "{response}");
    assert_eq!(response["errors"][0]["extensions"]["fields"], fields, "{response}");
}

async fn decide(app: &TestApp, token: &str, mutation: &str, channel: &str, user: &str, approved: bool) -> Value {
    let query =
        format!("mutation($item: RequestDecisionInput!) {{ {mutation}(item: $item) {{ name channelSubscription {{ {SUBSCRIPTION} }} }} }}");
    app.gql(Some(token), &query, json!({ "item": { "userId": user, "channelId": channel, "approved": approved } })).await
}

/// A reader's request about a channel (the reader side is tested in `subscriptions`).
async fn request(app: &TestApp, token: &str, mutation: &str, channel: &str) {
    // A trial request accepts the trial terms (the trial policy asks for them).
    let terms = if mutation == "requestTrialChannelSubscription" { ", acceptedTermsVersion: 1" } else { "" };
    let query = format!("mutation($c: ID!) {{ {mutation}(channelId: $c{terms}) {{ channelId }} }}");
    let response = app.gql(Some(token), &query, json!({ "c": channel })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
}

/// Sends a subscriber form mutation (`create…ChannelSubscription` or `changeSubscription`).
async fn form(app: &TestApp, token: &str, mutation: &str, item: Value) -> Value {
    let query = format!("mutation($item: ChannelSubscriptionInput!) {{ {mutation}(item: $item) {{ {SUBSCRIPTION} {STAFF_FIELDS} }} }}");
    app.gql(Some(token), &query, json!({ "item": item })).await
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.pool).await.unwrap()
}

/// 23:59:59 UTC of `at`'s day.
fn end_of_day(at: DateTime<Utc>) -> DateTime<Utc> {
    Utc.from_utc_datetime(&at.date_naive().and_hms_opt(23, 59, 59).unwrap())
}

/// Asserts a trial of `days` approved or added between `before` and now ends at 23:59:59 UTC of that day.
fn assert_trial_end(end: DateTime<Utc>, before: DateTime<Utc>, days: i64) {
    let candidates = [end_of_day(before + Duration::days(days)), end_of_day(Utc::now() + Duration::days(days))];
    assert!(candidates.contains(&end), "a {days}-day trial ends at {end}, expected one of {candidates:?}");
}

// ---- approval and rejection ----

#[sqlx::test(migrations = "./migrations")]
async fn a_channel_admin_approves_a_trial_for_the_channels_trial_days(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let (reader, reader_id) = app.signed_in_reader("reader@client.example").await;
    let article = app.insert_reader_article(ReaderArticle { channel: Some(&w.premium), is_premium: true, ..Default::default() }).await;
    request(app, &reader, "requestTrialChannelSubscription", &w.premium).await;

    let before = Utc::now();
    let approved = done(&decide(app, &w.editor, "processTrialRequest", &w.premium, &reader_id, true).await, "processTrialRequest");
    assert_eq!(approved["name"], "Test User");
    let trial = &approved["channelSubscription"];
    assert_eq!(
        (&trial["subscriptionType"], &trial["subscriptionState"], &trial["trialDuration"], &trial["status"]["trial"]),
        (&json!("trial"), &json!("active"), &json!(30), &json!("Active")),
        "{approved}"
    );
    assert_trial_end(at(&trial["cancelAt"]), before, 30);
    let read = app
        .gql(Some(&reader), "query($id: ID!) { findPublishedArticleById(id: $id) { canSeeFullVersion } }", json!({ "id": article }))
        .await;
    assert_eq!(read["data"]["findPublishedArticleById"]["canSeeFullVersion"], true, "{read}");

    // Once only: a second decision finds no request, and asks for no second email.
    let again = decide(app, &w.editor, "processTrialRequest", &w.premium, &reader_id, true).await;
    assert_refused(&again, "CONFLICT", "There is no pending request to process.");
    assert_eq!(email_requests(app, "trialApproved").await, [(w.premium.clone(), reader_id.clone())]);

    // Newest first, with who did it and how.
    let log = app
        .gql(
            Some(&w.editor),
            "query($c: ID!, $u: ID!) { subscriptionAuditLog(channelId: $c, userId: $u) {
                changedAt actor { _id name } route action fromType fromState toType toState cancelAt notes } }",
            json!({ "c": w.premium, "u": reader_id }),
        )
        .await;
    let entries = done(&log, "subscriptionAuditLog");
    assert_eq!(entries.as_array().unwrap().len(), 2, "{log}");
    let summary: Vec<Value> = entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!([e["actor"]["_id"], e["route"], e["action"], e["fromType"], e["fromState"], e["toType"], e["toState"]]))
        .collect();
    assert_eq!(
        summary,
        [
            json!([w.editor_id, "Staff", "approveTrial", "trial", "pending", "trial", "active"]),
            json!([reader_id, "Reader", "requestTrial", null, null, "trial", "pending"]),
        ]
    );
    assert_eq!(entries[0]["cancelAt"], trial["cancelAt"]);
    assert!(at(&entries[0]["changedAt"]) >= at(&entries[1]["changedAt"]));

    // A channel without trial days of its own: the configured default (14).
    let (other, other_id) = app.signed_in_reader("other@client.example").await;
    request(app, &other, "requestTrialChannelSubscription", &w.plain).await;
    let before = Utc::now();
    let approved = done(&decide(app, &w.admin, "processTrialRequest", &w.plain, &other_id, true).await, "processTrialRequest");
    assert_eq!(approved["channelSubscription"]["trialDuration"], 14);
    assert_trial_end(at(&approved["channelSubscription"]["cancelAt"]), before, 14);
    assert_eq!(audit_rows(app, &w.plain, &other_id).await.last().unwrap().4.as_deref(), Some(w.admin_id.as_str()));
}

/// One rule decides what a trial reader (the trial scope alone) may do until when: their account
/// trial, after which every call answers TRIAL_EXPIRED. A channel trial approved for them ends
/// with it, and the approval email, the subscriber stats' Ends column (`channelSubscription.cancelAt`),
/// the reader's Subscriptions page (`me.channelSubscriptions.cancelAt`) and channel card all say that
/// day; once it is over, no channel trial starts.
#[sqlx::test(migrations = "./migrations")]
async fn a_trial_readers_channel_trial_ends_with_their_account_trial(pool: PgPool) {
    let mail = crate::email_support::Mail::spawn(pool).await;
    let app = &mail.app;
    let n = crate::email_support::Newsroom::new(app).await;
    let trial_reader = |email: &'static str| async move {
        let token = tokens::for_user(&app.state, email, TestRole::Trial.scopes()).await;
        let id = app.user_id(&token).await;
        (token, id)
    };
    // First signed in 10 days ago: the account trial (14 days) ends in 4 days, before the
    // channel's 14-day trial would.
    let (reader, reader_id) = trial_reader("trial.reader@client.example").await;
    let first_login: DateTime<Utc> = sqlx::query_scalar(
        "update users set first_login = now() - interval '10 days', last_login = now() where user_id = $1 returning first_login",
    )
    .bind(&reader_id)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let account_end = first_login + Duration::days(14);
    request(app, &reader, "requestTrialChannelSubscription", &n.premium).await;

    let before = Utc::now();
    let approved = done(&decide(app, &n.admin, "processTrialRequest", &n.premium, &reader_id, true).await, "processTrialRequest");
    let trial = &approved["channelSubscription"];
    assert_eq!((&trial["subscriptionState"], &trial["status"]["trial"]), (&json!("active"), &json!("Active")), "{approved}");
    assert_eq!(at(&trial["cancelAt"]), account_end, "the trial ends with the account trial");
    let days = |on: DateTime<Utc>| json!((account_end.date_naive() - on.date_naive()).num_days());
    assert!([days(before), days(Utc::now())].contains(&trial["trialDuration"]), "the days it runs: {trial}");
    let stored: DateTime<Utc> = sqlx::query_scalar("select cancel_at from channel_subscription where channel_id = $1 and user_id = $2")
        .bind(&n.premium)
        .bind(&reader_id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, account_end);

    // The subscriber stats' Ends column.
    let stats = done(&app.gql(Some(&n.admin), PAGE_ENDS, json!({ "c": n.premium })).await, "channelSubscribedUsers");
    assert_eq!(stats["users"][0]["_id"], json!(reader_id), "{stats}");
    assert_eq!(at(&stats["users"][0]["channelSubscription"]["cancelAt"]), account_end);
    // The reader's Subscriptions page and the channel's card.
    let mine = done(&app.gql(Some(&reader), "{ me { trialMinLeft channelSubscriptions { channelId cancelAt } } }", json!({})).await, "me");
    assert_eq!(mine["channelSubscriptions"][0]["channelId"], json!(n.premium), "{mine}");
    assert_eq!(at(&mine["channelSubscriptions"][0]["cancelAt"]), account_end);
    let minutes_left = mine["trialMinLeft"].as_i64().unwrap();
    assert!((minutes_left - (account_end - Utc::now()).num_minutes()).abs() <= 1, "the account trial the banner counts: {mine}");
    let card =
        app.gql(Some(&reader), "query($c: ID!) { channel(id: $c) { readerCard { action endsAt } } }", json!({ "c": n.premium })).await;
    assert_eq!(card["data"]["channel"]["readerCard"]["action"], "TrialActive", "{card}");
    assert_eq!(at(&card["data"]["channel"]["readerCard"]["endsAt"]), account_end);

    // The approval email says the same day.
    mail.deliver().await;
    let emails = mail.received(1).await;
    let runs_until = format!("runs until {}", account_end.format("%-d %B %Y"));
    assert!(emails[0].text.contains(&runs_until), "{runs_until}:\n{}", emails[0].text);

    // A request whose reader's account trial ended before staff came to it: no trial starts.
    let (late, late_id) = trial_reader("late.reader@client.example").await;
    request(app, &late, "requestTrialChannelSubscription", &n.premium).await;
    sqlx::query("update users set first_login = now() - interval '15 days', last_login = now() where user_id = $1")
        .bind(&late_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let refused = decide(app, &n.admin, "processTrialRequest", &n.premium, &late_id, true).await;
    assert_refused(&refused, "CONFLICT", "This reader's Insights trial has ended, so a channel trial cannot start.");
    let given = form(
        app,
        &n.admin,
        "createTrialChannelSubscription",
        json!({ "channelId": n.premium, "userId": late_id, "notes": "Try it", "trialDuration": 7 }),
    )
    .await;
    assert_refused(&given, "CONFLICT", "This reader's Insights trial has ended, so a channel trial cannot start.");
    assert_eq!(email_requests(app, "trialApproved").await, [(n.premium.clone(), reader_id.clone())]);

    // A reader with the full reader scope gets the channel's trial days.
    let (full, full_id) = app.signed_in_reader("full.reader@client.example").await;
    request(app, &full, "requestTrialChannelSubscription", &n.premium).await;
    let before = Utc::now();
    let approved = done(&decide(app, &n.admin, "processTrialRequest", &n.premium, &full_id, true).await, "processTrialRequest");
    assert_trial_end(at(&approved["channelSubscription"]["cancelAt"]), before, 14);
}

const PAGE_ENDS: &str = "query($c: ID!) { channelSubscribedUsers(channelId: $c, view: Trial, limit: 15, offset: 0) {
    users { _id channelSubscription { cancelAt } } } }";

#[sqlx::test(migrations = "./migrations")]
async fn rejections_and_access_requests_ask_for_their_email_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let (ann, ann_id) = app.signed_in_reader("ann@client.example").await;
    let (ben, ben_id) = app.signed_in_reader("ben@client.example").await;
    let (cat, cat_id) = app.signed_in_reader("cat@client.example").await;

    request(app, &ann, "requestTrialChannelSubscription", &w.premium).await;
    let rejected = done(&decide(app, &w.admin, "processTrialRequest", &w.premium, &ann_id, false).await, "processTrialRequest");
    assert_eq!(
        (&rejected["channelSubscription"]["subscriptionState"], &rejected["channelSubscription"]["subscribed"]),
        (&json!("rejected"), &json!(false))
    );
    assert_eq!(email_requests(app, "trialRejected").await, [(w.premium.clone(), ann_id.clone())]);

    request(app, &ben, "requestFreeClosedSubscription", &w.closed).await;
    request(app, &cat, "requestFreeClosedSubscription", &w.closed).await;
    // The mutation must match the request's kind.
    let wrong_kind = decide(app, &w.editor, "processTrialRequest", &w.closed, &ben_id, true).await;
    assert_refused(&wrong_kind, "CONFLICT", "There is no pending request to process.");
    let approved = done(&decide(app, &w.editor, "processFreeClosedRequest", &w.closed, &ben_id, true).await, "processFreeClosedRequest");
    assert_eq!(
        (&approved["channelSubscription"]["subscriptionState"], &approved["channelSubscription"]["status"]["freeClosed"]),
        (&json!("active"), &json!("Active"))
    );
    let refused = done(&decide(app, &w.editor, "processFreeClosedRequest", &w.closed, &cat_id, false).await, "processFreeClosedRequest");
    assert_eq!(refused["channelSubscription"]["status"]["freeClosed"], "Rejected");
    for (user, approved) in [(&ben_id, true), (&cat_id, false)] {
        let again = decide(app, &w.editor, "processFreeClosedRequest", &w.closed, user, approved).await;
        assert_refused(&again, "CONFLICT", "There is no pending request to process.");
    }
    assert_eq!(email_requests(app, "accessApproved").await, [(w.closed.clone(), ben_id.clone())]);
    assert_eq!(email_requests(app, "accessRejected").await, [(w.closed.clone(), cat_id.clone())]);
    assert_eq!(count(app, "select count(*) from email_outbox").await, 3, "and nothing else");
    assert_eq!(
        audit_rows(app, &w.closed, &cat_id).await,
        [
            ("reader".into(), "requestAccess".into(), None, Some("pending".into()), Some(cat_id.clone())),
            ("staff".into(), "rejectAccess".into(), Some("pending".into()), Some("rejected".into()), Some(w.editor_id.clone())),
        ]
    );
    let nobody = decide(app, &w.admin, "processFreeClosedRequest", &w.closed, &insights::ids::new_id(), true).await;
    assert_refused(&nobody, "CONFLICT", "There is no pending request to process.");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_administrators_and_the_channels_editor_admins_manage_its_subscribers(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let (reader, reader_id) = app.signed_in_reader("reader@client.example").await;
    request(app, &reader, "requestTrialChannelSubscription", &w.premium).await;
    let user = app.insert_signed_in_user("client@bank.example", "Clara Client", Some("Bank")).await;
    let item = json!({ "channelId": w.premium, "userId": user, "notes": "Agreed with sales" });

    for (who, token) in [("non-admin editor", &w.other_editor), ("contributor", &w.contributor), ("reader", &reader)] {
        for mutation in ["processTrialRequest", "processFreeClosedRequest"] {
            for approved in [true, false] {
                let response = decide(app, token, mutation, &w.premium, &reader_id, approved).await;
                assert_eq!(error_code(&response), Some("FORBIDDEN"), "{who} {mutation}: {response}");
            }
        }
        assert_eq!(error_code(&form(app, token, "createNonChargeChannelSubscription", item.clone()).await), Some("FORBIDDEN"), "{who}");
        let calls = [
            (PAGE, json!({ "c": w.premium, "view": "All", "limit": 15, "offset": 0 })),
            ("query($c: ID!) { subscriberViewCounts(channelId: $c) { view count } }", json!({ "c": w.premium })),
            (
                "query($c: ID!, $u: ID!) { subscriptionAuditLog(channelId: $c, userId: $u) { action } }",
                json!({ "c": w.premium, "u": reader_id }),
            ),
            ("query($c: ID!) { channelSubscriber(channelId: $c, insightsUserId: \"x\") { _id } }", json!({ "c": w.premium })),
            (CHECK, json!({ "c": w.premium, "emails": ["client@bank.example"] })),
            (BULK, json!({ "item": { "channelId": w.premium }, "users": [user], "existing": [] })),
            (
                "mutation($c: ID!, $u: ID!) { cancelNonStripeSubscriptionImmediately(channelId: $c, userId: $u) { channelId } }",
                json!({ "c": w.premium, "u": reader_id }),
            ),
            (
                "mutation($c: ID!, $u: ID!) { deleteChannelSubscriber(channelId: $c, userId: $u) }",
                json!({ "c": w.premium, "u": reader_id }),
            ),
        ];
        for (query, variables) in calls {
            let response = app.gql(Some(token), query, variables).await;
            assert_eq!(error_code(&response), Some("FORBIDDEN"), "{who}: {query}: {response}");
        }
    }
    // Nothing changed: still pending, one audit row, no email.
    assert_eq!(count(app, "select count(*) from channel_subscription where subscription_state = 'pending'").await, 1);
    assert_eq!(count(app, "select count(*) from subscription_audit").await, 1);
    assert_eq!(count(app, "select count(*) from email_outbox").await, 0);

    // The channel's Editor admin may; on a channel they do not administer, they may not.
    let by_editor =
        done(&form(app, &w.editor, "createNonChargeChannelSubscription", item.clone()).await, "createNonChargeChannelSubscription");
    assert_eq!(by_editor["subscriptionType"], "nonCharge");
    let mut elsewhere = item.clone();
    elsewhere["channelId"] = json!(w.open);
    assert_eq!(error_code(&form(app, &w.editor, "createFreeChannelSubscription", elsewhere.clone()).await), Some("FORBIDDEN"));
    assert_eq!(
        done(&form(app, &w.admin, "createFreeChannelSubscription", elsewhere).await, "createFreeChannelSubscription")["subscriptionType"],
        "free"
    );
}

// ---- the subscriber form ----

#[sqlx::test(migrations = "./migrations")]
async fn the_subscriber_form_checks_every_rule_with_the_spec_messages(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let user = app.insert_signed_in_user("client@bank.example", "Clara Client", Some("Bank")).await;
    let item = |extra: Value| {
        let mut item = json!({ "channelId": w.premium, "userId": user, "notes": "Agreed with sales" });
        for (key, value) in extra.as_object().unwrap() {
            item[key] = value.clone();
        }
        item
    };
    let required = "This field is required";
    let add = |mutation: &'static str, item: Value| form(app, &w.admin, mutation, item);

    assert_fields(
        &add("createAccountChannelSubscription", json!({ "channelId": w.premium, "userId": user })).await,
        json!({ "accountNumber": required, "notes": required }),
    );
    assert_fields(&add("createExternalBillingChannelSubscription", item(json!({}))).await, json!({ "billingMethod": required }));
    assert_fields(&add("createNonChargeChannelSubscription", item(json!({ "notes": "  " }))).await, json!({ "notes": required }));
    assert_fields(
        &add("createNonChargeChannelSubscription", item(json!({ "notes": "n".repeat(251) }))).await,
        json!({ "notes": "Maximum 250 characters" }),
    );
    let yesterday = Utc::now() - Duration::days(1);
    assert_fields(
        &add("createNonChargeChannelSubscription", item(json!({ "cancelAt": yesterday }))).await,
        json!({ "cancelAt": "Invalid Expiry Date" }),
    );
    for bad in ["-5", "+5", "12.345", "abc", "1,50"] {
        assert_fields(
            &add("createAccountChannelSubscription", item(json!({ "accountNumber": "CLR-1", "pricePerMonth": bad }))).await,
            json!({ "pricePerMonth": "Invalid price format" }),
        );
    }
    for days in [0, -1, 101] {
        assert_fields(
            &add("createTrialChannelSubscription", item(json!({ "trialDuration": days }))).await,
            json!({ "trialDuration": "Enter a whole number of days from 1 to 100" }),
        );
    }
    assert_fields(
        &add("createNonChargeChannelSubscription", json!({ "channelId": w.premium, "notes": "x" })).await,
        json!({ "userId": required }),
    );
    let never = app.insert_user("never@bank.example").await;
    assert_fields(
        &add("createNonChargeChannelSubscription", item(json!({ "userId": never }))).await,
        json!({ "userId": "This user has not signed in to Insights yet." }),
    );
    assert_eq!(
        error_code(&add("createNonChargeChannelSubscription", item(json!({ "userId": insights::ids::new_id() }))).await),
        Some("NOT_FOUND")
    );
    let not_offered = json!({ "subscriptionType": "This subscription type is not offered on this channel." });
    for (channel, mutation) in [
        (&w.open, "createTrialChannelSubscription"),
        (&w.closed, "createNonChargeChannelSubscription"),
        (&w.open, "createAccountChannelSubscription"),
        (&w.premium, "createFreeChannelSubscription"),
    ] {
        let response = add(mutation, item(json!({ "channelId": channel, "accountNumber": "CLR-1" }))).await;
        assert_fields(&response, not_offered.clone());
    }
    assert_eq!(count(app, "select count(*) from channel_subscription").await, 0, "refused forms write nothing");
    assert_eq!(count(app, "select count(*) from subscription_audit").await, 0);

    // A clearing account: no bespoke price means the channel's; the expiry date is kept at 23:59:59 UTC.
    let today = Utc::now().date_naive().and_hms_opt(0, 30, 0).unwrap().and_utc();
    let account = done(
        &add("createAccountChannelSubscription", item(json!({ "accountNumber": " CLR-1 ", "pricePerMonth": "", "cancelAt": today }))).await,
        "createAccountChannelSubscription",
    );
    assert_eq!(
        [
            &account["subscriptionType"],
            &account["subscriptionState"],
            &account["accountNumber"],
            &account["pricePerMonth"],
            &account["notes"]
        ],
        [&json!("account"), &json!("active"), &json!("CLR-1"), &json!("49.50"), &json!("Agreed with sales")]
    );
    assert_eq!((&account["addedByAdmin"], &account["rebate"], &account["billingMethod"]), (&json!(true), &json!(false), &Value::Null));
    assert_eq!(at(&account["cancelAt"]), end_of_day(today));
    let stored: DateTime<Utc> =
        sqlx::query_scalar("select cancel_at from channel_subscription where user_id = $1").bind(&user).fetch_one(&app.pool).await.unwrap();
    assert_eq!(stored, end_of_day(today));
    assert_eq!((&account["status"]["typeLabel"], &account["status"]["payable"]), (&json!("Paid - Clearing"), &json!(true)));
    assert_eq!(email_requests(app, "welcome").await, [(w.premium.clone(), user.clone())], "the welcome email is asked for on add");
    assert_eq!(
        audit_rows(app, &w.premium, &user).await,
        [("staff".into(), "grant".into(), None, Some("active".into()), Some(w.admin_id.clone()))]
    );
    let notes: Option<String> =
        sqlx::query_scalar("select notes from subscription_audit where user_id = $1").bind(&user).fetch_one(&app.pool).await.unwrap();
    assert_eq!(notes.as_deref(), Some("Agreed with sales"));

    // The other types, each with its own rules.
    let mut n = 0;
    let mut fresh = || {
        n += 1;
        let (email, name) = (format!("client{n}@bank.example"), format!("Client {n}"));
        async move { app.insert_signed_in_user(&email, &name, None).await }
    };
    let external = add(
        "createExternalBillingChannelSubscription",
        item(json!({ "userId": fresh().await, "billingMethod": "Invoice", "pricePerMonth": "60" })),
    )
    .await;
    let external = done(&external, "createExternalBillingChannelSubscription");
    assert_eq!(
        (&external["billingMethod"], &external["pricePerMonth"], &external["status"]["typeLabel"]),
        (&json!("Invoice"), &json!("60.00"), &json!("Billed externally"))
    );
    let rebated = add(
        "createAccountChannelSubscription",
        item(json!({ "userId": fresh().await, "accountNumber": "CLR-2", "rebate": true, "pricePerMonth": "10" })),
    )
    .await;
    let rebated = done(&rebated, "createAccountChannelSubscription");
    assert_eq!(
        (
            &rebated["rebate"],
            &rebated["pricePerMonth"],
            &rebated["status"]["typeLabel"],
            &rebated["status"]["paymentCategory"],
            &rebated["status"]["payable"]
        ),
        (&json!(true), &Value::Null, &json!("Rebated - Clearing"), &json!("Free"), &json!(false))
    );
    let non_charge = done(
        &add("createNonChargeChannelSubscription", item(json!({ "userId": fresh().await, "pricePerMonth": "10", "accountNumber": "X" })))
            .await,
        "createNonChargeChannelSubscription",
    );
    assert_eq!(
        (&non_charge["pricePerMonth"], &non_charge["accountNumber"], &non_charge["status"]["typeLabel"]),
        (&Value::Null, &Value::Null, &json!("Non-charge"))
    );

    // Trials: the channel's days by default, the bounds inclusive, an expiry date ignored.
    let before = Utc::now();
    let trial = done(
        &add("createTrialChannelSubscription", item(json!({ "userId": fresh().await, "cancelAt": Utc::now() + Duration::days(2) }))).await,
        "createTrialChannelSubscription",
    );
    assert_eq!(trial["trialDuration"], 30);
    assert_trial_end(at(&trial["cancelAt"]), before, 30);
    // From the spec's minimum to the trial policy's longest (90 days by default, within the spec's 100).
    for days in [1, 90] {
        let trial = done(
            &add("createTrialChannelSubscription", item(json!({ "userId": fresh().await, "trialDuration": days }))).await,
            "createTrialChannelSubscription",
        );
        assert_eq!(trial["trialDuration"], days);
        assert_trial_end(at(&trial["cancelAt"]), before, days);
    }
    let longer = add("createTrialChannelSubscription", item(json!({ "userId": fresh().await, "trialDuration": 100 }))).await;
    assert_eq!(longer["errors"][0]["extensions"]["fields"]["trialDuration"], "The trial policy allows at most 90 days.", "{longer}");
    let plain = done(
        &add("createTrialChannelSubscription", item(json!({ "userId": fresh().await, "channelId": w.plain }))).await,
        "createTrialChannelSubscription",
    );
    assert_eq!(plain["trialDuration"], 14, "the configured default");

    // Free channels: a free subscription (the simple form sends no type).
    let free = done(
        &add("createFreeChannelSubscription", item(json!({ "userId": fresh().await, "channelId": w.closed }))).await,
        "createFreeChannelSubscription",
    );
    assert_eq!(
        (&free["subscriptionType"], &free["pricePerMonth"], &free["status"]["freeClosed"]),
        (&json!("free"), &Value::Null, &json!("Active"))
    );
    assert_eq!(email_requests(app, "welcome").await.len(), 9);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_bespoke_price_has_the_channel_prices_rule_up_to_18_digits_kept_exactly(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let user = app.insert_signed_in_user("client@bank.example", "Clara Client", Some("Bank")).await;
    let item = |price: &str| {
        json!({ "channelId": w.premium, "userId": user, "notes": "Agreed with sales", "billingMethod": "Invoice", "pricePerMonth": price })
    };
    let mutation = "createExternalBillingChannelSubscription";
    for bad in ["1234567890123456789", "1234567890123456789.00"] {
        assert_fields(&form(app, &w.admin, mutation, item(bad)).await, json!({ "pricePerMonth": "Invalid price format" }));
    }
    let eighteen = done(&form(app, &w.admin, mutation, item("123456789012345678.9")).await, mutation);
    assert_eq!(eighteen["pricePerMonth"], "123456789012345678.90");
    let stored: String = sqlx::query_scalar("select price_per_month::text from channel_subscription where user_id = $1")
        .bind(&user)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, "123456789012345678.90");
}

#[sqlx::test(migrations = "./migrations")]
async fn editing_cancelling_and_deleting_a_subscriber(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let user = app.insert_signed_in_user("client@bank.example", "Clara Client", Some("Bank")).await;
    let base = json!({ "channelId": w.premium, "userId": user, "notes": "Agreed with sales", "accountNumber": "CLR-1" });
    done(&form(app, &w.editor, "createAccountChannelSubscription", base).await, "createAccountChannelSubscription");

    // Notes are optional on edit; a new type drops what belonged to the old one.
    let change = json!({ "channelId": w.premium, "userId": user, "subscriptionType": "external", "billingMethod": "Invoice" });
    let changed = done(&form(app, &w.editor, "changeSubscription", change.clone()).await, "changeSubscription");
    assert_eq!(
        (
            &changed["subscriptionType"],
            &changed["billingMethod"],
            &changed["accountNumber"],
            &changed["pricePerMonth"],
            &changed["subscriptionState"]
        ),
        (&json!("external"), &json!("Invoice"), &Value::Null, &json!("49.50"), &json!("active"))
    );
    let mut past = change.clone();
    past["cancelAt"] = json!(Utc::now() - Duration::days(2));
    assert_fields(&form(app, &w.editor, "changeSubscription", past).await, json!({ "cancelAt": "Invalid Expiry Date" }));
    let mut bad_type = change.clone();
    bad_type["subscriptionType"] = json!("free");
    assert_fields(
        &form(app, &w.editor, "changeSubscription", bad_type).await,
        json!({ "subscriptionType": "This subscription type is not offered on this channel." }),
    );
    assert_eq!(error_code(&form(app, &w.other_editor, "changeSubscription", change.clone()).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&form(app, &w.contributor, "changeSubscription", change.clone()).await), Some("FORBIDDEN"));

    // An edit never creates a subscription.
    let stranger = app.insert_signed_in_user("stranger@bank.example", "Stranger", None).await;
    for id in [stranger.clone(), insights::ids::new_id(), "not-an-id".to_owned()] {
        let mut missing = change.clone();
        missing["userId"] = json!(id);
        let response = form(app, &w.editor, "changeSubscription", missing).await;
        assert_eq!(error_code(&response), Some("NOT_FOUND"), "{id}: {response}");
    }
    assert_eq!(count(app, "select count(*) from channel_subscription").await, 1);

    // Cancelled now, once.
    let cancel = "mutation($c: ID!, $u: ID!) { cancelNonStripeSubscriptionImmediately(channelId: $c, userId: $u) { subscriptionState subscribed cancelAt isActive } }";
    let before = Utc::now();
    let cancelled =
        done(&app.gql(Some(&w.editor), cancel, json!({ "c": w.premium, "u": user })).await, "cancelNonStripeSubscriptionImmediately");
    assert_eq!(
        (&cancelled["subscriptionState"], &cancelled["subscribed"], &cancelled["isActive"]),
        (&json!("canceled"), &json!(false), &json!(false))
    );
    let end = at(&cancelled["cancelAt"]);
    assert!(end >= before - Duration::seconds(1) && end <= Utc::now(), "{end}");
    let again = app.gql(Some(&w.editor), cancel, json!({ "c": w.premium, "u": user })).await;
    assert_refused(&again, "CONFLICT", "This subscription has already ended.");
    assert_eq!(email_requests(app, "subscriptionCanceled").await, [(w.premium.clone(), user.clone())]);

    // Deleted: the row goes, the history stays.
    let delete = "mutation($c: ID!, $u: ID!) { deleteChannelSubscriber(channelId: $c, userId: $u) }";
    assert_eq!(done(&app.gql(Some(&w.editor), delete, json!({ "c": w.premium, "u": user })).await, "deleteChannelSubscriber"), true);
    assert_eq!(count(app, "select count(*) from channel_subscription").await, 0);
    let actions: Vec<(String, Option<String>, Option<String>)> =
        audit_rows(app, &w.premium, &user).await.into_iter().map(|r| (r.1, r.2, r.3)).collect();
    assert_eq!(
        actions,
        [
            ("grant".to_owned(), None, Some("active".to_owned())),
            ("change".to_owned(), Some("active".to_owned()), Some("active".to_owned())),
            ("cancelImmediately".to_owned(), Some("active".to_owned()), Some("canceled".to_owned())),
            ("delete".to_owned(), Some("canceled".to_owned()), None),
        ]
    );
    assert_refused(
        &app.gql(Some(&w.editor), delete, json!({ "c": w.premium, "u": user })).await,
        "CONFLICT",
        "This reader has no subscription to this channel.",
    );

    // A card subscription is the reader's and the card provider's to change.
    let card = "This subscriber pays by card: the subscription is changed by the reader or the card provider.";
    let payer = app.insert_signed_in_user("payer@bank.example", "Pat Payer", None).await;
    app.subscribe(&w.premium, &payer, "stripe", "active", Some(20), true).await;
    let mut on_card = change.clone();
    on_card["userId"] = json!(payer);
    assert_refused(&form(app, &w.editor, "changeSubscription", on_card.clone()).await, "CONFLICT", card);
    on_card["notes"] = json!("Move to non-charge");
    assert_refused(&form(app, &w.editor, "createNonChargeChannelSubscription", on_card).await, "CONFLICT", card);
    assert_refused(&app.gql(Some(&w.editor), cancel, json!({ "c": w.premium, "u": payer })).await, "CONFLICT", card);
    assert_refused(&app.gql(Some(&w.editor), delete, json!({ "c": w.premium, "u": payer })).await, "CONFLICT", card);
    let kind: String =
        sqlx::query_scalar("select subscription_type || ' ' || subscription_state from channel_subscription where user_id = $1")
            .bind(&payer)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(kind, "stripe active");
    // Once the card subscription has ended, staff may remove it.
    app.subscribe(&w.premium, &payer, "stripe", "canceled", Some(-1), true).await;
    assert_eq!(done(&app.gql(Some(&w.editor), delete, json!({ "c": w.premium, "u": payer })).await, "deleteChannelSubscriber"), true);
}

/// Spec 3 §5: the search 'excludes users already subscribed, except those whose trial has
/// expired'. The exception says what 'subscribed' covers: having a subscription to the channel at
/// all, whatever its state (an ended trial is all it leaves out). Readers with any other
/// subscription are on the channel's subscriber stats, where staff edit it.
#[sqlx::test(migrations = "./migrations")]
async fn the_user_search_offers_signed_in_users_who_are_not_subscribed(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let mut ids = std::collections::HashMap::new();
    for (name, signed_in) in [
        ("A new", true),
        ("B expired trial", true),
        ("C lapsed trial", true),
        ("D subscribed", true),
        ("E pending", true),
        ("F never signed in", false),
        ("G canceled", true),
        ("H elsewhere", true),
        ("I expired non-charge", true),
        ("J rejected trial", true),
        ("K trial cancelled after it started", true),
        ("L withdrawn trial request", true),
        ("M payment failed", true),
        ("N cancelled at period end", true),
    ] {
        let email = format!("candidate.{}@client.example", &name[..1].to_lowercase());
        let id = if signed_in {
            app.insert_signed_in_user(&email, &format!("Candidate {name}"), None).await
        } else {
            app.insert_user(&email).await
        };
        sqlx::query("update users set name = $2 where user_id = $1")
            .bind(&id)
            .bind(format!("Candidate {name}"))
            .execute(&app.pool)
            .await
            .unwrap();
        ids.insert(&name[..1], id);
    }
    app.subscribe(&w.premium, &ids["B"], "trial", "expired", Some(-2), true).await;
    app.subscribe(&w.premium, &ids["C"], "trial", "active", Some(-1), true).await;
    app.subscribe(&w.premium, &ids["D"], "account", "active", None, true).await;
    app.subscribe(&w.premium, &ids["E"], "trial", "pending", None, true).await;
    app.subscribe(&w.premium, &ids["G"], "account", "canceled", None, true).await;
    app.subscribe(&w.open, &ids["H"], "free", "active", None, true).await;
    app.subscribe(&w.premium, &ids["I"], "nonCharge", "expired", Some(-3), true).await;
    app.subscribe(&w.premium, &ids["J"], "trial", "rejected", None, true).await;
    app.subscribe(&w.premium, &ids["K"], "trial", "canceled", Some(-1), true).await;
    app.subscribe(&w.premium, &ids["L"], "trial", "canceled", None, true).await;
    app.subscribe(&w.premium, &ids["M"], "account", "paymentFailed", None, true).await;
    app.subscribe(&w.premium, &ids["N"], "account", "active", Some(-1), true).await;
    sqlx::query("update channel_subscription set trial_duration = 14 where user_id = $1").bind(&ids["K"]).execute(&app.pool).await.unwrap();
    sqlx::query("update channel_subscription set cancel_at_period_end = true where user_id = $1")
        .bind(&ids["N"])
        .execute(&app.pool)
        .await
        .unwrap();
    let search = "query($c: ID, $q: String) { getPaginatedUsers(searchQuery: $q, subscribableToChannel: $c) { total users { name } } }";
    let response = app.gql(Some(&w.editor), search, json!({ "c": w.premium, "q": "candidate" })).await;
    let page = done(&response, "getPaginatedUsers");
    let names: Vec<&str> = page["users"].as_array().unwrap().iter().map(|u| u["name"].as_str().unwrap()).collect();
    // G (a paid subscription cancelled) was offered before: any ended subscription was. Only ended trials are.
    assert_eq!(
        names,
        [
            "Candidate A new",
            "Candidate B expired trial",
            "Candidate C lapsed trial",
            "Candidate H elsewhere",
            "Candidate K trial cancelled after it started",
        ]
    );
    assert_eq!(page["total"], 5);
    let all = app.gql(Some(&w.editor), search, json!({ "q": "candidate" })).await;
    assert_eq!(all["data"]["getPaginatedUsers"]["total"], 14, "without the channel, everyone");
    // The count agrees when the page does not tell it (a page of one).
    let paged = "query($c: ID, $q: String) { getPaginatedUsers(searchQuery: $q, subscribableToChannel: $c, limit: 1) { total } }";
    let response = app.gql(Some(&w.editor), paged, json!({ "c": w.premium, "q": "candidate" })).await;
    assert_eq!(done(&response, "getPaginatedUsers")["total"], 5);
    let (reader, _) = app.signed_in_reader("reader@client.example").await;
    assert_eq!(error_code(&app.gql(Some(&reader), search, json!({ "c": w.premium })).await), Some("FORBIDDEN"));
}

// ---- subscriber stats ----

#[sqlx::test(migrations = "./migrations")]
async fn subscriber_stats_views_paging_search_sorting_and_article_views(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    // (name, company, type, state, ends in days, rebate, cancel at period end)
    type Person<'a> = (&'a str, Option<&'a str>, &'a str, &'a str, Option<i64>, bool, bool);
    let people: &[Person] = &[
        ("Alice Trial", Some("Acme"), "trial", "active", Some(10), false, false),
        ("Bob Request", Some("Bravo"), "trial", "pending", None, false, false),
        ("Carol Paid", Some("Acme"), "account", "active", None, false, false),
        ("Dan Card", Some("Delta"), "stripe", "active", Some(20), false, false),
        ("Erin Failed", None, "stripe", "paymentFailed", None, false, false),
        ("Frank Expired", Some("Fox"), "trial", "expired", Some(-2), false, false),
        ("Gina Lapsed", Some("Golf"), "account", "active", Some(-1), false, false),
        ("Hank Noncharge", Some("Hotel"), "nonCharge", "active", None, false, false),
        ("Iris Rebated", Some("India"), "account", "active", None, true, false),
        ("Jack Canceled", Some("Juliet"), "account", "canceled", None, false, false),
        ("Kate Rejected", None, "trial", "rejected", None, false, false),
        ("Liam Ended", Some("Lima"), "account", "active", Some(-1), false, true),
    ];
    let mut ids = std::collections::HashMap::new();
    for &(name, company, kind, state, ends, rebate, period_end) in people {
        let first = name.split(' ').next().unwrap().to_lowercase();
        let id = app.insert_signed_in_user(&format!("{first}@{}.example", company.unwrap_or("none").to_lowercase()), name, company).await;
        app.subscribe(&w.premium, &id, kind, state, ends, true).await;
        sqlx::query("update channel_subscription set rebate = $2, cancel_at_period_end = $3 where user_id = $1")
            .bind(&id)
            .bind(rebate)
            .bind(period_end)
            .execute(&app.pool)
            .await
            .unwrap();
        ids.insert(first, id);
    }
    let mia = app.insert_signed_in_user("mia@mike.example", "Mia Elsewhere", Some("Acme")).await;
    app.subscribe(&w.open, &mia, "free", "active", None, true).await;

    let premium = w.premium.as_str();
    let page = |token: &str, variables: Value| {
        let token = token.to_owned();
        async move {
            let mut vars = json!({ "c": premium, "view": "All", "limit": 15, "offset": 0 });
            for (key, value) in variables.as_object().unwrap() {
                vars[key] = value.clone();
            }
            let response = app.gql(Some(&token), PAGE, vars).await;
            done(&response, "channelSubscribedUsers")
        }
    };
    let names = |page: &Value| page["users"].as_array().unwrap().iter().map(|u| u["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let first_names = |page: &Value| names(page).iter().map(|n| n.split(' ').next().unwrap().to_owned()).collect::<Vec<_>>();

    let views: &[(&str, &[&str])] = &[
        ("All", &["Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Gina", "Hank", "Iris", "Jack", "Kate", "Liam"]),
        ("Trial", &["Alice", "Bob", "Frank", "Kate"]),
        ("Paid", &["Carol", "Dan"]),
        ("PaymentFailed", &["Erin"]),
        ("Expired", &["Frank", "Gina"]),
        ("NonCharge", &["Hank", "Iris"]),
        ("Unsubscribed", &["Jack", "Kate", "Liam"]),
        ("Requests", &["Bob"]),
        ("FirmSeats", &[]),
    ];
    let counts =
        app.gql(Some(&w.editor), "query($c: ID!) { subscriberViewCounts(channelId: $c) { view count } }", json!({ "c": w.premium })).await;
    let counts = done(&counts, "subscriberViewCounts");
    assert_eq!(counts.as_array().unwrap().len(), views.len(), "{counts}");
    for &(view, expected) in views {
        let shown = page(&w.editor, json!({ "view": view, "sort": "name", "dir": "Asc" })).await;
        assert_eq!(first_names(&shown), expected, "{view}");
        assert_eq!(shown["total"], expected.len(), "{view}");
        let counted = counts.as_array().unwrap().iter().find(|c| c["view"] == view).unwrap_or_else(|| panic!("{view}: {counts}"));
        assert_eq!(counted["count"], expected.len(), "{view}: subscriberViewCounts matches the list");
    }

    // Default order: the newest subscription first; paging keeps the total.
    let newest = page(&w.admin, json!({ "limit": 5 })).await;
    assert_eq!(first_names(&newest), ["Liam", "Kate", "Jack", "Iris", "Hank"]);
    assert_eq!(newest["total"], 12);
    let last = page(&w.admin, json!({ "limit": 5, "offset": 10 })).await;
    assert_eq!((first_names(&last), &last["total"]), (vec!["Bob".to_owned(), "Alice".to_owned()], &json!(12)));
    let beyond = page(&w.admin, json!({ "limit": 5, "offset": 15 })).await;
    assert_eq!((beyond["users"].as_array().unwrap().len(), &beyond["total"]), (0, &json!(12)));
    let bad_limit = app.gql(Some(&w.admin), PAGE, json!({ "c": w.premium, "view": "All", "limit": 0, "offset": 0 })).await;
    assert_eq!(error_code(&bad_limit), Some("BAD_USER_INPUT"));

    // Search by name, email or company (ignoring case), within a view.
    for (q, view, expected) in [
        ("acme", "All", vec!["Alice", "Carol"]),
        ("BRAVO.example", "All", vec!["Bob"]),
        ("hank", "All", vec!["Hank"]),
        ("acme", "Trial", vec!["Alice"]),
        ("nobody", "All", vec![]),
    ] {
        let found = page(&w.editor, json!({ "q": q, "view": view, "sort": "name" })).await;
        assert_eq!(first_names(&found), expected, "{q} in {view}");
        assert_eq!(found["total"], expected.len());
    }

    // Sorting.
    let by_name_desc = page(&w.editor, json!({ "sort": "name", "dir": "Desc", "limit": 3 })).await;
    assert_eq!(first_names(&by_name_desc), ["Liam", "Kate", "Jack"]);
    let by_email = page(&w.editor, json!({ "sort": "email", "limit": 3 })).await;
    assert_eq!(first_names(&by_email), ["Alice", "Bob", "Carol"]);
    let by_company = page(&w.editor, json!({ "sort": "company" })).await;
    assert_eq!(first_names(&by_company), ["Kate", "Erin", "Carol", "Alice", "Bob", "Dan", "Frank", "Gina", "Hank", "Iris", "Jack", "Liam"]);
    let by_company_desc = page(&w.editor, json!({ "sort": "company", "dir": "Desc", "limit": 2 })).await;
    assert_eq!(first_names(&by_company_desc), ["Liam", "Jack"]);
    let by_end = page(&w.editor, json!({ "sort": "cancelAt", "limit": 5 })).await;
    assert_eq!(first_names(&by_end), ["Frank", "Gina", "Liam", "Alice", "Dan"]);
    let by_subscribed = page(&w.editor, json!({ "sort": "subscribedAt", "dir": "Asc", "limit": 2 })).await;
    assert_eq!(first_names(&by_subscribed), ["Alice", "Bob"]);

    // Article views count the views of this channel's articles only.
    let here = app.insert_reader_article(ReaderArticle { channel: Some(&w.premium), is_premium: true, ..Default::default() }).await;
    let here_too = app.insert_reader_article(ReaderArticle { channel: Some(&w.premium), ..Default::default() }).await;
    let elsewhere = app.insert_reader_article(ReaderArticle { channel: Some(&w.open), ..Default::default() }).await;
    for (article, session) in [(&here, "s1"), (&here, "s2"), (&here_too, "s1"), (&elsewhere, "s1"), (&elsewhere, "s2")] {
        sqlx::query(
            "insert into article_view_event (article_id, user_id, session_id, kind, view_type) values ($1, $2, $3, 'full', 'article')",
        )
        .bind(article)
        .bind(&ids["carol"])
        .bind(session)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    let carol = page(&w.editor, json!({ "q": "carol" })).await;
    assert_eq!(carol["users"][0]["articleViewsByChannel"], 3, "{carol}");
    assert_eq!(carol["users"][0]["channelId"], w.premium.as_str());
    assert_eq!(carol["users"][0]["channelSubscription"]["subscriptionType"], "account");
    let alice = page(&w.editor, json!({ "q": "alice" })).await;
    assert_eq!(alice["users"][0]["articleViewsByChannel"], 0);

    // One subscriber by the identity provider's subject (the edit screen).
    let subject: String =
        sqlx::query_scalar("select subject from users where user_id = $1").bind(&ids["carol"]).fetch_one(&app.pool).await.unwrap();
    let one = "query($c: ID!, $s: String!) { channelSubscriber(channelId: $c, insightsUserId: $s) {
        _id insightsUserId name email company articleViewsByChannel lastLogin channelSubscription { subscriptionType subscriptionState } } }";
    let found = done(&app.gql(Some(&w.editor), one, json!({ "c": w.premium, "s": subject })).await, "channelSubscriber");
    assert_eq!(
        [&found["_id"], &found["insightsUserId"], &found["name"], &found["email"], &found["company"], &found["articleViewsByChannel"]],
        [&json!(ids["carol"]), &json!(subject), &json!("Carol Paid"), &json!("carol@acme.example"), &json!("Acme"), &json!(3)]
    );
    assert_eq!(found["channelSubscription"], json!({ "subscriptionType": "account", "subscriptionState": "active" }));
    assert!(found["lastLogin"].is_string());
    let mia_subject: String =
        sqlx::query_scalar("select subject from users where user_id = $1").bind(&mia).fetch_one(&app.pool).await.unwrap();
    for s in [mia_subject.as_str(), "dev|nobody"] {
        assert_eq!(error_code(&app.gql(Some(&w.editor), one, json!({ "c": w.premium, "s": s })).await), Some("NOT_FOUND"), "{s}");
    }
    // A page costs a handful of statements whatever its size: the statement count is not
    // observable from here (pg_stat_statements is not loaded), so it is not asserted.
}

// ---- bulk ----

/// The users of the bulk tests: (ann: signed in, none), (ben: subscribed), (cat: never signed in),
/// (dee: expired trial), (eve: pending trial request).
async fn bulk_people(w: &World) -> [String; 5] {
    let app = &w.app;
    let ann = app.insert_signed_in_user("ann@client.example", "Ann Analyst", Some("Client")).await;
    let ben = app.insert_signed_in_user("Ben@Client.example", "Ben Banker", Some("Client")).await;
    let cat = app.insert_user("cat@client.example").await;
    let dee = app.insert_signed_in_user("dee@client.example", "Dee Dealer", None).await;
    let eve = app.insert_signed_in_user("eve@client.example", "Eve Economist", None).await;
    app.subscribe(&w.premium, &ben, "account", "active", None, true).await;
    app.subscribe(&w.premium, &dee, "trial", "expired", Some(-3), true).await;
    app.subscribe(&w.premium, &eve, "trial", "pending", None, true).await;
    [ann, ben, cat, dee, eve]
}

#[sqlx::test(migrations = "./migrations")]
async fn the_bulk_check_reads_awkward_csv_files(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let [ann, ben, cat, dee, eve] = bulk_people(&w).await;
    let csv = "\u{feff}Email,Name\r\n\"ann@client.example\",\"Ann, Analyst\"\r\n\r\n  BEN@client.example  ,Ben\r\n@first.example\r\ncat@client.example\r\n\
               ANN@CLIENT.EXAMPLE\r\nnobody@client.example;x\r\n\"dee@client.example\"\r\neve@client.example,\"says \"\"hi\"\"\"\r\n,empty first\r\n   \r\nno-at-sign\r\n";
    let checked = done(&app.gql(Some(&w.editor), CHECK, json!({ "c": w.premium, "csv": csv })).await, "checkEmails");
    assert_eq!(
        checked,
        json!({
            "identified": 6,
            "users": [
                { "_id": ann, "email": "ann@client.example", "subscriptionType": null, "subscriptionState": null },
                { "_id": dee, "email": "dee@client.example", "subscriptionType": "trial", "subscriptionState": "expired" },
            ],
            "existing": [
                { "_id": ben, "email": "Ben@Client.example", "subscriptionType": "account", "subscriptionState": "active" },
                { "_id": eve, "email": "eve@client.example", "subscriptionType": "trial", "subscriptionState": "pending" },
            ],
            "insightsUsers": [{ "_id": cat, "email": "cat@client.example" }],
            "unmatched": ["nobody@client.example;x"],
        })
    );

    // LF endings, no header, and a list of addresses instead of a file.
    let lf = done(
        &app.gql(Some(&w.admin), CHECK, json!({ "c": w.premium, "csv": "dee@client.example\nzed@client.example\n" })).await,
        "checkEmails",
    );
    assert_eq!((&lf["identified"], &lf["unmatched"]), (&json!(2), &json!(["zed@client.example"])));
    let listed = done(
        &app.gql(
            Some(&w.admin),
            CHECK,
            json!({ "c": w.premium, "emails": [" ann@client.example ", "@first.example", "ANN@client.example", "x"] }),
        )
        .await,
        "checkEmails",
    );
    assert_eq!((&listed["identified"], &listed["users"][0]["_id"]), (&json!(1), &json!(ann)));
    let empty = done(&app.gql(Some(&w.admin), CHECK, json!({ "c": w.premium, "csv": "" })).await, "checkEmails");
    assert_eq!(empty, json!({ "identified": 0, "users": [], "existing": [], "insightsUsers": [], "unmatched": [] }));
    assert_eq!(error_code(&app.gql(Some(&w.admin), CHECK, json!({ "c": insights::ids::new_id(), "csv": "" })).await), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn bulk_creation_adds_skips_and_overwrites_in_one_transaction(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let [ann, ben, cat, dee, _eve] = bulk_people(&w).await;
    let bulk = |token: &str, item: Value, users: Vec<&str>, existing: Vec<&str>| {
        let (token, variables) = (token.to_owned(), json!({ "item": item, "users": users, "existing": existing }));
        async move { app.gql(Some(&token), BULK, variables).await }
    };
    let item = json!({ "channelId": w.premium, "fileName": "clients.csv" });

    // Refused ids (unknown, malformed, never signed in) are reported; the others are added.
    let unknown = insights::ids::new_id();
    let first = bulk(&w.editor, item.clone(), vec![&ann, &dee, &ben, &unknown, &cat, "nope"], vec![]).await;
    assert_eq!(done(&first, "createBulkSubscriptions"), json!({ "added": 2, "updated": 0, "alreadySubscribed": 1, "refused": 3 }));
    let rows: Vec<(String, String, String, Option<String>, bool)> = sqlx::query_as(
        "select user_id, subscription_type, subscription_state, notes, added_by_admin from channel_subscription
         where channel_id = $1 and user_id = any($2) order by user_id",
    )
    .bind(&w.premium)
    .bind(vec![ann.clone(), dee.clone(), ben.clone()])
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let mut expected = vec![
        (ann.clone(), "nonCharge".to_owned(), "active".to_owned(), Some("Bulk upload: clients.csv".to_owned()), true),
        (dee.clone(), "nonCharge".to_owned(), "active".to_owned(), Some("Bulk upload: clients.csv".to_owned()), true),
        (ben.clone(), "account".to_owned(), "active".to_owned(), None, false),
    ];
    expected.sort();
    assert_eq!(rows, expected, "ben is left as he was");
    let routes: Vec<(String, String, Option<String>)> =
        sqlx::query_as("select route, action, actor_id from subscription_audit order by audit_id").fetch_all(&app.pool).await.unwrap();
    assert_eq!(routes, vec![("csv".to_owned(), "grant".to_owned(), Some(w.editor_id.clone())); 2]);
    assert_eq!(email_requests(app, "welcome").await.len(), 2);
    let cat_rows: i64 =
        sqlx::query_scalar("select count(*) from channel_subscription where user_id = $1").bind(&cat).fetch_one(&app.pool).await.unwrap();
    assert_eq!(cat_rows, 0);

    // Existing subscribers are overwritten only when listed in `existing`.
    let second = bulk(&w.editor, item.clone(), vec![&ann], vec![&ben]).await;
    assert_eq!(done(&second, "createBulkSubscriptions"), json!({ "added": 0, "updated": 1, "alreadySubscribed": 1, "refused": 0 }));
    let ben_now: (String, Option<String>) =
        sqlx::query_as("select subscription_type, account_number from channel_subscription where user_id = $1")
            .bind(&ben)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(ben_now, ("nonCharge".to_owned(), None));
    assert_eq!(email_requests(app, "welcome").await.len(), 2, "an overwrite is a change, not a welcome");

    // A card subscriber cannot be overwritten; the rest of the upload still goes through.
    let payer = app.insert_signed_in_user("payer@client.example", "Pat Payer", None).await;
    app.subscribe(&w.premium, &payer, "stripe", "active", Some(20), true).await;
    let fay = app.insert_signed_in_user("fay@client.example", "Fay", None).await;
    let mut trial = item.clone();
    trial["subscriptionType"] = json!("trial");
    trial["trialDuration"] = json!(7);
    let third = bulk(&w.admin, trial, vec![&fay], vec![&payer]).await;
    assert_eq!(done(&third, "createBulkSubscriptions"), json!({ "added": 1, "updated": 0, "alreadySubscribed": 0, "refused": 1 }));
    let fay_trial: (String, Option<i32>) =
        sqlx::query_as("select subscription_type, trial_duration from channel_subscription where user_id = $1")
            .bind(&fay)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(fay_trial, ("trial".to_owned(), Some(7)));
    let payer_type: String = sqlx::query_scalar("select subscription_type from channel_subscription where user_id = $1")
        .bind(&payer)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(payer_type, "stripe");

    // The form's rules apply to the upload's settings; refusals write nothing.
    let audits = count(app, "select count(*) from subscription_audit").await;
    let gus = app.insert_signed_in_user("gus@client.example", "Gus", None).await;
    let mut account = item.clone();
    account["subscriptionType"] = json!("account");
    assert_fields(&bulk(&w.admin, account, vec![&gus], vec![]).await, json!({ "accountNumber": "This field is required" }));
    let mut trial_on_free = json!({ "channelId": w.open, "fileName": "clients.csv", "subscriptionType": "trial" });
    assert_fields(
        &bulk(&w.admin, trial_on_free.clone(), vec![&gus], vec![]).await,
        json!({ "subscriptionType": "This subscription type is not offered on this channel." }),
    );
    assert_eq!(error_code(&bulk(&w.other_editor, item.clone(), vec![&gus], vec![]).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&bulk(&w.contributor, item.clone(), vec![&gus], vec![]).await), Some("FORBIDDEN"));
    let old = app.channel_of_type(&w.admin, &w.desk, "Old rates", "premium").await;
    app.gql(Some(&w.admin), "mutation($id: ID!) { archiveChannel(id: $id) { state } }", json!({ "id": old })).await;
    assert_refused(
        &bulk(&w.admin, json!({ "channelId": old }), vec![&gus], vec![]).await,
        "CONFLICT",
        "This channel is archived and can no longer be changed.",
    );
    assert_eq!(count(app, "select count(*) from subscription_audit").await, audits);

    // Free channels get free subscriptions.
    trial_on_free["subscriptionType"] = Value::Null;
    assert_eq!(done(&bulk(&w.admin, trial_on_free, vec![&gus], vec![]).await, "createBulkSubscriptions")["added"], 1);
    let gus_type: String = sqlx::query_scalar("select subscription_type from channel_subscription where user_id = $1")
        .bind(&gus)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(gus_type, "free");

    // All or nothing: a failure while writing leaves no subscription, audit row or email behind.
    let (hal, ida) = (
        app.insert_signed_in_user("hal@client.example", "Hal", None).await,
        app.insert_signed_in_user("ida@client.example", "Ida", None).await,
    );
    sqlx::query(
        "create function refuse_ida() returns trigger language plpgsql as $$ begin
           if exists (select 1 from users where user_id = new.user_id and email = 'ida@client.example') then
             raise exception 'disk full';
           end if;
           return new;
         end $$",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    sqlx::query("create trigger refuse_ida before insert on channel_subscription for each row execute function refuse_ida()")
        .execute(&app.pool)
        .await
        .unwrap();
    let (audits, emails) =
        (count(app, "select count(*) from subscription_audit").await, count(app, "select count(*) from email_outbox").await);
    let failed = bulk(&w.admin, item.clone(), vec![&hal, &ida], vec![]).await;
    assert_eq!(error_code(&failed), Some("INTERNAL"), "{failed}");
    let written: i64 = sqlx::query_scalar("select count(*) from channel_subscription where user_id = any($1)")
        .bind(vec![hal.clone(), ida.clone()])
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(written, 0);
    assert_eq!(count(app, "select count(*) from subscription_audit").await, audits);
    assert_eq!(count(app, "select count(*) from email_outbox").await, emails);
}

#[sqlx::test(migrations = "./migrations")]
async fn bulk_notes_over_the_limit_are_refused_and_the_file_name_is_kept_as_a_clean_base_name(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let [ann, ..] = bulk_people(&w).await;
    let bulk = |item: Value| app.gql(Some(&w.admin), BULK, json!({ "item": item, "users": [&ann], "existing": [] }));

    let long = json!({ "channelId": w.premium, "fileName": "clients.csv", "notes": "n".repeat(251) });
    assert_fields(&bulk(long).await, json!({ "notes": "Maximum 250 characters" }));
    assert_eq!(count(app, "select count(*) from channel_subscription where notes is not null").await, 0, "nothing written");

    let hostile = format!("C:\\Users\\ann/../{}\u{7}\r\nclients\u{1b}.csv", "x".repeat(300));
    let item = json!({ "channelId": w.premium, "fileName": hostile });
    assert_eq!(done(&bulk(item).await, "createBulkSubscriptions")["added"], 1);
    let notes: String = sqlx::query_scalar("select notes from channel_subscription where user_id = $1").bind(&ann).fetch_one(&app.pool).await.unwrap();
    assert_eq!(notes, format!("Bulk upload: {}", "x".repeat(100)));
}

#[sqlx::test(migrations = "./migrations")]
async fn ten_thousand_addresses_are_checked_and_added_through_the_api(pool: PgPool) {
    const N: i64 = 10_000;
    let w = world(pool).await;
    let app = &w.app;
    sqlx::query(
        "insert into users (user_id, subject, email, name, last_login)
         select 'b' || lpad(to_hex(g), 23, '0'), 'dev|bulk' || g, 'bulk' || g || '@client.example', 'Bulk ' || g, now()
         from generate_series(1, $1) g",
    )
    .bind(N)
    .execute(&app.pool)
    .await
    .unwrap();
    let csv: String = std::iter::once("email\r\n".to_owned()).chain((1..=N).map(|i| format!("bulk{i}@client.example\r\n"))).collect();

    let started = Instant::now();
    let checked = app.gql(Some(&w.admin), "query($c: ID!, $csv: String) { checkEmails(channelId: $c, csv: $csv) { identified users { _id } existing { _id } unmatched } }", json!({ "c": w.premium, "csv": csv })).await;
    let check_seconds = started.elapsed().as_secs_f64();
    let checked = done(&checked, "checkEmails");
    assert_eq!(checked["identified"], N);
    let users: Vec<&str> = checked["users"].as_array().unwrap().iter().map(|u| u["_id"].as_str().unwrap()).collect();
    assert_eq!(users.len() as i64, N);

    let started = Instant::now();
    let created = app
        .gql(Some(&w.admin), BULK, json!({ "item": { "channelId": w.premium, "fileName": "big.csv" }, "users": users, "existing": [] }))
        .await;
    let create_seconds = started.elapsed().as_secs_f64();
    assert_eq!(done(&created, "createBulkSubscriptions"), json!({ "added": N, "updated": 0, "alreadySubscribed": 0, "refused": 0 }));
    eprintln!(
        "benchmark: checkEmails of {N} addresses took {check_seconds:.2} s; createBulkSubscriptions of {N} users took {create_seconds:.2} s"
    );
    assert_eq!(count(app, "select count(*) from channel_subscription where subscription_type = 'nonCharge'").await, N);
    assert_eq!(count(app, "select count(*) from subscription_audit where route = 'csv'").await, N);
    assert_eq!(count(app, "select count(*) from email_outbox where kind = 'welcome'").await, N);

    let again = app
        .gql(
            Some(&w.admin),
            "query($c: ID!, $csv: String) { checkEmails(channelId: $c, csv: $csv) { users { _id } existing { _id } } }",
            json!({ "c": w.premium, "csv": csv }),
        )
        .await;
    let again = done(&again, "checkEmails");
    assert_eq!((again["users"].as_array().unwrap().len() as i64, again["existing"].as_array().unwrap().len() as i64), (0, N));
}

// ---- the expiry sweep ----

#[sqlx::test(migrations = "./migrations")]
async fn the_sweep_ends_what_is_due_and_asks_for_each_email_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    // (name, type, state, ends in days, cancel at period end)
    let cases: &[(&str, &str, &str, Option<i64>, bool)] = &[
        ("trial_ended", "trial", "active", Some(-1), false),
        ("period_over", "account", "active", Some(-1), true),
        ("date_passed", "nonCharge", "active", Some(-1), false),
        ("card_failed", "stripe", "paymentFailed", Some(-1), false),
        ("trial_soon", "trial", "active", Some(2), false),
        ("trial_later", "trial", "active", Some(10), false),
        ("open_ended", "account", "active", None, false),
        ("pending", "trial", "pending", None, false),
        ("already_expired", "trial", "expired", Some(-5), false),
    ];
    let mut ids = std::collections::HashMap::new();
    for &(name, kind, state, ends, period_end) in cases {
        let id = app.insert_signed_in_user(&format!("{name}@client.example"), name, None).await;
        app.subscribe(&w.premium, &id, kind, state, ends, true).await;
        sqlx::query("update channel_subscription set cancel_at_period_end = $2 where user_id = $1")
            .bind(&id)
            .bind(period_end)
            .execute(&app.pool)
            .await
            .unwrap();
        ids.insert(name, id);
    }
    let jobs = app.state.jobs.as_ref();
    let report = expiry::sweep(&app.pool, jobs, Utc::now()).await.unwrap();
    assert_eq!(report, expiry::SweepReport { ended: 4, reminders: 1 });
    let states: Vec<(String, String, bool)> = sqlx::query_as(
        "select u.name, s.subscription_state, s.subscribed from channel_subscription s join users u using (user_id) order by u.name",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let state = |name: &str| states.iter().find(|s| s.0 == name).map(|s| (s.1.as_str(), s.2)).unwrap();
    assert_eq!(state("trial_ended"), ("expired", false));
    assert_eq!(state("period_over"), ("canceled", false));
    assert_eq!(state("date_passed"), ("expired", false));
    assert_eq!(state("card_failed"), ("canceled", false));
    for untouched in ["trial_soon", "trial_later", "open_ended"] {
        assert_eq!(state(untouched), ("active", true), "{untouched}");
    }
    assert_eq!(state("pending").0, "pending");
    assert_eq!(state("already_expired").0, "expired");
    assert_eq!(email_requests(app, "trialEnded").await, [(w.premium.clone(), ids["trial_ended"].clone())]);
    assert_eq!(email_requests(app, "trialEnding").await, [(w.premium.clone(), ids["trial_soon"].clone())]);
    assert_eq!(
        audit_rows(app, &w.premium, &ids["trial_ended"]).await,
        [("worker".into(), "expire".into(), Some("active".into()), Some("expired".into()), None)]
    );
    assert_eq!(
        audit_rows(app, &w.premium, &ids["period_over"]).await,
        [("worker".into(), "expire".into(), Some("active".into()), Some("canceled".into()), None)]
    );

    // Idempotent: a second sweep changes nothing and asks for nothing.
    let (audits, emails) =
        (count(app, "select count(*) from subscription_audit").await, count(app, "select count(*) from email_outbox").await);
    assert_eq!(expiry::sweep(&app.pool, jobs, Utc::now()).await.unwrap(), expiry::SweepReport::default());
    assert_eq!(count(app, "select count(*) from subscription_audit").await, audits);
    assert_eq!(count(app, "select count(*) from email_outbox").await, emails);

    // Days later, the trial that was ending has ended.
    let later = expiry::sweep(&app.pool, jobs, Utc::now() + Duration::days(3)).await.unwrap();
    assert_eq!(later, expiry::SweepReport { ended: 1, reminders: 0 });
    assert_eq!(email_requests(app, "trialEnded").await.len(), 2);
}

#[sqlx::test(migrations = "./migrations")]
async fn two_sweeps_at_once_change_each_row_exactly_once(pool: PgPool) {
    const DUE: i64 = 2_500;
    const ENDING: i64 = 300;
    let w = world(pool.clone()).await;
    let app = &w.app;
    sqlx::query(
        "insert into users (user_id, subject, email, name, last_login)
         select 'a' || lpad(to_hex(g), 23, '0'), 'dev|sweep' || g, 'sweep' || g || '@client.example', 'Sweep ' || g, now()
         from generate_series(1, $1) g",
    )
    .bind(DUE + ENDING)
    .execute(&app.pool)
    .await
    .unwrap();
    // Every other due subscription is a trial; the last ENDING trials end within 3 days.
    sqlx::query(
        "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at, trial_duration)
         select $1, 'a' || lpad(to_hex(g), 23, '0'), case when g % 2 = 0 or g > $2 then 'trial' else 'nonCharge' end, 'active',
                case when g > $2 then now() + interval '2 days' else now() - make_interval(mins => g::int) end,
                case when g % 2 = 0 or g > $2 then 14 end
         from generate_series(1, $3) g",
    )
    .bind(&w.premium)
    .bind(DUE)
    .bind(DUE + ENDING)
    .execute(&app.pool)
    .await
    .unwrap();

    let other_pool = sqlx::postgres::PgPoolOptions::new().max_connections(5).connect_with((*pool.connect_options()).clone()).await.unwrap();
    let jobs = app.state.jobs.as_ref();
    let now = Utc::now();
    let (first, second) = tokio::join!(expiry::sweep(&pool, jobs, now), expiry::sweep(&other_pool, jobs, now));
    let (first, second) = (first.unwrap(), second.unwrap());
    eprintln!("two sweeps at once: {first:?} and {second:?}");
    assert_eq!(first.ended + second.ended, DUE as u64);
    assert_eq!(first.reminders + second.reminders, ENDING as u64);
    assert_eq!(count(app, "select count(*) from subscription_audit where action = 'expire'").await, DUE);
    assert_eq!(count(app, "select count(distinct user_id) from subscription_audit where action = 'expire'").await, DUE);
    assert_eq!(count(app, "select count(*) from channel_subscription where subscription_state = 'expired'").await, DUE);
    assert_eq!(count(app, "select count(*) from email_outbox where kind = 'trialEnded'").await, DUE / 2);
    assert_eq!(count(app, "select count(*) from email_outbox where kind = 'trialEnding'").await, ENDING);
    other_pool.close().await;
}
