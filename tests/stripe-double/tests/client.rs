//! The real async-stripe client against the double: what it encodes is what the double parses.

use stripe::ClientBuilder;
use stripe_billing::subscription::{
    CreateSubscription, CreateSubscriptionBillingCycleAnchorConfig, CreateSubscriptionItems, CreateSubscriptionPaymentBehavior,
    CreateSubscriptionPaymentSettings, CreateSubscriptionPaymentSettingsSaveDefaultPaymentMethod, RetrieveSubscription,
};
use stripe_core::customer::CreateCustomer;
use stripe_double::StripeDouble;

#[tokio::test]
async fn async_stripe_creates_a_customer_and_an_expanded_subscription() {
    let double = StripeDouble::start().await.unwrap();
    let client = ClientBuilder::new("sk_test_double").url(double.base_url()).build().unwrap();
    let customer = CreateCustomer::new().name("Acme").email("billing@acme.test").send(&client).await.unwrap();

    let api = reqwest::Client::new();
    let form = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let product: serde_json::Value = api
        .post(format!("{}/v1/products", double.base_url()))
        .bearer_auth("sk_test_double")
        .form(&form(&[("name", "Premium")]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let price: serde_json::Value = api
        .post(format!("{}/v1/prices", double.base_url()))
        .bearer_auth("sk_test_double")
        .form(&form(&[
            ("product", product["id"].as_str().unwrap()),
            ("unit_amount", "1500"),
            ("currency", "usd"),
            ("recurring[interval]", "month"),
        ]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    let mut item = CreateSubscriptionItems::new();
    item.price = Some(price["id"].as_str().unwrap().to_owned());
    let mut settings = CreateSubscriptionPaymentSettings::new();
    settings.save_default_payment_method = Some(CreateSubscriptionPaymentSettingsSaveDefaultPaymentMethod::OnSubscription);
    let sub = CreateSubscription::new()
        .customer(customer.id.as_str())
        .items(vec![item])
        .payment_behavior(CreateSubscriptionPaymentBehavior::DefaultIncomplete)
        .payment_settings(settings)
        .billing_cycle_anchor_config(CreateSubscriptionBillingCycleAnchorConfig::new(1))
        .metadata([("channel_id".to_owned(), "c1".to_owned())].into_iter().collect::<std::collections::HashMap<_, _>>())
        .expand(vec!["latest_invoice.confirmation_secret".to_owned()])
        .send(&client)
        .await
        .unwrap();
    assert_eq!(sub.status, stripe_shared::SubscriptionStatus::Incomplete);
    assert_eq!(sub.metadata.get("channel_id").map(String::as_str), Some("c1"));
    let secret = sub.latest_invoice.as_ref().and_then(|i| i.as_object()).and_then(|i| i.confirmation_secret.clone()).unwrap();
    assert!(secret.client_secret.contains("_secret_"));

    let again = RetrieveSubscription::new(sub.id.clone()).expand(vec!["latest_invoice".to_owned()]).send(&client).await.unwrap();
    assert_eq!(again.id, sub.id);
    assert!(again.latest_invoice.unwrap().is_object());
}
