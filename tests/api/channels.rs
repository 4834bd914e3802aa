//! Channels: the rules of adding and editing, roles and per-channel admins, the list (filters,
//! search, counts, paging), archiving and the archive routine the CLI shares, images, and
//! `me.channelsToPublish`.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    factories::ADD_CHANNEL,
    uploads::{GIF, PNG, spawn, upload_name},
};

const EDIT: &str = "mutation($item: ChannelInput!) { editChannel(item: $item) { _id name version description price adminUsers { _id } } }";
const ARCHIVE: &str = "mutation($id: ID!) { archiveChannel(id: $id) { _id state canEdit } }";
const LIST: &str = "query($params: ChannelListParams) { channels(params: $params) { total items { _id name type state canEdit price articleCount archivedArticleCount templateCount channelActiveUsersCount owner { _id name type } } } }";

/// An app, an administrator's token and a desk with the administrator in it.
struct World {
    app: TestApp,
    admin: String,
    admin_id: String,
    desk: String,
}

async fn world(pool: PgPool) -> World {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Energy desk", &[&admin_id]).await;
    World { app, admin, admin_id, desk }
}

fn fields(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["fields"]
}

async fn list(app: &TestApp, token: &str, params: Value) -> Value {
    let response = app.gql(Some(token), LIST, json!({ "params": params })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["channels"].clone()
}

fn names(page: &Value) -> Vec<&str> {
    page["items"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn channel_fields_are_checked_with_the_spec_messages(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let add = |item: Value| app.gql(Some(&admin), ADD_CHANNEL, json!({ "item": item }));

    let mut item = TestApp::premium_channel(" ", &desk, &[]);
    item["price"] = json!(null);
    item["glAccount"] = json!(null);
    let missing = add(item).await;
    assert_eq!(error_code(&missing), Some("BAD_USER_INPUT"));
    assert_eq!(
        fields(&missing),
        &json!({ "name": "This field is required", "price": "This field is required", "glAccount": "This field is required" })
    );

    let mut item = TestApp::premium_channel(&"n".repeat(101), &desk, &[]);
    item["description"] = json!("d".repeat(251));
    item["url"] = json!("u".repeat(101));
    item["glAccount"] = json!("g".repeat(33));
    item["price"] = json!("-5");
    item["defaultTrialDurationDays"] = json!(101);
    let long = add(item).await;
    assert_eq!(
        fields(&long),
        &json!({
            "name": "Maximum 100 characters", "description": "Maximum 250 characters", "url": "Maximum 100 characters",
            "glAccount": "Maximum 32 chars", "price": "Invalid price format",
            "defaultTrialDurationDays": "Enter a whole number of days from 1 to 100",
        })
    );
    // Spec 1 §5: up to 18 digits, at most 2 decimals, as the web app's form accepts (issue 36).
    for bad_price in ["49.999", "+3", "1,50", "abc", "1234567890123456789", "1234567890123456789.00"] {
        let mut item = TestApp::premium_channel("Priced", &desk, &[]);
        item["price"] = json!(bad_price);
        assert_eq!(fields(&add(item).await)["price"], "Invalid price format", "{bad_price}");
    }
    let mut item = TestApp::premium_channel("Eighteen digits", &desk, &[]);
    item["price"] = json!("123456789012345678.9");
    let long_price = add(item).await;
    assert_eq!(long_price["data"]["addChannel"]["price"], "123456789012345678.90", "stored exactly: {long_price}");

    // Free channels need neither price nor GL account, and keep no price.
    let free = add(json!({ "name": "Open letters", "type": "freeOpen", "ownerType": "desk", "ownerId": desk, "adminUsers": [], "price": "10" })).await;
    assert_eq!(free["data"]["addChannel"]["price"], Value::Null, "{free}");
    // The creator is an admin of a new channel; an edit must keep at least one admin.
    let free_id = free["data"]["addChannel"]["_id"].as_str().unwrap();
    let no_admins = json!({ "_id": free_id, "version": 1, "name": "Open letters", "type": "freeOpen", "ownerType": "desk", "ownerId": desk, "adminUsers": [] });
    assert_eq!(fields(&app.gql(Some(&admin), EDIT, json!({ "item": no_admins })).await), &json!({ "adminUsers": "This field is required" }));

    let premium = add(TestApp::premium_channel("Oil & Gas Premium", &desk, &[])).await;
    assert_eq!(premium["data"]["addChannel"]["price"], "49.50", "stored with two decimals: {premium}");
    assert_eq!(premium["data"]["addChannel"]["glAccount"], "GL-4410");
    let duplicate = add(TestApp::premium_channel(" oil & gas premium ", &desk, &[])).await;
    assert_eq!(error_code(&duplicate), Some("DUPLICATE"));
    assert_eq!(duplicate["errors"][0]["message"], "Cannot insert item due to name duplication");
}

#[sqlx::test(migrations = "./migrations")]
async fn owners_and_admins_must_exist_and_be_eligible(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let add = |item: Value| app.gql(Some(&admin), ADD_CHANNEL, json!({ "item": item }));
    let missing_desk = add(TestApp::premium_channel("A", &insights::ids::new_id(), &[])).await;
    assert_eq!(error_code(&missing_desk), Some("NOT_FOUND"));
    assert_eq!(error_code(&add(TestApp::premium_channel("A", "not-an-id", &[])).await), Some("NOT_FOUND"));

    // A reader can neither own a channel as a contributor nor administer one.
    let reader = app.token(TestRole::Subscriber).await;
    let reader_id = app.user_id(&reader).await;
    let mut item = TestApp::premium_channel("A", &reader_id, &[]);
    item["ownerType"] = json!("contributor");
    assert_eq!(error_code(&add(item).await), Some("NOT_FOUND"));
    let with_reader_admin = add(TestApp::premium_channel("A", &desk, &[&reader_id])).await;
    assert_eq!(fields(&with_reader_admin)["adminUsers"], "Choose admins among the staff users");

    let contributor = app.token(TestRole::Contributor).await;
    let contributor_id = app.user_id(&contributor).await;
    let mut item = TestApp::premium_channel("Owned by a contributor", &contributor_id, &[&contributor_id]);
    item["ownerType"] = json!("contributor");
    let owned = add(item).await;
    assert_eq!(owned["data"]["addChannel"]["owner"], json!({ "_id": contributor_id, "name": "Test User", "type": "contributor" }), "{owned}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_creator_is_always_an_admin_and_type_and_owner_never_change(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let added = app.gql(Some(&editor), ADD_CHANNEL, json!({ "item": TestApp::premium_channel("Metals", &desk, &[]) })).await;
    let channel = &added["data"]["addChannel"];
    assert_eq!(channel["adminUsers"], json!([{ "_id": editor_id }]), "{added}");
    assert_eq!(channel["canEdit"], true);
    let id = channel["_id"].as_str().unwrap();

    let mut item = TestApp::premium_channel("Metals", &desk, &[&editor_id]);
    item["_id"] = json!(id);
    item["version"] = json!(1);
    item["type"] = json!("freeClosed");
    let retyped = app.gql(Some(&editor), EDIT, json!({ "item": item })).await;
    assert_eq!(fields(&retyped), &json!({ "type": "The type of a channel cannot be changed" }));

    let other_desk = app.add_desk(&admin, "Metals desk", &[&editor_id]).await;
    let mut item = TestApp::premium_channel("Metals", &other_desk, &[&editor_id]);
    item["_id"] = json!(id);
    item["version"] = json!(1);
    let reowned = app.gql(Some(&editor), EDIT, json!({ "item": item })).await;
    assert_eq!(fields(&reowned), &json!({ "ownerId": "The owner of a channel cannot be changed" }));

    let mut item = TestApp::premium_channel("Metals & Mining", &desk, &[&editor_id]);
    item["_id"] = json!(id);
    item["version"] = json!(1);
    item["price"] = json!("60");
    let edited = app.gql(Some(&editor), EDIT, json!({ "item": item.clone() })).await;
    assert_eq!(edited["data"]["editChannel"]["version"], 2, "{edited}");
    assert_eq!(edited["data"]["editChannel"]["price"], "60.00");
    let stale = app.gql(Some(&editor), EDIT, json!({ "item": item })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"));
    let name: String = sqlx::query_scalar("select name from channel where channel_id = $1").bind(id).fetch_one(&app.pool).await.unwrap();
    assert_eq!(name, "Metals & Mining", "the stale edit changed nothing");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_administrators_and_the_channels_editor_admins_change_it(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let id = app.add_channel(&admin, TestApp::premium_channel("Rates", &desk, &[])).await;
    let mut item = TestApp::premium_channel("Rates weekly", &desk, &[]);
    item["_id"] = json!(id);
    item["version"] = json!(1);
    let admin_id = app.user_id(&admin).await;
    item["adminUsers"] = json!([admin_id]);

    // An Editor who is not one of its admins: FORBIDDEN for edit and archive, and canEdit false.
    let editor = app.token(TestRole::Editor).await;
    let edit = app.gql(Some(&editor), EDIT, json!({ "item": item.clone() })).await;
    assert_eq!(error_code(&edit), Some("FORBIDDEN"), "{edit}");
    // Whatever the input: permission is checked before the fields.
    let mut invalid = item.clone();
    invalid["name"] = json!("");
    invalid["version"] = Value::Null;
    invalid["profileImage"] = json!("../never-uploaded.png");
    let contributor = app.token(TestRole::Contributor).await;
    for token in [&editor, &contributor] {
        let edit = app.gql(Some(token), EDIT, json!({ "item": invalid.clone() })).await;
        assert_eq!(error_code(&edit), Some("FORBIDDEN"), "{edit}");
    }
    assert_eq!(error_code(&app.gql(Some(&editor), ARCHIVE, json!({ "id": id })).await), Some("FORBIDDEN"));
    let seen = list(&app, &editor, json!({})).await;
    assert_eq!(seen["items"][0]["canEdit"], false);

    // A Contributor may list but not add; readers may not list.
    let contributor = app.token(TestRole::Contributor).await;
    assert_eq!(list(&app, &contributor, json!({})).await["total"], 1);
    let added = app.gql(Some(&contributor), ADD_CHANNEL, json!({ "item": TestApp::premium_channel("Mine", &desk, &[]) })).await;
    assert_eq!(error_code(&added), Some("FORBIDDEN"));
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(error_code(&app.gql(Some(&reader), LIST, json!({})).await), Some("FORBIDDEN"));
    // Readers may read a channel, without its billing and admin details.
    let read = app.gql(Some(&reader), "query($id: ID!) { channel(id: $id) { name glAccount canEdit adminUsers { _id } } }", json!({ "id": id })).await;
    assert_eq!(read["data"]["channel"], json!({ "name": "Rates", "glAccount": null, "canEdit": false, "adminUsers": [] }), "{read}");
    assert_eq!(error_code(&app.gql(Some(&reader), EDIT, json!({ "item": item.clone() })).await), Some("FORBIDDEN"));

    // Made an admin, the Editor may edit; the Administrator may edit any channel.
    let editor_id = app.user_id(&editor).await;
    item["adminUsers"] = json!([admin_id, editor_id]);
    let by_admin = app.gql(Some(&admin), EDIT, json!({ "item": item.clone() })).await;
    assert_eq!(by_admin["data"]["editChannel"]["version"], 2, "{by_admin}");
    item["version"] = json!(2);
    item["description"] = json!("Edited by an admin editor");
    let by_editor = app.gql(Some(&editor), EDIT, json!({ "item": item })).await;
    assert_eq!(by_editor["data"]["editChannel"]["description"], "Edited by an admin editor", "{by_editor}");
}

#[sqlx::test(migrations = "./migrations")]
async fn reader_channel_lists_are_kept_and_show_each_change_at_once(pool: PgPool) {
    let World { app, admin, admin_id, desk } = world(pool).await;
    let app = &app;
    let id = app.add_channel(&admin, TestApp::premium_channel("Rates", &desk, &[])).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let premium = "{ premiumChannels { _id name description owner { name } createdBy { name } } }";
    // Read by the Editor: the administrator's next request would sign them in again, with their name.
    let premium_channels = || async {
        let response = app.gql(Some(&editor), premium, json!({})).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        response["data"]["premiumChannels"].clone()
    };
    let can_edit = || async {
        let response = app.gql(Some(&editor), "query($id: ID!) { channel(id: $id) { canEdit } }", json!({ "id": id })).await;
        response["data"]["channel"]["canEdit"].clone()
    };
    assert_eq!(premium_channels().await[0]["owner"]["name"], "Energy desk");
    assert_eq!(can_edit().await, false);

    // Served from memory: a description changed behind the channels' revision's back is not seen...
    app.sql("alter table channel disable trigger channels_revision_channel").await;
    app.sql_with("update channel set description = 'Changed unseen' where channel_id = $1", &id).await;
    app.sql("alter table channel enable trigger channels_revision_channel").await;
    assert_eq!(premium_channels().await[0]["description"], "Research for paying clients", "the kept channels");

    // ...and each change a channel shows is seen at once: its owner desk's name,
    app.sql_with("update desk set name = 'Power desk' where desk_id = $1", &desk).await;
    let now = premium_channels().await;
    assert_eq!((&now[0]["owner"]["name"], &now[0]["description"]), (&json!("Power desk"), &json!("Changed unseen")));
    // its creator's name,
    app.sql_with("update users set name = 'Renamed Admin' where user_id = $1", &admin_id).await;
    assert_eq!(premium_channels().await[0]["createdBy"]["name"], "Renamed Admin");
    // its admins (the Editor made one may now edit it),
    sqlx::query("insert into channel_admin (channel_id, user_id) values ($1, $2)")
        .bind(&id)
        .bind(&editor_id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(can_edit().await, true);
    // a new channel, and an archived one gone.
    let other = app.add_channel(&admin, TestApp::premium_channel("Base metals", &desk, &[])).await;
    let names = |channels: Value| channels.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    assert_eq!(names(premium_channels().await), ["Base metals", "Rates"], "by name");
    assert_eq!(app.gql(Some(&admin), ARCHIVE, json!({ "id": other })).await["errors"], Value::Null);
    assert_eq!(names(premium_channels().await), ["Rates"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn readers_get_a_few_channels_picked_at_random_by_seed_with_those_they_hold_last(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let app = &app;
    let mut premium = Vec::new();
    for name in ["Coal", "Gas", "Metals", "Oil", "Power", "Rates"] {
        premium.push(app.add_channel(&admin, TestApp::premium_channel(name, &desk, &[])).await);
    }
    let free = json!({ "name": "Energy news", "description": "Free for all", "type": "freeOpen", "ownerType": "desk", "ownerId": desk, "adminUsers": [] });
    app.add_channel(&admin, free).await;
    let archived = app.add_channel(&admin, TestApp::premium_channel("Archived", &desk, &[])).await;
    assert_eq!(app.gql(Some(&admin), ARCHIVE, json!({ "id": archived })).await["errors"], Value::Null);
    // The reader holds Coal (active) and Gas (asked for); Metals ended, so it is not held.
    let reader = app.token(TestRole::Subscriber).await;
    let reader_id = app.user_id(&reader).await;
    app.insert_subscription(&premium[0], &reader_id, "active", None).await;
    app.insert_subscription(&premium[1], &reader_id, "pending", None).await;
    app.insert_subscription(&premium[2], &reader_id, "expired", None).await;
    let reader = &reader;

    const PICK: &str = "query($pick: RandomPick) { premiumChannels(pick: $pick) { name } freeChannels(pick: $pick) { name } }";
    let pick = |count: i32, seed: f64| async move {
        let response = app.gql(Some(reader), PICK, json!({ "pick": { "count": count, "seed": seed } })).await;
        assert_eq!(response["errors"], Value::Null, "{response}");
        let names = |list: &Value| list.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        (names(&response["data"]["premiumChannels"]), names(&response["data"]["freeChannels"]))
    };

    // Four premium channels are not held: three of them come, the held ones never.
    let (first, free) = pick(3, 0.25).await;
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|name| ["Metals", "Oil", "Power", "Rates"].contains(&name.as_str())), "{first:?}");
    assert_eq!(free, ["Energy news"], "free channels only, fewer than asked");
    assert_eq!(pick(3, 0.25).await.0, first, "the same seed picks the same channels");
    let mut picks = std::collections::HashSet::new();
    for i in 0..12 {
        picks.insert(pick(1, f64::from(i) / 12.0).await.0);
    }
    assert!(picks.len() > 1, "other seeds pick others: {picks:?}");
    // Asked for every channel: the held ones come last, and the archived one never.
    let (all, _) = pick(7, 0.5).await;
    assert_eq!(all.len(), 6, "{all:?}");
    let mut held: Vec<&str> = all[4..].iter().map(String::as_str).collect();
    held.sort();
    assert_eq!(held, ["Coal", "Gas"]);

    // Without a pick: every active channel, by name.
    let response = app.gql(Some(reader), "{ premiumChannels { name } }", json!({})).await;
    assert_eq!(response["data"]["premiumChannels"].as_array().unwrap().len(), 6, "{response}");
    for count in [0, 26] {
        let refused = app.gql(Some(reader), PICK, json!({ "pick": { "count": count, "seed": 0.5 } })).await;
        assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{refused}");
        assert_eq!(fields(&refused)["count"], "Count must be between 1 and 25");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn archiving_is_refused_with_active_subscribers_and_archives_the_articles(pool: PgPool) {
    let World { app, admin, desk, .. } = world(pool).await;
    let id = app.add_channel(&admin, TestApp::premium_channel("Credit", &desk, &[])).await;
    let reader = app.insert_user("reader@client.example").await;
    let lapsed = app.insert_user("lapsed@client.example").await;
    app.insert_subscription(&id, &reader, "active", None).await;
    app.insert_subscription(&id, &lapsed, "active", Some(chrono::Utc::now() - chrono::Duration::days(1))).await;
    let published = app.insert_channel_article(Some(&id), Some(&desk), "Published").await;
    app.insert_channel_article(Some(&id), Some(&desk), "Pending").await;
    app.insert_channel_article(Some(&id), Some(&desk), "Archived").await;
    let elsewhere = app.insert_channel_article(None, Some(&desk), "Published").await;

    let refused = app.gql(Some(&admin), ARCHIVE, json!({ "id": id })).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"));
    assert_eq!(refused["errors"][0]["message"], "You cannot archive this channel because it has active subscribers.");
    let state: String = sqlx::query_scalar("select state from article where article_id = $1").bind(&published).fetch_one(&app.pool).await.unwrap();
    assert_eq!(state, "Published", "a refused archive changes nothing");

    sqlx::query("update channel_subscription set subscription_state = 'canceled' where user_id = $1").bind(&reader).execute(&app.pool).await.unwrap();
    let archived = app.gql(Some(&admin), ARCHIVE, json!({ "id": id })).await;
    assert_eq!(archived["data"]["archiveChannel"], json!({ "_id": id, "state": "archived", "canEdit": false }), "{archived}");
    let states: Vec<String> =
        sqlx::query_scalar("select state from article where premium_channel_id = $1").bind(&id).fetch_all(&app.pool).await.unwrap();
    assert_eq!(states, ["Archived", "Archived", "Archived"]);
    let other: String = sqlx::query_scalar("select state from article where article_id = $1").bind(&elsewhere).fetch_one(&app.pool).await.unwrap();
    assert_eq!(other, "Published");

    // Archived channels are read-only, and archiving is not repeated.
    let admin_id = app.user_id(&admin).await;
    let mut item = TestApp::premium_channel("Credit", &desk, &[&admin_id]);
    item["_id"] = json!(id);
    item["version"] = json!(2);
    let edit = app.gql(Some(&admin), EDIT, json!({ "item": item })).await;
    assert_eq!(error_code(&edit), Some("CONFLICT"));
    assert_eq!(edit["errors"][0]["message"], "This channel is archived and can no longer be changed.");
    assert_eq!(error_code(&app.gql(Some(&admin), ARCHIVE, json!({ "id": id })).await), Some("CONFLICT"));
    assert_eq!(error_code(&app.gql(Some(&admin), ARCHIVE, json!({ "id": insights::ids::new_id() })).await), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_operator_command_archives_by_name_with_the_same_rules(pool: PgPool) {
    use insights::channels::service;
    let World { app, admin, desk, .. } = world(pool.clone()).await;
    let id = app.add_channel(&admin, TestApp::premium_channel("Macro Weekly", &desk, &[])).await;
    let reader = app.insert_user("reader@client.example").await;
    app.insert_subscription(&id, &reader, "active", None).await;
    app.insert_channel_article(Some(&id), Some(&desk), "Published").await;

    assert_eq!(service::resolve(&pool, "macro weekly").await.unwrap(), id);
    assert!(matches!(service::resolve(&pool, "No such channel").await, Err(insights::error::Error::NotFound(_))));
    let refused = service::archive_channel(&pool, &id, service::ArchivedBy::Operator).await.unwrap_err();
    assert_eq!(refused.message(), service::ACTIVE_SUBSCRIBERS_MESSAGE);

    sqlx::query("update channel_subscription set subscription_state = 'expired'").execute(&pool).await.unwrap();
    let done = service::archive_channel(&pool, &id, service::ArchivedBy::Operator).await.unwrap();
    assert_eq!((done.name.as_str(), done.articles_archived, done.templates_unlinked), ("Macro Weekly", 1, 0));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_filters_searches_counts_and_pages_in_the_database(pool: PgPool) {
    let World { app, admin, desk, admin_id } = world(pool).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let mut ids = Vec::new();
    for i in 0..17 {
        ids.push(app.add_channel(&admin, TestApp::premium_channel(&format!("Premium {i:02}"), &desk, &[])).await);
    }
    let free = app
        .add_channel(&editor, json!({ "name": "Free briefing", "type": "freeClosed", "ownerType": "desk", "ownerId": desk, "adminUsers": [editor_id] }))
        .await;
    let gone = app.add_channel(&admin, TestApp::premium_channel("Gone", &desk, &[&admin_id])).await;
    app.gql(Some(&admin), ARCHIVE, json!({ "id": gone })).await;

    for state in ["Published", "Pending", "Archived"] {
        app.insert_channel_article(Some(&ids[0]), Some(&desk), state).await;
    }
    let reader = app.insert_user("reader@client.example").await;
    let other = app.insert_user("other@client.example").await;
    app.insert_subscription(&ids[0], &reader, "active", None).await;
    app.insert_subscription(&ids[0], &other, "pending", None).await;

    let all = list(&app, &admin, json!({})).await;
    assert_eq!(all["total"], 18, "active channels only");
    assert_eq!(all["items"].as_array().unwrap().len(), 15);
    assert_eq!(names(&all)[0], "Free briefing");
    let first = &all["items"][1];
    assert_eq!(first["name"], "Premium 00");
    assert_eq!(
        (&first["articleCount"], &first["archivedArticleCount"], &first["templateCount"], &first["channelActiveUsersCount"]),
        (&json!(2), &json!(1), &json!(0), &json!(1))
    );
    assert_eq!(first["owner"], json!({ "_id": desk, "name": "Energy desk", "type": "desk" }));
    let second = list(&app, &admin, json!({ "page": 2 })).await;
    assert_eq!((second["total"].clone(), second["items"].as_array().unwrap().len()), (json!(18), 3));

    assert_eq!(names(&list(&app, &editor, json!({ "filter": "MyChannels" })).await), ["Free briefing"]);
    assert_eq!(names(&list(&app, &admin, json!({ "filter": "Archived" })).await), ["Gone"]);
    assert_eq!(names(&list(&app, &admin, json!({ "type": "Free" })).await), ["Free briefing"]);
    assert_eq!(list(&app, &admin, json!({ "type": "Premium" })).await["total"], 17);
    assert_eq!(names(&list(&app, &admin, json!({ "searchQuery": "UM 1" })).await).len(), 7, "premium 10..16");
    let by_users = list(&app, &admin, json!({ "sortField": "ActiveUsers", "sortDirection": "Desc", "pageSize": 30 })).await;
    assert_eq!(names(&by_users)[0], "Premium 00");
    let by_name_desc = list(&app, &admin, json!({ "sortDirection": "Desc" })).await;
    assert_eq!(names(&by_name_desc)[0], "Premium 16");
    let bad = app.gql(Some(&admin), LIST, json!({ "params": { "pageSize": 7 } })).await;
    assert_eq!(error_code(&bad), Some("BAD_USER_INPUT"));

    let count = app.gql(Some(&admin), "query($id: ID!) { getSubscribersCount(channelId: $id) }", json!({ "id": ids[0] })).await;
    assert_eq!(count["data"]["getSubscribersCount"], 1);
    let _ = free;
}

#[sqlx::test(migrations = "./migrations")]
async fn channels_to_publish_are_the_users_own(pool: PgPool) {
    let World { app, admin, desk, admin_id } = world(pool).await;
    let contributor = app.token(TestRole::Contributor).await;
    let contributor_id = app.user_id(&contributor).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let team = app.add_desk(&admin, "Team desk", &[&contributor_id]).await;
    app.add_channel(&admin, TestApp::premium_channel("Desk owned", &team, &[])).await;
    app.add_channel(&admin, TestApp::premium_channel("Editor administered", &desk, &[&editor_id])).await;
    app.add_channel(&admin, TestApp::premium_channel("Someone else's", &desk, &[])).await;
    let archived = app.add_channel(&admin, TestApp::premium_channel("Archived one", &team, &[&editor_id, &admin_id])).await;
    app.gql(Some(&admin), ARCHIVE, json!({ "id": archived })).await;

    let query = "{ me { channelsToPublish { name } } }";
    let publishable = |token: String| {
        let app = &app;
        async move {
            let response = app.gql(Some(&token), query, json!({})).await;
            let names: Vec<String> = response["data"]["me"]["channelsToPublish"]
                .as_array()
                .unwrap_or_else(|| panic!("{response}"))
                .iter()
                .map(|c| c["name"].as_str().unwrap().to_owned())
                .collect();
            names
        }
    };
    assert_eq!(publishable(contributor).await, ["Desk owned"]);
    assert_eq!(publishable(editor).await, ["Editor administered"]);
    assert_eq!(publishable(admin).await, ["Desk owned", "Editor administered", "Someone else's"]);
    assert_eq!(publishable(app.token(TestRole::Subscriber).await).await, Vec::<String>::new());
}

#[sqlx::test(migrations = "./migrations")]
async fn channel_images_are_png_or_jpeg_uploads_of_at_most_2_mb(pool: PgPool) {
    // Uploads themselves allow 5 MB; channel images only 2 MB.
    let (app, dir) = spawn(pool, &[]).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Desk", &[&admin_id]).await;
    let png = upload_name(&app, &admin, PNG).await;
    let gif = upload_name(&app, &admin, GIF).await;
    let mut big = PNG.to_vec();
    big.resize(2 * 1024 * 1024 + 1, 0);
    let big = upload_name(&app, &admin, &big).await;

    let with_images = |profile: &str, cover: &str| {
        let mut item = TestApp::premium_channel("Pictured", &desk, &[]);
        item["profileImage"] = json!(profile);
        item["coverImage"] = json!(cover);
        item
    };
    let refused = app.gql(Some(&admin), ADD_CHANNEL, json!({ "item": with_images(&gif, &big) })).await;
    assert_eq!(
        fields(&refused),
        &json!({ "profileImage": "File format not supported: upload a PNG or JPEG image", "coverImage": "The image is larger than 2 MB" })
    );
    let unknown = app.gql(Some(&admin), ADD_CHANNEL, json!({ "item": with_images("../etc/passwd", &format!("{}.png", insights::ids::new_id())) })).await;
    assert_eq!(fields(&unknown), &json!({ "profileImage": "Upload the image first", "coverImage": "Upload the image first" }));
    let added = app.gql(Some(&admin), ADD_CHANNEL, json!({ "item": with_images(&png, &png) })).await;
    assert_eq!(error_code(&added), None, "{added}");
    let _ = std::fs::remove_dir_all(dir);
}
