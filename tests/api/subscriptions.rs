//! Subscriptions, the reader's side (spec 3 §4, §7): each reader mutation on each channel type and
//! in each state, the channel card and the subscription state helper the server derives, the
//! audit rows and emails the changes write, and access that follows a subscription at once.

use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ReaderArticle};

/// The subscription fields every test reads.
pub const SUBSCRIPTION: &str = "channelId userId subscriptionType subscriptionState subscribed cancelAt cancelAtPeriodEnd isActive
    trialDuration acknowledgedNonChargeSubExpired
    status { effectiveState payable paymentFailedAlert expiredAlert canAcknowledgeExpired canCancel trial freeClosed typeLabel paymentCategory }";
const CARD: &str = "query($c: ID!) { channel(id: $c) { readerCard { action ended endsAt paymentFailed summariesOnly } } }";
const ARCHIVE: &str = "mutation($id: ID!) { archiveChannel(id: $id) { state } }";

struct World {
    app: TestApp,
    admin: String,
    desk: String,
    premium: String,
    open: String,
    closed: String,
    reader: String,
    reader_id: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let open = app.channel_of_type(&admin, &desk, "Metals Open", "freeOpen").await;
    let closed = app.channel_of_type(&admin, &desk, "Metals Closed", "freeClosed").await;
    let (reader, reader_id) = app.signed_in_reader("reader@client.example").await;
    World { app, admin, desk, premium, open, closed, reader, reader_id }
}

/// Sends one of the reader mutations about `channel`.
async fn ask(app: &TestApp, token: &str, mutation: &str, channel: &str) -> Value {
    let args = match mutation {
        "createOpenFreeChannelSubscription" => "item: { channelId: $c }",
        // The reader accepts the trial terms (the trial policy asks for them: tests/api/trials.rs).
        "requestTrialChannelSubscription" => "channelId: $c, acceptedTermsVersion: 1",
        _ => "channelId: $c",
    };
    let query = format!("mutation($c: ID!) {{ {mutation}({args}) {{ {SUBSCRIPTION} }} }}");
    app.gql(Some(token), &query, json!({ "c": channel })).await
}

/// The subscription a successful mutation returned.
fn done(response: &Value, field: &str) -> Value {
    assert_eq!(response["errors"], Value::Null, "{field}: {response}");
    response["data"][field].clone()
}

fn assert_refused(response: &Value, code: &str, message: &str) {
    assert_eq!(error_code(response), Some(code), "{response}");
    assert_eq!(response["errors"][0]["message"], message, "{response}");
}

fn field_errors(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["fields"]
}

pub fn at(value: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(value.as_str().unwrap_or_else(|| panic!("a date: {value}"))).unwrap().with_timezone(&Utc)
}

async fn card(app: &TestApp, token: &str, channel: &str) -> Value {
    let response = app.gql(Some(token), CARD, json!({ "c": channel })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["channel"]["readerCard"].clone()
}

fn card_of(action: &str, ended: Option<&str>) -> Value {
    json!({ "action": action, "ended": ended, "endsAt": null, "paymentFailed": false, "summariesOnly": false })
}

async fn can_read(app: &TestApp, token: &str, article: &str) -> bool {
    let query = "query($id: ID!) { findPublishedArticleById(id: $id) { canSeeFullVersion } }";
    let response = app.gql(Some(token), query, json!({ "id": article })).await;
    response["data"]["findPublishedArticleById"]["canSeeFullVersion"].as_bool().unwrap_or_else(|| panic!("{response}"))
}

async fn premium_article(app: &TestApp, channel: &str) -> String {
    app.insert_reader_article(ReaderArticle { channel: Some(channel), is_premium: true, ..Default::default() }).await
}

/// The audit rows of a reader's subscription to a channel, oldest first: (route, action, from, to, actor).
pub async fn audit_rows(app: &TestApp, channel: &str, user: &str) -> Vec<(String, String, Option<String>, Option<String>, Option<String>)> {
    sqlx::query_as(
        "select route, action, from_state, to_state, actor_id from subscription_audit
         where channel_id = $1 and user_id = $2 order by audit_id",
    )
    .bind(channel)
    .bind(user)
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

/// The emails of `kind` written to the outbox, oldest first: (channel, recipient user).
pub async fn email_requests(app: &TestApp, kind: &str) -> Vec<(String, String)> {
    sqlx::query_as("select channel_id, user_id from email_outbox where kind = $1 order by email_id")
        .bind(kind)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

fn row(
    route: &str,
    action: &str,
    from: Option<&str>,
    to: Option<&str>,
    actor: &str,
) -> (String, String, Option<String>, Option<String>, Option<String>) {
    (route.into(), action.into(), from.map(Into::into), to.map(Into::into), Some(actor.into()))
}

async fn decide(app: &TestApp, token: &str, mutation: &str, channel: &str, user: &str, approved: bool) -> Value {
    let query =
        format!("mutation($item: RequestDecisionInput!) {{ {mutation}(item: $item) {{ name channelSubscription {{ {SUBSCRIPTION} }} }} }}");
    app.gql(Some(token), &query, json!({ "item": { "userId": user, "channelId": channel, "approved": approved } })).await
}

fn first_of_next_month(now: DateTime<Utc>) -> DateTime<Utc> {
    let (year, month) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_mutations_later_fields_see_what_its_earlier_ones_wrote(pool: PgPool) {
    let w = world(pool).await;
    // The first field writes and reads the caller's subscriptions; the second writes again and
    // must read them again (a query reads them once; a mutation at each use).
    let mutation = "mutation($open: ID!, $closed: ID!) {
        first: createOpenFreeChannelSubscription(item: { channelId: $open }) { channel { isCurrentUserSubscribed } }
        second: requestFreeClosedSubscription(channelId: $closed) { channel { userChannelSubscription { subscriptionState } } } }";
    let response = w.app.gql(Some(&w.reader), mutation, json!({ "open": w.open, "closed": w.closed })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    assert_eq!(response["data"]["first"]["channel"]["isCurrentUserSubscribed"], true, "{response}");
    assert_eq!(response["data"]["second"]["channel"]["userChannelSubscription"]["subscriptionState"], "pending", "{response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_trial_request_is_pending_once_and_only_on_live_premium_channels(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let article = premium_article(app, &w.premium).await;
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("RequestTrial", None));

    let trial = done(&ask(app, &w.reader, "requestTrialChannelSubscription", &w.premium).await, "requestTrialChannelSubscription");
    assert_eq!(
        (&trial["channelId"], &trial["userId"], &trial["subscriptionType"], &trial["subscriptionState"]),
        (&json!(w.premium), &json!(w.reader_id), &json!("trial"), &json!("pending"))
    );
    assert_eq!((&trial["isActive"], &trial["cancelAt"], &trial["subscribed"]), (&json!(false), &Value::Null, &json!(true)));
    assert_eq!(
        trial["status"],
        json!({
            "effectiveState": "pending", "payable": false, "paymentFailedAlert": false, "expiredAlert": false,
            "canAcknowledgeExpired": false, "canCancel": true, "trial": "Pending", "freeClosed": null,
            "typeLabel": "Trial", "paymentCategory": "FreeTrial",
        })
    );
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("TrialPending", None), "a pending trial disables the button");
    assert!(!can_read(app, &w.reader, &article).await, "a pending trial gives no access");

    let twice = ask(app, &w.reader, "requestTrialChannelSubscription", &w.premium).await;
    assert_refused(&twice, "CONFLICT", "Your free trial request is already pending.");

    for free in [&w.open, &w.closed] {
        let refused = ask(app, &w.reader, "requestTrialChannelSubscription", free).await;
        assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{refused}");
        assert_eq!(field_errors(&refused), &json!({ "subscriptionType": "Free trials are offered on premium channels only." }));
    }
    let old = app.channel_of_type(&w.admin, &w.desk, "Old premium", "premium").await;
    let archived = app.gql(Some(&w.admin), ARCHIVE, json!({ "id": old })).await;
    assert_eq!(archived["data"]["archiveChannel"]["state"], "archived", "{archived}");
    let on_archived = ask(app, &w.reader, "requestTrialChannelSubscription", &old).await;
    assert_refused(&on_archived, "CONFLICT", "This channel is archived and can no longer be changed.");
    for unknown in [insights::ids::new_id(), "not-an-id".to_owned()] {
        assert_eq!(error_code(&ask(app, &w.reader, "requestTrialChannelSubscription", &unknown).await), Some("NOT_FOUND"));
    }
    let anonymous = app
        .gql(None, "mutation($c: ID!) { requestTrialChannelSubscription(channelId: $c, acceptedTermsVersion: 1) { channelId } }", json!({ "c": w.premium }))
        .await;
    assert_eq!(error_code(&anonymous), Some("UNAUTHENTICATED"));

    // One change, one audit row, and no email until staff decide.
    assert_eq!(audit_rows(app, &w.premium, &w.reader_id).await, [row("reader", "requestTrial", None, Some("pending"), &w.reader_id)]);
    let rows: i64 = sqlx::query_scalar("select count(*) from subscription_audit").fetch_one(&app.pool).await.unwrap();
    assert_eq!(rows, 1, "refused requests write nothing");
    let emails: i64 = sqlx::query_scalar("select count(*) from email_outbox").fetch_one(&app.pool).await.unwrap();
    assert_eq!(emails, 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_declined_or_used_trial_is_not_offered_again_but_a_withdrawn_request_is(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;

    // Declined: the card offers buying, and a new request is refused.
    done(&ask(app, &w.reader, "requestTrialChannelSubscription", &w.premium).await, "requestTrialChannelSubscription");
    let rejected = decide(app, &w.admin, "processTrialRequest", &w.premium, &w.reader_id, false).await;
    assert_eq!(rejected["data"]["processTrialRequest"]["channelSubscription"]["subscriptionState"], "rejected", "{rejected}");
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("Buy", Some("Rejected")));
    let again = ask(app, &w.reader, "requestTrialChannelSubscription", &w.premium).await;
    assert_refused(&again, "CONFLICT", "Your free trial request was declined.");

    // Withdrawn before staff decided: it may be asked for again.
    let (other, other_id) = app.signed_in_reader("other@client.example").await;
    done(&ask(app, &other, "requestTrialChannelSubscription", &w.premium).await, "requestTrialChannelSubscription");
    let withdrawn = done(&ask(app, &other, "cancelSubscription", &w.premium).await, "cancelSubscription");
    assert_eq!(
        (&withdrawn["subscriptionState"], &withdrawn["cancelAt"], &withdrawn["subscribed"]),
        (&json!("canceled"), &Value::Null, &json!(false))
    );
    assert_eq!((&withdrawn["status"]["trial"], &withdrawn["status"]["canCancel"]), (&Value::Null, &json!(false)));
    assert_eq!(card(app, &other, &w.premium).await, card_of("RequestTrial", Some("Canceled")));
    let renewed = done(&ask(app, &other, "requestTrialChannelSubscription", &w.premium).await, "requestTrialChannelSubscription");
    assert_eq!(renewed["subscriptionState"], "pending");

    // A trial that ran (approved, then cancelled by the reader) is used up for the trial policy's
    // cool-off (365 days by default: tests/api/trials.rs), which the refusal names.
    let approved = decide(app, &w.admin, "processTrialRequest", &w.premium, &other_id, true).await;
    assert_eq!(approved["data"]["processTrialRequest"]["channelSubscription"]["subscriptionState"], "active", "{approved}");
    let before = Utc::now();
    let ended = done(&ask(app, &other, "cancelSubscription", &w.premium).await, "cancelSubscription");
    assert_eq!(
        (&ended["subscriptionState"], &ended["isActive"], &ended["status"]["trial"]),
        (&json!("canceled"), &json!(false), &json!("Expired"))
    );
    let end = at(&ended["cancelAt"]);
    assert!(end >= before - Duration::seconds(1) && end <= Utc::now(), "a trial ends at once: {end}");
    assert_eq!(card(app, &other, &w.premium).await, card_of("Buy", Some("Canceled")));
    let used = ask(app, &other, "requestTrialChannelSubscription", &w.premium).await;
    assert_eq!(error_code(&used), Some("CONFLICT"), "{used}");
    let message = used["errors"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("You had a trial of Metals Premium until ") && message.contains("a new trial is possible from"), "{message}");
    assert_eq!(
        audit_rows(app, &w.premium, &other_id).await.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        ["requestTrial", "withdrawRequest", "requestTrial", "approveTrial", "cancel"]
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn joining_a_free_open_channel_is_immediate_and_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    assert_eq!(card(app, &w.reader, &w.open).await, card_of("SubscribeFree", None));
    let joined = done(&ask(app, &w.reader, "createOpenFreeChannelSubscription", &w.open).await, "createOpenFreeChannelSubscription");
    assert_eq!(
        (&joined["subscriptionType"], &joined["subscriptionState"], &joined["isActive"], &joined["cancelAt"]),
        (&json!("free"), &json!("active"), &json!(true), &Value::Null)
    );
    assert_eq!(
        joined["status"],
        json!({
            "effectiveState": "active", "payable": false, "paymentFailedAlert": false, "expiredAlert": false,
            "canAcknowledgeExpired": false, "canCancel": true, "trial": null, "freeClosed": null,
            "typeLabel": "Free", "paymentCategory": null,
        })
    );
    assert_eq!(card(app, &w.reader, &w.open).await, card_of("Subscribed", None));
    let me = app.gql(Some(&w.reader), "{ me { channelSubscriptions { channelId subscriptionState isActive } } }", json!({})).await;
    assert_eq!(me["data"]["me"]["channelSubscriptions"], json!([{ "channelId": w.open, "subscriptionState": "active", "isActive": true }]));

    let twice = ask(app, &w.reader, "createOpenFreeChannelSubscription", &w.open).await;
    assert_refused(&twice, "CONFLICT", "You are already subscribed to this channel.");
    for other in [&w.closed, &w.premium] {
        let refused = ask(app, &w.reader, "createOpenFreeChannelSubscription", other).await;
        assert_eq!(field_errors(&refused), &json!({ "subscriptionType": "Only free open channels can be joined at once." }), "{refused}");
    }

    // A free subscription ends at once when cancelled, and may be taken again.
    let before = Utc::now();
    let cancelled = done(&ask(app, &w.reader, "cancelSubscription", &w.open).await, "cancelSubscription");
    assert_eq!(
        (&cancelled["subscriptionState"], &cancelled["subscribed"], &cancelled["isActive"], &cancelled["cancelAtPeriodEnd"]),
        (&json!("canceled"), &json!(false), &json!(false), &json!(false))
    );
    let end = at(&cancelled["cancelAt"]);
    assert!(end >= before - Duration::seconds(1) && end <= Utc::now(), "{end}");
    assert_eq!(card(app, &w.reader, &w.open).await, card_of("SubscribeFree", Some("Canceled")));
    let again = ask(app, &w.reader, "cancelSubscription", &w.open).await;
    assert_refused(&again, "CONFLICT", "You are not subscribed to this channel.");
    let rejoined = done(&ask(app, &w.reader, "createOpenFreeChannelSubscription", &w.open).await, "createOpenFreeChannelSubscription");
    assert_eq!((&rejoined["subscriptionState"], &rejoined["cancelAt"]), (&json!("active"), &Value::Null));
    assert_eq!(
        audit_rows(app, &w.open, &w.reader_id).await,
        [
            row("reader", "subscribe", None, Some("active"), &w.reader_id),
            row("reader", "cancel", Some("active"), Some("canceled"), &w.reader_id),
            row("reader", "subscribe", Some("canceled"), Some("active"), &w.reader_id),
        ]
    );
    let never = ask(app, &w.reader, "cancelSubscription", &w.premium).await;
    assert_refused(&never, "CONFLICT", "You are not subscribed to this channel.");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_access_request_to_a_free_closed_channel_waits_for_staff(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let article = premium_article(app, &w.closed).await;
    assert_eq!(card(app, &w.reader, &w.closed).await, card_of("RequestAccess", None));
    let requested = done(&ask(app, &w.reader, "requestFreeClosedSubscription", &w.closed).await, "requestFreeClosedSubscription");
    assert_eq!((&requested["subscriptionType"], &requested["subscriptionState"]), (&json!("free"), &json!("pending")));
    assert_eq!((&requested["status"]["freeClosed"], &requested["status"]["canCancel"]), (&json!("Pending"), &json!(true)));
    assert_eq!(card(app, &w.reader, &w.closed).await, card_of("AccessPending", None), "shown as 'Access request pending'");
    assert!(!can_read(app, &w.reader, &article).await);

    let twice = ask(app, &w.reader, "requestFreeClosedSubscription", &w.closed).await;
    assert_refused(&twice, "CONFLICT", "Your access request is already pending.");
    for other in [&w.open, &w.premium] {
        let refused = ask(app, &w.reader, "requestFreeClosedSubscription", other).await;
        assert_eq!(field_errors(&refused), &json!({ "subscriptionType": "Access is requested on free closed channels only." }));
    }

    // Withdrawn: the offer comes back.
    let withdrawn = done(&ask(app, &w.reader, "cancelSubscription", &w.closed).await, "cancelSubscription");
    assert_eq!((&withdrawn["subscriptionState"], &withdrawn["cancelAt"]), (&json!("canceled"), &Value::Null));
    assert_eq!(withdrawn["status"]["freeClosed"], "Canceled");
    assert_eq!(card(app, &w.reader, &w.closed).await, card_of("RequestAccess", Some("Canceled")));

    // Approved by staff: access at once; rejected: the offer comes back with the rejection.
    done(&ask(app, &w.reader, "requestFreeClosedSubscription", &w.closed).await, "requestFreeClosedSubscription");
    let approved = decide(app, &w.admin, "processFreeClosedRequest", &w.closed, &w.reader_id, true).await;
    assert_eq!(approved["data"]["processFreeClosedRequest"]["channelSubscription"]["status"]["freeClosed"], "Active", "{approved}");
    assert!(can_read(app, &w.reader, &article).await, "access follows the approval at once");
    assert_eq!(card(app, &w.reader, &w.closed).await, card_of("Subscribed", None));
    done(&ask(app, &w.reader, "cancelSubscription", &w.closed).await, "cancelSubscription");
    assert!(!can_read(app, &w.reader, &article).await, "and the cancellation");

    let (other, other_id) = app.signed_in_reader("other@client.example").await;
    done(&ask(app, &other, "requestFreeClosedSubscription", &w.closed).await, "requestFreeClosedSubscription");
    decide(app, &w.admin, "processFreeClosedRequest", &w.closed, &other_id, false).await;
    assert_eq!(card(app, &other, &w.closed).await, card_of("RequestAccess", Some("Rejected")));
    let me = app.gql(Some(&other), &format!("{{ me {{ channelSubscriptions {{ {SUBSCRIPTION} }} }} }}"), json!({})).await;
    assert_eq!(me["data"]["me"]["channelSubscriptions"][0]["status"]["freeClosed"], "Rejected", "{me}");
    let after_rejection = done(&ask(app, &other, "requestFreeClosedSubscription", &w.closed).await, "requestFreeClosedSubscription");
    assert_eq!(after_rejection["subscriptionState"], "pending", "access may be asked for again");
}

#[sqlx::test(migrations = "./migrations")]
async fn cancelling_a_paid_subscription_keeps_premium_access_to_the_end_of_the_period(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let article = premium_article(app, &w.premium).await;
    app.subscribe(&w.premium, &w.reader_id, "account", "active", None, true).await;
    assert!(can_read(app, &w.reader, &article).await);
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("Subscribed", None));

    // Without a next payment on record, the period ends on the 1st of next month (monthly billing).
    let cancelled = done(&ask(app, &w.reader, "cancelSubscription", &w.premium).await, "cancelSubscription");
    let period_end = first_of_next_month(Utc::now());
    assert_eq!(
        (&cancelled["subscriptionState"], &cancelled["cancelAtPeriodEnd"], &cancelled["subscribed"], &cancelled["isActive"]),
        (&json!("active"), &json!(true), &json!(false), &json!(true))
    );
    assert_eq!(at(&cancelled["cancelAt"]), period_end);
    assert_eq!(
        cancelled["status"],
        json!({
            "effectiveState": "active", "payable": true, "paymentFailedAlert": false, "expiredAlert": false,
            "canAcknowledgeExpired": false, "canCancel": false, "trial": null, "freeClosed": null,
            "typeLabel": "Paid - Clearing", "paymentCategory": "Paid",
        })
    );
    let shown = card(app, &w.reader, &w.premium).await;
    assert_eq!(shown["action"], "AccessUntil", "{shown}");
    assert_eq!(at(&shown["endsAt"]), period_end);
    assert!(can_read(app, &w.reader, &article).await, "premium access is kept to the end of the billing cycle");
    assert_eq!(email_requests(app, "subscriptionCanceled").await, [(w.premium.clone(), w.reader_id.clone())]);
    let again = ask(app, &w.reader, "cancelSubscription", &w.premium).await;
    assert_refused(&again, "CONFLICT", &format!("Your subscription already ends on {}.", period_end.format("%d %b %Y")));
    assert_eq!(email_requests(app, "subscriptionCanceled").await.len(), 1, "a refused cancel asks for nothing");

    // When the period is over, access ends at once (before any sweep).
    sqlx::query("update channel_subscription set cancel_at = now() - interval '1 second' where user_id = $1")
        .bind(&w.reader_id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert!(!can_read(app, &w.reader, &article).await);
    // Within the trial policy's cool-off after it: Buy, not a trial.
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("Buy", Some("Canceled")));

    // With a next payment on record, the period ends then.
    let (other, other_id) = app.signed_in_reader("other@client.example").await;
    app.subscribe(&w.premium, &other_id, "stripe", "active", None, true).await;
    let next_payment = Utc.with_ymd_and_hms(2100, 3, 15, 8, 30, 0).unwrap();
    sqlx::query("update channel_subscription set next_payment = $2 where user_id = $1")
        .bind(&other_id)
        .bind(next_payment)
        .execute(&app.pool)
        .await
        .unwrap();
    let by_card = done(&ask(app, &other, "cancelSubscription", &w.premium).await, "cancelSubscription");
    assert_eq!((at(&by_card["cancelAt"]), &by_card["cancelAtPeriodEnd"]), (next_payment, &json!(true)));
    assert_eq!(by_card["status"]["typeLabel"], "Paid - Non-clearing");
    assert!(can_read(app, &other, &article).await);
    assert_eq!(
        audit_rows(app, &w.premium, &other_id).await,
        [row("reader", "cancelAtPeriodEnd", Some("active"), Some("active"), &other_id)]
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_trial_stops_giving_access_at_its_end_before_the_sweep_records_it(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let article = premium_article(app, &w.premium).await;
    done(&ask(app, &w.reader, "requestTrialChannelSubscription", &w.premium).await, "requestTrialChannelSubscription");
    let approved = decide(app, &w.admin, "processTrialRequest", &w.premium, &w.reader_id, true).await;
    let trial = &approved["data"]["processTrialRequest"]["channelSubscription"];
    assert_eq!((&trial["status"]["trial"], &trial["isActive"]), (&json!("Active"), &json!(true)), "{approved}");
    assert!(can_read(app, &w.reader, &article).await, "the approval gives access at once");
    let shown = card(app, &w.reader, &w.premium).await;
    assert_eq!(shown["action"], "TrialActive");
    assert_eq!(shown["endsAt"], trial["cancelAt"]);

    sqlx::query("update channel_subscription set cancel_at = now() - interval '1 minute' where user_id = $1")
        .bind(&w.reader_id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert!(!can_read(app, &w.reader, &article).await, "no stale access once the trial has ended");
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("Buy", Some("Expired")));
    let me = app.gql(Some(&w.reader), &format!("{{ me {{ channelSubscriptions {{ {SUBSCRIPTION} }} }} }}"), json!({})).await;
    let sub = &me["data"]["me"]["channelSubscriptions"][0];
    assert_eq!((&sub["subscriptionState"], &sub["isActive"]), (&json!("active"), &json!(false)), "stored state untouched: {me}");
    assert_eq!(
        (&sub["status"]["effectiveState"], &sub["status"]["trial"], &sub["status"]["expiredAlert"], &sub["status"]["canCancel"]),
        (&json!("expired"), &json!("Expired"), &json!(true), &json!(false))
    );
    let subscribed = app.gql(Some(&w.reader), "query($c: ID!) { isSubscribedTo(channelId: $c) }", json!({ "c": w.premium })).await;
    assert_eq!(subscribed["data"]["isSubscribedTo"], false);
    let cancel = ask(app, &w.reader, "cancelSubscription", &w.premium).await;
    assert_refused(&cancel, "CONFLICT", "You are not subscribed to this channel.");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_an_expired_non_charge_subscription_can_be_dismissed_and_once(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let ack = "nonChargeChannelSubscriptionExpiredAcknowledged";
    let nothing = "There is no expired non-charge subscription to dismiss.";
    assert_refused(&ask(app, &w.reader, ack, &w.premium).await, "CONFLICT", nothing);

    app.subscribe(&w.premium, &w.reader_id, "nonCharge", "active", Some(5), true).await;
    assert_refused(&ask(app, &w.reader, ack, &w.premium).await, "CONFLICT", nothing);

    // Past its end (not yet swept) and once swept, it may be dismissed.
    for state in ["active", "expired"] {
        app.subscribe(&w.premium, &w.reader_id, "nonCharge", state, Some(-1), true).await;
        sqlx::query("update channel_subscription set acknowledged_non_charge_sub_expired = false").execute(&app.pool).await.unwrap();
        let me = app.gql(Some(&w.reader), &format!("{{ me {{ channelSubscriptions {{ {SUBSCRIPTION} }} }} }}"), json!({})).await;
        let status = &me["data"]["me"]["channelSubscriptions"][0]["status"];
        assert_eq!(
            status,
            &json!({
                "effectiveState": "expired", "payable": false, "paymentFailedAlert": false, "expiredAlert": true,
                "canAcknowledgeExpired": true, "canCancel": false, "trial": null, "freeClosed": null,
                "typeLabel": "Non-charge", "paymentCategory": "Free",
            }),
            "{state}"
        );
        let dismissed = done(&ask(app, &w.reader, ack, &w.premium).await, ack);
        assert_eq!(dismissed["acknowledgedNonChargeSubExpired"], true);
        assert_eq!((&dismissed["status"]["canAcknowledgeExpired"], &dismissed["status"]["expiredAlert"]), (&json!(false), &json!(false)));
        assert_refused(&ask(app, &w.reader, ack, &w.premium).await, "CONFLICT", nothing);
    }
    assert_eq!(card(app, &w.reader, &w.premium).await, card_of("Buy", Some("Expired")), "within the trial policy's cool-off");

    // Other types are not dismissed this way.
    app.subscribe(&w.premium, &w.reader_id, "account", "expired", Some(-1), true).await;
    assert_refused(&ask(app, &w.reader, ack, &w.premium).await, "CONFLICT", nothing);
    let actions: Vec<String> = audit_rows(app, &w.premium, &w.reader_id).await.into_iter().map(|r| r.1).collect();
    assert_eq!(actions, ["acknowledgeExpired", "acknowledgeExpired"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn registering_interest_in_a_channel_asks_for_one_email_a_day(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let notify = "mutation($c: ID!) { notifyRegisteredChannelInterest(channelId: $c) }";
    for _ in 0..2 {
        let response = app.gql(Some(&w.reader), notify, json!({ "c": w.premium })).await;
        assert_eq!(response["data"]["notifyRegisteredChannelInterest"], true, "{response}");
    }
    let interest: Vec<(String, String)> =
        sqlx::query_as("select item_id, user_id from interest where kind = 'Channel'").fetch_all(&app.pool).await.unwrap();
    assert_eq!(interest, [(w.premium.clone(), w.reader_id.clone())]);
    // The email goes to the channel's admins (here its creator), naming the reader.
    let admin_id = app.user_id(&w.admin).await;
    let interest_emails = || async {
        sqlx::query_as::<_, (String, String, String, String)>(
            "select channel_id, user_id, recipient, data->>'readerEmail' from email_outbox where kind = 'channelInterest' order by email_id",
        )
        .fetch_all(&app.pool)
        .await
        .unwrap()
    };
    let to_admin = (w.premium.clone(), admin_id, TestRole::Administrator.email(), "reader@client.example".to_owned());
    assert_eq!(interest_emails().await, [to_admin.clone()]);
    let jobs = app.jobs_like("deliver_emails").await;
    assert!(jobs >= 1, "the delivery is enqueued with the email");

    // The next day it is recorded (and emailed) again.
    sqlx::query("update interest set day = day - 1").execute(&app.pool).await.unwrap();
    app.gql(Some(&w.reader), notify, json!({ "c": w.premium })).await;
    let days: i64 = sqlx::query_scalar("select count(*) from interest where kind = 'Channel'").fetch_one(&app.pool).await.unwrap();
    assert_eq!(days, 2);
    assert_eq!(interest_emails().await, [to_admin.clone(), to_admin]);

    assert_eq!(error_code(&app.gql(Some(&w.reader), notify, json!({ "c": insights::ids::new_id() })).await), Some("NOT_FOUND"));
    assert_eq!(error_code(&app.gql(None, notify, json!({ "c": w.premium })).await), Some("UNAUTHENTICATED"));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_channel_card_and_status_follow_every_state(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    // (channel, type, state, ends in days, full content, action, ended, payment failed, summaries only, payable)
    type Case<'a> = (&'a str, &'a str, &'a str, Option<i64>, bool, &'a str, Option<&'a str>, bool, bool, bool);
    let (premium, open, closed) = (w.premium.as_str(), w.open.as_str(), w.closed.as_str());
    let cases: &[Case] = &[
        (premium, "trial", "pending", None, true, "TrialPending", None, false, false, false),
        (premium, "trial", "active", Some(5), true, "TrialActive", None, false, false, false),
        (premium, "trial", "active", Some(-1), true, "Buy", Some("Expired"), false, false, false),
        (premium, "trial", "expired", Some(-3), true, "Buy", Some("Expired"), false, false, false),
        (premium, "trial", "rejected", None, true, "Buy", Some("Rejected"), false, false, false),
        (premium, "account", "active", None, true, "Subscribed", None, false, false, true),
        (premium, "account", "active", None, false, "Subscribed", None, false, true, true),
        (premium, "external", "active", Some(30), true, "Subscribed", None, false, false, true),
        (premium, "external", "pending", None, true, "Pending", None, false, false, false),
        (premium, "stripe", "paymentFailed", None, true, "Subscribed", None, true, false, false),
        (premium, "account", "canceled", None, true, "RequestTrial", Some("Canceled"), false, false, false),
        (premium, "nonCharge", "active", None, true, "Subscribed", None, false, false, false),
        // Ended within the trial policy's cool-off: Buy.
        (premium, "nonCharge", "expired", Some(-1), true, "Buy", Some("Expired"), false, false, false),
        (open, "free", "active", None, true, "Subscribed", None, false, false, false),
        (open, "free", "canceled", None, true, "SubscribeFree", Some("Canceled"), false, false, false),
        (closed, "free", "pending", None, true, "AccessPending", None, false, false, false),
        (closed, "free", "active", None, true, "Subscribed", None, false, false, false),
        (closed, "free", "rejected", None, true, "RequestAccess", Some("Rejected"), false, false, false),
    ];
    let status = format!("query($c: ID!) {{ channel(id: $c) {{ userChannelSubscription {{ {SUBSCRIPTION} }} }} }}");
    for &(channel, kind, state, ends, full, action, ended, payment_failed, summaries_only, payable) in cases {
        let case = format!("{kind} {state} ends {ends:?} full {full}");
        app.subscribe(channel, &w.reader_id, kind, state, ends, full).await;
        let shown = card(app, &w.reader, channel).await;
        assert_eq!(
            (&shown["action"], &shown["ended"], &shown["paymentFailed"], &shown["summariesOnly"]),
            (&json!(action), &json!(ended), &json!(payment_failed), &json!(summaries_only)),
            "{case}: {shown}"
        );
        if action == "TrialActive" {
            assert!(at(&shown["endsAt"]) > Utc::now(), "{case}: {shown}");
        }
        let response = app.gql(Some(&w.reader), &status, json!({ "c": channel })).await;
        let sub = &response["data"]["channel"]["userChannelSubscription"];
        assert_eq!(sub["status"]["payable"], payable, "{case}: {sub}");
        assert_eq!(sub["status"]["paymentFailedAlert"], payment_failed, "{case}: {sub}");
    }
    // A failed payment while cancelling at period end raises no alert.
    app.subscribe(premium, &w.reader_id, "stripe", "paymentFailed", Some(10), true).await;
    sqlx::query("update channel_subscription set cancel_at_period_end = true where channel_id = $1")
        .bind(premium)
        .execute(&app.pool)
        .await
        .unwrap();
    let response = app.gql(Some(&w.reader), &status, json!({ "c": premium })).await;
    assert_eq!(response["data"]["channel"]["userChannelSubscription"]["status"]["paymentFailedAlert"], false, "{response}");
    assert_eq!(card(app, &w.reader, premium).await["action"], "AccessUntil");
    // Type labels and payment categories.
    let labels: &[(&str, bool, &str, Value)] = &[
        ("account", false, "Paid - Clearing", json!("Paid")),
        ("account", true, "Rebated - Clearing", json!("Free")),
        ("stripe", false, "Paid - Non-clearing", json!("Paid")),
        ("external", false, "Billed externally", json!("Paid")),
        ("nonCharge", false, "Non-charge", json!("Free")),
        ("trial", false, "Trial", json!("FreeTrial")),
    ];
    for (kind, rebate, label, category) in labels {
        app.subscribe(premium, &w.reader_id, kind, "active", None, true).await;
        sqlx::query("update channel_subscription set rebate = $2, cancel_at_period_end = false where channel_id = $1")
            .bind(premium)
            .bind(rebate)
            .execute(&app.pool)
            .await
            .unwrap();
        let response = app.gql(Some(&w.reader), &status, json!({ "c": premium })).await;
        let got = &response["data"]["channel"]["userChannelSubscription"]["status"];
        assert_eq!((&got["typeLabel"], &got["paymentCategory"]), (&json!(label), category), "{kind} rebate {rebate}");
        assert_eq!(got["payable"], *kind != "nonCharge" && *kind != "trial" && !rebate, "{kind} rebate {rebate}");
    }
}
