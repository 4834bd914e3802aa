//! The reader's email settings (spec 3 §2 'Email notifications', §7): the global On/Off and time
//! zone, each channel's checkbox and frequency, what the mutations refuse, and that they decide
//! who receives the next publish.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    email_support::{Newsroom, fan_out, ok},
    support::{TestApp, error_code},
};

const ME: &str = "{ me { emailNotificationSettings { channelNotifications timeZone }
    channelSubscriptions { channelId channel { name } emailNotifications emailFrequency } } }";
const GLOBAL: &str =
    "mutation($item: EmailNotificationSettingsInput!) { setUserEmailNotificationSettings(item: $item) { channelNotifications timeZone } }";
const TOGGLE: &str = "mutation($c: ID!, $on: Boolean) { setPremiumChannelEmailNotificationSettings(channelId: $c, enabled: $on) { channelId emailNotifications } }";
const FREQUENCY: &str = "mutation($c: ID!, $f: EmailFrequency!) { changeEmailPreference(channelId: $c, frequency: $f) { channelId emailFrequency emailNotifications } }";
const SET: &str = "mutation($ids: [ID!]!) { setSubscriptions(channelIds: $ids) { channelId emailNotifications } }";

/// The caller's channel settings by channel id: (emails on, frequency).
async fn channels(app: &TestApp, token: &str) -> Vec<(String, bool, String)> {
    let me = app.gql(Some(token), ME, json!({})).await;
    let mut rows: Vec<(String, bool, String)> = me["data"]["me"]["channelSubscriptions"]
        .as_array()
        .unwrap_or_else(|| panic!("{me}"))
        .iter()
        .map(|s| {
            (
                s["channelId"].as_str().unwrap().to_owned(),
                s["emailNotifications"].as_bool().unwrap(),
                s["emailFrequency"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    rows.sort();
    rows
}

fn sorted(mut rows: Vec<(String, bool, String)>) -> Vec<(String, bool, String)> {
    rows.sort();
    rows
}

fn by_channel(subscriptions: &Value) -> Vec<(String, bool)> {
    let mut rows: Vec<(String, bool)> = subscriptions
        .as_array()
        .unwrap_or_else(|| panic!("{subscriptions}"))
        .iter()
        .map(|s| (s["channelId"].as_str().unwrap().to_owned(), s["emailNotifications"].as_bool().unwrap()))
        .collect();
    rows.sort();
    rows
}

#[sqlx::test(migrations = "./migrations")]
async fn the_email_settings_mutations_change_what_they_say_and_refuse_the_rest(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let n = Newsroom::new(&app).await;
    let (reader, reader_id) = app.signed_in_reader("ann@client.example").await;
    app.subscribe(&n.premium, &reader_id, "account", "active", None, true).await;
    app.subscribe(&n.open, &reader_id, "free", "active", None, true).await;
    let (p, o) = (n.premium.clone(), n.open.clone());

    // Defaults: channel emails on, UTC, every channel on and immediate.
    let me = app.gql(Some(&reader), ME, json!({})).await;
    assert_eq!(me["data"]["me"]["emailNotificationSettings"], json!({ "channelNotifications": true, "timeZone": "UTC" }), "{me}");
    assert_eq!(channels(&app, &reader).await, sorted(vec![(p.clone(), true, "immediate".into()), (o.clone(), true, "immediate".into())]));

    // The global settings: each field alone; a zone not on the list is refused.
    let off = ok(&app, &reader, GLOBAL, json!({ "item": { "channelNotifications": false } })).await;
    assert_eq!(off, json!({ "channelNotifications": false, "timeZone": "UTC" }));
    let zone = ok(&app, &reader, GLOBAL, json!({ "item": { "timeZone": "Europe/Paris" } })).await;
    assert_eq!(zone, json!({ "channelNotifications": false, "timeZone": "Europe/Paris" }));
    for bad in ["Mars/Olympus", "", "Europe/Paris; drop table users"] {
        let refused = app.gql(Some(&reader), GLOBAL, json!({ "item": { "timeZone": bad, "channelNotifications": true } })).await;
        assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{bad:?}: {refused}");
        assert_eq!(refused["errors"][0]["extensions"]["fields"], json!({ "timeZone": "Choose a time zone from the list." }));
    }
    let me = app.gql(Some(&reader), ME, json!({})).await;
    assert_eq!(me["data"]["me"]["emailNotificationSettings"], json!({ "channelNotifications": false, "timeZone": "Europe/Paris" }));
    let on = ok(&app, &reader, GLOBAL, json!({ "item": { "channelNotifications": true } })).await;
    assert_eq!(on["channelNotifications"], true);

    // A channel's checkbox: toggled when `enabled` is omitted, set when given.
    let toggle = |enabled: Value| ok(&app, &reader, TOGGLE, json!({ "c": p, "on": enabled }));
    assert_eq!(toggle(Value::Null).await["emailNotifications"], false);
    assert_eq!(toggle(Value::Null).await["emailNotifications"], true);
    assert_eq!(toggle(json!(false)).await["emailNotifications"], false);
    assert_eq!(toggle(json!(false)).await["emailNotifications"], false, "set, not toggled");
    assert_eq!(toggle(json!(true)).await["emailNotifications"], true);

    // The frequency, per channel.
    let weekly = ok(&app, &reader, FREQUENCY, json!({ "c": p, "f": "weekly" })).await;
    assert_eq!(weekly, json!({ "channelId": p, "emailFrequency": "weekly", "emailNotifications": true }));
    assert_eq!(channels(&app, &reader).await, sorted(vec![(p.clone(), true, "weekly".into()), (o.clone(), true, "immediate".into())]));
    let bad = app.gql(Some(&reader), FREQUENCY, json!({ "c": p, "f": "hourly" })).await;
    assert!(bad["errors"].is_array(), "{bad}");

    // Exactly the listed channels on, the others off; every subscription is returned.
    let set = ok(&app, &reader, SET, json!({ "ids": [o] })).await;
    assert_eq!(by_channel(&set), sorted_pairs(vec![(p.clone(), false), (o.clone(), true)]));
    assert_eq!(by_channel(&ok(&app, &reader, SET, json!({ "ids": [] })).await), sorted_pairs(vec![(p.clone(), false), (o.clone(), false)]));
    let both = ok(&app, &reader, SET, json!({ "ids": [p, o, n.closed] })).await;
    assert_eq!(by_channel(&both), sorted_pairs(vec![(p.clone(), true), (o.clone(), true)]), "a channel not subscribed to is ignored");

    // Not subscribed: NOT_FOUND.
    for channel in [n.closed.clone(), insights::ids::new_id()] {
        assert_eq!(error_code(&app.gql(Some(&reader), TOGGLE, json!({ "c": channel })).await), Some("NOT_FOUND"));
        assert_eq!(error_code(&app.gql(Some(&reader), FREQUENCY, json!({ "c": channel, "f": "daily" })).await), Some("NOT_FOUND"));
    }
    // Signed out: refused.
    for (query, variables) in [
        (GLOBAL, json!({ "item": { "channelNotifications": false } })),
        (TOGGLE, json!({ "c": p })),
        (FREQUENCY, json!({ "c": p, "f": "daily" })),
        (SET, json!({ "ids": [] })),
        ("{ me { emailNotificationSettings { channelNotifications } } }", json!({})),
    ] {
        assert_eq!(error_code(&app.gql(None, query, variables).await), Some("UNAUTHENTICATED"), "{query}");
    }
    // Someone else's settings are theirs only, even for an administrator.
    let others = app
        .gql(
            Some(&n.admin),
            "query($id: ID!) { findUserById(id: $id) { emailNotificationSettings { channelNotifications } } }",
            json!({ "id": reader_id }),
        )
        .await;
    assert_eq!(error_code(&others), Some("FORBIDDEN"), "{others}");
    // Nothing the refusals did changed anything.
    assert_eq!(channels(&app, &reader).await, sorted(vec![(p.clone(), true, "weekly".into()), (o.clone(), true, "immediate".into())]));
}

fn sorted_pairs(mut rows: Vec<(String, bool)>) -> Vec<(String, bool)> {
    rows.sort();
    rows
}

/// Who a request's fan-out emailed, and who got a digest entry.
async fn reached(app: &TestApp, n: &Newsroom, title: &str) -> (Vec<String>, Vec<String>) {
    let (article, request) = n.publish(app, n.article(&n.premium, title, "Body")).await;
    fan_out(app, request).await;
    let mut emailed: Vec<String> = sqlx::query_scalar("select recipient from email_outbox where delivery_key like '%:' || $1")
        .bind(request.to_string())
        .fetch_all(&app.pool)
        .await
        .unwrap();
    emailed.sort();
    let mut digest: Vec<String> =
        sqlx::query_scalar("select u.email::text from email_digest_item i join users u using (user_id) where i.article_id = $1")
            .bind(article["_id"].as_str().unwrap())
            .fetch_all(&app.pool)
            .await
            .unwrap();
    digest.sort();
    (emailed, digest)
}

#[sqlx::test(migrations = "./migrations")]
async fn the_settings_decide_who_receives_the_next_publish(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let n = Newsroom::new(&app).await;
    let (ann, ann_id) = app.signed_in_reader("ann@client.example").await;
    let (bob, bob_id) = app.signed_in_reader("bob@client.example").await;
    app.subscribe(&n.premium, &ann_id, "account", "active", None, true).await;
    app.subscribe(&n.premium, &bob_id, "account", "active", None, true).await;
    let (a, b) = ("ann@client.example".to_owned(), "bob@client.example".to_owned());
    let none: Vec<String> = vec![];

    assert_eq!(reached(&app, &n, "One").await, (vec![a.clone(), b.clone()], none.clone()));
    // Ann turns channel emails off.
    ok(&app, &ann, GLOBAL, json!({ "item": { "channelNotifications": false } })).await;
    assert_eq!(reached(&app, &n, "Two").await, (vec![b.clone()], none.clone()));
    // On again, but the channel's checkbox off.
    ok(&app, &ann, GLOBAL, json!({ "item": { "channelNotifications": true } })).await;
    ok(&app, &ann, TOGGLE, json!({ "c": n.premium })).await;
    assert_eq!(reached(&app, &n, "Three").await, (vec![b.clone()], none.clone()));
    // Ann ticks the channel again (setSubscriptions); Bob asks for a daily digest.
    ok(&app, &ann, SET, json!({ "ids": [n.premium] })).await;
    ok(&app, &bob, FREQUENCY, json!({ "c": n.premium, "f": "daily" })).await;
    assert_eq!(reached(&app, &n, "Four").await, (vec![a.clone()], vec![b.clone()]));
    // Bob unticks the channel: no digest entry either.
    ok(&app, &bob, TOGGLE, json!({ "c": n.premium, "on": false })).await;
    assert_eq!(reached(&app, &n, "Five").await, (vec![a.clone()], none.clone()));
}
