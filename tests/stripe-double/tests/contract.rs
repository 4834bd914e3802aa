//! The contract: every response and event the double produces parses into async-stripe's types,
//! and every event passes `Webhook::construct_event`; the flows the server relies on behave as
//! Stripe's do.

mod support;

use serde_json::Value;
use stripe_double::{Signing, StripeDouble};
use stripe_shared::{ApiErrors, Customer, Invoice, PaymentIntent, PaymentMethod, Price, Product, SetupIntent, Subscription, TaxId};
use stripe_types::List;
use support::{Api, Endpoint, customer_and_price, parse, pay_first_invoice, subscribe};

/// Every event so far passes construct_event and parses into its EventObject variant.
fn check_events(double: &StripeDouble) {
    for event in double.events() {
        let payload = event.to_string();
        let header = stripe_double::sign(&payload, support::SECRET, chrono::Utc::now().timestamp());
        let parsed = stripe_webhook::Webhook::construct_event(&payload, &header, support::SECRET)
            .unwrap_or_else(|e| panic!("{} refused: {e:?}\n{payload}", event["type"]));
        assert!(!matches!(parsed.data.object, stripe_webhook::EventObject::Unknown(_)), "{} parsed as Unknown", event["type"]);
    }
}

fn types(double: &StripeDouble) -> Vec<String> {
    double.events().iter().map(|e| e["type"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn customers_and_tax_ids_parse_and_follow_stripes_rules() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (status, customer) = api
        .post(
            "/v1/customers",
            &[
                ("name", "Acme"),
                ("email", "a@acme.test"),
                ("address[line1]", "1 Main St"),
                ("address[country]", "DE"),
                ("metadata[user_id]", "u1"),
            ],
        )
        .await;
    assert_eq!(status, 200);
    let parsed: Customer = parse(&customer);
    assert_eq!(parsed.metadata.as_ref().and_then(|m| m.get("user_id")).map(String::as_str), Some("u1"));
    let id = customer["id"].as_str().unwrap();
    assert!(id.starts_with("cus_"));

    let path = format!("/v1/customers/{id}/tax_ids");
    let (status, tax_id) = api.post(&path, &[("type", "eu_vat"), ("value", "DE123456789")]).await;
    assert_eq!(status, 200);
    let tax_id: TaxId = parse(&tax_id);
    assert_eq!(tax_id.country.as_deref(), Some("DE"));

    let (status, invalid) = api.post(&path, &[("type", "eu_vat"), ("value", "DE12")]).await;
    assert_eq!(status, 400);
    let error: ApiErrors = parse(&invalid["error"]);
    assert_eq!(error.code, Some(stripe_shared::ApiErrorsCode::TaxIdInvalid));
    assert_eq!(error.param.as_deref(), Some("value"));

    let (status, missing) = api.post(&path, &[("type", "eu_vat")]).await;
    assert_eq!(status, 400);
    assert_eq!(parse::<ApiErrors>(&missing["error"]).code, Some(stripe_shared::ApiErrorsCode::ParameterMissing));

    for value in ["12-3456789", "GB123456789", "123456789MVA", "CHE-123.456.789 MWST"] {
        let kind = match value.chars().next() {
            Some('G') => "gb_vat",
            Some('C') => "ch_vat",
            _ if value.ends_with("MVA") => "no_vat",
            _ => "us_ein",
        };
        let (status, body) = api.post(&path, &[("type", kind), ("value", value)]).await;
        assert_eq!(status, 200, "{kind} {value}: {body}");
    }
    let (status, sixth) = api.post(&path, &[("type", "au_abn"), ("value", "12345678912")]).await;
    assert_eq!(status, 400);
    assert_eq!(sixth["error"]["code"], "customer_max_tax_ids");
    parse::<ApiErrors>(&sixth["error"]);

    let (_, list) = api.get(&path).await;
    assert_eq!(parse::<List<TaxId>>(&list).data.len(), 5);
    let (status, deleted) = api.delete(&format!("{path}/{}", tax_id.id.as_str())).await;
    assert_eq!((status, deleted["deleted"].clone()), (200, Value::Bool(true)));

    let (status, updated) = api.post(&format!("/v1/customers/{id}"), &[("name", "Acme GmbH")]).await;
    assert_eq!(status, 200);
    assert_eq!(parse::<Customer>(&updated).name.as_deref(), Some("Acme GmbH"));
    let (status, unknown) = api.get("/v1/customers/cus_nope").await;
    assert_eq!(status, 404);
    assert_eq!(parse::<ApiErrors>(&unknown["error"]).code, Some(stripe_shared::ApiErrorsCode::ResourceMissing));
    assert_eq!(types(&double), ["customer.created", "customer.updated"]);
    check_events(&double);
}

#[tokio::test]
async fn products_and_prices_parse_and_filter() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (_, product) = api.post("/v1/products", &[("name", "Premium"), ("metadata[channel_id]", "c1")]).await;
    let product: Product = parse(&product);
    let id = product.id.as_str().to_owned();
    let (status, price) = api
        .post(
            "/v1/prices",
            &[("product", &id), ("unit_amount", "2500"), ("currency", "usd"), ("recurring[interval]", "month"), ("lookup_key", "c1")],
        )
        .await;
    assert_eq!(status, 200, "{price}");
    let price: Price = parse(&price);
    assert_eq!(price.unit_amount, Some(2500));
    let (_, got) = api.get(&format!("/v1/products/{id}")).await;
    parse::<Product>(&got);
    let (status, _) = api.post(&format!("/v1/prices/{}", price.id.as_str()), &[("active", "false")]).await;
    assert_eq!(status, 200);
    let (_, active) = api.get(&format!("/v1/prices?product={id}&active=true")).await;
    assert!(parse::<List<Price>>(&active).data.is_empty());
    let (_, all) = api.get(&format!("/v1/prices?product={id}")).await;
    assert_eq!(parse::<List<Price>>(&all).data.len(), 1);
    let (status, bad) = api.post("/v1/prices", &[("product", &id), ("currency", "usd")]).await;
    assert_eq!((status, bad["error"]["param"].clone()), (400, Value::from("unit_amount")));
}

#[tokio::test]
async fn subscription_starts_incomplete_with_a_prorated_invoice_to_the_first_of_next_month() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (customer, price) = customer_and_price(&api).await;
    let sub = subscribe(&api, &customer, &price).await;
    let parsed: Subscription = parse(&sub);
    assert_eq!(parsed.status, stripe_shared::SubscriptionStatus::Incomplete);
    let invoice = parsed.latest_invoice.as_ref().and_then(|i| i.as_object()).expect("expanded invoice");
    let secret = invoice.confirmation_secret.as_ref().expect("confirmation secret");
    assert!(secret.client_secret.starts_with("pi_") && secret.client_secret.contains("_secret_"));
    assert_eq!(secret.type_, "payment_intent");

    let now = double.now();
    let anchor = sub["billing_cycle_anchor"].as_i64().unwrap();
    let first = chrono::DateTime::from_timestamp(anchor, 0).unwrap();
    assert_eq!((chrono::Datelike::day(&first), chrono::Timelike::hour(&first)), (1, 0));
    assert!(anchor > now && anchor - now <= 31 * 86_400);
    assert_eq!(sub["items"]["data"][0]["current_period_end"], anchor);
    let amount = invoice.amount_due;
    assert!(amount > 0 && amount <= 3000, "prorated amount {amount}");

    let (_, retrieved) = api.get(&format!("/v1/subscriptions/{}?expand[]=latest_invoice", parsed.id.as_str())).await;
    let retrieved: Subscription = parse(&retrieved);
    let unexpanded = retrieved.latest_invoice.unwrap().into_object().unwrap();
    assert!(unexpanded.confirmation_secret.is_none(), "confirmation_secret only when expanded");
    let (_, list) = api.get(&format!("/v1/subscriptions?customer={customer}&expand[]=data.latest_invoice")).await;
    assert_eq!(parse::<List<Subscription>>(&list).data.len(), 1);
    assert_eq!(types(&double)[1..], ["invoice.created", "invoice.finalized", "customer.subscription.created"]);
    check_events(&double);
}

#[tokio::test]
async fn a_successful_first_payment_activates_the_subscription_and_saves_the_card() {
    let double = StripeDouble::start().await.unwrap();
    let endpoint = Endpoint::start(&double).await;
    let api = Api::new(&double);
    let (customer, price) = customer_and_price(&api).await;
    let sub = subscribe(&api, &customer, &price).await;
    let (status, intent) = pay_first_invoice(&double, &sub, "4242424242424242").await;
    assert_eq!(status, 200, "{intent}");
    let intent: PaymentIntent = parse(&intent);
    assert_eq!(intent.status, stripe_shared::PaymentIntentStatus::Succeeded);

    let sub_id = sub["id"].as_str().unwrap();
    let (_, now) = api.get(&format!("/v1/subscriptions/{sub_id}")).await;
    let now: Subscription = parse(&now);
    assert_eq!(now.status, stripe_shared::SubscriptionStatus::Active);
    let method = now.default_payment_method.expect("saved card").id().as_str().to_owned();
    let (_, card) = api.get(&format!("/v1/payment_methods/{method}")).await;
    let card: PaymentMethod = parse(&card);
    assert_eq!(card.card.as_ref().map(|c| c.last4.as_str()), Some("4242"));
    let (_, methods) = api.get(&format!("/v1/customers/{customer}/payment_methods")).await;
    assert_eq!(parse::<List<PaymentMethod>>(&methods).data.len(), 1);
    let (_, invoices) = api.get(&format!("/v1/invoices?customer={customer}&subscription={sub_id}&limit=10")).await;
    let invoices: List<Invoice> = parse(&invoices);
    assert_eq!(invoices.data[0].status, Some(stripe_shared::InvoiceStatus::Paid));
    let page = reqwest::get(invoices.data[0].hosted_invoice_url.clone().unwrap()).await.unwrap().text().await.unwrap();
    assert!(page.contains("paid"));

    double.settle().await;
    let received = endpoint.received();
    assert!(received.iter().all(|r| r.verified));
    let kinds: Vec<&str> = received.iter().map(|r| r.event_type.as_str()).collect();
    for expected in [
        "payment_method.attached",
        "payment_intent.succeeded",
        "invoice.paid",
        "invoice.payment_succeeded",
        "customer.subscription.updated",
    ] {
        assert!(kinds.contains(&expected), "{expected} missing from {kinds:?}");
    }
    assert!(double.deliveries().iter().all(|d| d.status == Some(200)));
    check_events(&double);
}

#[tokio::test]
async fn declined_cards_answer_stripes_card_errors() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (customer, price) = customer_and_price(&api).await;
    let sub = subscribe(&api, &customer, &price).await;
    let (status, error) = pay_first_invoice(&double, &sub, "4000000000000002").await;
    assert_eq!(status, 402);
    let parsed: ApiErrors = parse(&error["error"]);
    assert_eq!(parsed.type_, stripe_shared::ApiErrorsType::CardError);
    assert_eq!(parsed.code, Some(stripe_shared::ApiErrorsCode::CardDeclined));
    assert_eq!(parsed.decline_code.as_deref(), Some("generic_decline"));
    assert_eq!(parsed.message.as_deref(), Some("Your card was declined."));
    assert_eq!(parsed.payment_intent.unwrap().status, stripe_shared::PaymentIntentStatus::RequiresPaymentMethod);

    let (_, error) = pay_first_invoice(&double, &sub, "4000000000009995").await;
    assert_eq!(error["error"]["decline_code"], "insufficient_funds");
    let (status, ok) = pay_first_invoice(&double, &sub, "4242424242424242").await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(double.subscription(sub["id"].as_str().unwrap())["status"], "active");
    assert_eq!(double.events_of_type("invoice.payment_failed").len(), 2);
    check_events(&double);
}

#[tokio::test]
async fn authentication_required_cards_need_the_challenge() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (customer, price) = customer_and_price(&api).await;
    let sub = subscribe(&api, &customer, &price).await;
    let (status, intent) = pay_first_invoice(&double, &sub, "4000002500003155").await;
    assert_eq!(status, 200);
    let parsed: PaymentIntent = parse(&intent);
    assert_eq!(parsed.status, stripe_shared::PaymentIntentStatus::RequiresAction);
    let url = parsed.next_action.unwrap().redirect_to_url.unwrap().url.unwrap();
    let page = reqwest::get(&url).await.unwrap().text().await.unwrap();
    assert!(page.contains("Complete authentication") && page.contains("Fail authentication"));

    let failed = double.fail_authentication(parsed.id.as_str()).unwrap();
    assert_eq!(failed["status"], "requires_payment_method");
    assert_eq!(failed["last_payment_error"]["code"], "payment_intent_authentication_failure");
    let (_, again) = pay_first_invoice(&double, &sub, "4000002500003155").await;
    let done = double.complete_authentication(again["id"].as_str().unwrap()).unwrap();
    parse::<PaymentIntent>(&done);
    assert_eq!(done["status"], "succeeded");
    assert_eq!(double.subscription(sub["id"].as_str().unwrap())["status"], "active");
    assert_eq!(double.events_of_type("payment_intent.requires_action").len(), 2);
    check_events(&double);
}

async fn active_subscription(double: &StripeDouble, api: &Api, card: &str) -> String {
    let (customer, price) = customer_and_price(api).await;
    let sub = subscribe(api, &customer, &price).await;
    let (status, body) = pay_first_invoice(double, &sub, card).await;
    assert_eq!(status, 200, "{body}");
    sub["id"].as_str().unwrap().to_owned()
}

/// Sets up a card through a SetupIntent (publishable key + client secret, as Stripe.js does)
/// and makes it the subscription's default; returns the payment method id.
async fn switch_card(double: &StripeDouble, api: &Api, sub: &str, test_method: &str) -> String {
    let customer = double.subscription(sub)["customer"].as_str().unwrap().to_owned();
    let (status, setup) = api
        .post(
            "/v1/setup_intents",
            &[("customer", &customer), ("usage", "off_session"), ("payment_method_types[]", "card"), ("metadata[subscription]", sub)],
        )
        .await;
    assert_eq!(status, 200);
    let setup: SetupIntent = parse(&setup);
    let secret = setup.client_secret.clone().unwrap();
    let (status, confirmed) = Api::publishable(double)
        .post(&format!("/v1/setup_intents/{}/confirm", setup.id.as_str()), &[("client_secret", &secret), ("payment_method", test_method)])
        .await;
    assert_eq!(status, 200, "{confirmed}");
    let confirmed: SetupIntent = parse(&confirmed);
    assert_eq!(confirmed.status, stripe_shared::SetupIntentStatus::Succeeded);
    let method = confirmed.payment_method.unwrap().id().as_str().to_owned();
    let (status, updated) = api.post(&format!("/v1/subscriptions/{sub}"), &[("default_payment_method", &method)]).await;
    assert_eq!(status, 200, "{updated}");
    method
}

#[tokio::test]
async fn renewals_charge_the_saved_card_or_fall_past_due() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let good = active_subscription(&double, &api, "4242424242424242").await;
    let forced = active_subscription(&double, &api, "4242424242424242").await;
    let failing = active_subscription(&double, &api, "4242424242424242").await;
    switch_card(&double, &api, &failing, "pm_card_chargeCustomerFail").await;
    double.fail_next_renewal(&forced);
    let first_end = double.subscription(&good)["items"]["data"][0]["current_period_end"].as_i64().unwrap();

    double.advance_clock(chrono::Duration::days(32)).await;
    let renewed = double.subscription(&good);
    parse::<Subscription>(&renewed);
    assert_eq!(renewed["status"], "active");
    assert_eq!(renewed["items"]["data"][0]["current_period_start"], first_end);
    let invoice = double.invoice(renewed["latest_invoice"].as_str().unwrap());
    assert_eq!(
        (invoice["status"].as_str(), invoice["amount_paid"].as_i64(), invoice["billing_reason"].as_str()),
        (Some("paid"), Some(3000), Some("subscription_cycle"))
    );
    assert_eq!(double.subscription(&forced)["status"], "past_due");
    assert_eq!(double.subscription(&failing)["status"], "past_due");

    // The reader sets up a new card (SetupIntent) and pays the open invoice.
    let failing_sub = double.subscription(&failing);
    switch_card(&double, &api, &failing, "pm_card_visa").await;
    let open = failing_sub["latest_invoice"].as_str().unwrap();
    let (status, paid) = api.post(&format!("/v1/invoices/{open}/pay"), &[]).await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(parse::<Invoice>(&paid).status, Some(stripe_shared::InvoiceStatus::Paid));
    assert_eq!(double.subscription(&failing)["status"], "active");
    check_events(&double);
}

#[tokio::test]
async fn paying_an_invoice_with_a_failing_card_is_a_card_error() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let sub = active_subscription(&double, &api, "4242424242424242").await;
    switch_card(&double, &api, &sub, "pm_card_chargeCustomerFail").await;
    double.advance_clock(chrono::Duration::days(32)).await;
    let open = double.subscription(&sub)["latest_invoice"].as_str().unwrap().to_owned();
    let (status, error) = api.post(&format!("/v1/invoices/{open}/pay"), &[]).await;
    assert_eq!(status, 402);
    assert_eq!(parse::<ApiErrors>(&error["error"]).code, Some(stripe_shared::ApiErrorsCode::CardDeclined));
}

#[tokio::test]
async fn cancel_at_period_end_keeps_access_until_the_period_ends() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let sub = active_subscription(&double, &api, "4242424242424242").await;
    let (status, updated) = api.post(&format!("/v1/subscriptions/{sub}"), &[("cancel_at_period_end", "true")]).await;
    assert_eq!(status, 200);
    let updated: Subscription = parse(&updated);
    assert!(updated.cancel_at_period_end);
    assert_eq!(updated.status, stripe_shared::SubscriptionStatus::Active);
    double.advance_clock(chrono::Duration::days(32)).await;
    let ended: Subscription = parse(&double.subscription(&sub));
    assert_eq!(ended.status, stripe_shared::SubscriptionStatus::Canceled);
    assert_eq!(double.events_of_type("customer.subscription.deleted").len(), 1);
    check_events(&double);
}

#[tokio::test]
async fn deleting_cancels_now_and_unpaid_subscriptions_expire_after_23_hours() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let sub = active_subscription(&double, &api, "4242424242424242").await;
    let (status, deleted) = api.delete(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(status, 200);
    assert_eq!(parse::<Subscription>(&deleted).status, stripe_shared::SubscriptionStatus::Canceled);

    let (customer, price) = customer_and_price(&api).await;
    let unpaid = subscribe(&api, &customer, &price).await;
    double.advance_clock(chrono::Duration::hours(24)).await;
    let expired = double.subscription(unpaid["id"].as_str().unwrap());
    assert_eq!(parse::<Subscription>(&expired).status, stripe_shared::SubscriptionStatus::IncompleteExpired);
    check_events(&double);
}

#[tokio::test]
async fn a_price_change_moves_the_subscription_to_the_new_price_without_proration() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let sub = active_subscription(&double, &api, "4242424242424242").await;
    let current = double.subscription(&sub);
    let product = current["items"]["data"][0]["price"]["product"].as_str().unwrap().to_owned();
    let item = current["items"]["data"][0]["id"].as_str().unwrap().to_owned();
    let (_, price) = api
        .post("/v1/prices", &[("product", &product), ("unit_amount", "4500"), ("currency", "usd"), ("recurring[interval]", "month")])
        .await;
    let price = price["id"].as_str().unwrap();
    let (status, updated) = api
        .post(&format!("/v1/subscriptions/{sub}"), &[("items[0][id]", &item), ("items[0][price]", price), ("proration_behavior", "none")])
        .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(parse::<Subscription>(&updated).items.data[0].price.id.as_str(), price);
    let event = double.events_of_type("customer.subscription.updated").pop().unwrap();
    assert!(event["data"]["previous_attributes"]["items"].is_object());
    double.advance_clock(chrono::Duration::days(32)).await;
    let invoice = double.invoice(double.subscription(&sub)["latest_invoice"].as_str().unwrap());
    assert_eq!(invoice["amount_paid"], 4500);
    check_events(&double);
}

#[tokio::test]
async fn held_events_can_be_reordered_duplicated_replayed_and_badly_signed() {
    let double = StripeDouble::start().await.unwrap();
    let endpoint = Endpoint::start(&double).await;
    double.hold_events();
    let api = Api::new(&double);
    let (customer, price) = customer_and_price(&api).await;
    subscribe(&api, &customer, &price).await;
    let queued = double.queued();
    assert_eq!(queued.len(), 4);
    assert!(endpoint.received().is_empty());

    let ids: Vec<String> = queued.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    let delivered = double.deliver_in_order(&[&ids[3], &ids[0]]).await;
    assert_eq!(delivered.iter().map(|d| d.event_id.as_str()).collect::<Vec<_>>(), [ids[3].as_str(), ids[0].as_str()]);
    assert_eq!(double.queued().len(), 2);

    let copies = double.duplicate(&ids[3], 10).await;
    assert_eq!(copies.len(), 10);
    assert!(copies.iter().all(|d| d.status == Some(200)));
    assert_eq!(double.replay(&ids[0]).await.unwrap().status, Some(200));
    assert_eq!(double.deliver_signed(&ids[1], Signing::Stale).await.unwrap().status, Some(400));
    assert_eq!(double.deliver_signed(&ids[1], Signing::Bad).await.unwrap().status, Some(400));
    let rest = double.deliver_all().await;
    assert_eq!(rest.len(), 1);
    assert!(double.queued().is_empty());

    let received = endpoint.received();
    let refused: Vec<_> = received.iter().filter(|r| !r.verified).collect();
    assert_eq!(refused.len(), 2);
    for bad in refused {
        assert!(stripe_webhook::Webhook::construct_event(&bad.payload, &bad.signature, support::SECRET).is_err());
    }
}

#[tokio::test]
async fn idempotency_keys_replay_the_first_answer() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let (_, first) = api.post_idempotent("/v1/customers", &[("email", "x@y.test")], "key-1").await;
    let (_, second) = api.post_idempotent("/v1/customers", &[("email", "x@y.test")], "key-1").await;
    assert_eq!(first, second);
    let (_, list) = api.get("/v1/customers").await;
    assert_eq!(parse::<List<Customer>>(&list).data.len(), 1);
    assert_eq!(double.events_of_type("customer.created").len(), 1);
}

#[tokio::test]
async fn keys_are_checked_and_the_publishable_key_needs_the_client_secret() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    let publishable = Api::publishable(&double);
    let (status, _) = publishable.post("/v1/customers", &[("email", "x@y.test")]).await;
    assert_eq!(status, 401);
    let (customer, price) = customer_and_price(&api).await;
    let sub = subscribe(&api, &customer, &price).await;
    let secret = sub["latest_invoice"]["confirmation_secret"]["client_secret"].as_str().unwrap();
    let intent = secret.split("_secret_").next().unwrap();
    let (status, _) = publishable.get(&format!("/v1/payment_intents/{intent}")).await;
    assert_eq!(status, 400);
    let (status, got) = publishable.get(&format!("/v1/payment_intents/{intent}?client_secret={secret}")).await;
    assert_eq!(status, 200);
    parse::<PaymentIntent>(&got);
    let no_key = reqwest::get(format!("{}/v1/customers", double.base_url())).await.unwrap();
    assert_eq!(no_key.status().as_u16(), 401);
    let (status, _) = api.get("/v1/nothing_here").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn events_are_served_by_the_api_too() {
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    customer_and_price(&api).await;
    let (_, list) = api.get("/v1/events?type=customer.created").await;
    let list: List<stripe_shared::Event> = parse(&list);
    assert_eq!(list.data.len(), 1);
    let (status, _) = api.get(&format!("/v1/events/{}", list.data[0].id.as_str())).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_fake_stripe_js_and_the_http_controls_are_served() {
    let double = StripeDouble::start().await.unwrap();
    let js = reqwest::get(double.js_url()).await.unwrap();
    assert!(js.headers()["content-type"].to_str().unwrap().starts_with("application/javascript"));
    let js = js.text().await.unwrap();
    assert!(js.contains("window.Stripe") && js.contains(&double.base_url()));

    let http = reqwest::Client::new();
    let base = double.base_url();
    http.post(format!("{base}/_double/mode")).json(&serde_json::json!({"mode": "hold"})).send().await.unwrap();
    let api = Api::new(&double);
    customer_and_price(&api).await;
    let events: Value = http.get(format!("{base}/_double/events")).send().await.unwrap().json().await.unwrap();
    assert_eq!(events["queued"].as_array().unwrap().len(), 1);
    let before = double.now();
    let clock: Value =
        http.post(format!("{base}/_double/clock")).json(&serde_json::json!({"days": 2})).send().await.unwrap().json().await.unwrap();
    assert!(clock["now"].as_i64().unwrap() >= before + 2 * 86_400);
}

/// The double speaks the API version the server's async-stripe is built for, the one the README
/// tells operators to set on their webhook endpoint: events carry it (so `construct_event` has no
/// version mismatch to warn about), every answer says it in `Stripe-Version`, and the fake
/// Stripe.js is of its release train (which @stripe/stripe-js checks in the browser).
#[tokio::test]
async fn the_double_speaks_the_api_version_async_stripe_is_built_for() {
    let built_for = stripe_shared::version::VERSION.as_str();
    assert_eq!(stripe_double::api_version(), built_for);
    let readme = include_str!("../../../README.md").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(readme.contains(&format!("API version async-stripe is built for ({built_for})")), "the README names {built_for}");

    // A double started as `make run` and the browser tests start it (the binary's defaults).
    let double = StripeDouble::start().await.unwrap();
    let api = Api::new(&double);
    customer_and_price(&api).await;
    let events = double.events();
    assert!(!events.is_empty());
    for event in &events {
        assert_eq!(event["api_version"], built_for, "{}", event["type"]);
        let payload = event.to_string();
        let header = stripe_double::sign(&payload, support::SECRET, chrono::Utc::now().timestamp());
        let parsed = stripe_webhook::Webhook::construct_event(&payload, &header, support::SECRET).unwrap();
        assert_eq!(parsed.api_version, Some(stripe_shared::version::VERSION));
    }

    let answer = reqwest::Client::new().get(format!("{}/v1/events", double.base_url())).bearer_auth(&api.key).send().await.unwrap();
    assert_eq!(answer.headers()["stripe-version"], built_for);

    let train = built_for.split_once('.').expect("a version with its release train").1;
    let js = reqwest::get(double.js_url()).await.unwrap().text().await.unwrap();
    assert!(js.contains(&format!("Stripe.version = '{train}';")), "Stripe.js of release train {train}");
}
