//! Stripe's webhooks (issue 13) against the Stripe test double, through the real endpoint: events
//! out of order, duplicated at once, replayed later, badly signed or stale, forged, and about
//! things this portal does not know. Whatever arrives, the reader's subscription is what Stripe
//! says now, each change is applied once, and nothing is granted without a paid invoice.

use insights::billing::{
    sync::{self, Synced},
    webhook,
};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::{
    checkout::{CANCEL, Shop, secret_of, shop, subscription_of},
    subscriptions::email_requests,
    support::stripe::{self, Signing, pay, post_event, stored_events},
};

/// The id of the first queued event of `kind` whose object matches `pick`.
fn queued(shop: &Shop, kind: &str, pick: impl Fn(&Value) -> bool) -> String {
    let queue = shop.double.queued();
    let event = queue.iter().find(|e| e["type"] == kind && pick(&e["data"]["object"]));
    event.and_then(|e| e["id"].as_str()).map(str::to_owned).unwrap_or_else(|| {
        panic!("no queued {kind}: {:?}", queue.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect::<Vec<_>>())
    })
}

/// Card checkout paid with Visa while every event is held.
async fn paid_with_events_held(shop: &Shop) -> String {
    shop.double.hold_events();
    let checkout = shop.checkout().await;
    let intent = pay(&shop.double, secret_of(&checkout), "pm_card_visa").await;
    assert_eq!(intent["status"], "succeeded", "{intent}");
    assert_eq!(shop.mine().await, Value::Null, "nothing before an event arrives");
    subscription_of(&checkout).to_owned()
}

fn statuses(deliveries: &[stripe_double::Delivery]) -> Vec<Option<u16>> {
    deliveries.iter().map(|d| d.status).collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_endpoint_records_and_answers_and_a_job_applies(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let paid = queued(&shop, "invoice.paid", |_| true);
    let customer = queued(&shop, "customer.created", |_| true);

    assert_eq!(shop.double.deliver(&paid).await.unwrap().status, Some(200));
    assert_eq!(shop.double.deliver(&customer).await.unwrap().status, Some(200));
    // Answered before anything is applied: the event waits with its job.
    assert_eq!(shop.mine().await, Value::Null);
    let stored = stored_events(&shop.app).await;
    assert!(stored.contains(&(paid.clone(), "invoice.paid".to_owned(), "pending".to_owned())), "{stored:?}");
    assert!(stored.contains(&(customer.clone(), "customer.created".to_owned(), "ignored: customer.created not handled".to_owned())));
    assert_eq!(shop.app.jobs_like("apply_stripe_events").await, 1, "one job, for the handled event");

    assert_eq!(webhook::apply_pending(&shop.app.state).await.unwrap(), 1);
    assert_eq!(shop.mine().await["subscriptionState"], "active");
    let stored = stored_events(&shop.app).await;
    assert!(stored.contains(&(paid, "invoice.paid".to_owned(), "applied: cardPaid".to_owned())), "{stored:?}");
    assert_eq!(webhook::apply_pending(&shop.app.state).await.unwrap(), 0, "nothing is applied twice");
}

#[sqlx::test(migrations = "./migrations")]
async fn workers_applying_at_once_apply_each_event_once(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let ids: Vec<String> = shop.double.queued().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    let deliveries = shop.double.deliver_concurrently(&ids.iter().map(String::as_str).collect::<Vec<_>>()).await;
    assert_eq!(statuses(&deliveries), vec![Some(200); ids.len()]);

    let state = &shop.app.state;
    let (a, b, c) = tokio::join!(webhook::apply_pending(state), webhook::apply_pending(state), webhook::apply_pending(state));
    let pending: i64 =
        sqlx::query_scalar("select count(*) from stripe_event where applied_at is null").fetch_one(&shop.app.pool).await.unwrap();
    let handled: i64 = sqlx::query_scalar("select count(*) from stripe_event where outcome like 'applied:%' or outcome like 'refused:%'")
        .fetch_one(&shop.app.pool)
        .await
        .unwrap();
    assert_eq!((a.unwrap() + b.unwrap() + c.unwrap(), pending), (handled as u64, 0));
    assert_eq!(shop.audit(&shop.reader_id).await, [("stripe".to_owned(), "cardPaid".to_owned())]);
    assert_eq!(shop.emails("welcome", &shop.reader_id).await, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_burst_of_events_makes_one_job_until_a_worker_claims_it(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let ids: Vec<String> = shop.double.queued().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    let (first, rest) = ids.split_first().expect("events were held");
    let handled = |id: &String| shop.double.queued().iter().any(|e| e["id"] == id.as_str() && e["type"] != "customer.created");
    let handled_in_burst = rest.iter().filter(|id| handled(id)).count();
    assert!(handled_in_burst >= 4, "the checkout raised several handled events");
    let first_handled = handled(first);

    // One after another: each finds the job the first one made. (Deliveries at the same instant
    // cannot see each other's uncommitted job, so a burst makes a few jobs, not one per event.)
    for id in rest {
        assert_eq!(shop.double.deliver(id).await.unwrap().status, Some(200));
    }
    let jobs: Vec<(String, String, String)> = sqlx::query_as(
        "select status, run_at::text, convert_from(job, 'UTF8') from apalis.jobs where convert_from(job, 'UTF8') like '%apply_stripe_events%'",
    )
    .fetch_all(&shop.app.pool)
    .await
    .unwrap();
    // One as a rule (two were seen once on a loaded machine); never one per event.
    assert!(jobs.len() <= 2 && jobs.len() < handled_in_burst, "one waiting job takes the whole burst: {jobs:?}");

    // Once a worker has claimed it, the job may have looked already: a new event gets its own.
    sqlx::query("update apalis.jobs set status = 'Running' where convert_from(job, 'UTF8') like '%apply_stripe_events%'")
        .execute(&shop.app.pool)
        .await
        .unwrap();
    let resent = shop.double.deliver(first).await.unwrap();
    assert_eq!(resent.status, Some(200));
    let expected = jobs.len() as i64 + i64::from(first_handled);
    assert_eq!(shop.app.jobs_like("apply_stripe_events").await, expected);
    assert!(webhook::apply_pending(&shop.app.state).await.unwrap() >= 2);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_event_stays_pending_while_stripe_does_not_answer(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let paid = queued(&shop, "invoice.paid", |_| true);
    assert_eq!(shop.double.deliver(&paid).await.unwrap().status, Some(200));

    // A worker whose Stripe is unreachable (a closed port).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut config = shop.app.state.config.stripe.clone();
    config.api_base = Some(format!("http://{closed}"));
    let unreachable = insights::billing::stripe::StripeApi::from_config(&config).unwrap().map(std::sync::Arc::new);
    let cut_off = insights::AppState::from(insights::state::Services { stripe: unreachable, ..(*shop.app.state).clone() });
    let error = webhook::apply_pending(&cut_off).await.unwrap_err();
    assert_eq!(error.code(), "UNAVAILABLE");
    assert_eq!(shop.mine().await, Value::Null);
    let (outcome, attempts, waits): (String, i32, bool) =
        sqlx::query_as("select outcome, attempts, retry_at > now() + interval '20 seconds' from stripe_event where event_id = $1")
            .bind(&paid)
            .fetch_one(&shop.app.pool)
            .await
            .unwrap();
    assert_eq!(
        (outcome.as_str(), attempts, waits),
        ("retrying: The card payment provider is not answering. Please try again in a few minutes.", 1, true)
    );
    assert_eq!(webhook::apply_pending(&shop.app.state).await.unwrap(), 0, "it waits before the next attempt");

    // Its time comes and Stripe answers again: the retry applies it.
    sqlx::query("update stripe_event set retry_at = now() where event_id = $1").bind(&paid).execute(&shop.app.pool).await.unwrap();
    assert_eq!(webhook::apply_pending(&shop.app.state).await.unwrap(), 1);
    assert_eq!(shop.mine().await["subscriptionState"], "active");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_update_before_its_create_subscribes_once(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let updated = queued(&shop, "customer.subscription.updated", |s| s["status"] == "active");
    let created = queued(&shop, "customer.subscription.created", |_| true);

    let delivery = shop.double.deliver(&updated).await.unwrap();
    shop.settle().await;
    assert_eq!(delivery.status, Some(200), "{delivery:?}");
    assert_eq!(shop.mine().await["subscriptionState"], "active");
    let delivery = shop.double.deliver(&created).await.unwrap();
    shop.settle().await;
    assert_eq!(delivery.status, Some(200));
    let mine = shop.mine().await;
    assert_eq!(mine["subscriptionState"], "active", "the older 'incomplete' event does not undo it: {mine}");
    assert_eq!(mine["status"]["payable"], true);

    let rest = shop.double.deliver_all().await;
    shop.settle().await;
    assert!(rest.iter().all(|d| d.status == Some(200)), "{rest:?}");
    assert_eq!(shop.mine().await["subscriptionState"], "active");
    assert_eq!(shop.audit(&shop.reader_id).await, [("stripe".to_owned(), "cardPaid".to_owned())]);
    assert_eq!(shop.emails("welcome", &shop.reader_id).await, 1);
    let stored = stored_events(&shop.app).await;
    assert!(stored.iter().any(|(id, _, outcome)| *id == created && outcome == "applied: unchanged"), "{stored:?}");
}

#[sqlx::test(migrations = "./migrations")]
async fn events_in_reverse_order_end_as_stripe_says(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let mut ids: Vec<String> = shop.double.queued().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    ids.reverse();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let deliveries = shop.double.deliver_in_order(&ids).await;
    shop.settle().await;
    assert!(deliveries.iter().all(|d| d.status == Some(200)), "{deliveries:?}");
    let mine = shop.mine().await;
    assert_eq!((&mine["subscriptionState"], &mine["paymentMethod"]["details"]), (&json!("active"), &json!("Visa ending 4242")), "{mine}");
    assert_eq!(shop.audit(&shop.reader_id).await.len(), 1);
}

/// How often the app has read this subscription from Stripe.
fn subscription_reads(shop: &Shop, subscription: &str) -> usize {
    let read = format!("GET /v1/subscriptions/{subscription}");
    shop.double.api_calls().iter().filter(|call| **call == read).count()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_payments_events_at_once_are_applied_once_with_fewer_reads_than_events(pool: PgPool) {
    let shop = shop(pool).await;
    let subscription = paid_with_events_held(&shop).await;
    let queued = shop.double.queued();
    let ids: Vec<String> = queued.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    // The events applied by reading the subscription (the others are not about it).
    let about_it = queued
        .iter()
        .filter(|e| e["type"].as_str().is_some_and(|t| t.starts_with("customer.subscription.") || t.starts_with("invoice.")))
        .count();
    assert!(about_it >= 4, "a payment's events: {queued:?}");
    let reads_before = subscription_reads(&shop, &subscription);

    let deliveries = shop.double.deliver_concurrently(&ids.iter().map(String::as_str).collect::<Vec<_>>()).await;
    shop.settle().await;
    assert_eq!(statuses(&deliveries), vec![Some(200); ids.len()], "{deliveries:?}");
    let mine = shop.mine().await;
    assert_eq!((&mine["subscriptionState"], &mine["paymentMethod"]["details"]), (&json!("active"), &json!("Visa ending 4242")), "{mine}");
    assert_eq!(shop.audit(&shop.reader_id).await, [("stripe".to_owned(), "cardPaid".to_owned())]);
    assert_eq!(shop.emails("welcome", &shop.reader_id).await, 1);
    let stored = stored_events(&shop.app).await;
    assert_eq!(stored.len(), ids.len(), "each event stored once: {stored:?}");
    // Events that waited while another read the subscription are covered by that read.
    let reads = subscription_reads(&shop, &subscription) - reads_before;
    assert!(reads < about_it, "{reads} reads for {about_it} events about the subscription: {stored:?}");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_event_received_before_the_last_read_needs_no_read_of_its_own(pool: PgPool) {
    let shop = shop(pool).await;
    let subscription = paid_with_events_held(&shop).await;
    let paid = queued(&shop, "invoice.paid", |_| true);
    assert_eq!(shop.double.deliver(&paid).await.unwrap().status, Some(200));
    shop.settle().await;
    let read_at: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select read_at from billing_stripe_subscription where stripe_subscription_id = $1")
            .bind(&subscription)
            .fetch_one(&shop.app.pool)
            .await
            .unwrap();
    let stripe = shop.app.state.stripe.as_deref().unwrap();
    let jobs = shop.app.state.jobs.as_ref();
    let mut tx = shop.app.pool.begin().await.unwrap();
    let before = subscription_reads(&shop, &subscription);

    let earlier = read_at - chrono::Duration::milliseconds(1);
    let synced = sync::subscription_for_event(&mut tx, stripe, jobs, &subscription, earlier).await.unwrap();
    assert_eq!((synced, subscription_reads(&shop, &subscription)), (Synced::AlreadyRead, before));
    // Received when the read began (or later): the read may not include its change; read again.
    let synced = sync::subscription_for_event(&mut tx, stripe, jobs, &subscription, read_at).await.unwrap();
    assert_eq!((synced, subscription_reads(&shop, &subscription)), (Synced::Unchanged, before + 1));
}

#[sqlx::test(migrations = "./migrations")]
async fn an_older_update_after_a_newer_one_does_not_undo_the_cancel(pool: PgPool) {
    let shop = shop(pool).await;
    let subscription = paid_with_events_held(&shop).await;
    // The 'active' update (cancel_at_period_end false) is kept back; invoice.paid makes them subscribed.
    let old_active = queued(&shop, "customer.subscription.updated", |s| s["status"] == "active" && s["cancel_at_period_end"] == false);
    let paid = queued(&shop, "invoice.paid", |_| true);
    assert_eq!(shop.double.deliver(&paid).await.unwrap().status, Some(200));
    shop.settle().await;
    assert_eq!(shop.mine().await["subscriptionState"], "active");

    // The reader cancels at period end; Stripe's newer update arrives.
    let canceled = shop.app.gql(Some(&shop.reader), CANCEL, json!({ "c": shop.channel })).await;
    assert_eq!(canceled["data"]["cancelSubscription"]["cancelAtPeriodEnd"], true, "{canceled}");
    let newer = queued(&shop, "customer.subscription.updated", |s| s["cancel_at_period_end"] == true);
    assert_eq!(shop.double.deliver(&newer).await.unwrap().status, Some(200));
    shop.settle().await;
    let after_cancel = shop.mine().await;
    assert_eq!(after_cancel["cancelAtPeriodEnd"], true, "{after_cancel}");

    // Then the older 'active' one: nothing is undone.
    let delivery = shop.double.deliver(&old_active).await.unwrap();
    shop.settle().await;
    assert_eq!(delivery.status, Some(200));
    assert_eq!(shop.mine().await, after_cancel, "the older event changed nothing");
    let rest = shop.double.deliver_all().await;
    shop.settle().await;
    assert!(rest.iter().all(|d| d.status == Some(200)), "{rest:?}");
    assert_eq!(shop.mine().await, after_cancel);
    let mirror: (String, bool) =
        sqlx::query_as("select status, cancel_at_period_end from billing_stripe_subscription where stripe_subscription_id = $1")
            .bind(&subscription)
            .fetch_one(&shop.app.pool)
            .await
            .unwrap();
    assert_eq!(mirror, ("active".to_owned(), true));
}

#[sqlx::test(migrations = "./migrations")]
async fn one_event_delivered_ten_times_at_once_is_applied_once(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let paid = queued(&shop, "invoice.paid", |_| true);
    let deliveries = shop.double.duplicate(&paid, 10).await;
    shop.settle().await;
    assert_eq!(statuses(&deliveries), vec![Some(200); 10], "{deliveries:?}");
    let stored = stored_events(&shop.app).await;
    let rows: Vec<_> = stored.iter().filter(|(id, ..)| *id == paid).collect();
    assert_eq!(rows.len(), 1, "{stored:?}");
    assert_eq!(rows[0].2, "applied: cardPaid");
    assert_eq!(shop.audit(&shop.reader_id).await, [("stripe".to_owned(), "cardPaid".to_owned())]);
    assert_eq!(shop.emails("welcome", &shop.reader_id).await, 1);

    // The rest, each ten times at once too.
    for event in shop.double.queued() {
        let id = event["id"].as_str().unwrap();
        let deliveries = shop.double.duplicate(id, 10).await;
        shop.settle().await;
        assert_eq!(statuses(&deliveries), vec![Some(200); 10], "{id}: {deliveries:?}");
    }
    let stored = stored_events(&shop.app).await;
    let mut ids: Vec<&str> = stored.iter().map(|(id, ..)| id.as_str()).collect();
    let count = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), count, "one row per event");
    assert_eq!(count, shop.double.events().len(), "every event stored once");
    assert_eq!(shop.audit(&shop.reader_id).await.len(), 1);
    assert_eq!(shop.emails("welcome", &shop.reader_id).await, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_event_replayed_a_day_later_changes_nothing(pool: PgPool) {
    let shop = shop(pool).await;
    let subscription = shop.subscribe_by_card().await;
    let stored = stored_events(&shop.app).await;
    let before = shop.mine().await;
    // A day passes (the stored events were received a day ago; Stripe's clock moves on).
    sqlx::query("update stripe_event set received_at = received_at - interval '1 day'").execute(&shop.app.pool).await.unwrap();
    shop.double.hold_events();
    shop.double.advance_clock(chrono::Duration::hours(20)).await;
    let mut replayed = 0;
    for kind in ["customer.subscription.created", "customer.subscription.updated", "invoice.paid", "invoice.payment_succeeded"] {
        for event in shop.double.events_of_type(kind) {
            let delivery = shop.double.replay(event["id"].as_str().unwrap()).await.unwrap();
            shop.settle().await;
            assert_eq!(delivery.status, Some(200), "{kind}: {delivery:?}");
            replayed += 1;
        }
    }
    assert!(replayed >= 3, "{replayed}");
    assert_eq!(stored_events(&shop.app).await, stored, "no new row, no outcome changed");
    assert_eq!(shop.mine().await, before);
    assert_eq!(shop.audit(&shop.reader_id).await.len(), 1);
    assert_eq!(shop.double.subscription(&subscription)["status"], "active");
}

#[sqlx::test(migrations = "./migrations")]
async fn badly_signed_and_stale_events_are_refused_and_change_nothing(pool: PgPool) {
    let shop = shop(pool).await;
    paid_with_events_held(&shop).await;
    let ids: Vec<String> = shop.double.queued().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    for id in &ids {
        for signing in [Signing::Bad, Signing::Stale] {
            let delivery = shop.double.deliver_signed(id, signing).await.unwrap();
            shop.settle().await;
            assert_eq!(delivery.status, Some(400), "{signing:?}: {delivery:?}");
        }
    }
    // No signature at all, or one over another body.
    let event = shop.double.event(&ids[0]).unwrap().to_string();
    let unsigned = shop.app.client.post(shop.app.url("/webhooks/stripe")).body(event.clone()).send().await.unwrap();
    assert_eq!(unsigned.status(), 400);
    let header = stripe_double::sign("{}", stripe::WEBHOOK_SECRET, chrono::Utc::now().timestamp());
    let swapped =
        shop.app.client.post(shop.app.url("/webhooks/stripe")).header("stripe-signature", header).body(event).send().await.unwrap();
    assert_eq!(swapped.status(), 400);

    assert_eq!(stored_events(&shop.app).await, [], "nothing stored");
    assert_eq!(shop.mine().await, Value::Null, "nothing changed");
    assert!(shop.audit(&shop.reader_id).await.is_empty());
    // The same events, signed right, are applied (and were not taken as seen).
    let deliveries = shop.double.deliver_in_order(&ids.iter().map(String::as_str).collect::<Vec<_>>()).await;
    shop.settle().await;
    assert!(deliveries.iter().all(|d| d.status == Some(200)), "{deliveries:?}");
    assert_eq!(shop.mine().await["subscriptionState"], "active");
}

#[sqlx::test(migrations = "./migrations")]
async fn forged_events_grant_nothing_without_a_paid_invoice(pool: PgPool) {
    let shop = shop(pool).await;
    shop.double.hold_events();
    let checkout = shop.checkout().await;
    let subscription = subscription_of(&checkout).to_owned();
    let created = queued(&shop, "customer.subscription.created", |_| true);
    // The real event, made to say 'active'.
    let mut forged = shop.double.event(&created).unwrap();
    forged["id"] = json!("evt_forged_active");
    forged["type"] = json!("customer.subscription.updated");
    forged["data"]["object"]["status"] = json!("active");
    forged["data"]["previous_attributes"] = json!({ "status": "incomplete" });
    let payload = forged.to_string();

    // Signed with another secret: refused, not stored.
    assert_eq!(post_event(&shop.app, &payload, "whsec_forger").await, 400);
    shop.settle().await;
    assert_eq!(stored_events(&shop.app).await, []);
    assert_eq!(shop.mine().await, Value::Null);

    // Even signed with the endpoint's secret: Stripe is asked, says incomplete, nothing is granted.
    assert_eq!(post_event(&shop.app, &payload, stripe::WEBHOOK_SECRET).await, 200);
    shop.settle().await;
    assert_eq!(shop.mine().await, Value::Null);
    let stored = stored_events(&shop.app).await;
    assert_eq!(stored, [("evt_forged_active".to_owned(), "customer.subscription.updated".to_owned(), "applied: unchanged".to_owned())]);
    // An invoice event claiming paid for the unpaid invoice: the same.
    let invoice_id = shop.double.subscription(&subscription)["latest_invoice"].as_str().unwrap().to_owned();
    let finalized = queued(&shop, "invoice.finalized", |i| i["id"] == invoice_id.as_str());
    let mut forged = shop.double.event(&finalized).unwrap();
    forged["id"] = json!("evt_forged_paid");
    forged["type"] = json!("invoice.paid");
    forged["data"]["object"]["status"] = json!("paid");
    forged["data"]["object"]["amount_paid"] = forged["data"]["object"]["amount_due"].clone();
    assert_eq!(post_event(&shop.app, &forged.to_string(), stripe::WEBHOOK_SECRET).await, 200);
    shop.settle().await;
    assert_eq!(shop.mine().await, Value::Null);
    assert!(shop.audit(&shop.reader_id).await.is_empty());
    assert_eq!(email_requests(&shop.app, "welcome").await, []);
    // The real events change nothing either: nobody paid.
    let deliveries = shop.double.deliver_all().await;
    shop.settle().await;
    assert!(deliveries.iter().all(|d| d.status == Some(200)), "{deliveries:?}");
    assert_eq!(shop.mine().await, Value::Null);
    assert_eq!(shop.double.subscription(&subscription)["status"], "incomplete");
}

#[sqlx::test(migrations = "./migrations")]
async fn events_about_unknown_things_are_answered_and_logged(pool: PgPool) {
    let shop = shop(pool).await;
    shop.double.hold_events();
    shop.checkout().await;
    // A type the portal does not handle.
    let customer_created = queued(&shop, "customer.created", |_| true);
    assert_eq!(shop.double.deliver(&customer_created).await.unwrap().status, Some(200));
    shop.settle().await;
    // A subscription no checkout here made.
    let created = queued(&shop, "customer.subscription.created", |_| true);
    let mut foreign = shop.double.event(&created).unwrap();
    foreign["id"] = json!("evt_foreign");
    foreign["data"]["object"]["id"] = json!("sub_made_elsewhere");
    assert_eq!(post_event(&shop.app, &foreign.to_string(), stripe::WEBHOOK_SECRET).await, 200);
    shop.settle().await;
    let stored = stored_events(&shop.app).await;
    let outcome = |id: &str| stored.iter().find(|(event, ..)| event == id).map(|(.., outcome)| outcome.clone());
    assert_eq!(outcome(&customer_created).as_deref(), Some("ignored: customer.created not handled"), "{stored:?}");
    assert_eq!(outcome("evt_foreign").as_deref(), Some("ignored: unknown subscription"), "{stored:?}");
    // Not JSON of an event at all, but signed: refused.
    assert_eq!(post_event(&shop.app, "{\"hello\":1}", stripe::WEBHOOK_SECRET).await, 400);
    shop.settle().await;
}
