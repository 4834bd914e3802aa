//! Client firms (issue 39): the staff form's rules, joining and leaving by domain and invitation,
//! firm subscriptions through the one state machine, seats (the limit under concurrent requests),
//! entitlement through a seat on every path and on two servers, the expiry sweep, readership, and
//! every firm operation tried across firms and as a plain reader.

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole, error_code, factories::ReaderArticle};

const FIRM: &str = "_id name domains accountNumber billingMethod state version readerCount seatsUsed seatsHeld subscriptionCount";
const SUBSCRIPTION: &str = "_id firmId channelId seats seatsUsed startsAt cancelAt subscriptionType subscriptionState isActive version";
const ADD_FIRM: &str = "mutation($item: FirmInput!) { addFirm(item: $item) { _id name domains version readerCount } }";
const EDIT_FIRM: &str = "mutation($item: FirmInput!) { editFirm(item: $item) { _id name domains version readerCount } }";
const ASSIGN: &str = "mutation($s: ID!, $u: ID!) { assignFirmSeat(firmSubscriptionId: $s, userId: $u) }";
const RELEASE: &str = "mutation($s: ID!, $u: ID!) { releaseFirmSeat(firmSubscriptionId: $s, userId: $u) }";
const MARKER: &str = "quorvantilite";

struct World {
    app: TestApp,
    admin: String,
    editor: String,
    premium: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let editor = app.token(TestRole::Editor).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    World { app, admin, editor, premium }
}

impl World {
    async fn add_firm(&self, name: &str, domains: &[&str]) -> String {
        let item = json!({ "name": name, "domains": domains, "billingMethod": "account" });
        let response = self.app.gql(Some(&self.admin), ADD_FIRM, json!({ "item": item })).await;
        response["data"]["addFirm"]["_id"].as_str().unwrap_or_else(|| panic!("{response}")).to_owned()
    }

    async fn firm(&self, token: &str, id: &str) -> Value {
        let query = format!("query($id: ID!) {{ findFirmById(id: $id) {{ {FIRM} }} }}");
        self.app.gql(Some(token), &query, json!({ "id": id })).await
    }

    /// A firm subscription to the premium channel with `seats` (none: unlimited); returns its id.
    async fn subscribe_firm(&self, firm: &str, seats: Option<i32>) -> String {
        let item = json!({ "firmId": firm, "channelId": self.premium, "subscriptionType": "account", "accountNumber": "ACC-9",
                           "seats": seats, "notes": "Signed for 2027" });
        let response = self.gql_create(&item).await;
        response["data"]["createFirmSubscription"]["_id"].as_str().unwrap_or_else(|| panic!("{response}")).to_owned()
    }

    async fn gql_create(&self, item: &Value) -> Value {
        let query = format!("mutation($item: FirmSubscriptionInput!) {{ createFirmSubscription(item: $item) {{ {SUBSCRIPTION} }} }}");
        self.app.gql(Some(&self.admin), &query, json!({ "item": item })).await
    }

    async fn make_admin(&self, firm: &str, user: &str) {
        let query = "mutation($f: ID!, $u: ID!) { setFirmAdmin(firmId: $f, userId: $u, isAdmin: true) { _id } }";
        let response = self.app.gql(Some(&self.admin), query, json!({ "f": firm, "u": user })).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
    }

    async fn premium_article(&self) -> String {
        self.app
            .insert_reader_article(ReaderArticle {
                title: "Copper forecast",
                summary: "Where copper goes next quarter",
                body: &format!("Our {MARKER} model sees copper at 11,000 dollars."),
                channel: Some(&self.premium),
                is_premium: true,
                ..Default::default()
            })
            .await
    }
}

async fn my_firm(app: &TestApp, token: &str) -> Value {
    app.gql(Some(token), "{ me { firm { _id name isAdmin } } }", json!({})).await["data"]["me"]["firm"].clone()
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_keep_firms_with_the_form_rules_and_versions(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let add = |item: Value, token: String| async move { app.gql(Some(&token), ADD_FIRM, json!({ "item": item })).await };

    let public = add(json!({ "name": "Bank", "domains": ["gmail.com"], "billingMethod": "account" }), w.admin.clone()).await;
    assert_eq!(error_code(&public), Some("BAD_USER_INPUT"));
    assert!(public["errors"][0]["extensions"]["fields"]["domains"].as_str().unwrap().contains("public mail service"), "{public}");
    let missing = add(json!({ "name": " ", "domains": ["not a domain"] }), w.admin.clone()).await;
    let fields = &missing["errors"][0]["extensions"]["fields"];
    assert_eq!(fields["name"], "This field is required", "{missing}");
    assert_eq!(fields["billingMethod"], "This field is required", "{missing}");
    let long = add(json!({ "name": "x".repeat(101), "billingMethod": "card" }), w.admin.clone()).await;
    assert_eq!(long["errors"][0]["extensions"]["fields"]["name"], "Maximum 100 characters", "{long}");

    let bank = add(json!({ "name": "Alpine Bank", "domains": ["@Alpine-Bank.example", "alpinebank.example"], "billingMethod": "invoice",
                         "accountNumber": "CL-1" }), w.editor.clone())
    .await;
    let bank_firm = &bank["data"]["addFirm"];
    assert_eq!(bank_firm["domains"], json!(["alpine-bank.example", "alpinebank.example"]), "{bank}");
    let bank_id = bank_firm["_id"].as_str().unwrap().to_owned();
    let again = add(json!({ "name": "alpine bank", "billingMethod": "card" }), w.admin.clone()).await;
    assert_eq!(error_code(&again), Some("DUPLICATE"), "names are unique ignoring case: {again}");
    let taken = add(json!({ "name": "Other", "domains": ["alpinebank.example"], "billingMethod": "card" }), w.admin.clone()).await;
    assert_eq!(taken["errors"][0]["extensions"]["fields"]["domains"], "alpinebank.example is a domain of Alpine Bank", "{taken}");
    let account = add(json!({ "name": "Other", "accountNumber": "CL-1", "billingMethod": "card" }), w.admin.clone()).await;
    assert_eq!(error_code(&account), Some("BAD_USER_INPUT"), "{account}");

    // Contributors read firms; readers do not see them at all.
    let contributor = app.token(TestRole::Contributor).await;
    let list = app.gql(Some(&contributor), "{ firms(params: { search: \"alpinebank\" }) { total firms { name seatsHeld } } }", json!({})).await;
    assert_eq!(list["data"]["firms"]["total"], 1, "a domain finds its firm: {list}");
    let refused = add(json!({ "name": "Contributor's", "billingMethod": "card" }), contributor.clone()).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"));
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader), "{ firms { total } }", json!({})).await), Some("FORBIDDEN"));

    // Versions: an edit from a stale read is refused and changes nothing.
    let edit = |version: i64, name: &str| json!({ "item": { "_id": bank_id, "version": version, "name": name, "billingMethod": "invoice",
                                                             "domains": ["alpinebank.example"] } });
    let edited = app.gql(Some(&w.admin), EDIT_FIRM, edit(1, "Alpine Bank AG")).await;
    assert_eq!(edited["data"]["editFirm"]["version"], 2, "{edited}");
    let stale = app.gql(Some(&w.editor), EDIT_FIRM, edit(1, "Stale name")).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    assert_eq!(w.firm(&w.admin, &bank_id).await["data"]["findFirmById"]["name"], "Alpine Bank AG");

    let archive = "mutation($id: ID!, $v: Int!) { archiveFirm(id: $id, version: $v) { state version } }";
    let archived = app.gql(Some(&w.admin), archive, json!({ "id": bank_id, "v": 2 })).await;
    assert_eq!(archived["data"]["archiveFirm"]["state"], "archived", "{archived}");
    assert_eq!(error_code(&app.gql(Some(&w.admin), EDIT_FIRM, edit(3, "After")).await), Some("CONFLICT"), "an archived firm stays as it is");
    let unknown = app.gql(Some(&w.admin), "query { findFirmById(id: \"not-an-id\") { _id } }", json!({})).await;
    assert_eq!(error_code(&unknown), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn readers_join_by_domain_and_leave_with_it_losing_their_seats(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Fjord Capital", &["fjord.example"]).await;
    // A reader at the domain joins at first sign-in; one elsewhere does not; staff never join.
    let (ann, ann_id) = app.signed_in_reader("ann@fjord.example").await;
    assert_eq!(my_firm(app, &ann).await["name"], "Fjord Capital");
    let (bob, bob_id) = app.signed_in_reader("bob@fjord-research.example").await;
    assert_eq!(my_firm(app, &bob).await, Value::Null);
    crate::support::tokens::for_user(&app.state, "staff@fjord.example", TestRole::Editor.scopes()).await;
    assert_eq!(w.firm(&w.admin, &firm).await["data"]["findFirmById"]["readerCount"], 1);

    // Adding a domain: staff are told how many readers will join, and they do on save.
    let count = "query($d: [String!]!, $f: ID) { firmDomainReaders(domains: $d, firmId: $f) }";
    let joining = app.gql(Some(&w.admin), count, json!({ "d": ["Fjord-Research.example"], "f": firm })).await;
    assert_eq!(joining["data"]["firmDomainReaders"], 1, "{joining}");
    let edit = |version: i64, domains: &[&str]| {
        json!({ "item": { "_id": firm, "version": version, "name": "Fjord Capital", "billingMethod": "account", "domains": domains } })
    };
    let edited = app.gql(Some(&w.admin), EDIT_FIRM, edit(1, &["fjord.example", "fjord-research.example"])).await;
    assert_eq!(edited["data"]["editFirm"]["readerCount"], 2, "{edited}");
    assert_eq!(my_firm(app, &bob).await["name"], "Fjord Capital");

    // Bob holds a seat; removing his domain makes him leave, and the seat ends with it.
    let subscription = w.subscribe_firm(&firm, Some(3)).await;
    let article = w.premium_article().await;
    for user in [&ann_id, &bob_id] {
        let given = app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": user })).await;
        assert_eq!(given["data"]["assignFirmSeat"], true, "{given}");
    }
    assert!(can_read(app, &bob, &article).await);
    let edited = app.gql(Some(&w.admin), EDIT_FIRM, edit(2, &["fjord.example"])).await;
    assert_eq!(edited["data"]["editFirm"]["readerCount"], 1, "{edited}");
    assert_eq!(my_firm(app, &bob).await, Value::Null);
    assert!(!can_read(app, &bob, &article).await, "leaving the firm ends its seats at once");
    assert!(can_read(app, &ann, &article).await);

    // Ann's address changes to another domain (the identity provider says so at her next sign-in): she leaves too.
    use insights::auth::provider;
    let subject = provider::subject_for(&app.state.config, "ann@fjord.example", false);
    let scopes = TestRole::Subscriber.scopes();
    let claims = provider::UserClaims::new("ann@elsewhere.example", "Ann", Some("Fjord"), scopes.clone());
    let moved = provider::sign_access_token(&app.state, &subject, &scopes.join(" "), &claims, std::time::Duration::from_secs(600)).await.unwrap();
    assert_eq!(my_firm(app, &moved).await, Value::Null);
    let _ = (ann, ann_id);
    let seats: i64 = sqlx::query_scalar("select count(*) from firm_seat").fetch_one(&app.pool).await.unwrap();
    assert_eq!(seats, 0);

    // A staff assignment stays whatever the domain; a reader belongs to one firm at most.
    let other = w.add_firm("Other Fund", &[]).await;
    let add_member = "mutation($f: ID!, $u: ID!) { addFirmMember(firmId: $f, userId: $u) { readerCount } }";
    let added = app.gql(Some(&w.admin), add_member, json!({ "f": other, "u": bob_id })).await;
    assert_eq!(added["data"]["addFirmMember"]["readerCount"], 1, "{added}");
    let twice = app.gql(Some(&w.admin), add_member, json!({ "f": firm, "u": bob_id })).await;
    assert!(twice["errors"][0]["extensions"]["fields"]["userId"].as_str().unwrap().contains("belongs to Other Fund"), "{twice}");
    let staff_id = app.user_id(&w.editor).await;
    let staff = app.gql(Some(&w.admin), add_member, json!({ "f": other, "u": staff_id })).await;
    assert_eq!(staff["errors"][0]["extensions"]["fields"]["userId"], "Only readers can belong to a firm");
}

async fn can_read(app: &TestApp, token: &str, article: &str) -> bool {
    let query = "query($id: ID!) { findPublishedArticleById(id: $id) { canSeeFullVersion html } }";
    let response = app.gql(Some(token), query, json!({ "id": article })).await;
    let full = response["data"]["findPublishedArticleById"]["canSeeFullVersion"].as_bool().unwrap_or_else(|| panic!("{response}"));
    assert_eq!(response.to_string().contains(MARKER), full, "the body goes with canSeeFullVersion: {response}");
    full
}

#[sqlx::test(migrations = "./migrations")]
async fn firm_subscriptions_go_through_the_state_machine_with_audit_rows(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Harbour Partners", &["harbour.example"]).await;
    let no_notes = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "nonCharge" })).await;
    assert_eq!(no_notes["errors"][0]["extensions"]["fields"]["notes"], "This field is required", "{no_notes}");
    let not_offered = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "free", "notes": "n" })).await;
    assert_eq!(error_code(&not_offered), Some("BAD_USER_INPUT"), "{not_offered}");
    let bad_seats = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "nonCharge", "notes": "n", "seats": 0 })).await;
    assert!(bad_seats["errors"][0]["extensions"]["fields"]["seats"].is_string(), "{bad_seats}");

    let end = (Utc::now() + Duration::days(90)).to_rfc3339();
    let created = w
        .gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "external", "billingMethod": "Invoice",
                             "seats": 2, "cancelAt": end, "pricePerMonth": "40.00", "priceBasis": "seat", "notes": "Pilot" }))
        .await;
    let subscription = &created["data"]["createFirmSubscription"];
    assert_eq!((subscription["subscriptionState"].as_str(), subscription["seats"].as_i64()), (Some("active"), Some(2)), "{created}");
    let id = subscription["_id"].as_str().unwrap().to_owned();
    let again = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "nonCharge", "notes": "n" })).await;
    assert_eq!(error_code(&again), Some("CONFLICT"), "one live subscription per firm and channel: {again}");

    // Two seats given; the subscription cannot shrink below them, and a stale edit is refused.
    let (_, ann) = app.signed_in_reader("ann@harbour.example").await;
    let (_, cy) = app.signed_in_reader("cy@harbour.example").await;
    for user in [&ann, &cy] {
        assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": id, "u": user })).await["data"]["assignFirmSeat"], true);
    }
    let change = format!("mutation($item: FirmSubscriptionInput!) {{ changeFirmSubscription(item: $item) {{ {SUBSCRIPTION} }} }}");
    let item = |version: i64, seats: i64| {
        json!({ "item": { "firmId": firm, "channelId": w.premium, "version": version, "subscriptionType": "external",
                          "billingMethod": "Invoice", "seats": seats, "cancelAt": end } })
    };
    let shrink = app.gql(Some(&w.admin), &change, item(1, 1)).await;
    assert_eq!(shrink["errors"][0]["extensions"]["fields"]["seats"], "2 seats are in use: take some back first", "{shrink}");
    let grown = app.gql(Some(&w.admin), &change, item(1, 5)).await;
    assert_eq!(grown["data"]["changeFirmSubscription"]["version"], 2, "{grown}");
    assert_eq!(error_code(&app.gql(Some(&w.admin), &change, item(1, 6)).await), Some("CONFLICT"));

    // Ending it at once frees its seats.
    let cancel = "mutation($f: ID!, $c: ID!, $v: Int!) { cancelFirmSubscription(firmId: $f, channelId: $c, version: $v) { subscriptionState seatsUsed } }";
    let ended = app.gql(Some(&w.admin), cancel, json!({ "f": firm, "c": w.premium, "v": 2 })).await;
    assert_eq!(ended["data"]["cancelFirmSubscription"], json!({ "subscriptionState": "canceled", "seatsUsed": 0 }), "{ended}");

    let audit: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
        "select route, action, from_state, to_state from subscription_audit where firm_id = $1 and user_id is null order by audit_id",
    )
    .bind(&firm)
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let actions: Vec<&str> = audit.iter().map(|(_, action, _, _)| action.as_str()).collect();
    assert_eq!(actions, ["grant", "change", "cancelImmediately"], "{audit:?}");
    assert!(audit.iter().all(|(route, ..)| route == "staff"));
    // The firm's administrators get the emails a reader would.
    w.make_admin(&firm, &ann).await;
    let renewed = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "nonCharge", "notes": "Renewed" })).await;
    assert_eq!(renewed["data"]["createFirmSubscription"]["subscriptionState"], "active", "an ended subscription is renewed: {renewed}");
    let emails: Vec<(String, String)> = sqlx::query_as("select kind, user_id from email_outbox where data->>'firmName' = 'Harbour Partners'")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(emails, [("welcome".to_owned(), ann.clone())], "{emails:?}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_seat_opens_the_channel_on_every_path_at_once_on_two_servers(pool: PgPool) {
    let w = world(pool.clone()).await;
    // A second server of the same deployment (the same issuer: its public address).
    let other = TestApp::spawn_with(pool, &["--public-url", &w.app.address]).await;
    let app = &w.app;
    let firm = w.add_firm("Delta Funds", &["delta.example"]).await;
    let subscription = w.subscribe_firm(&firm, Some(1)).await;
    let article = w.premium_article().await;
    let (reader, reader_id) = app.signed_in_reader("dee@delta.example").await;
    let search = "query($q: String) { searchArticles(params: { searchQuery: $q }) { totalCount } }";
    let card = "query($c: ID!) { channel(id: $c) { isCurrentUserSubscribed readerCard { action providedBy } } }";
    let recommended = "{ me { firmSeats { channelName firmName isActive } recommendedArticles(take: 9) { _id canSeeFullVersion } } }";

    let (servers, reader_ref, reader_id_ref, article_ref, premium) = ([app, &other], &reader, &reader_id, &article, &w.premium);
    let expect = |full: bool| async move {
        let (reader, reader_id, article) = (reader_ref, reader_id_ref, article_ref);
        for server in servers {
            assert_eq!(can_read(server, &reader, &article).await, full, "the article page");
            let found = server.gql(Some(&reader), search, json!({ "q": MARKER })).await;
            assert_eq!(found["data"]["searchArticles"]["totalCount"], if full { 1 } else { 0 }, "a body match: {found}");
            let shown = server.gql(Some(reader), card, json!({ "c": premium })).await;
            let channel = &shown["data"]["channel"];
            assert_eq!(channel["isCurrentUserSubscribed"], full, "{shown}");
            assert_eq!(channel["readerCard"]["providedBy"], if full { json!("Delta Funds") } else { Value::Null }, "{shown}");
            let me = server.gql(Some(&reader), recommended, json!({})).await;
            assert_eq!(me["data"]["me"]["firmSeats"].as_array().unwrap().len(), usize::from(full), "{me}");
            let cards = me["data"]["me"]["recommendedArticles"].as_array().unwrap();
            assert!(cards.iter().all(|c| c["_id"] != article.as_str() || c["canSeeFullVersion"] == full), "{me}");
        }
        // The new-article emails: a seat holder is told, with the full version.
        let mut conn = app.pool.acquire().await.unwrap();
        let told = insights::email::queries::notified_readers(&mut conn, premium, Utc::now()).await.unwrap();
        assert_eq!(told.iter().any(|r| r.user_id == *reader_id && r.is_full_article_content), full, "{told:?}");
    };
    expect(false).await;
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": reader_id })).await["data"]["assignFirmSeat"], true);
    expect(true).await;
    // The holder gives it back (no one else's seat is theirs to release).
    assert_eq!(other.gql(Some(&reader), RELEASE, json!({ "s": subscription, "u": reader_id })).await["data"]["releaseFirmSeat"], true);
    expect(false).await;
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": reader_id })).await["data"]["assignFirmSeat"], true);
    expect(true).await;
    // Staff take it back on the other server.
    assert_eq!(other.gql(Some(&w.admin), RELEASE, json!({ "s": subscription, "u": reader_id })).await["data"]["releaseFirmSeat"], true);
    expect(false).await;

    // A subscription that starts later gives nothing yet.
    sqlx::query("update firm_subscription set starts_at = now() + interval '2 days'").execute(&app.pool).await.unwrap();
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": reader_id })).await["data"]["assignFirmSeat"], true);
    assert!(!can_read(&other, &reader, &article).await, "not before its start");
}

#[sqlx::test(migrations = "./migrations")]
async fn concurrent_assignments_give_exactly_the_seats_there_are(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Crowded Bank", &["crowded.example"]).await;
    let subscription = w.subscribe_firm(&firm, Some(5)).await;
    let mut members = Vec::new();
    for i in 0..30 {
        members.push(app.signed_in_reader(&format!("reader{i}@crowded.example")).await.1);
    }
    let requests = members.iter().map(|user| app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": user })));
    let responses = futures_util::future::join_all(requests).await;
    let given = responses.iter().filter(|r| r["data"]["assignFirmSeat"] == true).count();
    let full: Vec<&Value> = responses.iter().filter(|r| error_code(r) == Some("BAD_USER_INPUT")).collect();
    assert_eq!((given, full.len()), (5, 25), "{responses:?}");
    assert!(full.iter().all(|r| r["errors"][0]["message"] == "All 5 seats are in use"), "{full:?}");
    let held: i64 = sqlx::query_scalar("select count(*) from firm_seat").fetch_one(&app.pool).await.unwrap();
    assert_eq!(held, 5);
    println!("concurrent seat test: 30 requests for 5 seats: {given} given, {} refused 'All 5 seats are in use'", full.len());

    // A freed seat can be given again at once.
    let holder: String = sqlx::query_scalar("select user_id from firm_seat limit 1").fetch_one(&app.pool).await.unwrap();
    assert_eq!(app.gql(Some(&w.admin), RELEASE, json!({ "s": subscription, "u": holder })).await["data"]["releaseFirmSeat"], true);
    let holders: Vec<String> = sqlx::query_scalar("select user_id from firm_seat").fetch_all(&app.pool).await.unwrap();
    let waiting: Vec<&String> = members.iter().filter(|m| **m != holder && !holders.contains(m)).collect();
    let next = waiting.iter().map(|user| app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": user })));
    let again = futures_util::future::join_all(next).await;
    assert_eq!(again.iter().filter(|r| r["data"]["assignFirmSeat"] == true).count(), 1, "{again:?}");
    // Giving a holder their seat again changes nothing, full or not.
    let repeat = app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": holders[0] })).await;
    assert_eq!(repeat["data"]["assignFirmSeat"], true, "{repeat}");
}

#[sqlx::test(migrations = "./migrations")]
async fn firm_administrators_act_on_their_own_firm_only(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let ours = w.add_firm("Ours", &["ours.example"]).await;
    let theirs = w.add_firm("Theirs", &["theirs.example"]).await;
    let our_subscription = w.subscribe_firm(&ours, Some(2)).await;
    let their_subscription = w.subscribe_firm(&theirs, Some(2)).await;
    let (admin, admin_id) = app.signed_in_reader("boss@ours.example").await;
    let (plain, plain_id) = app.signed_in_reader("plain@ours.example").await;
    let (_, their_reader) = app.signed_in_reader("them@theirs.example").await;
    w.make_admin(&ours, &admin_id).await;
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": their_subscription, "u": their_reader })).await["data"]["assignFirmSeat"], true);

    // Their own firm: every operation a firm administrator has works.
    let mine = app.gql(Some(&admin), &format!("{{ myFirm {{ {FIRM} readers {{ total readers {{ user {{ email }} isAdmin }} }} subscriptions {{ _id }} }} }}"), json!({})).await;
    assert_eq!(mine["data"]["myFirm"]["readers"]["total"], 2, "{mine}");
    assert_eq!(mine["data"]["myFirm"]["name"], "Ours");
    assert_eq!(app.gql(Some(&admin), ASSIGN, json!({ "s": our_subscription, "u": plain_id })).await["data"]["assignFirmSeat"], true);
    let seats = "query($f: ID!, $c: ID!) { firmSeats(firmId: $f, channelId: $c) { subscription { seatsUsed seats } holders { user { email } } } }";
    let ours_seats = app.gql(Some(&admin), seats, json!({ "f": ours, "c": w.premium })).await;
    assert_eq!(ours_seats["data"]["firmSeats"]["holders"][0]["user"]["email"], "plain@ours.example", "{ours_seats}");
    let not_member = app.gql(Some(&admin), ASSIGN, json!({ "s": our_subscription, "u": their_reader })).await;
    assert_eq!(not_member["errors"][0]["extensions"]["fields"]["userId"], "This reader is not a member of the firm", "{not_member}");
    let notes = app.gql(Some(&admin), "{ myFirm { notes } }", json!({})).await;
    assert_eq!(error_code(&notes), Some("FORBIDDEN"), "staff's notes are not the firm's: {notes}");

    // The other firm, and staff operations: refused, and the other firm's seat stays.
    let readership = "query($f: ID!) { firmReadership(firmId: $f) { channels { readers } } }";
    let invite = "mutation($e: String!) { inviteToFirm(email: $e) }";
    let refused: Vec<(&str, Value)> = vec![
        ("findFirmById", app.gql(Some(&admin), "query($id: ID!) { findFirmById(id: $id) { _id } }", json!({ "id": theirs })).await),
        ("firmSeats", app.gql(Some(&admin), seats, json!({ "f": theirs, "c": w.premium })).await),
        ("firmReadership", app.gql(Some(&admin), readership, json!({ "f": theirs })).await),
        ("assignFirmSeat", app.gql(Some(&admin), ASSIGN, json!({ "s": their_subscription, "u": their_reader })).await),
        ("releaseFirmSeat", app.gql(Some(&admin), RELEASE, json!({ "s": their_subscription, "u": their_reader })).await),
        ("firms", app.gql(Some(&admin), "{ firms { total } }", json!({})).await),
        ("addFirm", app.gql(Some(&admin), ADD_FIRM, json!({ "item": { "name": "Mine", "billingMethod": "card" } })).await),
        (
            "addFirmMember",
            app.gql(Some(&admin), "mutation($f: ID!, $u: ID!) { addFirmMember(firmId: $f, userId: $u) { _id } }", json!({ "f": ours, "u": their_reader })).await,
        ),
        (
            "setFirmAdmin",
            app.gql(Some(&admin), "mutation($f: ID!, $u: ID!) { setFirmAdmin(firmId: $f, userId: $u, isAdmin: true) { _id } }", json!({ "f": ours, "u": plain_id })).await,
        ),
        (
            "createFirmSubscription",
            app.gql(
                Some(&admin),
                "mutation($item: FirmSubscriptionInput!) { createFirmSubscription(item: $item) { _id } }",
                json!({ "item": { "firmId": ours, "channelId": w.premium, "subscriptionType": "nonCharge", "notes": "n" } }),
            )
            .await,
        ),
    ];
    for (operation, response) in &refused {
        assert_eq!(error_code(response), Some("FORBIDDEN"), "{operation} across firms or beyond a firm administrator: {response}");
    }
    // A plain reader of the firm: nothing of the firm's administration.
    let plain_refused = [
        ("myFirm", app.gql(Some(&plain), "{ myFirm { _id } }", json!({})).await),
        ("findFirmById", app.gql(Some(&plain), "query($id: ID!) { findFirmById(id: $id) { _id } }", json!({ "id": ours })).await),
        ("firmSeats", app.gql(Some(&plain), seats, json!({ "f": ours, "c": w.premium })).await),
        ("firmReadership", app.gql(Some(&plain), readership, json!({ "f": ours })).await),
        ("assignFirmSeat", app.gql(Some(&plain), ASSIGN, json!({ "s": our_subscription, "u": admin_id })).await),
        ("releaseFirmSeat of another", app.gql(Some(&plain), RELEASE, json!({ "s": their_subscription, "u": their_reader })).await),
        ("inviteToFirm", app.gql(Some(&plain), invite, json!({ "e": "new@ours.example" })).await),
        ("setFirmUsageEmail", app.gql(Some(&plain), "mutation { setFirmUsageEmail(on: true) }", json!({})).await),
    ];
    for (operation, response) in &plain_refused {
        assert_eq!(error_code(response), Some("FORBIDDEN"), "{operation} as a plain reader: {response}");
    }
    let still: i64 = sqlx::query_scalar("select count(*) from firm_seat where user_id = $1").bind(&their_reader).fetch_one(&app.pool).await.unwrap();
    assert_eq!(still, 1, "the other firm's seat is untouched");
    assert_eq!(my_firm(app, &plain).await, json!({ "_id": ours, "name": "Ours", "isAdmin": false }));
}

#[sqlx::test(migrations = "./migrations")]
async fn an_invited_colleague_joins_at_first_sign_in(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Quay Asset Management", &["quay.example"]).await;
    let other = w.add_firm("Other Bank", &["otherbank.example"]).await;
    let (admin, admin_id) = app.signed_in_reader("head@quay.example").await;
    w.make_admin(&firm, &admin_id).await;
    let invite = "mutation($e: String!) { inviteToFirm(email: $e) }";
    let bad = app.gql(Some(&admin), invite, json!({ "e": "not an address" })).await;
    assert_eq!(bad["errors"][0]["extensions"]["fields"]["email"], "Email should be valid", "{bad}");
    let elsewhere = app.gql(Some(&admin), invite, json!({ "e": "x@otherbank.example" })).await;
    assert_eq!(elsewhere["errors"][0]["extensions"]["fields"]["email"], "This address belongs to Other Bank", "{elsewhere}");
    // A consultant with a personal address is invited: the invitation is emailed through the outbox.
    let sent = app.gql(Some(&admin), invite, json!({ "e": "Consultant@Gmail.com" })).await;
    assert_eq!(sent["data"]["inviteToFirm"], true, "{sent}");
    let (recipient, data): (String, Value) =
        sqlx::query_as("select recipient, data from email_outbox where kind = 'firmInvitation'").fetch_one(&app.pool).await.unwrap();
    assert_eq!(recipient.to_lowercase(), "consultant@gmail.com");
    assert_eq!(data["firmName"], "Quay Asset Management");
    // It waits in the firm's pending invitations until taken up; one sent by mistake is withdrawn.
    let pending = "{ myFirm { pendingInvitations { email invitedByName } } }";
    assert_eq!(app.gql(Some(&admin), invite, json!({ "e": "wrong@example.net" })).await["data"]["inviteToFirm"], true);
    let listed = app.gql(Some(&admin), pending, json!({})).await;
    assert_eq!(listed["data"]["myFirm"]["pendingInvitations"].as_array().map(Vec::len), Some(2), "{listed}");
    let withdraw = "mutation($f: ID!, $e: String!) { withdrawFirmInvitation(firmId: $f, email: $e) }";
    let (outsider, _) = app.signed_in_reader("someone@example.org").await;
    let refused = app.gql(Some(&outsider), withdraw, json!({ "f": firm, "e": "wrong@example.net" })).await;
    assert_eq!(error_code(&refused), Some("FORBIDDEN"), "{refused}");
    assert_eq!(app.gql(Some(&admin), withdraw, json!({ "f": firm, "e": "WRONG@example.net" })).await["data"]["withdrawFirmInvitation"], true);
    let (wrong, _) = app.signed_in_reader("wrong@example.net").await;
    assert_eq!(my_firm(app, &wrong).await, Value::Null, "a withdrawn invitation is not taken up");

    let (consultant, _) = app.signed_in_reader("consultant@gmail.com").await;
    assert_eq!(my_firm(app, &consultant).await["name"], "Quay Asset Management");
    let listed = app.gql(Some(&w.admin), &format!("{{ findFirmById(id: \"{firm}\") {{ pendingInvitations {{ email }} }} }}"), json!({})).await;
    assert_eq!(listed["data"]["findFirmById"]["pendingInvitations"], json!([]), "taken up: {listed}");
    let joined: String = sqlx::query_scalar("select joined_by from firm_member m join users u using (user_id) where u.email = 'consultant@gmail.com'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(joined, "invitation");
    assert_eq!(w.firm(&w.admin, &other).await["data"]["findFirmById"]["readerCount"], 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_sweep_ends_firm_subscriptions_frees_their_seats_and_tells_the_firm_admins(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Sunset Capital", &["sunset.example"]).await;
    let (admin, admin_id) = app.signed_in_reader("cfo@sunset.example").await;
    w.make_admin(&firm, &admin_id).await;
    let trial = w.gql_create(&json!({ "firmId": firm, "channelId": w.premium, "subscriptionType": "trial", "trialDuration": 7,
                                      "seats": 2, "notes": "Trial for the desk" }))
        .await;
    let subscription = trial["data"]["createFirmSubscription"]["_id"].as_str().unwrap_or_else(|| panic!("{trial}")).to_owned();
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": admin_id })).await["data"]["assignFirmSeat"], true);
    let article = w.premium_article().await;
    assert!(can_read(app, &admin, &article).await);

    let jobs = app.state.jobs.as_ref();
    let report = insights::subscriptions::expiry::sweep(&app.pool, jobs, Utc::now() + Duration::days(6)).await.unwrap();
    assert_eq!(report.reminders, 1, "the trial-ending reminder goes to the firm's administrator");
    let report = insights::subscriptions::expiry::sweep(&app.pool, jobs, Utc::now() + Duration::days(9)).await.unwrap();
    assert_eq!(report.ended, 1);
    let state: (String, i64) = sqlx::query_as(
        "select subscription_state, (select count(*) from firm_seat s where s.firm_subscription_id = f.firm_subscription_id)
         from firm_subscription f",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(state, ("expired".to_owned(), 0));
    let kinds: Vec<String> = sqlx::query_scalar("select kind from email_outbox where user_id = $1 and data ? 'firmName' order by email_id")
        .bind(&admin_id)
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(kinds, ["welcome", "trialEnding", "trialEnded"]);
    assert!(!can_read(app, &admin, &article).await);
    let again = insights::subscriptions::expiry::sweep(&app.pool, jobs, Utc::now() + Duration::days(9)).await.unwrap();
    assert_eq!(again.ended, 0, "ended once");
}

#[sqlx::test(migrations = "./migrations")]
async fn readership_counts_a_firms_reading_per_channel_and_month(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Tally Bank", &["tally.example"]).await;
    let article = w.premium_article().await;
    let (_, ann) = app.signed_in_reader("ann@tally.example").await;
    let (_, bo) = app.signed_in_reader("bo@tally.example").await;
    let (_, outsider) = app.signed_in_reader("out@elsewhere.example").await;
    for (user, kind, session) in [(&ann, "full", "s1"), (&ann, "full", "s2"), (&bo, "preview", "s3"), (&outsider, "full", "s4")] {
        sqlx::query("insert into article_view_event (article_id, user_id, session_id, kind, view_type) values ($1, $2, $3, $4, 'article')")
            .bind(&article)
            .bind(user)
            .bind(session)
            .bind(kind)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let query = "query($f: ID!) { firmReadership(firmId: $f) { channels { channelName readers fullReads previews articlesRead }
                  reads { user { email } fullReads previews } } }";
    let response = app.gql(Some(&w.admin), query, json!({ "f": firm })).await;
    let readership = &response["data"]["firmReadership"];
    assert_eq!(
        readership["channels"],
        json!([{ "channelName": "Metals Premium", "readers": 2, "fullReads": 2, "previews": 1, "articlesRead": 1 }]),
        "{response}"
    );
    assert_eq!(readership["reads"].as_array().unwrap().len(), 2, "the outsider is not the firm's: {response}");
}

#[sqlx::test(migrations = "./migrations")]
async fn firms_import_from_csv_once_with_refused_rows_reported(pool: PgPool) {
    use insights::firms::import::{FirmsImport, import_firms};
    let w = world(pool).await;
    let app = &w.app;
    w.add_firm("Existing Bank", &["existing.example"]).await;
    let (reader, _) = app.signed_in_reader("pat@north.example").await;
    let dir = std::env::temp_dir().join(format!("firms-import-{}", insights::ids::new_id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("firms.csv");
    let csv = "\u{feff}Name,Domains,Account number\r\n\
               North Capital,\"north.example; north-capital.example\",ACC-100\r\n\
               South Fund,south.example,\r\n\
               \"Bank, West\",west.example west-bank.example,ACC-200\r\n\
               =EVIL(),gmail.com,\r\n\
               south fund,other.example,\r\n\
               Thief,existing.example,\r\n\
               Existing Bank,existing-bank.example,ACC-300\r\n\
               ,nameless.example,\r\n";
    std::fs::write(&file, csv).unwrap();
    let progress_calls = std::sync::Mutex::new(Vec::new());
    let progress = |done: u64, total: u64| progress_calls.lock().unwrap().push((done, total));

    let dry = import_firms(&app.pool, &FirmsImport { dry_run: true, ..FirmsImport::new(&file) }, &progress).await.unwrap();
    assert_eq!(dry.summary.added, 3);
    let count = || async { sqlx::query_scalar::<_, i64>("select count(*) from firm").fetch_one(&app.pool).await.unwrap() };
    assert_eq!(count().await, 1, "a dry run writes nothing");

    let report = import_firms(&app.pool, &FirmsImport::new(&file), &progress).await.unwrap();
    let s = report.summary;
    assert_eq!((s.rows, s.added, s.updated, s.refused, s.domains_added, s.readers_joined), (8, 3, 1, 4, 6, 1), "{s:?}");
    assert_eq!(count().await, 4);
    assert_eq!(my_firm(app, &reader).await["name"], "North Capital", "a reader at a new domain joins");
    let reasons: Vec<(u64, String)> = report.refused.iter().map(|r| (r.line, r.reason.clone())).collect();
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    assert!(reasons[0].1.contains("public mail service") && reasons[1].1.contains("line 3") && reasons[2].1.contains("another firm"), "{reasons:?}");
    assert_eq!(reasons[3].1, "no name");
    let errors = std::fs::read_to_string(report.error_report.as_ref().unwrap()).unwrap();
    assert!(errors.contains("'=EVIL(),gmail.com"), "formula-like cells are escaped: {errors}");
    let existing: (Option<String>, i64) = sqlx::query_as(
        "select f.account_number, (select count(*) from firm_domain d where d.firm_id = f.firm_id) from firm f where f.name = 'Existing Bank'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(existing, (Some("ACC-300".to_owned()), 2), "an existing firm gains the file's domain and account number");
    let west: Vec<String> = sqlx::query_scalar("select d.domain from firm_domain d join firm f using (firm_id) where f.name = 'Bank, West' order by 1")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(west, ["west-bank.example", "west.example"]);
    assert_eq!(progress_calls.lock().unwrap().last(), Some(&(8, 8)));

    // Again: nothing changes.
    let again = import_firms(&app.pool, &FirmsImport::new(&file), &progress).await.unwrap();
    assert_eq!((again.summary.added, again.summary.updated, again.summary.unchanged), (0, 0, 4), "{:?}", again.summary);
    assert_eq!(count().await, 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[sqlx::test(migrations = "./migrations")]
async fn the_readership_export_is_for_staff_and_the_firms_own_administrators(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Export Bank", &["export.example"]).await;
    let other = w.add_firm("Other Export", &["other-export.example"]).await;
    let article = w.premium_article().await;
    let (admin, admin_id) = app.signed_in_reader("=boss@export.example").await;
    w.make_admin(&firm, &admin_id).await;
    sqlx::query("insert into article_view_event (article_id, user_id, session_id, kind, view_type) values ($1, $2, 's', 'full', 'article')")
        .bind(&article)
        .bind(&admin_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let get = |token: String, id: String| async move {
        app.client.get(app.url(&format!("/export/firms/{id}/readership.csv"))).bearer_auth(token).send().await.unwrap()
    };
    let staff = get(w.admin.clone(), firm.clone()).await;
    assert_eq!(staff.status(), 200);
    assert_eq!(staff.headers()["content-type"], "text/csv; charset=utf-8");
    let body = staff.bytes().await.unwrap();
    assert!(body.starts_with(b"\xef\xbb\xbfMonth,Channel,Reader,Email,Article"), "{body:?}");
    let text = String::from_utf8_lossy(&body);
    assert!(text.contains("Metals Premium") && text.contains("'=boss@export.example") && text.contains("Copper forecast"), "{text}");
    assert_eq!(get(admin.clone(), firm.clone()).await.status(), 200, "the firm's administrator downloads their own");
    assert_eq!(get(admin.clone(), other.clone()).await.status(), 403, "not another firm's");
    let (plain, _) = app.signed_in_reader("plain@export.example").await;
    assert_eq!(get(plain, firm.clone()).await.status(), 403);
    let anonymous = app.client.get(app.url(&format!("/export/firms/{firm}/readership.csv"))).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_channels_subscriber_lists_show_firm_seats_and_its_firms_view_the_seats(pool: PgPool) {
    let w = world(pool).await;
    let app = &w.app;
    let firm = w.add_firm("Kestrel Partners", &["kestrel.example"]).await;
    let subscription = w.subscribe_firm(&firm, Some(3)).await;
    let (seated_token, seated) = app.signed_in_reader("seated@kestrel.example").await;
    let (_, own) = app.signed_in_reader("own@kestrel.example").await;
    app.subscribe(&w.premium, &own, "account", "active", None, true).await;
    assert_eq!(app.gql(Some(&w.admin), ASSIGN, json!({ "s": subscription, "u": seated })).await["data"]["assignFirmSeat"], true);

    let list = "query($c: ID!, $v: SubscriberView!) { channelSubscribedUsers(channelId: $c, view: $v) {
        total users { _id firmName holdsFirmSeat channelSubscription { subscriptionType } } } }";
    let seats = app.gql(Some(&w.admin), list, json!({ "c": w.premium, "v": "FirmSeats" })).await;
    assert_eq!(
        seats["data"]["channelSubscribedUsers"],
        json!({ "total": 1, "users": [{ "_id": seated, "firmName": "Kestrel Partners", "holdsFirmSeat": true, "channelSubscription": null }] }),
        "{seats}"
    );
    let all = app.gql(Some(&w.admin), list, json!({ "c": w.premium, "v": "All" })).await;
    assert_eq!(
        all["data"]["channelSubscribedUsers"]["users"],
        json!([{ "_id": own, "firmName": "Kestrel Partners", "holdsFirmSeat": false, "channelSubscription": { "subscriptionType": "account" } }]),
        "{all}"
    );
    let counts = app.gql(Some(&w.admin), "query($c: ID!) { subscriberViewCounts(channelId: $c) { view count } }", json!({ "c": w.premium })).await;
    let counts = counts["data"]["subscriberViewCounts"].as_array().unwrap().clone();
    assert!(counts.contains(&json!({ "view": "FirmSeats", "count": 1 })) && counts.contains(&json!({ "view": "All", "count": 1 })), "{counts:?}");

    // The seat holder sets the channel's emails with the reader's own mutations: the seat changes,
    // and with no subscription of their own the answer is null (no error).
    let toggle = "mutation($c: ID!) { setPremiumChannelEmailNotificationSettings(channelId: $c, enabled: false) { channelId } }";
    let toggled = app.gql(Some(&seated_token), toggle, json!({ "c": w.premium })).await;
    assert_eq!(toggled, json!({ "data": { "setPremiumChannelEmailNotificationSettings": null } }), "{toggled}");
    let daily = "mutation($c: ID!) { changeEmailPreference(channelId: $c, frequency: daily) { channelId } }";
    let changed = app.gql(Some(&seated_token), daily, json!({ "c": w.premium })).await;
    assert_eq!(changed, json!({ "data": { "changeEmailPreference": null } }), "{changed}");
    let seat = app.gql(Some(&seated_token), "{ me { firmSeats { emailNotifications emailFrequency } } }", json!({})).await;
    assert_eq!(seat["data"]["me"]["firmSeats"], json!([{ "emailNotifications": false, "emailFrequency": "daily" }]), "{seat}");

    // The channel's firms view: seats held and used; staff who do not manage the channel are refused.
    let firms = "query($c: ID!) { channelFirmSubscriptions(channelId: $c) { firmName seats seatsUsed isActive } }";
    let shown = app.gql(Some(&w.admin), firms, json!({ "c": w.premium })).await;
    assert_eq!(
        shown["data"]["channelFirmSubscriptions"],
        json!([{ "firmName": "Kestrel Partners", "seats": 3, "seatsUsed": 1, "isActive": true }]),
        "{shown}"
    );
    assert_eq!(error_code(&app.gql(Some(&w.editor), firms, json!({ "c": w.premium })).await), Some("FORBIDDEN"));
    let (reader, _) = app.signed_in_reader("plain@elsewhere.example").await;
    assert_eq!(error_code(&app.gql(Some(&reader), firms, json!({ "c": w.premium })).await), Some("FORBIDDEN"));
}
