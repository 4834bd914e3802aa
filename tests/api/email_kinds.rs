//! Every kind of email, caused through the real API (or the sweep and digest jobs at a chosen
//! moment) and delivered over SMTP to maildev: each arrives once, to the right person, with its
//! subject, an HTML and a text part, and links that lead back to the app.

use chrono::{DateTime, Duration, Utc};
use insights::{email::digest, subscriptions::expiry};
use serde_json::json;
use sqlx::PgPool;

use crate::{
    email_support::{Mail, Newsroom, data_of, fan_out, links, ok, post_unsubscribe, unsubscribe_page_link},
    support::{TestApp, TestRole, factories::ReaderArticle, maildev::Email},
};

fn day(at: DateTime<Utc>) -> String {
    at.format("%-d %B %Y").to_string()
}

async fn cancel_at(app: &TestApp, channel: &str, user: &str) -> DateTime<Utc> {
    sqlx::query_scalar("select cancel_at from channel_subscription where channel_id = $1 and user_id = $2")
        .bind(channel)
        .bind(user)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// A directory holding a built web app's index.html, so the app answers its client routes;
/// removed when dropped.
struct WebDir(std::path::PathBuf);

impl WebDir {
    fn new() -> WebDir {
        let dir = std::env::temp_dir().join(format!("insights-web-{}", insights::ids::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html><title>Insights</title>").unwrap();
        WebDir(dir)
    }
}

impl Drop for WebDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Kinds {
    mail: Mail,
    _web: WebDir,
    ann: String,
    article: String,
    /// (recipient, subject) of every email expected, and what its text must say.
    expected: Vec<(String, String, Vec<String>)>,
}

/// Causes one email of every kind, and delivers them.
async fn every_kind(pool: PgPool) -> Kinds {
    let web = WebDir::new();
    let mail = Mail::spawn_with(pool, &["--web-dir", web.0.to_str().unwrap(), "--firm-name", "Acme Research"]).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let (ann, ann_id) = app.signed_in_reader("ann@client.example").await;
    let (bob, bob_id) = app.signed_in_reader("bob@client.example").await;
    let (cat, cat_id) = app.signed_in_reader("cat@client.example").await;
    let (dan, dan_id) = app.signed_in_reader("dan@client.example").await;
    let (eve, eve_id) = app.signed_in_reader("eve@client.example").await;
    let (_, fay_id) = app.signed_in_reader("fay@client.example").await;
    let (gus, _) = app.signed_in_reader("gus@client.example").await;
    let (hal, hal_id) = app.signed_in_reader("hal@client.example").await;
    let admin_email = TestRole::Administrator.email();
    let mut expected: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut expect = |to: &str, subject: &str, says: &[&str]| {
        expected.push((to.to_owned(), subject.to_owned(), says.iter().map(|s| s.to_string()).collect()))
    };

    // New and updated article: to a paying subscriber at once, and into a digest reader's digest.
    app.subscribe(&n.premium, &ann_id, "account", "active", None, true).await;
    app.subscribe(&n.premium, &hal_id, "account", "active", None, true).await;
    let daily = "mutation($c: ID!) { changeEmailPreference(channelId: $c, frequency: daily) { emailFrequency } }";
    assert_eq!(ok(app, &hal, daily, json!({ "c": n.premium })).await["emailFrequency"], "daily");
    let (article, request) = n.publish(app, n.article(&n.premium, "Copper outlook", "Stocks fell")).await;
    let done = fan_out(app, request).await;
    assert_eq!((done.emails, done.digest_entries), (1, 1));
    let (_, update) = n.update(app, &article, n.article(&n.premium, "Copper outlook", "Stocks fell again"), true).await;
    let done = fan_out(app, update.expect("an update with the checkbox notifies")).await;
    assert_eq!((done.emails, done.digest_entries), (1, 0), "the digest lists an article once");
    expect("ann@client.example", "Copper outlook", &["New in Metals Premium", "Summary of Copper outlook", "Read the article"]);
    expect("ann@client.example", "Updated: Copper outlook", &["This article was updated", "Read the article"]);
    let evening = Utc::now().date_naive().and_hms_opt(23, 0, 0).unwrap().and_utc();
    assert_eq!(digest::compose_due(&app.pool, app.state.jobs.as_ref(), 8, evening).await.unwrap(), 1);
    expect("hal@client.example", "Your daily digest: 1 new article", &["Copper outlook (Metals Premium)", "Summary of Copper outlook"]);

    // Trial requested and approved, then ending in 3 days, then ended (the sweep at those moments).
    let request_trial = "mutation($c: ID!) { requestTrialChannelSubscription(channelId: $c, acceptedTermsVersion: 1) { channelId } }";
    let decide = |mutation: &str| {
        format!("mutation($item: RequestDecisionInput!) {{ {mutation}(item: $item) {{ channelSubscription {{ subscriptionState }} }} }}")
    };
    ok(app, &bob, request_trial, json!({ "c": n.premium })).await;
    let item =
        |user: &str, channel: &str, approved: bool| json!({ "item": { "userId": user, "channelId": channel, "approved": approved } });
    ok(app, &n.admin, &decide("processTrialRequest"), item(&bob_id, &n.premium, true)).await;
    let trial_end = cancel_at(app, &n.premium, &bob_id).await;
    expect("bob@client.example", "Your free trial of Metals Premium is approved", &[&format!("runs until {}", day(trial_end))]);
    let jobs = app.state.jobs.as_ref();
    assert_eq!(expiry::sweep(&app.pool, jobs, trial_end - Duration::days(2)).await.unwrap().reminders, 1);
    expect("bob@client.example", &format!("Your free trial of Metals Premium ends on {}", day(trial_end)), &[]);
    assert_eq!(expiry::sweep(&app.pool, jobs, trial_end + Duration::minutes(1)).await.unwrap().ended, 1);
    expect("bob@client.example", "Your free trial of Metals Premium has ended", &[]);
    // Trial rejected; free-closed access approved and rejected.
    ok(app, &cat, request_trial, json!({ "c": n.premium })).await;
    ok(app, &n.admin, &decide("processTrialRequest"), item(&cat_id, &n.premium, false)).await;
    expect("cat@client.example", "Your free trial request for Metals Premium", &[]);
    let request_access = "mutation($c: ID!) { requestFreeClosedSubscription(channelId: $c) { channelId } }";
    ok(app, &dan, request_access, json!({ "c": n.closed })).await;
    ok(app, &eve, request_access, json!({ "c": n.closed })).await;
    ok(app, &n.admin, &decide("processFreeClosedRequest"), item(&dan_id, &n.closed, true)).await;
    ok(app, &n.admin, &decide("processFreeClosedRequest"), item(&eve_id, &n.closed, false)).await;
    expect("dan@client.example", "Your access to Metals Closed is approved", &[]);
    expect("eve@client.example", "Your access request for Metals Closed", &[]);

    // Welcome: a subscription given by staff.
    let grant = "mutation($item: ChannelSubscriptionInput!) { createNonChargeChannelSubscription(item: $item) { subscriptionState } }";
    ok(app, &n.admin, grant, json!({ "item": { "channelId": n.premium, "userId": fay_id, "notes": "Press pass" } })).await;
    expect("fay@client.example", "You now have access to Metals Premium", &["You are now subscribed to Metals Premium"]);

    // Interest in a channel (to its admins) and in articles (to the desk's address, or the
    // channel's admins when the desk has none).
    let channel_interest = "mutation($c: ID!) { notifyRegisteredChannelInterest(channelId: $c) }";
    assert_eq!(ok(app, &gus, channel_interest, json!({ "c": n.premium })).await, true);
    let reader_card = ["gus@client.example", "Test Co", "Test User"];
    expect(&admin_email, "Test User is interested in Metals Premium", &reader_card);
    let article_interest = "mutation($a: ID!) { notifyRegisteredInterestInArticle(item: { articleId: $a }) }";
    assert_eq!(ok(app, &gus, article_interest, json!({ "a": article["_id"] })).await, true);
    expect("desk@insights.example", "Test User is interested in \"Copper outlook\"", &reader_card);
    let quiet_desk = app.add_desk(&n.admin, "Quiet desk", &[&n.admin_id]).await;
    sqlx::query("update desk set email = null where desk_id = $1").bind(&quiet_desk).execute(&app.pool).await.unwrap();
    let quiet = app
        .insert_reader_article(ReaderArticle {
            title: "Quiet note",
            channel: Some(&n.premium),
            desk: Some(&quiet_desk),
            is_premium: true,
            ..Default::default()
        })
        .await;
    assert_eq!(ok(app, &gus, article_interest, json!({ "a": quiet })).await, true);
    expect(&admin_email, "Test User is interested in \"Quiet note\"", &reader_card);

    // A paid subscription canceled: access to the end of the period, said in the email.
    let cancel = "mutation($c: ID!) { cancelSubscription(channelId: $c) { cancelAt } }";
    ok(app, &ann, cancel, json!({ "c": n.premium })).await;
    let period_end = cancel_at(app, &n.premium, &ann_id).await;
    expect("ann@client.example", "Your subscription to Metals Premium is canceled", &[&day(period_end)]);

    let delivered = mail.deliver().await;
    assert_eq!((delivered.sent, delivered.retrying, delivered.failed), (expected.len() as u64, 0, 0));
    Kinds { mail, _web: web, ann, article: article["_id"].as_str().unwrap().to_owned(), expected }
}

#[sqlx::test(migrations = "./migrations")]
async fn each_kind_of_email_arrives_once_with_both_parts_and_working_links(pool: PgPool) {
    let k = every_kind(pool).await;
    let app = &k.mail.app;
    let emails = k.mail.received(k.expected.len()).await;
    let mut got: Vec<(String, String)> = emails.iter().map(|e| (e.to.clone(), e.subject.clone())).collect();
    let mut want: Vec<(String, String)> = k.expected.iter().map(|(to, subject, _)| (to.clone(), subject.clone())).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "each email once, to the right person");

    for (to, subject, says) in &k.expected {
        let email = emails.iter().find(|e| &e.to == to && &e.subject == subject).unwrap();
        let case = format!("{to}: {subject}");
        assert!(email.html.starts_with("<!doctype html>") && email.html.contains(subject.split('"').next().unwrap()), "{case}");
        assert!(email.text.trim().len() > 50, "{case}: {}", email.text);
        for said in says {
            assert!(email.text.contains(said.as_str()), "{case}: the text does not say {said:?}:\n{}", email.text);
        }
        assert!(email.html.contains("<strong style=\"font-size:18px\">Acme Research</strong>"), "{case}: the firm's name on top");
        assert!(email.text.starts_with("Acme Research"), "{case}: {}", email.text);
        assert!(
            email.html.contains("You receive this email because") && email.text.contains("You receive this email because"),
            "{case}: why"
        );
        let links = links(email);
        assert!(!links.is_empty(), "{case}: no call to action");
        for link in &links {
            assert!(link.starts_with(&format!("{}/insights/", app.address)), "{case}: {link} is not a page of this app");
            let page = app.client.get(link).send().await.unwrap();
            assert_eq!(page.status(), 200, "{case}: GET {link}");
        }
    }

    // The article email: its link opens the article, in full for this subscriber; its footer's
    // unsubscribe page names the reader.
    let article_email = emails.iter().find(|e| e.subject == "Copper outlook").unwrap();
    let article_link = links(article_email).into_iter().find(|l| l.contains(&k.article)).expect("a link to the article");
    let id = article_link.trim_end_matches('/').rsplit('/').next().unwrap();
    let read = app
        .gql(Some(&k.ann), "query($id: ID!) { findPublishedArticleById(id: $id) { title canSeeFullVersion } }", json!({ "id": id }))
        .await;
    assert_eq!(read["data"]["findPublishedArticleById"], json!({ "title": "Copper outlook", "canSeeFullVersion": true }), "{read}");
    let page = unsubscribe_page_link(article_email, &app.address).expect("an unsubscribe link in the footer");
    assert!(article_email.text.contains(&format!("Unsubscribe: {page}")));
    let (status, shown) = post_unsubscribe(app, json!({ "data": data_of(&page) })).await;
    assert_eq!((status, shown), (200, json!({ "email": "ann@client.example", "channelName": "Metals Premium", "subscribed": true })));

    // Service emails have no unsubscribe link; the digest's turns off every channel email.
    for email in &emails {
        let footer = unsubscribe_page_link(email, &app.address);
        let notification =
            ["Copper outlook", "Updated: Copper outlook", "Your daily digest: 1 new article"].contains(&email.subject.as_str());
        assert_eq!(footer.is_some(), notification, "{}: {}", email.to, email.subject);
    }
    let digest = emails.iter().find(|e| e.subject.contains("digest")).unwrap();
    let (_, shown) = post_unsubscribe(app, json!({ "data": data_of(&unsubscribe_page_link(digest, &app.address).unwrap()) })).await;
    assert_eq!(shown, json!({ "email": "hal@client.example", "channelName": null, "subscribed": true }));

    // Names: 'Dear …' for a reader, to the name the reader has.
    let welcome = emails.iter().find(|e| e.to == "fay@client.example").unwrap();
    assert_eq!(welcome.to_name.as_deref(), Some("Test User"));
    assert!(welcome.text.contains("Dear Test User,"), "{}", welcome.text);

    // Nothing is sent twice.
    assert_eq!(k.mail.deliver_at(Utc::now() + Duration::days(1)).await, Default::default());
    assert_eq!(k.mail.maildev.emails().await.len(), k.expected.len());
    let states = crate::email_support::outbox_states(app).await;
    assert_eq!(states.into_iter().collect::<Vec<_>>(), [("sent".to_owned(), k.expected.len() as i64)]);
}

/// The reader pages of the web app an email may link to (spec 1's routes under /insights, the
/// public unsubscribe page, and the publisher's subscriber stats).
const WEB_ROUTES: &[&str] = &[
    "/insights/for-you",
    "/insights/email-notifications",
    "/insights/subscriptions",
    "/insights/channels",
    "/insights/browse/channel",
    "/insights/unsubscribe",
    "/insights/browse/article/:id",
    "/insights/browse/channel/:id",
    "/insights/subscribe/channel/:id",
    "/insights/publisher/premium-channels/subscriber-stats/:id",
];

fn is_web_route(link: &str, public_url: &str) -> bool {
    let path = link.strip_prefix(public_url).unwrap_or(link);
    let path = path.split(['?', '#']).next().unwrap();
    WEB_ROUTES.iter().any(|route| {
        let (want, got): (Vec<&str>, Vec<&str>) = (route.split('/').collect(), path.split('/').collect());
        want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| w.starts_with(':') && !g.is_empty() || w == g)
    })
}

#[sqlx::test(migrations = "./migrations")]
async fn every_link_in_an_email_opens_a_page_of_the_web_app(pool: PgPool) {
    let k = every_kind(pool).await;
    let app = &k.mail.app;
    let emails: Vec<Email> = k.mail.received(k.expected.len()).await;
    let mut wrong = Vec::new();
    for email in &emails {
        for link in links(email) {
            if !is_web_route(&link, &app.address) {
                wrong.push(format!("{}: {link}", email.subject));
            }
        }
    }
    assert!(wrong.is_empty(), "links to no page of the web app:\n{}", wrong.join("\n"));
}

#[test]
fn the_route_check_knows_the_pages() {
    let public = "http://127.0.0.1:1";
    assert!(is_web_route("http://127.0.0.1:1/insights/browse/article/abc", public));
    assert!(is_web_route("http://127.0.0.1:1/insights/unsubscribe?data=x.y", public));
    assert!(!is_web_route("http://127.0.0.1:1/insights/article/abc", public));
    assert!(!is_web_route("http://127.0.0.1:1/insights/browse/article/", public));
}

/// A welcome says how the subscription came: bought by the reader (clearing account, or an invoice
/// staff confirmed), given by staff, added with a list of addresses, or a free trial. A reader who
/// paid is never told they were given it.
#[sqlx::test(migrations = "./migrations")]
async fn each_way_a_subscription_starts_has_its_own_welcome(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let (_, granted_id) = app.signed_in_reader("granted@client.example").await;
    let (_, listed_id) = app.signed_in_reader("listed@client.example").await;
    let (_, trial_id) = app.signed_in_reader("trial@client.example").await;
    let (account, account_id) = app.signed_in_reader("account@client.example").await;
    let (invoiced, invoiced_id) = app.signed_in_reader("invoiced@client.example").await;

    // Given by staff, one reader at a time.
    let form = |mutation: &str| format!("mutation($item: ChannelSubscriptionInput!) {{ {mutation}(item: $item) {{ subscriptionState }} }}");
    let item = |user: &str| json!({ "item": { "channelId": n.premium, "userId": user, "notes": "Press pass" } });
    ok(app, &n.admin, &form("createNonChargeChannelSubscription"), item(&granted_id)).await;
    ok(app, &n.admin, &form("createTrialChannelSubscription"), item(&trial_id)).await;
    let trial_end = cancel_at(app, &n.premium, &trial_id).await;
    // Added with a list of addresses.
    let bulk = "mutation($item: BulkSubscriptionInput!, $users: [ID!]!) {
        createBulkSubscriptions(item: $item, users: $users, existing: []) { added } }";
    let added =
        ok(app, &n.admin, bulk, json!({ "item": { "channelId": n.premium, "fileName": "clients.csv" }, "users": [listed_id] })).await;
    assert_eq!(added["added"], 1);
    // Bought: on a clearing account, and by an invoice the channel's admin confirms.
    let account_added = "mutation($u: ID!) { addBillingAccount(userId: $u, accountNumber: \"ACC-1001\", name: \"Acme\") { id } }";
    ok(app, &n.admin, account_added, json!({ "u": account_id })).await;
    let by_account =
        "mutation($c: ID!) { createAccountSubscription(channelId: $c, subscriptionType: \"account\", accountNumber: \"ACC-1001\") {
        subscriptionState } }";
    ok(app, &account, by_account, json!({ "c": n.premium })).await;
    let invoice = "mutation($c: ID!) { createInvoicePaymentRequest(channelId: $c, legalEntityName: \"Acme Ltd\",
        billingEmailAddress: \"ap@acme.example\") { subscriptionState } }";
    ok(app, &invoiced, invoice, json!({ "c": n.premium })).await;
    let confirm = "mutation($item: RequestDecisionInput!) { processInvoiceRequest(item: $item) { name } }";
    ok(app, &n.admin, confirm, json!({ "item": { "userId": invoiced_id, "channelId": n.premium, "approved": true } })).await;

    mail.deliver().await;
    // The five welcomes and the invoice request to the channel's admin.
    let emails = mail.received(6).await;
    let to = |address: &str| emails.iter().find(|e| e.to == address).unwrap_or_else(|| panic!("no email to {address}"));
    let trial_runs = format!("runs until {}", day(trial_end));
    let expected = [
        (
            "granted@client.example",
            "You now have access to Metals Premium",
            "you were given a subscription to Metals Premium",
            "Our team set up this subscription for you.",
        ),
        (
            "listed@client.example",
            "You have been added to Metals Premium",
            "your address was on a list of readers added to Metals Premium",
            "Our team added your address to Metals Premium with a list of readers",
        ),
        (
            "trial@client.example",
            "Your free trial of Metals Premium has started",
            "you were given a free trial of Metals Premium",
            trial_runs.as_str(),
        ),
        (
            "account@client.example",
            "Your subscription to Metals Premium has started",
            "you subscribed to Metals Premium",
            "Thank you for subscribing to Metals Premium.",
        ),
        (
            "invoiced@client.example",
            "Your subscription to Metals Premium has started",
            "you subscribed to Metals Premium",
            "Thank you for subscribing to Metals Premium.",
        ),
    ];
    for (address, subject, reason, says) in expected {
        let email = to(address);
        assert_eq!(email.subject, subject, "{address}");
        assert!(email.text.contains(&format!("You receive this email because {reason}.")), "{address}:\n{}", email.text);
        assert!(email.html.contains(&format!("You receive this email because {reason}.")), "{address}");
        assert!(email.text.contains(says), "{address} does not say {says:?}:\n{}", email.text);
    }
    for paid in ["account@client.example", "invoiced@client.example"] {
        let email = to(paid);
        assert!(!email.text.contains("given") && !email.html.contains("given"), "{paid}:\n{}", email.text);
        assert!(email.text.contains("/insights/subscriptions"), "{paid}: a link to their subscriptions");
    }
}
