//! Paying for a premium channel (issue 13) against the Stripe test double: the card checkout from
//! the customer to Stripe's webhooks, tax id results, clearing account and invoice paths.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestApp, TestRole, error_code,
    stripe::{self, CREATE_CUSTOMER, CREATE_SUBSCRIPTION, StripeDouble, billing, pay, with_channel},
};

const MY_SUBSCRIPTION: &str = "query($c: ID!) { channel(id: $c) { userChannelSubscription { subscriptionType subscriptionState
    nextPayment cancelAt cancelAtPeriodEnd subscriptionId pricePerMonth paymentMethod { type details }
    status { effectiveState payable paymentFailedAlert } } } }";

pub struct Shop {
    pub app: TestApp,
    pub double: StripeDouble,
    pub admin: String,
    pub channel: String,
    pub reader: String,
    pub reader_id: String,
}

pub async fn shop(pool: PgPool) -> Shop {
    let (app, double) = stripe::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let channel = app.add_channel(&admin, TestApp::premium_channel("Metals Premium", &desk, &[])).await;
    let (reader, reader_id) = app.signed_in_reader("buyer@client.example").await;
    Shop { app, double, admin, channel, reader, reader_id }
}

impl Shop {
    pub async fn customer(&self, tax_id: Option<(&str, &str)>) -> Value {
        self.app.gql(Some(&self.reader), CREATE_CUSTOMER, with_channel(billing(tax_id), &self.channel)).await
    }

    /// Steps 1 and 2 of the card checkout: the customer, then the subscription to pay.
    pub async fn checkout(&self) -> Value {
        let customer = self.customer(None).await;
        assert_eq!(customer["data"]["createStripeCustomer"], "NotSet", "{customer}");
        let created = self.app.gql(Some(&self.reader), CREATE_SUBSCRIPTION, with_channel(billing(None), &self.channel)).await;
        assert!(created["errors"].is_null(), "{created}");
        created["data"]["createStripeSubscription"].clone()
    }

    pub async fn mine(&self) -> Value {
        let response = self.app.gql(Some(&self.reader), MY_SUBSCRIPTION, json!({ "c": self.channel })).await;
        response["data"]["channel"]["userChannelSubscription"].clone()
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_reader_pays_by_card_and_is_subscribed_when_stripe_says_so(pool: PgPool) {
    let shop = shop(pool).await;
    shop.double.hold_events();
    let checkout = shop.checkout().await;
    let secret = checkout["clientSecret"].as_str().unwrap_or_else(|| panic!("{checkout}"));
    assert!(secret.contains("_secret_"));
    assert_eq!(checkout["addressIsValid"], true);
    // Not paid: no access, whatever events say.
    shop.double.deliver_all().await;
    assert_eq!(shop.mine().await, Value::Null, "no subscription before the payment");

    let intent = pay(&shop.double, secret, "pm_card_visa").await;
    assert_eq!(intent["status"], "succeeded", "{intent}");
    let deliveries = shop.double.deliver_all().await;
    assert!(deliveries.iter().all(|d| d.status == Some(200)), "{deliveries:?}");
    let mine = shop.mine().await;
    assert_eq!(mine["subscriptionType"], "stripe", "{mine}");
    assert_eq!(mine["subscriptionState"], "active");
    assert_eq!(mine["status"]["payable"], true);
    assert_eq!(mine["pricePerMonth"], "49.50");
    assert_eq!(mine["subscriptionId"], checkout["subscriptionId"]);
    assert_eq!(mine["paymentMethod"]["details"], "Visa ending 4242");
    // Billed on the 1st.
    let next = mine["nextPayment"].as_str().unwrap();
    assert!(next.contains("-01T00:00:00"), "{next}");

    let invoices = shop.app.gql(Some(&shop.reader), "{ myInvoices { status amountPaid hostedInvoiceUrl channelName } }", json!({})).await;
    let invoices = invoices["data"]["myInvoices"].as_array().cloned().unwrap_or_default();
    assert_eq!(invoices.len(), 1, "{invoices:?}");
    assert_eq!(invoices[0]["status"], "paid");
    assert!(invoices[0]["hostedInvoiceUrl"].as_str().is_some_and(|u| u.starts_with("http")));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_second_checkout_reuses_the_unpaid_subscription(pool: PgPool) {
    let shop = shop(pool).await;
    let first = shop.checkout().await;
    let second = shop.checkout().await;
    assert_eq!(first["subscriptionId"], second["subscriptionId"], "no second subscription: {first} {second}");
    assert_eq!(first["clientSecret"], second["clientSecret"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn tax_id_results(pool: PgPool) {
    let shop = shop(pool).await;
    let result =
        |response: Value| response["data"]["createStripeCustomer"].as_str().map(str::to_owned).unwrap_or_else(|| panic!("{response}"));
    assert_eq!(result(shop.customer(None).await), "NotSet");
    assert_eq!(result(shop.customer(Some(("gb_vat", "GB123456789"))).await), "Success");
    assert_eq!(result(shop.customer(Some(("gb_vat", "GB123456789"))).await), "TaxIdAlreadyExists");
    assert_eq!(result(shop.customer(Some(("gb_vat", "not a vat"))).await), "TaxIdInvalidFormat");
    for n in 0..4 {
        assert_eq!(result(shop.customer(Some(("us_ein", &format!("12-345678{n}")))).await), "Success");
    }
    assert_eq!(result(shop.customer(Some(("us_ein", "12-3456789"))).await), "MaxTaxIDError");
    // An unknown type is refused before Stripe is asked.
    let unknown = shop.customer(Some(("xx_vat", "123"))).await;
    assert_eq!(error_code(&unknown), Some("BAD_USER_INPUT"), "{unknown}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_declined_card_grants_nothing(pool: PgPool) {
    let shop = shop(pool).await;
    let checkout = shop.checkout().await;
    let intent = pay(&shop.double, checkout["clientSecret"].as_str().unwrap(), "pm_card_chargeDeclined").await;
    assert_eq!(intent["error"]["code"], "card_declined", "{intent}");
    shop.double.settle().await;
    assert_eq!(shop.mine().await, Value::Null);
}
