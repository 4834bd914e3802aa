//! Clearing accounts (issue 13, spec 3 §3 Billing account): Administrators add and remove a
//! reader's accounts, operators import them, and a reader subscribes on one of their own: active
//! at once and payable. Nobody else may add accounts, and no reader may use an account not theirs.

use insights::billing::accounts::{self, ImportRow};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    checkout::{Shop, shop},
    subscriptions::audit_rows,
    support::{TestRole, error_code},
};

const ADD: &str =
    "mutation($u: ID!, $n: String!, $name: String) { addBillingAccount(userId: $u, accountNumber: $n, name: $name) { id name _id } }";
const REMOVE: &str = "mutation($id: ID!) { removeBillingAccount(id: $id) }";
const MINE: &str = "query($f: String) { myBillingAccounts(filter: $f) { id name _id } }";
const OF_USER: &str = "query($u: ID!) { billingAccounts(userId: $u) { id name } }";
const SUBSCRIBE: &str = "mutation($c: ID!, $type: String!, $n: String!) {
    createAccountSubscription(channelId: $c, subscriptionType: $type, accountNumber: $n) {
        userId subscriptionType subscriptionState accountNumber pricePerMonth status { effectiveState payable paymentCategory } } }";

async fn add(shop: &Shop, user: &str, number: &str, name: Option<&str>) -> Value {
    let added = shop.app.gql(Some(&shop.admin), ADD, json!({ "u": user, "n": number, "name": name })).await;
    assert!(added["errors"].is_null(), "{added}");
    added["data"]["addBillingAccount"].clone()
}

async fn mine(shop: &Shop, token: &str, filter: Option<&str>) -> Vec<String> {
    let response = shop.app.gql(Some(token), MINE, json!({ "f": filter })).await;
    let list = response["data"]["myBillingAccounts"].as_array().unwrap_or_else(|| panic!("{response}"));
    list.iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn administrators_manage_a_readers_billing_accounts(pool: PgPool) {
    let shop = shop(pool).await;
    let app = &shop.app;
    assert_eq!(mine(&shop, &shop.reader, None).await, Vec::<String>::new());

    let first = add(&shop, &shop.reader_id, " ACC-1001 ", Some("Acme Metals London")).await;
    assert_eq!((&first["id"], &first["name"]), (&json!("ACC-1001"), &json!("Acme Metals London")), "{first}");
    add(&shop, &shop.reader_id, "ACC-2002", None).await;
    assert_eq!(mine(&shop, &shop.reader, None).await, ["ACC-1001", "ACC-2002"]);
    assert_eq!(mine(&shop, &shop.reader, Some("london")).await, ["ACC-1001"], "filtered by name");
    assert_eq!(mine(&shop, &shop.reader, Some("2002")).await, ["ACC-2002"], "filtered by number");
    assert_eq!(mine(&shop, &shop.reader, Some("nothing")).await, Vec::<String>::new());
    let listed = app.gql(Some(&shop.admin), OF_USER, json!({ "u": shop.reader_id })).await;
    assert_eq!(
        listed["data"]["billingAccounts"],
        json!([{ "id": "ACC-1001", "name": "Acme Metals London" }, { "id": "ACC-2002", "name": null }]),
        "{listed}"
    );

    // The same number again renames it.
    let renamed = add(&shop, &shop.reader_id, "ACC-1001", Some("Acme Metals UK")).await;
    assert_eq!((&renamed["_id"], &renamed["name"]), (&first["_id"], &json!("Acme Metals UK")));
    // Another reader sees none of them.
    let (other, _) = app.signed_in_reader("other@client.example").await;
    assert_eq!(mine(&shop, &other, None).await, Vec::<String>::new());

    // Checks.
    let empty = app.gql(Some(&shop.admin), ADD, json!({ "u": shop.reader_id, "n": "  " })).await;
    assert_eq!(error_code(&empty), Some("BAD_USER_INPUT"), "{empty}");
    assert_eq!(empty["errors"][0]["extensions"]["fields"]["accountNumber"], "This field is required");
    let long = app.gql(Some(&shop.admin), ADD, json!({ "u": shop.reader_id, "n": "9".repeat(65) })).await;
    assert_eq!(error_code(&long), Some("BAD_USER_INPUT"), "{long}");
    let nobody = app.gql(Some(&shop.admin), ADD, json!({ "u": "5f0c5a3a9d1e8a0012345678", "n": "ACC-9" })).await;
    assert_eq!(error_code(&nobody), Some("NOT_FOUND"), "{nobody}");

    // Removed.
    let removed = app.gql(Some(&shop.admin), REMOVE, json!({ "id": first["_id"] })).await;
    assert_eq!(removed["data"]["removeBillingAccount"], true, "{removed}");
    assert_eq!(mine(&shop, &shop.reader, None).await, ["ACC-2002"]);
    let again = app.gql(Some(&shop.admin), REMOVE, json!({ "id": first["_id"] })).await;
    assert_eq!(error_code(&again), Some("NOT_FOUND"), "{again}");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_administrators_add_remove_or_list_a_users_accounts(pool: PgPool) {
    let shop = shop(pool).await;
    let app = &shop.app;
    let account = add(&shop, &shop.reader_id, "ACC-1001", None).await;
    for role in [TestRole::Editor, TestRole::Contributor, TestRole::Subscriber, TestRole::Trial] {
        let token = app.token(role).await;
        let added = app.gql(Some(&token), ADD, json!({ "u": shop.reader_id, "n": "ACC-FORGED" })).await;
        assert_eq!(error_code(&added), Some("FORBIDDEN"), "{role:?}: {added}");
        let removed = app.gql(Some(&token), REMOVE, json!({ "id": account["_id"] })).await;
        assert_eq!(error_code(&removed), Some("FORBIDDEN"), "{role:?}: {removed}");
        let listed = app.gql(Some(&token), OF_USER, json!({ "u": shop.reader_id })).await;
        assert_eq!(error_code(&listed), Some("FORBIDDEN"), "{role:?}: {listed}");
    }
    // The reader may not add one to themselves either.
    let own = app.gql(Some(&shop.reader), ADD, json!({ "u": shop.reader_id, "n": "ACC-MINE" })).await;
    assert_eq!(error_code(&own), Some("FORBIDDEN"), "{own}");
    let anonymous = app.gql(None, ADD, json!({ "u": shop.reader_id, "n": "ACC-ANON" })).await;
    assert_eq!(error_code(&anonymous), Some("UNAUTHENTICATED"), "{anonymous}");
    assert_eq!(error_code(&app.gql(None, MINE, json!({})).await), Some("UNAUTHENTICATED"));
    assert_eq!(mine(&shop, &shop.reader, None).await, ["ACC-1001"], "nothing added or removed");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_reader_subscribes_on_their_clearing_account_at_once(pool: PgPool) {
    let shop = shop(pool).await;
    let article = shop.premium_article().await;
    add(&shop, &shop.reader_id, "ACC-1001", Some("Acme Metals")).await;
    let subscribed = shop.app.gql(Some(&shop.reader), SUBSCRIBE, json!({ "c": shop.channel, "type": "account", "n": "ACC-1001" })).await;
    let subscribed = &subscribed["data"]["createAccountSubscription"];
    assert_eq!(
        *subscribed,
        json!({
            "userId": shop.reader_id, "subscriptionType": "account", "subscriptionState": "active", "accountNumber": "ACC-1001",
            "pricePerMonth": "49.50", "status": { "effectiveState": "active", "payable": true, "paymentCategory": subscribed["status"]["paymentCategory"] },
        }),
        "{subscribed}"
    );
    assert!(shop.can_read(&shop.reader, &article).await);
    let rows = audit_rows(&shop.app, &shop.channel, &shop.reader_id).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].0.as_str(), rows[0].3.as_deref()), ("reader", Some("active")), "{rows:?}");
    // Nothing at Stripe.
    assert!(shop.double.events_of_type("customer.created").is_empty());

    // Already subscribed: no second one, by account or by card.
    let again = shop.app.gql(Some(&shop.reader), SUBSCRIBE, json!({ "c": shop.channel, "type": "account", "n": "ACC-1001" })).await;
    assert_eq!(error_code(&again), Some("CONFLICT"), "{again}");
    assert_eq!(again["errors"][0]["message"], "You are already subscribed to this channel.");
    let card = shop
        .app
        .gql(
            Some(&shop.reader),
            crate::support::stripe::CREATE_CUSTOMER,
            crate::support::stripe::with_channel(crate::support::stripe::billing(None), &shop.channel),
        )
        .await;
    assert_eq!(card["data"]["createStripeCustomer"], "NotSet", "{card}");
    let card = shop
        .app
        .gql(
            Some(&shop.reader),
            crate::support::stripe::CREATE_SUBSCRIPTION,
            crate::support::stripe::with_channel(crate::support::stripe::billing(None), &shop.channel),
        )
        .await;
    assert_eq!(card["errors"][0]["message"], "You are already subscribed to this channel.", "{card}");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_account_not_the_readers_is_refused(pool: PgPool) {
    let shop = shop(pool).await;
    let article = shop.premium_article().await;
    let (other, other_id) = shop.app.signed_in_reader("other@client.example").await;
    add(&shop, &other_id, "ACC-OTHER", None).await;
    add(&shop, &shop.reader_id, "ACC-MINE", None).await;
    for number in ["ACC-OTHER", "ACC-NOBODY", "acc-mine", "ACC-MINE%"] {
        let refused = shop.app.gql(Some(&shop.reader), SUBSCRIBE, json!({ "c": shop.channel, "type": "account", "n": number })).await;
        assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{number}: {refused}");
        assert_eq!(
            refused["errors"][0]["extensions"]["fields"]["accountNumber"], "This account number is not one of your billing accounts.",
            "{number}: {refused}"
        );
    }
    let empty = shop.app.gql(Some(&shop.reader), SUBSCRIBE, json!({ "c": shop.channel, "type": "account", "n": " " })).await;
    assert_eq!(empty["errors"][0]["extensions"]["fields"]["accountNumber"], "This field is required", "{empty}");
    // Not a type a reader can choose here.
    for kind in ["stripe", "external", "nonCharge", "trial"] {
        let refused = shop.app.gql(Some(&shop.reader), SUBSCRIBE, json!({ "c": shop.channel, "type": kind, "n": "ACC-MINE" })).await;
        assert_eq!(error_code(&refused), Some("BAD_USER_INPUT"), "{kind}: {refused}");
        assert!(refused["errors"][0]["extensions"]["fields"]["subscriptionType"].is_string(), "{kind}: {refused}");
    }
    assert_eq!(shop.mine().await, Value::Null);
    assert!(!shop.can_read(&shop.reader, &article).await);
    assert!(audit_rows(&shop.app, &shop.channel, &shop.reader_id).await.is_empty());
    // The owner can.
    let theirs = shop.app.gql(Some(&other), SUBSCRIBE, json!({ "c": shop.channel, "type": "account", "n": "ACC-OTHER" })).await;
    assert_eq!(theirs["data"]["createAccountSubscription"]["subscriptionState"], "active", "{theirs}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_import_adds_and_renames_accounts_of_known_users(pool: PgPool) {
    let shop = shop(pool).await;
    add(&shop, &shop.reader_id, "ACC-1001", Some("Old name")).await;
    let row = |email: &str, number: &str, name: Option<&str>| ImportRow {
        email: email.to_owned(),
        account_number: number.to_owned(),
        name: name.map(str::to_owned),
    };
    let imported = accounts::import(
        &shop.app.pool,
        &[
            row(" Buyer@Client.example ", "ACC-1001", Some("New name")),
            row("buyer@client.example", "ACC-3003", None),
            row("nobody@client.example", "ACC-4004", Some("Ghost")),
        ],
    )
    .await
    .unwrap();
    assert_eq!((imported.added, imported.updated), (1, 1), "{imported:?}");
    assert_eq!(imported.unknown_users, ["nobody@client.example"]);
    let listed = shop.app.gql(Some(&shop.reader), MINE, json!({})).await;
    assert_eq!(
        listed["data"]["myBillingAccounts"].as_array().unwrap().iter().map(|a| (a["id"].clone(), a["name"].clone())).collect::<Vec<_>>(),
        [(json!("ACC-1001"), json!("New name")), (json!("ACC-3003"), Value::Null)],
        "{listed}"
    );
    // Imported again: nothing new, nothing renamed.
    let again = accounts::import(&shop.app.pool, &[row("buyer@client.example", "ACC-3003", None)]).await.unwrap();
    assert_eq!((again.added, again.updated), (0, 0), "{again:?}");
}
