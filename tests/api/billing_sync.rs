//! Card subscriptions stay true to Stripe without webhooks: the expiry schedule's reconcile reads
//! unpaid checkouts and ended periods again, so a reader who paid is never left without access.

use chrono::Utc;
use sqlx::PgPool;

use crate::{checkout::shop, support::stripe::pay};

#[sqlx::test(migrations = "./migrations")]
async fn a_payment_whose_webhooks_never_arrive_is_found_by_the_reconcile(pool: PgPool) {
    let shop = shop(pool).await;
    // The endpoint is down: nothing is ever delivered.
    shop.double.hold_events();
    let checkout = shop.checkout().await;
    let intent = pay(&shop.double, checkout["clientSecret"].as_str().unwrap(), "pm_card_visa").await;
    assert_eq!(intent["status"], "succeeded", "{intent}");
    assert_eq!(shop.mine().await, serde_json::Value::Null, "no event, no change yet");

    let changed = insights::billing::sync::reconcile(&shop.app.state, Utc::now()).await.unwrap();
    assert_eq!(changed, 1);
    let mine = shop.mine().await;
    assert_eq!((mine["subscriptionType"].as_str(), mine["subscriptionState"].as_str()), (Some("stripe"), Some("active")), "{mine}");
    // Nothing more to do the second time.
    assert_eq!(insights::billing::sync::reconcile(&shop.app.state, Utc::now()).await.unwrap(), 0);
}
