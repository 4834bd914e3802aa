//! Unsubscribing without signing in (spec 3 §2 'Unsubscribe page', §7 `POST /unsubscribe`): the
//! signed token of a real email's footer and `List-Unsubscribe` header, what a valid one does
//! (once), what a tampered or foreign one cannot do, and the one-click request of RFC 8058.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Utc;
use insights::email::{digest, unsubscribe};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    email_support::{Mail, Newsroom, bulk_subscribers, data_of, fan_out, ok, one_click, post_unsubscribe, scalar, unsubscribe_page_link},
    support::{TestApp, maildev::Email},
};

const INVALID: &str =
    "This unsubscribe link is not valid. Use the link of a recent email, or manage your email notifications after signing in.";

/// Whether a reader's emails of a channel are on.
async fn channel_emails(app: &TestApp, user: &str, channel: &str) -> bool {
    sqlx::query_scalar("select email_notifications from channel_subscription where user_id = $1 and channel_id = $2")
        .bind(user)
        .bind(channel)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

async fn global_emails(app: &TestApp, user: &str) -> bool {
    sqlx::query_scalar("select channel_notifications from users where user_id = $1").bind(user).fetch_one(&app.pool).await.unwrap()
}

async fn reasons(app: &TestApp) -> Vec<(String, Option<String>, String)> {
    sqlx::query_as("select user_id, channel_id, reason from email_unsubscribe order by unsubscribe_id").fetch_all(&app.pool).await.unwrap()
}

fn refused_token(status: u16, body: &Value) {
    assert_eq!(status, 400, "{body}");
    assert_eq!((&body["code"], &body["fields"]), (&json!("BAD_USER_INPUT"), &json!({ "data": INVALID })), "{body}");
}

/// An app with two readers subscribed to the premium and the open channel, and one article
/// emailed to both; returns the newsroom, the readers' ids and their emails.
async fn emailed(mail: &Mail) -> (Newsroom, String, String, Email, Email) {
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let (_, ann) = app.signed_in_reader("ann@client.example").await;
    let (_, bob) = app.signed_in_reader("bob@client.example").await;
    for user in [&ann, &bob] {
        app.subscribe(&n.premium, user, "account", "active", None, true).await;
        app.subscribe(&n.open, user, "free", "active", None, true).await;
    }
    let (_, request) = n.publish(app, n.article(&n.premium, "Gold view", "Body")).await;
    fan_out(app, request).await;
    mail.deliver().await;
    let emails = mail.received(2).await;
    let of = |to: &str| emails.iter().find(|e| e.to == to).unwrap().clone();
    (n, ann, bob, of("ann@client.example"), of("bob@client.example"))
}

#[sqlx::test(migrations = "./migrations")]
async fn the_unsubscribe_link_of_an_email_turns_off_that_channels_emails_once(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let (n, ann, bob, ann_email, _) = emailed(&mail).await;
    let data = data_of(&unsubscribe_page_link(&ann_email, &app.address).expect("an unsubscribe link"));

    // The page first shows whose link it is (no sign-in).
    let (status, shown) = post_unsubscribe(app, json!({ "data": data })).await;
    assert_eq!((status, shown), (200, json!({ "email": "ann@client.example", "channelName": "Metals Premium", "subscribed": true })));
    // A reason that is not on the page is refused, and changes nothing.
    let (status, refused) = post_unsubscribe(app, json!({ "data": data, "reason": "bored" })).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!((&refused["code"], &refused["fields"]), (&json!("BAD_USER_INPUT"), &json!({ "reason": "Choose one of the reasons." })));
    assert!(channel_emails(app, &ann, &n.premium).await);

    // With a reason: unsubscribed from that channel only, and the reason recorded.
    let (status, done) = post_unsubscribe(app, json!({ "data": data, "reason": "too_frequent" })).await;
    assert_eq!((status, done), (200, json!({ "status": true })));
    assert!(!channel_emails(app, &ann, &n.premium).await);
    assert!(channel_emails(app, &ann, &n.open).await, "other channels are untouched");
    assert!(global_emails(app, &ann).await);
    assert!(channel_emails(app, &bob, &n.premium).await, "other readers are untouched");
    assert_eq!(reasons(app).await, [(ann.clone(), Some(n.premium.clone()), "too_frequent".to_owned())]);

    // Again: 'You are already unsubscribed.'
    let (_, shown) = post_unsubscribe(app, json!({ "data": data })).await;
    assert_eq!(shown["subscribed"], false);
    let (status, again) = post_unsubscribe(app, json!({ "data": data, "reason": "other" })).await;
    assert_eq!((status, again), (200, json!({ "status": false })));
    assert_eq!(reasons(app).await.len(), 1, "nothing more is recorded");

    // The next publish reaches the others only.
    let (_, request) = n.publish(app, n.article(&n.premium, "Silver view", "Body")).await;
    assert_eq!(fan_out(app, request).await.emails, 1);
    let recipient: String = sqlx::query_scalar("select recipient from email_outbox where delivery_key like '%:' || $1")
        .bind(request.to_string())
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(recipient, "bob@client.example");

    // Every reason of the page is accepted.
    let key = unsubscribe::key(&app.state).await.unwrap().to_vec();
    let readers = bulk_subscribers(app, &n.premium, "why", 4).await;
    for (address, reason) in readers.iter().zip(unsubscribe::REASONS) {
        let user: String =
            sqlx::query_scalar("select user_id from users where email = $1").bind(address).fetch_one(&app.pool).await.unwrap();
        let token = unsubscribe::sign(&key, &user, &unsubscribe::Scope::Channel(n.premium.clone()));
        let (status, done) = post_unsubscribe(app, json!({ "data": token, "reason": reason })).await;
        assert_eq!((status, done), (200, json!({ "status": true })), "{reason}");
    }
    assert_eq!(scalar(app, "select count(distinct reason) from email_unsubscribe").await, 4);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_tampered_token_is_refused_and_another_readers_token_only_affects_that_reader(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let (n, ann, bob, ann_email, bob_email) = emailed(&mail).await;
    let data = data_of(&unsubscribe_page_link(&ann_email, &app.address).unwrap());
    let (payload, signature) = data.split_once('.').unwrap();

    // Another user or channel under ann's signature, a changed signature, a wrong key, garbage.
    let other_user = format!("{}.{signature}", URL_SAFE_NO_PAD.encode(format!("{bob}:{}", n.premium)));
    let all_channels = format!("{}.{signature}", URL_SAFE_NO_PAD.encode(format!("{ann}:all")));
    let other_channel = format!("{}.{signature}", URL_SAFE_NO_PAD.encode(format!("{ann}:{}", n.open)));
    let mut flipped = signature.to_owned().into_bytes();
    flipped[3] = if flipped[3] == b'A' { b'B' } else { b'A' };
    let flipped = format!("{payload}.{}", String::from_utf8(flipped).unwrap());
    let foreign_key = unsubscribe::sign(b"a key that is not the server's key", &ann, &unsubscribe::Scope::Channel(n.premium.clone()));
    let tampered = [other_user, all_channels, other_channel, flipped, foreign_key, payload.to_owned(), "x.y".into(), String::new()];
    for token in &tampered {
        let (status, body) = post_unsubscribe(app, json!({ "data": token })).await;
        refused_token(status, &body);
        let (status, body) = post_unsubscribe(app, json!({ "data": token, "reason": "not_relevant" })).await;
        refused_token(status, &body);
        let (status, body) = one_click(app, &format!("{}/unsubscribe?data={}", app.address, urlencode(token))).await;
        refused_token(status, &body);
    }
    let (status, body) = post_unsubscribe(app, json!({ "reason": "other" })).await;
    assert_eq!(status, 400, "no token: {body}");
    assert!(channel_emails(app, &ann, &n.premium).await && channel_emails(app, &bob, &n.premium).await);
    assert!(channel_emails(app, &ann, &n.open).await && global_emails(app, &ann).await);
    assert_eq!(reasons(app).await, [], "a refused token changes nothing");

    // Bob's link, used by anyone, unsubscribes Bob and nobody else.
    let bob_data = data_of(&unsubscribe_page_link(&bob_email, &app.address).unwrap());
    assert_ne!(bob_data, data);
    let (_, shown) = post_unsubscribe(app, json!({ "data": bob_data })).await;
    assert_eq!(shown["email"], "bob@client.example");
    let (_, done) = post_unsubscribe(app, json!({ "data": bob_data, "reason": "dont_remember" })).await;
    assert_eq!(done, json!({ "status": true }));
    assert!(!channel_emails(app, &bob, &n.premium).await);
    assert!(channel_emails(app, &ann, &n.premium).await, "ann is untouched");
    // A valid token of a user who is gone.
    let key = unsubscribe::key(&app.state).await.unwrap().to_vec();
    let ghost = unsubscribe::sign(&key, &insights::ids::new_id(), &unsubscribe::Scope::All);
    let (status, body) = post_unsubscribe(app, json!({ "data": ghost })).await;
    refused_token(status, &body);
}

fn urlencode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

#[sqlx::test(migrations = "./migrations")]
async fn the_one_click_header_of_a_received_email_unsubscribes_at_once(pool: PgPool) {
    let mail = Mail::spawn_with(pool, &["--email-reply-to", "Research desk <research@insights.example>"]).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let (_, ann) = app.signed_in_reader("ann@client.example").await;
    let (hal_token, hal) = app.signed_in_reader("hal@client.example").await;
    let (_, fay) = app.signed_in_reader("fay@client.example").await;
    app.subscribe(&n.premium, &ann, "account", "active", None, true).await;
    app.subscribe(&n.premium, &hal, "account", "active", None, true).await;
    let daily = "mutation($c: ID!) { changeEmailPreference(channelId: $c, frequency: daily) { emailFrequency } }";
    ok(app, &hal_token, daily, json!({ "c": n.premium })).await;
    let (_, request) = n.publish(app, n.article(&n.premium, "Platinum view", "Body")).await;
    fan_out(app, request).await;
    let evening = Utc::now().date_naive().and_hms_opt(23, 0, 0).unwrap().and_utc();
    assert_eq!(digest::compose_due(&app.pool, app.state.jobs.as_ref(), 8, evening).await.unwrap(), 1);
    let grant = "mutation($item: ChannelSubscriptionInput!) { createNonChargeChannelSubscription(item: $item) { subscriptionState } }";
    ok(app, &n.admin, grant, json!({ "item": { "channelId": n.premium, "userId": fay, "notes": "Guest" } })).await;
    mail.deliver().await;
    let emails = mail.received(3).await;

    // Notifications carry RFC 8058's headers; service emails do not. All have the sender's addresses.
    let mut one_click_urls = std::collections::BTreeMap::new();
    for email in &emails {
        let headers = mail.maildev.headers(&email.id).await;
        assert_eq!(header(&headers, "from"), Some("Insights <insights@insights.example>"), "{}", email.subject);
        let reply_to = header(&headers, "reply-to").map(|v| v.replace('"', ""));
        assert_eq!(reply_to.as_deref(), Some("Research desk <research@insights.example>"), "{}", email.subject);
        let id = header(&headers, "message-id").unwrap_or_default();
        let local = id.trim_start_matches('<').trim_end_matches("@insights.example>");
        assert!(local.len() == 32 && local.chars().all(|c| c.is_ascii_hexdigit()), "Message-ID from the delivery key: {id}");
        let list = header(&headers, "list-unsubscribe");
        let post = header(&headers, "list-unsubscribe-post");
        if email.to == "fay@client.example" {
            assert_eq!((list, post), (None, None), "a welcome is a service email: {headers:?}");
            continue;
        }
        assert_eq!(post, Some("List-Unsubscribe=One-Click"), "{}", email.subject);
        let list = list.unwrap_or_else(|| panic!("no List-Unsubscribe on {}", email.subject));
        let url = list.trim_start_matches('<').trim_end_matches('>');
        assert!(url.starts_with(&format!("{}/unsubscribe?data=", app.address)), "{list}");
        // The header's token is the footer's.
        assert_eq!(data_of(url), data_of(&unsubscribe_page_link(email, &app.address).unwrap()));
        one_click_urls.insert(email.to.clone(), url.to_owned());
    }

    // A mail client posts the one-click body to the header's address.
    let ann_url = &one_click_urls["ann@client.example"];
    let wrong = app
        .client
        .post(ann_url.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=Later")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 400);
    assert!(channel_emails(app, &ann, &n.premium).await);
    assert_eq!(one_click(app, ann_url).await, (200, json!({ "status": true })));
    assert!(!channel_emails(app, &ann, &n.premium).await);
    assert_eq!(one_click(app, ann_url).await, (200, json!({ "status": false })), "already unsubscribed");
    assert_eq!(reasons(app).await, [(ann.clone(), Some(n.premium.clone()), "one_click".to_owned())]);
    // The digest's turns off every channel email (the global setting), keeping each channel's choice.
    assert_eq!(one_click(app, &one_click_urls["hal@client.example"]).await, (200, json!({ "status": true })));
    assert!(!global_emails(app, &hal).await);
    assert!(channel_emails(app, &hal, &n.premium).await);
    let me = app.gql(Some(&hal_token), "{ me { emailNotificationSettings { channelNotifications } } }", json!({})).await;
    assert_eq!(me["data"]["me"]["emailNotificationSettings"]["channelNotifications"], false, "{me}");

    // Neither hears of the next article, by email or digest; the channel's other subscriber does.
    let (_, request) = n.publish(app, n.article(&n.premium, "Palladium view", "Body")).await;
    let done = fan_out(app, request).await;
    assert_eq!((done.emails, done.digest_entries), (1, 0));
    let recipient: String = sqlx::query_scalar("select recipient from email_outbox where delivery_key like '%:' || $1")
        .bind(request.to_string())
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(recipient, "fay@client.example");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_one_click_request_may_come_as_multipart_form_data(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let (n, ann, _, ann_email, _) = emailed(&mail).await;
    let token = data_of(&unsubscribe_page_link(&ann_email, &app.address).unwrap());
    // RFC 8058 §3.2: the body is "List-Unsubscribe=One-Click", as multipart/form-data or urlencoded.
    let form = reqwest::multipart::Form::new().text("List-Unsubscribe", "One-Click");
    let response = app.client.post(format!("{}/unsubscribe?data={}", app.address, urlencode(&token))).multipart(form).send().await.unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert_eq!((status, body), (200, json!({ "status": true })));
    assert!(!channel_emails(app, &ann, &n.premium).await);
}
