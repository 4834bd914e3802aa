//! Topics (categories): the rules of the tree, names, versions, deletion, counts, roles, follows.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    factories::{ADD_CATEGORY, EDIT_CATEGORY},
};

fn fields(response: &Value) -> &Value {
    &response["errors"][0]["extensions"]["fields"]
}

async fn editor(app: &TestApp) -> String {
    app.token(TestRole::Editor).await
}

/// Edits a topic from its current state with `changes` applied.
async fn edit(app: &TestApp, token: &str, id: &str, changes: Value) -> Value {
    let current = app.find_category(token, id).await["data"]["findCategoryById"].clone();
    let mut item = json!({
        "_id": id, "name": current["name"], "description": current["description"],
        "parent": current["parent"], "isFeatured": current["isFeatured"], "version": current["version"],
    });
    for (key, value) in changes.as_object().unwrap() {
        item[key] = value.clone();
    }
    app.gql(Some(token), EDIT_CATEGORY, json!({ "item": item })).await
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_add_and_edit_topics_and_every_role_reads_them(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    for role in [TestRole::Administrator, TestRole::Editor, TestRole::Contributor] {
        let token = app.token(role).await;
        let id = app.add_category(&token, &format!("By {role:?}"), None).await;
        let edited = edit(&app, &token, &id, json!({ "description": "Changed" })).await;
        assert_eq!(edited["data"]["editCategory"]["version"], 2, "{role:?}: {edited}");
    }
    let reader = app.token(TestRole::Subscriber).await;
    let tree = app.gql(Some(&reader), "{ categoriesAsTree { name } rootCategories { name } categories { name } }", json!({})).await;
    assert_eq!(tree["data"]["categoriesAsTree"].as_array().unwrap().len(), 3, "{tree}");

    let denied = app.gql(Some(&reader), ADD_CATEGORY, json!({ "item": { "name": "X", "description": "Y" } })).await;
    assert_eq!(error_code(&denied), Some("FORBIDDEN"));
    let outsider = app.token(TestRole::NoScope).await;
    assert_eq!(error_code(&app.gql(Some(&outsider), "{ categoriesAsTree { name } }", json!({})).await), Some("FORBIDDEN"));
    assert_eq!(error_code(&app.gql(None, "{ categoriesAsTree { name } }", json!({})).await), Some("UNAUTHENTICATED"));
}

#[sqlx::test(migrations = "./migrations")]
async fn an_expired_trial_cannot_read_topics(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.token(TestRole::Trial).await;
    assert_eq!(app.gql(Some(&token), "{ categoriesAsTree { name } }", json!({})).await["errors"], Value::Null);
    sqlx::query("update users set first_login = now() - interval '15 days' where email = $1")
        .bind(TestRole::Trial.email())
        .execute(&app.pool)
        .await
        .unwrap();
    let response = app.gql(Some(&token), "{ categoriesAsTree { name } }", json!({})).await;
    assert_eq!(error_code(&response), Some("TRIAL_EXPIRED"));
    assert!(response["errors"][0]["message"].as_str().unwrap().contains("Trial period has expired"));
}

#[sqlx::test(migrations = "./migrations")]
async fn names_and_descriptions_are_required_and_limited(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let add = |item: Value| app.gql(Some(&token), ADD_CATEGORY, json!({ "item": item }));

    let blank = add(json!({ "name": "  ", "description": "" })).await;
    assert_eq!(error_code(&blank), Some("BAD_USER_INPUT"));
    assert_eq!(fields(&blank)["name"], "This field is required");
    assert_eq!(fields(&blank)["description"], "This field is required");

    let long = add(json!({ "name": "n".repeat(101), "description": "d".repeat(501) })).await;
    assert_eq!(fields(&long)["name"], "Maximum 100 characters");
    assert_eq!(fields(&long)["description"], "Maximum 500 characters");

    let at_limit = add(json!({ "name": "n".repeat(100), "description": "d".repeat(500) })).await;
    assert_eq!(at_limit["errors"], Value::Null, "{at_limit}");
    let count: i64 = sqlx::query_scalar("select count(*) from category").fetch_one(&app.pool).await.unwrap();
    assert_eq!(count, 1, "failed adds wrote nothing");
}

#[sqlx::test(migrations = "./migrations")]
async fn names_are_unique_among_siblings_ignoring_case_and_spaces(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let equities = app.add_category(&token, "Equities", None).await;
    let credit = app.add_category(&token, "Credit", None).await;
    app.add_category(&token, "Europe", Some(&equities)).await;

    let duplicate = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "  europe ", "description": "d", "parent": equities } })).await;
    assert_eq!(error_code(&duplicate), Some("DUPLICATE"), "{duplicate}");
    assert_eq!(duplicate["errors"][0]["message"], "Cannot insert item due to name duplication");
    assert_eq!(fields(&duplicate)["name"], "Cannot insert item due to name duplication");

    // The same name under another parent is fine; so is a root named like a child.
    app.add_category(&token, "Europe", Some(&credit)).await;
    app.add_category(&token, "Europe", None).await;
    let root_duplicate = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "EQUITIES", "description": "d" } })).await;
    assert_eq!(error_code(&root_duplicate), Some("DUPLICATE"));

    // Renaming onto a sibling's name is refused too.
    let rename = edit(&app, &token, &credit, json!({ "name": "equities" })).await;
    assert_eq!(error_code(&rename), Some("DUPLICATE"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_stale_version_is_a_conflict_and_changes_nothing(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let id = app.add_category(&token, "Macro", None).await;
    let first = edit(&app, &token, &id, json!({ "description": "First edit", "version": 1 })).await;
    assert_eq!(first["data"]["editCategory"]["version"], 2);

    let stale = edit(&app, &token, &id, json!({ "description": "Based on version 1", "version": 1 })).await;
    assert_eq!(error_code(&stale), Some("CONFLICT"), "{stale}");
    let now = app.find_category(&token, &id).await;
    assert_eq!(now["data"]["findCategoryById"]["description"], "First edit");
    assert_eq!(now["data"]["findCategoryById"]["version"], 2);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_topic_cannot_be_its_own_parent_or_under_its_descendants(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let a = app.add_category(&token, "A", None).await;
    let b = app.add_category(&token, "B", Some(&a)).await;
    let c = app.add_category(&token, "C", Some(&b)).await;

    let own = edit(&app, &token, &a, json!({ "parent": a })).await;
    assert_eq!(error_code(&own), Some("BAD_USER_INPUT"));
    assert_eq!(fields(&own)["parent"], "A topic cannot be its own parent");

    for descendant in [&b, &c] {
        let cycle = edit(&app, &token, &a, json!({ "parent": descendant })).await;
        assert_eq!(error_code(&cycle), Some("BAD_USER_INPUT"), "{cycle}");
        assert_eq!(fields(&cycle)["parent"], "A topic cannot be moved under one of its sub-topics");
    }
    // Moving a leaf elsewhere is fine, and makes it a root again without a parent.
    let moved = edit(&app, &token, &c, json!({ "parent": Value::Null })).await;
    assert_eq!(moved["data"]["editCategory"]["level"], 1, "{moved}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_tree_is_at_most_five_levels_deep(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let mut parent: Option<String> = None;
    let mut chain = Vec::new();
    for level in 1..=5 {
        let id = app.add_category(&token, &format!("Level {level}"), parent.as_deref()).await;
        chain.push(id.clone());
        parent = Some(id);
    }
    assert_eq!(app.find_category(&token, &chain[4]).await["data"]["findCategoryById"]["level"], 5);
    let sixth = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "Level 6", "description": "d", "parent": chain[4] } })).await;
    assert_eq!(error_code(&sixth), Some("BAD_USER_INPUT"));
    assert_eq!(fields(&sixth)["parent"], "Topics nest at most 5 levels deep");

    // Moving a two-level branch under level 4 would make it 6 deep.
    let branch = app.add_category(&token, "Branch", None).await;
    app.add_category(&token, "Leaf", Some(&branch)).await;
    let too_deep = edit(&app, &token, &branch, json!({ "parent": chain[3] })).await;
    assert_eq!(fields(&too_deep)["parent"], "Topics nest at most 5 levels deep", "{too_deep}");
    let fits = edit(&app, &token, &branch, json!({ "parent": chain[2] })).await;
    assert_eq!(fits["data"]["editCategory"]["level"], 4, "{fits}");

    let tree = app.gql(Some(&token), "{ categoriesAsTree { name level children { level children { level children { level children { name level children { name } } } } } } }", json!({})).await;
    let deepest = &tree["data"]["categoriesAsTree"][0]["children"][0]["children"][0]["children"][0]["children"][0];
    assert_eq!(deepest["level"], 5, "{tree}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_sector_is_a_root_and_a_parent_clears_the_flag(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let root = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "Energy", "description": "d", "isFeatured": true } })).await;
    assert_eq!(root["data"]["addCategory"]["isFeatured"], true);
    let root_id = root["data"]["addCategory"]["_id"].as_str().unwrap().to_owned();

    let child = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "Oil", "description": "d", "isFeatured": true, "parent": root_id } })).await;
    assert_eq!(child["data"]["addCategory"]["isFeatured"], false, "{child}");

    let other = app.add_category(&token, "Other", None).await;
    let moved = edit(&app, &token, &root_id, json!({ "parent": other })).await;
    assert_eq!(moved["data"]["editCategory"]["isFeatured"], false, "moving a sector under a parent clears the flag");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_missing_or_malformed_parent_or_topic_is_not_found(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    for parent in [insights::ids::new_id(), "not-an-id".to_owned()] {
        let response = app.gql(Some(&token), ADD_CATEGORY, json!({ "item": { "name": "X", "description": "d", "parent": parent } })).await;
        assert_eq!(error_code(&response), Some("NOT_FOUND"), "{parent}: {response}");
    }
    for id in [insights::ids::new_id(), "nope".to_owned(), "../../x".to_owned()] {
        assert_eq!(error_code(&app.find_category(&token, &id).await), Some("NOT_FOUND"), "{id}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_topic_with_sub_topics_cannot_be_deleted(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let parent = app.add_category(&token, "Rates", None).await;
    app.add_category(&token, "Short End", Some(&parent)).await;
    app.add_category(&token, "Long End", Some(&parent)).await;
    let delete = "mutation($id: ID!) { deleteCategory(id: $id) { _id name } }";
    let refused = app.gql(Some(&token), delete, json!({ "id": parent })).await;
    assert_eq!(error_code(&refused), Some("CONFLICT"));
    assert_eq!(refused["errors"][0]["message"], "The topic Rates has 2 sub-topics: delete them or move them to another topic first.");
    assert_eq!(app.find_category(&token, &parent).await["errors"], Value::Null, "still there");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_delete_refusal_uses_the_category_wording_without_premium_channels(pool: PgPool) {
    let app = TestApp::spawn_with(pool, &["--feature-premium-channels", "false"]).await;
    let token = editor(&app).await;
    let parent = app.add_category(&token, "Rates", None).await;
    app.add_category(&token, "Short End", Some(&parent)).await;
    let refused = app.gql(Some(&token), "mutation($id: ID!) { deleteCategory(id: $id) { _id } }", json!({ "id": parent })).await;
    assert_eq!(refused["errors"][0]["message"], "The category Rates has 1 sub-category: delete them or move them to another category first.");
}

#[sqlx::test(migrations = "./migrations")]
async fn deleting_a_topic_removes_it_from_its_articles_and_followers(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let doomed = app.add_category(&token, "Doomed", None).await;
    let kept = app.add_category(&token, "Kept", None).await;
    let article = app.insert_article(&[&doomed, &kept], &[], &[]).await;
    let reader = app.insert_user("reader@test.example").await;
    sqlx::query("insert into category_follow values ($1, $2)").bind(&doomed).bind(&reader).execute(&app.pool).await.unwrap();

    assert_eq!(app.find_category(&token, &doomed).await["data"]["findCategoryById"]["articleCount"], 1);
    let deleted = app.gql(Some(&token), "mutation($id: ID!) { deleteCategory(id: $id) { _id name } }", json!({ "id": doomed })).await;
    assert_eq!(deleted["data"]["deleteCategory"]["name"], "Doomed");

    let links: Vec<String> = sqlx::query_scalar("select category_id from article_category where article_id = $1").bind(&article).fetch_all(&app.pool).await.unwrap();
    assert_eq!(links, vec![kept], "the article keeps its other topic and still exists");
    let follows: i64 = sqlx::query_scalar("select count(*) from category_follow").fetch_one(&app.pool).await.unwrap();
    assert_eq!(follows, 0);
    assert_eq!(error_code(&app.find_category(&token, &doomed).await), Some("NOT_FOUND"));
}

#[sqlx::test(migrations = "./migrations")]
async fn counts_come_from_articles_views_contributors_and_follows(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let topic = app.add_category(&token, "Energy", None).await;
    let other = app.add_category(&token, "Metals", None).await;
    let (ann, bob, cid) = (app.insert_user("ann@test.example").await, app.insert_user("bob@test.example").await, app.insert_user("cid@test.example").await);

    let first = app.insert_article(&[&topic], &[], &[&ann, &bob]).await;
    let second = app.insert_article(&[&topic, &other], &[], &[&ann]).await;
    app.insert_views(&first, &cid, 3).await;
    app.insert_views(&second, &cid, 2).await;
    app.insert_views(&second, &bob, 1).await;
    for user in [&ann, &cid] {
        sqlx::query("insert into category_follow values ($1, $2)").bind(&topic).bind(user).execute(&app.pool).await.unwrap();
    }

    let expected = json!({ "articleCount": 2, "views": 6, "contributorsCount": 2, "subscribersCount": 2 });
    let expected_other = json!({ "articleCount": 1, "views": 3, "contributorsCount": 1, "subscribersCount": 0 });
    let one = &app.find_category(&token, &topic).await["data"]["findCategoryById"];
    for (key, value) in expected.as_object().unwrap() {
        assert_eq!(&one[key], value, "findCategoryById {key}");
    }
    let tree = app.gql(Some(&token), "{ categoriesAsTree { name articleCount views contributorsCount subscribersCount } }", json!({})).await;
    let nodes = tree["data"]["categoriesAsTree"].as_array().unwrap();
    for (node, expected) in nodes.iter().zip([&expected, &expected_other]) {
        for (key, value) in expected.as_object().unwrap() {
            assert_eq!(&node[key], value, "{} {key}", node["name"]);
        }
    }
    // Counts follow the data: a removed link and a new follow change them at once.
    sqlx::query("delete from article_category where article_id = $1 and category_id = $2").bind(&second).bind(&topic).execute(&app.pool).await.unwrap();
    let after = &app.find_category(&token, &topic).await["data"]["findCategoryById"];
    assert_eq!(after["articleCount"], 1);
    assert_eq!(after["views"], 3);
}

#[sqlx::test(migrations = "./migrations")]
async fn readers_follow_and_unfollow_topics(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let editor_token = editor(&app).await;
    let topic = app.add_category(&editor_token, "Gold", None).await;
    let reader = app.token(TestRole::Subscriber).await;
    let follow = "mutation($item: FollowInput!) { followEntity(item: $item) { entityId isFollowing subscribersCount } }";
    let item = |is_add: bool| json!({ "item": { "entityId": topic, "entityType": "Category", "isAdd": is_add, "name": "Gold" } });

    let followed = app.gql(Some(&reader), follow, item(true)).await;
    assert_eq!(followed["data"]["followEntity"], json!({ "entityId": topic, "isFollowing": true, "subscribersCount": 1 }), "{followed}");
    // Following twice is still one follow.
    assert_eq!(app.gql(Some(&reader), follow, item(true)).await["data"]["followEntity"]["subscribersCount"], 1);
    assert_eq!(app.find_category(&reader, &topic).await["data"]["findCategoryById"]["isFollowing"], true);

    let followers = app.gql(Some(&editor_token), "query($id: ID!) { categoryFollowers(categoryId: $id) { total items { name email } } }", json!({ "id": topic })).await;
    assert_eq!(followers["data"]["categoryFollowers"]["total"], 1, "{followers}");
    assert_eq!(followers["data"]["categoryFollowers"]["items"][0]["email"], TestRole::Subscriber.email());
    let not_staff = app.gql(Some(&reader), "query($id: ID!) { categoryFollowers(categoryId: $id) { total } }", json!({ "id": topic })).await;
    assert_eq!(error_code(&not_staff), Some("FORBIDDEN"));

    let unfollowed = app.gql(Some(&reader), follow, item(false)).await;
    assert_eq!(unfollowed["data"]["followEntity"]["subscribersCount"], 0);

    // Nobody follows on someone else's behalf.
    let someone = app.insert_user("someone@test.example").await;
    let forged = json!({ "item": { "entityId": topic, "entityType": "Category", "isAdd": true, "userId": someone } });
    assert_eq!(error_code(&app.gql(Some(&reader), follow, forged).await), Some("FORBIDDEN"));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_wide_tree_nests_every_node_under_its_parent_at_its_level(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let root = app.add_category(&token, "Root", None).await;
    for i in 0..30 {
        let child = app.add_category(&token, &format!("Child {i:02}"), Some(&root)).await;
        app.add_category(&token, "Grandchild", Some(&child)).await;
    }
    let tree = app.gql(Some(&token), "{ categoriesAsTree { level children { name level children { level } } } }", json!({})).await;
    let children = tree["data"]["categoriesAsTree"][0]["children"].as_array().unwrap();
    assert_eq!(children.len(), 30);
    assert_eq!(children[0]["name"], "Child 00", "siblings ordered by name");
    assert!(children.iter().all(|c| c["level"] == 2 && c["children"][0]["level"] == 3));
}

#[sqlx::test(migrations = "./migrations")]
async fn the_shared_topic_list_stays_right_after_every_kind_of_change(pool: PgPool) {
    // Two processes on one database: each caches the computed list.
    let app = TestApp::spawn(pool.clone()).await;
    let other_process = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let tree = "{ categoriesAsTree { _id name articleCount subscribersCount contributorsCount views } }";
    let counts = |response: Value| response["data"]["categoriesAsTree"][0].clone();
    let topic = app.add_category(&token, "Energy", None).await;
    let other_token = other_process.token(TestRole::Editor).await;
    // Fill both caches.
    assert_eq!(counts(app.gql(Some(&token), tree, json!({})).await)["articleCount"], 0);
    assert_eq!(counts(other_process.gql(Some(&other_token), tree, json!({})).await)["articleCount"], 0);

    // Rows written directly (as later features will) change the counts everywhere at once.
    let ann = app.insert_user("ann@test.example").await;
    let article = app.insert_article(&[&topic], &[], &[&ann]).await;
    app.insert_views(&article, &ann, 2).await;
    sqlx::query("insert into category_follow values ($1, $2)").bind(&topic).bind(&ann).execute(&app.pool).await.unwrap();
    let expected = json!({ "_id": topic, "name": "Energy", "articleCount": 1, "subscribersCount": 1, "contributorsCount": 1, "views": 2 });
    assert_eq!(counts(app.gql(Some(&token), tree, json!({})).await), expected);
    assert_eq!(counts(other_process.gql(Some(&other_token), tree, json!({})).await), expected);

    // An edit through one process shows in the other.
    edit(&app, &token, &topic, json!({ "name": "Energy & Power" })).await;
    assert_eq!(counts(other_process.gql(Some(&other_token), tree, json!({})).await)["name"], "Energy & Power");

    // A view count that changes in place, and a deletion, too.
    sqlx::query("update article_view set views = views + 5").execute(&app.pool).await.unwrap();
    assert_eq!(counts(other_process.gql(Some(&other_token), tree, json!({})).await)["views"], 7);
    sqlx::query("delete from article where article_id = $1").bind(&article).execute(&app.pool).await.unwrap();
    let after = counts(app.gql(Some(&token), tree, json!({})).await);
    assert_eq!((after["articleCount"].clone(), after["views"].clone(), after["contributorsCount"].clone()), (json!(0), json!(0), json!(0)));

    // isFollowing is the viewer's own, never shared through the cache.
    let query = "{ categories { isFollowing } }";
    let reader = app.token(TestRole::Subscriber).await;
    let follow = "mutation($item: FollowInput!) { followEntity(item: $item) { isFollowing } }";
    app.gql(Some(&reader), follow, json!({ "item": { "entityId": topic, "entityType": "Category", "isAdd": true } })).await;
    assert_eq!(app.gql(Some(&reader), query, json!({})).await["data"]["categories"][0]["isFollowing"], true);
    assert_eq!(app.gql(Some(&token), query, json!({})).await["data"]["categories"][0]["isFollowing"], false);
}

#[sqlx::test(migrations = "./migrations")]
async fn views_follows_and_article_links_move_only_the_counts_revision(pool: PgPool) {
    // Readers' topic lists are kept by the topics' revision: a view must not make them be computed again.
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    let topic = app.add_category(&token, "Energy", None).await;
    let revisions = || async {
        sqlx::query_as::<_, (i64, i64)>("select t.revision, c.revision from taxonomy_revision t, topic_counts_revision c")
            .fetch_one(&app.pool)
            .await
            .unwrap()
    };
    let reader_list = "{ categoriesAsTree { _id name } }";
    let staff_list = "{ categoriesAsTree { name articleCount subscribersCount contributorsCount views } }";
    app.gql(Some(&token), reader_list, json!({})).await;
    let (topics, counts) = revisions().await;

    let ann = app.insert_user("ann@test.example").await;
    let article = app.insert_article(&[&topic], &[], &[&ann]).await;
    app.insert_views(&article, &ann, 4).await;
    sqlx::query("insert into category_follow values ($1, $2)").bind(&topic).bind(&ann).execute(&app.pool).await.unwrap();
    let (topics_after, counts_after) = revisions().await;
    assert_eq!(topics_after, topics, "the topics' revision stays");
    assert!(counts_after > counts, "the counts' revision moves");
    let expected = json!({ "name": "Energy", "articleCount": 1, "subscribersCount": 1, "contributorsCount": 1, "views": 4 });
    assert_eq!(app.gql(Some(&token), staff_list, json!({})).await["data"]["categoriesAsTree"][0], expected);

    // A save that keeps an article's topics and contributors changes no link: nothing moves.
    sqlx::query("delete from article_category where article_id = $1 and category_id <> all($2)")
        .bind(&article)
        .bind(vec![topic.clone()])
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query("insert into article_contributor values ($1, $2) on conflict do nothing")
        .bind(&article)
        .bind(&ann)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(revisions().await, (topics, counts_after));

    // A topic's edit moves the topics' revision, and both lists show it.
    edit(&app, &token, &topic, json!({ "name": "Power" })).await;
    assert!(revisions().await.0 > topics);
    assert_eq!(app.gql(Some(&token), reader_list, json!({})).await["data"]["categoriesAsTree"][0]["name"], "Power");
    assert_eq!(app.gql(Some(&token), staff_list, json!({})).await["data"]["categoriesAsTree"][0]["views"], 4);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_kept_tree_response_never_reaches_a_caller_who_may_not_read_it(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = editor(&app).await;
    app.add_category(&token, "Energy", None).await;
    let tree = "{ categoriesAsTree { _id name } }";
    // Asked twice by staff: the second answer may come from the kept response.
    for _ in 0..2 {
        assert_eq!(app.gql(Some(&token), tree, json!({})).await["data"]["categoriesAsTree"][0]["name"], "Energy");
    }
    assert_eq!(error_code(&app.gql(None, tree, json!({})).await), Some("UNAUTHENTICATED"));
    let outsider = app.token(TestRole::NoScope).await;
    assert_eq!(error_code(&app.gql(Some(&outsider), tree, json!({})).await), Some("FORBIDDEN"));
    let trial = app.token(TestRole::Trial).await;
    // Fill the kept response as the trial reader while the trial runs, then end the trial.
    assert_eq!(app.gql(Some(&trial), tree, json!({})).await["errors"], Value::Null);
    sqlx::query("update users set first_login = now() - interval '15 days' where email = $1")
        .bind(TestRole::Trial.email())
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(error_code(&app.gql(Some(&trial), tree, json!({})).await), Some("TRIAL_EXPIRED"));
    // A change is seen at once.
    app.add_category(&token, "Agriculture", None).await;
    assert_eq!(app.gql(Some(&token), tree, json!({})).await["data"]["categoriesAsTree"][0]["name"], "Agriculture");
}
