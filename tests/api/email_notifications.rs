//! New-article emails: who gets one when an editor publishes (200 subscribers of every kind, with
//! every setting), what those who may not read the article get (the teaser, never the body), and
//! the daily and weekly digests in the reader's time zone.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use insights::email::digest;
use serde_json::json;
use sqlx::PgPool;

use crate::{
    email_support::{Mail, Newsroom, assert_each_once, fan_out, ok, scalar},
    support::TestApp,
};

/// What a subscriber is expected to get when an article of the channel is published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// An email with the summary and a link to the article.
    Full,
    /// An email with the teaser and the invitation to get full access.
    Teaser,
    /// No email now: the article waits for their digest (full version or not).
    Digest(bool),
    Nothing,
}

/// One kind of subscriber: (name, scope, global emails on, type, state, ends in days, full
/// content, channel emails on, frequency, subscribed to the article's channel, expected).
type Case = (&'static str, &'static str, bool, &'static str, &'static str, Option<i32>, bool, bool, &'static str, bool, Expect);

const READER: &str = "insights:content-reader";
const EDITOR: &str = "insights:content-publish";

const CASES: &[Case] = &[
    ("paying", READER, true, "account", "active", None, true, true, "immediate", true, Expect::Full),
    ("trial", READER, true, "trial", "active", Some(5), true, true, "immediate", true, Expect::Full),
    ("ending", READER, true, "external", "active", Some(10), true, true, "immediate", true, Expect::Full),
    ("staff", EDITOR, true, "nonCharge", "active", None, false, true, "immediate", true, Expect::Full),
    ("summaries", READER, true, "account", "active", None, false, true, "immediate", true, Expect::Teaser),
    ("global-off", READER, false, "account", "active", None, true, true, "immediate", true, Expect::Nothing),
    ("channel-off", READER, true, "account", "active", None, true, false, "immediate", true, Expect::Nothing),
    ("daily", READER, true, "account", "active", None, true, true, "daily", true, Expect::Digest(true)),
    ("weekly-summaries", READER, true, "account", "active", None, false, true, "weekly", true, Expect::Digest(false)),
    ("expired", READER, true, "account", "expired", Some(-3), true, true, "immediate", true, Expect::Nothing),
    ("ended", READER, true, "trial", "active", Some(-1), true, true, "immediate", true, Expect::Nothing),
    ("pending", READER, true, "trial", "pending", None, true, true, "immediate", true, Expect::Nothing),
    ("canceled", READER, true, "account", "canceled", Some(-1), true, true, "immediate", true, Expect::Nothing),
    ("rejected", READER, true, "trial", "rejected", None, true, true, "immediate", true, Expect::Nothing),
    ("elsewhere", READER, true, "free", "active", None, true, true, "immediate", false, Expect::Nothing),
    ("global-off-daily", READER, false, "account", "active", None, true, true, "daily", true, Expect::Nothing),
];

/// Writes `n` subscribers, the cases in turn; returns each one's address and what it expects.
async fn mixed_subscribers(app: &TestApp, premium: &str, elsewhere: &str, n: usize) -> BTreeMap<String, Expect> {
    let mut expected = BTreeMap::new();
    let (mut ids, mut emails, mut scopes, mut global) = (vec![], vec![], vec![], vec![]);
    let (mut channels, mut kinds, mut states, mut ends, mut full, mut on, mut frequency) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for i in 0..n {
        let (name, scope, global_on, kind, state, ends_in, is_full, emails_on, freq, here, expect) = CASES[i % CASES.len()];
        let email = format!("{name}-{i}@client.example");
        ids.push(insights::ids::new_id());
        emails.push(email.clone());
        scopes.push(scope);
        global.push(global_on);
        channels.push(if here { premium } else { elsewhere });
        kinds.push(kind);
        states.push(state);
        ends.push(ends_in);
        full.push(is_full);
        on.push(emails_on);
        frequency.push(freq);
        expected.insert(email, expect);
    }
    sqlx::query(
        "insert into users (user_id, subject, email, name, scopes, channel_notifications, last_login)
         select v.id, 'dev|' || v.id, v.email, 'Reader ' || v.email, array[v.scope], v.global, now()
           from unnest($1::text[], $2::text[], $3::text[], $4::bool[]) as v(id, email, scope, global)",
    )
    .bind(&ids)
    .bind(&emails)
    .bind(&scopes)
    .bind(&global)
    .execute(&app.pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at,
                                           is_full_article_content, email_notifications, email_frequency, account_number)
         select v.channel, v.id, v.kind, v.state, now() + make_interval(days => v.ends), v.is_full, v.emails, v.frequency,
                case when v.kind = 'account' then 'ACC-1' end
           from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bool[], $7::bool[], $8::text[])
                as v(channel, id, kind, state, ends, is_full, emails, frequency)",
    )
    .bind(&channels)
    .bind(&ids)
    .bind(&kinds)
    .bind(&states)
    .bind(&ends)
    .bind(&full)
    .bind(&on)
    .bind(&frequency)
    .execute(&app.pool)
    .await
    .unwrap();
    expected
}

#[sqlx::test(migrations = "./migrations")]
async fn a_publish_to_200_subscribers_reaches_exactly_those_whose_settings_and_access_say_so(pool: PgPool) {
    const MARKER: &str = "zanzibarquux";
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let expected = mixed_subscribers(app, &n.premium, &n.open, 200).await;
    let count = |want: fn(&Expect) -> bool| expected.values().filter(|e| want(e)).count();
    let (full, teaser) = (count(|e| *e == Expect::Full), count(|e| *e == Expect::Teaser));
    let digests = count(|e| matches!(e, Expect::Digest(_)));

    // With an image of the body: its file is the article's, never put in an email (issue 35).
    const IMAGE: &str = "0123456789abcdef0123456789abcdef.png";
    let body = format!(r#"The body says {MARKER}: copper stocks fell by a third.<img src="/uploads/{IMAGE}" alt="">"#);
    let (article, request) = n.publish(app, n.article(&n.premium, "Copper stocks", &body)).await;
    let done = fan_out(app, request).await;
    assert_eq!((done.emails, done.digest_entries, done.skipped), ((full + teaser) as u64, digests as u64, false));
    let processed: bool = sqlx::query_scalar("select processed_at is not null from article_notification_request where request_id = $1")
        .bind(request)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(processed, "the request is marked processed");

    let delivered = mail.deliver().await;
    assert_eq!((delivered.sent, delivered.retrying, delivered.failed), ((full + teaser) as u64, 0, 0));
    let emails = mail.received(full + teaser).await;
    let recipients: Vec<String> =
        expected.iter().filter(|(_, e)| matches!(e, Expect::Full | Expect::Teaser)).map(|(a, _)| a.clone()).collect();
    assert_each_once(&emails, &recipients);

    let article_link = format!("{}/insights/browse/article/{}", app.address, article["_id"].as_str().unwrap());
    let invitation = format!("{}/insights/subscribe/channel/{}", app.address, n.premium);
    for email in &emails {
        let expect = expected[&email.to];
        let case = format!("{} ({expect:?})", email.to);
        assert_eq!(email.subject, "Copper stocks", "{case}");
        assert!(email.text.contains("Summary of Copper stocks") && email.html.contains("Summary of Copper stocks"), "{case}");
        let full_version = expect == Expect::Full;
        assert_eq!(email.text.contains("Read the article"), full_version, "{case}: {}", email.text);
        assert_eq!(email.text.contains(&article_link), full_version, "{case}");
        assert_eq!(email.text.contains("Get full access"), !full_version, "{case}: {}", email.text);
        assert_eq!(email.text.contains(&invitation), !full_version, "{case}");
        assert_eq!(email.html.contains("Get full access"), !full_version, "{case}");
        let source = mail.maildev.source(&email.id).await;
        assert!(!source.contains(MARKER) && !email.html.contains(MARKER) && !email.text.contains(MARKER), "{case}: the body leaked");
        assert!(!source.contains("copper stocks fell by a third"), "{case}: the body leaked");
        assert!(!source.contains(IMAGE), "{case}: the body's image leaked");
    }
    // Nor is it stored with the emails: the outbox holds the summary, never the text.
    assert_eq!(scalar(app, "select count(*) from email_content where data::text like '%zanzibarquux%'").await, 0);
    assert_eq!(scalar(app, "select count(*) from email_outbox where data::text like '%zanzibarquux%'").await, 0);

    // Digest readers have the article waiting, with the version their access gives.
    let mut waiting: Vec<(String, String, bool)> = sqlx::query_as(
        "select u.email::text, i.frequency, i.full_version from email_digest_item i join users u using (user_id)
          where i.digested_at is null",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    waiting.sort();
    let want: Vec<(String, String, bool)> = expected
        .iter()
        .filter_map(|(address, e)| match e {
            Expect::Digest(full) => Some((address.clone(), if *full { "daily" } else { "weekly" }.to_owned(), *full)),
            _ => None,
        })
        .collect();
    assert_eq!(waiting, want);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_article_unpublished_before_its_fan_out_is_announced_to_nobody(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    crate::email_support::bulk_subscribers(app, &n.premium, "sub", 5).await;
    let (article, request) = n.publish(app, n.article(&n.premium, "Withdrawn note", "Body")).await;
    let archive = "mutation($id: ID!, $version: Int!) { archiveArticle(_id: $id, version: $version) { state } }";
    let archived = ok(app, &n.editor, archive, json!({ "id": article["_id"], "version": article["version"] })).await;
    assert_eq!(archived["state"], "Archived");
    let done = fan_out(app, request).await;
    assert_eq!((done.emails, done.digest_entries, done.skipped), (0, 0, false));
    assert!(fan_out(app, request).await.skipped, "the request is processed");
    assert_eq!(mail.deliver().await, Default::default());
    assert_eq!(scalar(app, "select count(*) from email_outbox").await, 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_update_with_notify_says_updated_and_one_without_sends_nothing(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let (_, reader_id) = app.signed_in_reader("ann@client.example").await;
    app.subscribe(&n.premium, &reader_id, "account", "active", None, true).await;
    let (article, request) = n.publish(app, n.article(&n.premium, "Nickel view", "Body one")).await;
    fan_out(app, request).await;
    let (article, quiet) = n.update(app, &article, n.article(&n.premium, "Nickel view", "Body two"), false).await;
    assert_eq!(quiet, None, "an update without the checkbox asks for nothing");
    let (_, loud) = n.update(app, &article, n.article(&n.premium, "Nickel view revised", "Body three"), true).await;
    let done = fan_out(app, loud.unwrap()).await;
    assert_eq!(done.emails, 1);
    mail.deliver().await;
    let emails = mail.received(2).await;
    let subjects: Vec<&str> = emails.iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(subjects.len(), 2);
    assert!(subjects.contains(&"Nickel view") && subjects.contains(&"Updated: Nickel view revised"), "{subjects:?}");
    let updated = emails.iter().find(|e| e.subject.starts_with("Updated")).unwrap();
    assert!(updated.text.contains("This article was updated"), "{}", updated.text);
    assert!(updated.html.contains("This article was updated"));
}

/// 2030-01-07, a Monday.
fn monday() -> NaiveDate {
    let day = NaiveDate::from_ymd_opt(2030, 1, 7).unwrap();
    assert_eq!(day.weekday(), Weekday::Mon);
    day
}

fn at(day: NaiveDate, hour: u32, minute: u32) -> chrono::DateTime<Utc> {
    Utc.from_utc_datetime(&day.and_hms_opt(hour, minute, 0).unwrap())
}

#[sqlx::test(migrations = "./migrations")]
async fn digests_list_each_article_once_at_the_digest_hour_in_the_readers_time_zone(pool: PgPool) {
    let mail = Mail::spawn(pool).await;
    let app = &mail.app;
    let n = Newsroom::new(app).await;
    let jobs = app.state.jobs.as_ref();
    // Daily in London time (UTC in winter), daily in Tokyo, weekly.
    let mut readers = Vec::new();
    for (email, frequency, zone) in [
        ("ann@client.example", "daily", "Europe/London"),
        ("bob@client.example", "daily", "Asia/Tokyo"),
        ("cat@client.example", "weekly", "UTC"),
    ] {
        let (token, id) = app.signed_in_reader(email).await;
        // The weekly reader's subscription gives summaries only.
        app.subscribe(&n.premium, &id, "account", "active", None, frequency == "daily").await;
        let preference =
            "mutation($c: ID!, $f: EmailFrequency!) { changeEmailPreference(channelId: $c, frequency: $f) { emailFrequency } }";
        assert_eq!(ok(app, &token, preference, json!({ "c": n.premium, "f": frequency })).await["emailFrequency"], frequency);
        let settings = "mutation($z: String) { setUserEmailNotificationSettings(item: { timeZone: $z }) { timeZone } }";
        assert_eq!(ok(app, &token, settings, json!({ "z": zone })).await["timeZone"], zone);
        readers.push(id);
    }

    // Three articles; the second announced twice (an update with notify).
    let mut articles = Vec::new();
    for title in ["Copper one", "Copper two", "Copper three"] {
        let (article, request) = n.publish(app, n.article(&n.premium, title, "Body")).await;
        let done = fan_out(app, request).await;
        assert_eq!((done.emails, done.digest_entries), (0, 3), "{title}: digest readers get no email at once");
        articles.push(article);
    }
    let (_, again) = n.update(app, &articles[1], n.article(&n.premium, "Copper two", "Body, revised"), true).await;
    assert_eq!(fan_out(app, again.unwrap()).await.digest_entries, 0, "each article once per reader");

    // 07:00 UTC: 16:00 in Tokyo (due), 07:00 in London (before the hour), Monday before the hour.
    let day = monday();
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(day, 7, 0)).await.unwrap(), 1);
    // 08:30: London's daily and the weekly are due; Tokyo's went already.
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(day, 8, 30)).await.unwrap(), 2);
    // Later the same day, nothing more.
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(day, 20, 0)).await.unwrap(), 0);
    mail.deliver().await;
    let emails = mail.received(3).await;
    for email in &emails {
        let frequency = if email.to == "cat@client.example" { "weekly" } else { "daily" };
        assert_eq!(email.subject, format!("Your {frequency} digest: 3 new articles"), "{}", email.to);
        for title in ["Copper one", "Copper two", "Copper three"] {
            let listed = email.text.matches(&format!("{title} (Metals Premium)")).count();
            assert_eq!(listed, 1, "{}: {title} listed {listed} times:\n{}", email.to, email.text);
        }
        assert!(email.text.contains("/insights/for-you"), "{}", email.text);
        let invitation = format!("Get full access: {}/insights/subscribe/channel/{}", app.address, n.premium);
        let summaries_only = frequency == "weekly";
        assert_eq!(email.text.matches(&invitation).count(), if summaries_only { 3 } else { 0 }, "{}", email.text);
        assert_eq!(email.text.contains("/insights/browse/article/"), !summaries_only, "{}", email.text);
    }

    // An article published after today's digest waits for tomorrow's (and next week's).
    let (_, request) = n.publish(app, n.article(&n.premium, "Copper four", "Body")).await;
    assert_eq!(fan_out(app, request).await.digest_entries, 3);
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(day, 21, 0)).await.unwrap(), 0, "today's digests are written");
    // Tuesday 08:30 UTC: London's and Tokyo's daily; the weekly waits for next Monday.
    let tuesday = day + Duration::days(1);
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(tuesday, 8, 30)).await.unwrap(), 2);
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(tuesday + Duration::days(2), 12, 0)).await.unwrap(), 0, "same ISO week");
    assert_eq!(digest::compose_due(&app.pool, jobs, 8, at(day + Duration::days(7), 9, 0)).await.unwrap(), 1, "next week");
    mail.deliver().await;
    let emails = mail.received(6).await;
    let later: Vec<_> = emails.iter().skip(3).collect();
    for email in &later {
        assert!(email.subject.ends_with("digest: 1 new article"), "{}: {}", email.to, email.subject);
        assert!(email.text.contains("Copper four (Metals Premium)") && !email.text.contains("Copper one"), "{}", email.text);
    }
    let mut keys: Vec<String> =
        sqlx::query_scalar("select delivery_key from email_outbox where kind = 'digest'").fetch_all(&app.pool).await.unwrap();
    let (ann, bob, cat) = (&readers[0], &readers[1], &readers[2]);
    let mut want = [
        format!("digest:{bob}:daily:2030-01-07"),
        format!("digest:{ann}:daily:2030-01-07"),
        format!("digest:{cat}:weekly:2030-W02"),
        format!("digest:{ann}:daily:2030-01-08"),
        format!("digest:{bob}:daily:2030-01-08"),
        format!("digest:{cat}:weekly:2030-W03"),
    ];
    keys.sort();
    want.sort();
    assert_eq!(keys, want, "one digest per reader and local day, or ISO week");
    assert_eq!(scalar(app, "select count(*) from email_digest_item where digested_at is null").await, 0);
}
