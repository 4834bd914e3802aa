//! Regulated trials (issue 40): the policy's defaults and who edits it, versioned terms accepted
//! and recorded with the request, the cool-off for the reader and their firm with its message, the
//! longest trial for approvals and staff, a staff override with its reason in the audit trail, and
//! the reader's monthly reading statement.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code};

const REQUEST: &str = "mutation($c: ID!, $v: Int) { requestTrialChannelSubscription(channelId: $c, acceptedTermsVersion: $v) {
    subscriptionType subscriptionState } }";
const POLICY: &str = "{ trialPolicy { maxDays coolOffDays termsRequired version } trialTerms { version html } }";
const EDIT_POLICY: &str = "mutation($item: TrialPolicyInput!) { editTrialPolicy(item: $item) { maxDays coolOffDays termsRequired version } }";
const EDIT_TERMS: &str = "mutation($item: TrialTermsInput!) { editTrialTerms(item: $item) { version html } }";

struct World {
    app: TestApp,
    admin: String,
    channel: String,
    reader: String,
    reader_id: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let channel = app.add_channel(&admin, TestApp::premium_channel("Metals Pro", &desk, &[])).await;
    let (reader, reader_id) = app.signed_in_reader("rita@acme.example").await;
    World { app, admin, channel, reader, reader_id }
}

impl World {
    async fn request(&self, token: &str, version: Option<i64>) -> Value {
        self.app.gql(Some(token), REQUEST, json!({ "c": self.channel, "v": version })).await
    }

    async fn set_policy(&self, max_days: i64, cool_off_days: i64, terms_required: bool) -> Value {
        let version = self.app.gql(Some(&self.admin), POLICY, json!({})).await["data"]["trialPolicy"]["version"].clone();
        let item = json!({ "maxDays": max_days, "coolOffDays": cool_off_days, "termsRequired": terms_required, "version": version });
        self.app.gql(Some(&self.admin), EDIT_POLICY, json!({ "item": item })).await
    }
}

/// '3 Mar 2026' for an instant `days` from now.
async fn day_in(pool: &PgPool, days: i32) -> String {
    sqlx::query_scalar("select to_char(now() + make_interval(days => $1), 'FMDD Mon YYYY')").bind(days).fetch_one(pool).await.unwrap()
}

#[sqlx::test]
async fn the_policy_has_the_regulated_defaults_and_only_administrators_change_it(pool: PgPool) {
    let w = world(pool).await;
    let read = w.app.gql(Some(&w.reader), POLICY, json!({})).await;
    assert_eq!(read["data"]["trialPolicy"], json!({ "maxDays": 90, "coolOffDays": 365, "termsRequired": true, "version": 1 }), "{read}");
    assert_eq!(read["data"]["trialTerms"]["version"], 1);

    let editor = w.app.token(TestRole::Editor).await;
    let item = json!({ "maxDays": 30, "coolOffDays": 180, "termsRequired": true, "version": 1 });
    let refused = w.app.gql(Some(&editor), EDIT_POLICY, json!({ "item": item })).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));
    let bad = w.app.gql(Some(&w.admin), EDIT_POLICY, json!({ "item": { "maxDays": 120, "coolOffDays": -1, "termsRequired": true, "version": 1 } })).await;
    assert_eq!(error_code(&bad), Some("BAD_USER_INPUT"));
    assert!(bad["errors"][0]["extensions"]["fields"]["maxDays"].is_string() && bad["errors"][0]["extensions"]["fields"]["coolOffDays"].is_string(), "{bad}");
    let saved = w.app.gql(Some(&w.admin), EDIT_POLICY, json!({ "item": item })).await;
    assert_eq!(saved["data"]["editTrialPolicy"], json!({ "maxDays": 30, "coolOffDays": 180, "termsRequired": true, "version": 2 }), "{saved}");
    let stale = w.app.gql(Some(&w.admin), EDIT_POLICY, json!({ "item": item })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));

    // Terms: a new version each time, sanitised, the old kept.
    let terms = json!({ "html": "<p>New terms</p><script>alert(1)</script>", "version": 1 });
    let saved = w.app.gql(Some(&w.admin), EDIT_TERMS, json!({ "item": terms })).await;
    assert_eq!(saved["data"]["editTrialTerms"], json!({ "version": 2, "html": "<p>New terms</p>" }), "{saved}");
    let stale = w.app.gql(Some(&w.admin), EDIT_TERMS, json!({ "item": terms })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    let kept: i64 = sqlx::query_scalar("select count(*) from trial_terms").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(kept, 2);
    let audited: i64 =
        sqlx::query_scalar("select count(*) from audit_event where action in ('editTrialPolicy', 'editTrialTerms')").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(audited, 2);
}

#[sqlx::test]
async fn a_trial_request_accepts_the_current_terms_and_the_acceptance_is_recorded(pool: PgPool) {
    let w = world(pool).await;
    let none = w.request(&w.reader, None).await;
    assert_eq!(error_code(&none), Some("BAD_USER_INPUT"));
    assert_eq!(none["errors"][0]["extensions"]["fields"]["acceptedTermsVersion"], "Accept the trial terms to request a free trial.");
    let old = w.request(&w.reader, Some(0)).await;
    assert_eq!(old["errors"][0]["extensions"]["fields"]["acceptedTermsVersion"], "The trial terms have changed: read and accept the current ones.");

    let requested = w.request(&w.reader, Some(1)).await;
    assert_eq!(requested["data"]["requestTrialChannelSubscription"], json!({ "subscriptionType": "trial", "subscriptionState": "pending" }), "{requested}");
    let (version, user): (i32, String) = sqlx::query_as("select terms_version, user_id from trial_acceptance where channel_id = $1")
        .bind(&w.channel)
        .fetch_one(&w.app.pool)
        .await
        .unwrap();
    assert_eq!((version, user), (1, w.reader_id.clone()));

    // With terms not required, a request needs none.
    w.set_policy(90, 365, false).await;
    let (other, _) = w.app.signed_in_reader("otto@other.example").await;
    let requested = w.request(&other, None).await;
    assert_eq!(requested["errors"], Value::Null, "{requested}");
}

#[sqlx::test]
async fn the_cool_off_refuses_a_new_trial_saying_until_when_for_the_reader_and_their_firm(pool: PgPool) {
    let w = world(pool).await;
    // The reader's trial ended 10 days ago.
    w.app.subscribe(&w.channel, &w.reader_id, "trial", "expired", Some(-10), true).await;
    sqlx::query("update channel_subscription set trial_duration = 14").execute(&w.app.pool).await.unwrap();
    let refused = w.request(&w.reader, Some(1)).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"), "{refused}");
    let (ended, possible) = (day_in(&w.app.pool, -10).await, day_in(&w.app.pool, 355).await);
    assert_eq!(refused["errors"][0]["message"], format!("You had a trial of Metals Pro until {ended}; a new trial is possible from {possible}."));

    // A reader of the same firm is refused too, saying whose it was.
    let firm = "mutation($item: FirmInput!) { addFirm(item: $item) { _id } }";
    let added = w.app.gql(Some(&w.admin), firm, json!({ "item": { "name": "Acme Bank", "domains": ["acme.example"], "billingMethod": "account" } })).await;
    assert_eq!(added["errors"], Value::Null, "{added}");
    let (colleague, _) = w.app.signed_in_reader("carl@acme.example").await;
    let refused = w.request(&colleague, Some(1)).await;
    assert_eq!(
        refused["errors"][0]["message"],
        format!("A reader of your firm, Acme Bank, had a trial of Metals Pro until {ended}; a new trial is possible from {possible}."),
        "{refused}"
    );
    let (outsider, _) = w.app.signed_in_reader("olga@elsewhere.example").await;
    assert_eq!(w.request(&outsider, Some(1)).await["errors"], Value::Null);

    // A shorter cool-off lets the reader ask again; a paid subscription counts as an arrangement too.
    w.set_policy(90, 5, true).await;
    assert_eq!(w.request(&w.reader, Some(1)).await["errors"], Value::Null);
    w.set_policy(90, 365, true).await;
    let (payer, payer_id) = w.app.signed_in_reader("paul@payer.example").await;
    w.app.subscribe(&w.channel, &payer_id, "account", "expired", Some(-30), true).await;
    let refused = w.request(&payer, Some(1)).await;
    assert!(refused["errors"][0]["message"].as_str().unwrap().starts_with("You had a subscription to Metals Pro until"), "{refused}");
}

#[sqlx::test]
async fn trials_last_at_most_the_policys_longest_and_staff_override_it_with_a_reason(pool: PgPool) {
    let w = world(pool).await;
    w.set_policy(10, 365, true).await;
    // An approval gives the channel's 14 days, capped at 10.
    w.request(&w.reader, Some(1)).await;
    let approve = "mutation($item: RequestDecisionInput!) { processTrialRequest(item: $item) { channelSubscription { trialDuration subscriptionState } } }";
    let approved = w.app.gql(Some(&w.admin), approve, json!({ "item": { "userId": w.reader_id, "channelId": w.channel, "approved": true } })).await;
    assert_eq!(approved["data"]["processTrialRequest"]["channelSubscription"], json!({ "trialDuration": 10, "subscriptionState": "active" }), "{approved}");

    // Staff: longer than the policy, refused on the field; with a reason, given and audited.
    let give = "mutation($item: ChannelSubscriptionInput!) { createTrialChannelSubscription(item: $item) { trialDuration } }";
    let (_, other) = w.app.signed_in_reader("otto@other.example").await;
    let item = json!({ "channelId": w.channel, "userId": other, "trialDuration": 30, "notes": "Pilot for the desk" });
    let refused = w.app.gql(Some(&w.admin), give, json!({ "item": item })).await;
    assert_eq!(refused["errors"][0]["extensions"]["fields"]["trialDuration"], "The trial policy allows at most 10 days.", "{refused}");
    let mut with_reason = item.clone();
    with_reason["policyOverrideReason"] = json!("Signed pilot agreement, legal approved");
    let given = w.app.gql(Some(&w.admin), give, json!({ "item": with_reason })).await;
    assert_eq!(given["data"]["createTrialChannelSubscription"]["trialDuration"], 30, "{given}");
    let reason: String = sqlx::query_scalar(
        "select change -> 'trialPolicyOverride' ->> 'reason' from audit_event
         where action = 'createTrialChannelSubscription' and change ? 'trialPolicyOverride'",
    )
    .fetch_one(&w.app.pool)
    .await
    .unwrap();
    assert_eq!(reason, "Signed pilot agreement, legal approved");

    // The edit form too: lengthening the approved trial past the policy needs a reason.
    let change = "mutation($item: ChannelSubscriptionInput!) { changeSubscription(item: $item) { trialDuration } }";
    let longer = json!({ "channelId": w.channel, "userId": w.reader_id, "subscriptionType": "trial", "trialDuration": 40 });
    let refused = w.app.gql(Some(&w.admin), change, json!({ "item": longer })).await;
    assert_eq!(refused["errors"][0]["extensions"]["fields"]["trialDuration"], "The trial policy allows at most 10 days.", "{refused}");
    let mut with_reason = longer.clone();
    with_reason["policyOverrideReason"] = json!("Extended for the quarterly review");
    let changed = w.app.gql(Some(&w.admin), change, json!({ "item": with_reason })).await;
    assert_eq!(changed["data"]["changeSubscription"]["trialDuration"], 40, "{changed}");
    let overrides: i64 = sqlx::query_scalar("select count(*) from audit_event where change ? 'trialPolicyOverride'").fetch_one(&w.app.pool).await.unwrap();
    assert_eq!(overrides, 2);
}

#[sqlx::test]
async fn the_card_offers_a_trial_again_once_the_cool_off_has_passed(pool: PgPool) {
    let w = world(pool).await;
    let card = "query($c: ID!) { channel(id: $c) { readerCard { action ended } } }";
    let action = async || w.app.gql(Some(&w.reader), card, json!({ "c": w.channel })).await["data"]["channel"]["readerCard"].clone();
    assert_eq!(action().await, json!({ "action": "RequestTrial", "ended": null }));
    // A trial that ended 10 days ago: Buy within the cool-off (a request would be refused)…
    w.app.subscribe(&w.channel, &w.reader_id, "trial", "expired", Some(-10), true).await;
    sqlx::query("update channel_subscription set trial_duration = 14").execute(&w.app.pool).await.unwrap();
    assert_eq!(action().await, json!({ "action": "Buy", "ended": "Expired" }));
    // …and a trial again once the cool-off is over.
    w.set_policy(90, 5, true).await;
    assert_eq!(action().await, json!({ "action": "RequestTrial", "ended": "Expired" }));
    assert_eq!(w.request(&w.reader, Some(1)).await["errors"], Value::Null);
}

#[sqlx::test]
async fn bulk_trials_follow_the_policy_and_say_why_a_reader_was_refused(pool: PgPool) {
    let w = world(pool).await;
    w.set_policy(30, 365, true).await;
    // Rita's trial ended 10 days ago; Otto never had one.
    w.app.subscribe(&w.channel, &w.reader_id, "trial", "expired", Some(-10), true).await;
    sqlx::query("update channel_subscription set trial_duration = 14").execute(&w.app.pool).await.unwrap();
    let (_, otto) = w.app.signed_in_reader("otto@other.example").await;
    let bulk = "mutation($item: BulkSubscriptionInput!, $users: [ID!]!) {
        createBulkSubscriptions(item: $item, users: $users, existing: []) { added refused refusals { userId reason } } }";
    let users = json!([w.reader_id, otto]);
    let item = |days: i64, reason: Option<&str>| {
        json!({ "channelId": w.channel, "subscriptionType": "trial", "trialDuration": days, "notes": "Q1 pilot", "policyOverrideReason": reason })
    };

    // Longer than the policy: refused as a whole, on the field.
    let refused = w.app.gql(Some(&w.admin), bulk, json!({ "item": item(60, None), "users": users })).await;
    assert_eq!(refused["errors"][0]["extensions"]["fields"]["trialDuration"], "The trial policy allows at most 30 days.", "{refused}");

    // Within it: Otto gets his trial; Rita is refused with the cool-off's words.
    let given = w.app.gql(Some(&w.admin), bulk, json!({ "item": item(20, None), "users": users })).await;
    let outcome = &given["data"]["createBulkSubscriptions"];
    let (ended, possible) = (day_in(&w.app.pool, -10).await, day_in(&w.app.pool, 355).await);
    assert_eq!(outcome["added"], 1, "{given}");
    assert_eq!(
        outcome["refusals"],
        json!([{ "userId": w.reader_id, "reason": format!("You had a trial of Metals Pro until {ended}; a new trial is possible from {possible}.") }])
    );

    // With a reason: Rita gets it too, and the override is in the audit trail with her trial.
    let given = w.app.gql(Some(&w.admin), bulk, json!({ "item": item(20, Some("Renewal pilot agreed by compliance")), "users": [w.reader_id] })).await;
    assert_eq!(given["data"]["createBulkSubscriptions"]["added"], 1, "{given}");
    let entity = format!("{}/{}", w.channel, w.reader_id);
    let recorded: Value = sqlx::query_scalar("select change -> 'trialPolicyOverride' from audit_event where entity_id = $1 and change ? 'trialPolicyOverride'")
        .bind(&entity)
        .fetch_one(&w.app.pool)
        .await
        .unwrap();
    assert_eq!(recorded["reason"], "Renewal pilot agreed by compliance");
    assert_eq!(recorded["rules"][0].as_str().map(|r| r.starts_with("You had a trial of Metals Pro")), Some(true), "{recorded}");
}

#[sqlx::test]
async fn a_reader_downloads_the_monthly_statement_of_what_they_read(pool: PgPool) {
    let w = world(pool).await;
    let article = w.app.insert_channel_article(Some(&w.channel), None, "Published").await;
    let reads = [("preview", "2026-11-03 09:00"), ("full", "2026-11-04 10:00"), ("agent", "2026-11-05 10:00"), ("full", "2026-12-01 08:00")];
    for (kind, at) in reads {
        sqlx::query("insert into article_view_event (article_id, user_id, session_id, kind, view_type, viewed_at) values ($1, $2, $4, $3, 'web', $4::timestamptz)")
            .bind(&article)
            .bind(&w.reader_id)
            .bind(kind)
            .bind(format!("{at}+00"))
            .execute(&w.app.pool)
            .await
            .unwrap();
    }
    let query = "query($m: String!) { myReadingStatement(month: $m) { articleId title channelName firstRead reads full sources } }";
    let statement = w.app.gql(Some(&w.reader), query, json!({ "m": "2026-11" })).await;
    let lines = &statement["data"]["myReadingStatement"];
    assert_eq!(lines.as_array().map(Vec::len), Some(1), "{statement}");
    assert_eq!(lines[0]["reads"], 3);
    assert_eq!(lines[0]["full"], true);
    assert_eq!(lines[0]["sources"], json!(["agent", "web"]), "the web's reads and the reader's AI assistant's");
    assert_eq!(lines[0]["channelName"], "Metals Pro");
    assert_eq!(lines[0]["firstRead"], "2026-11-03T09:00:00+00:00");
    let bad = w.app.gql(Some(&w.reader), query, json!({ "m": "November" })).await;
    assert_eq!(error_code(&bad), Some("BAD_USER_INPUT"));

    let csv = w.app.client.get(w.app.url("/export/reading-statement.csv?month=2026-11")).bearer_auth(&w.reader).send().await.unwrap();
    assert_eq!(csv.status(), 200);
    let body = csv.bytes().await.unwrap();
    assert!(body.starts_with(b"\xEF\xBB\xBF"));
    let text = String::from_utf8_lossy(&body[3..]).to_string();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("Article,Channel,First read,Reads,Read,Source"));
    assert!(lines.next().unwrap().ends_with(",Metals Pro,2026-11-03 09:00:00 UTC,3,Full,\"AI assistant, Web\""), "{text}");
    // Another reader's statement is theirs: this one read nothing.
    let (other, _) = w.app.signed_in_reader("otto@other.example").await;
    let theirs = w.app.gql(Some(&other), query, json!({ "m": "2026-11" })).await;
    assert_eq!(theirs["data"]["myReadingStatement"], json!([]));
    let anonymous = w.app.client.get(w.app.url("/export/reading-statement.csv?month=2026-11")).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
}
