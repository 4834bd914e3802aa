//! The calls Insights makes to Stripe (async-stripe 1.0), each one typed request. Errors keep
//! Stripe's code and message (a card decline is shown to the reader); the API key is never in
//! them, nor in logs.

use std::collections::HashMap;

use chrono::{DateTime, TimeZone, Utc};
use stripe::{Client, StripeRequest};
use stripe_billing::{
    invoice::{PayInvoice, RetrieveInvoice, VoidInvoiceInvoice},
    subscription::{
        CancelSubscription, CreateSubscription, CreateSubscriptionBillingCycleAnchorConfig, CreateSubscriptionItems,
        CreateSubscriptionPaymentBehavior, CreateSubscriptionPaymentSettings, CreateSubscriptionPaymentSettingsSaveDefaultPaymentMethod,
        CreateSubscriptionProrationBehavior, RetrieveSubscription, UpdateSubscription,
    },
    tax_id::{CreateCustomerTaxId, CreateCustomerTaxIdType, ListCustomerTaxId},
};
use stripe_core::{
    customer::{CreateCustomer, OptionalFieldsCustomerAddress, UpdateCustomer},
    setup_intent::{CreateSetupIntent, CreateSetupIntentAutomaticPaymentMethods, CreateSetupIntentUsage, RetrieveSetupIntent},
};
use stripe_product::{
    price::{CreatePrice, CreatePriceRecurring, CreatePriceRecurringInterval},
    product::CreateProduct,
};
use stripe_shared::{Invoice, SetupIntent, Subscription};
use stripe_types::Currency;

use crate::config::StripeConfig;

/// A Stripe account the server talks to (Stripe's, or a test double at `INSIGHTS_STRIPE_API_BASE`).
pub struct StripeApi {
    client: Client,
}

/// Why a call to Stripe did not succeed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StripeFailure {
    /// Stripe answered with an error: its code (e.g. `tax_id_invalid`, `card_declined`) and message.
    #[error("Stripe refused the request ({status} {code:?}): {message}")]
    Refused { status: u16, code: Option<String>, decline_code: Option<String>, message: String },
    /// Stripe could not be reached, or its answer could not be read.
    #[error("Stripe is unavailable: {0}")]
    Unavailable(String),
}

impl StripeFailure {
    pub fn code(&self) -> Option<&str> {
        match self {
            StripeFailure::Refused { code, .. } => code.as_deref(),
            StripeFailure::Unavailable(_) => None,
        }
    }
}

impl From<stripe::StripeError> for StripeFailure {
    fn from(error: stripe::StripeError) -> Self {
        match error {
            stripe::StripeError::Stripe(errors, status) => StripeFailure::Refused {
                status,
                code: errors.code.as_ref().map(|code| code.as_str().to_owned()),
                decline_code: errors.decline_code.clone(),
                message: errors.message.clone().unwrap_or_else(|| "Stripe refused the request.".to_owned()),
            },
            other => StripeFailure::Unavailable(other.to_string()),
        }
    }
}

pub type StripeResult<T> = Result<T, StripeFailure>;

/// The billing details a checkout collects (spec 3 §3 Billing info).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingAddress {
    pub line1: String,
    pub line2: Option<String>,
    pub city: String,
    pub state: Option<String>,
    pub postcode: String,
    /// ISO 3166-1 alpha-2, upper case.
    pub country: String,
}

impl BillingAddress {
    fn to_stripe(&self) -> OptionalFieldsCustomerAddress {
        OptionalFieldsCustomerAddress {
            line1: Some(self.line1.clone()),
            line2: self.line2.clone(),
            city: Some(self.city.clone()),
            state: self.state.clone(),
            postal_code: Some(self.postcode.clone()),
            country: Some(self.country.clone()),
        }
    }
}

/// A tax id on a customer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxIdEntry {
    pub type_: String,
    pub value: String,
}

impl StripeApi {
    /// The client of the configured account; None when Stripe is not configured.
    pub fn from_config(config: &StripeConfig) -> anyhow::Result<Option<StripeApi>> {
        let (Some(key), true) = (&config.secret_key, config.is_configured()) else { return Ok(None) };
        let mut builder = stripe::ClientBuilder::new(key.expose());
        if let Some(base) = &config.api_base {
            builder = builder.url(base.trim_end_matches('/'));
        }
        // The key is not in the error: only the builder's complaint about the settings.
        let client = builder.build().map_err(|error| anyhow::anyhow!("cannot build the Stripe client: {error}"))?;
        Ok(Some(StripeApi { client }))
    }

    pub async fn create_customer(&self, user_id: &str, email: &str, business_name: &str, address: &BillingAddress) -> StripeResult<String> {
        let customer = CreateCustomer::new()
            .email(email)
            .name(business_name)
            .business_name(business_name)
            .address(address.to_stripe())
            .metadata(HashMap::from([("insights_user_id".to_owned(), user_id.to_owned())]))
            .customize()
            .request_strategy(idempotent(&format!("customer-{user_id}")))
            .send(&self.client)
            .await?;
        Ok(customer.id.to_string())
    }

    pub async fn update_customer(&self, customer_id: &str, business_name: &str, address: &BillingAddress) -> StripeResult<()> {
        UpdateCustomer::new(customer_id.to_owned())
            .name(business_name)
            .business_name(business_name)
            .address(address.to_stripe())
            .send(&self.client)
            .await?;
        Ok(())
    }

    pub async fn tax_ids(&self, customer_id: &str) -> StripeResult<Vec<TaxIdEntry>> {
        let list = ListCustomerTaxId::new(customer_id.to_owned()).limit(100).send(&self.client).await?;
        Ok(list.data.into_iter().map(|tax_id| TaxIdEntry { type_: tax_id.type_.as_str().to_owned(), value: tax_id.value }).collect())
    }

    pub async fn add_tax_id(&self, customer_id: &str, type_: &str, value: &str) -> StripeResult<()> {
        let type_: CreateCustomerTaxIdType = type_.parse().unwrap_or_else(|never| match never {});
        CreateCustomerTaxId::new(customer_id.to_owned(), type_, value).send(&self.client).await?;
        Ok(())
    }

    /// A channel's Stripe product.
    pub async fn create_product(&self, channel_id: &str, name: &str) -> StripeResult<String> {
        let product = CreateProduct::new(name)
            .metadata(HashMap::from([("insights_channel_id".to_owned(), channel_id.to_owned())]))
            .customize()
            .request_strategy(idempotent(&format!("product-{channel_id}")))
            .send(&self.client)
            .await?;
        Ok(product.id.to_string())
    }

    /// A monthly USD price of `cents` for a channel's product.
    pub async fn create_price(&self, product_id: &str, channel_id: &str, cents: i64) -> StripeResult<String> {
        let price = CreatePrice::new(Currency::USD)
            .product(product_id)
            .unit_amount(cents)
            .recurring(CreatePriceRecurring::new(CreatePriceRecurringInterval::Month))
            .metadata(HashMap::from([("insights_channel_id".to_owned(), channel_id.to_owned())]))
            .customize()
            .request_strategy(idempotent(&format!("price-{channel_id}-{cents}")))
            .send(&self.client)
            .await?;
        Ok(price.id.to_string())
    }

    /// A subscription to `price_id` waiting for its first payment (`default_incomplete`), billed on
    /// the 1st of each month with the first period prorated; its latest invoice's confirmation
    /// secret is what the Payment Element confirms. `attempt` keys the call: the same attempt never
    /// creates two subscriptions.
    pub async fn create_subscription(
        &self,
        customer_id: &str,
        price_id: &str,
        metadata: HashMap<String, String>,
        attempt: &str,
    ) -> StripeResult<Subscription> {
        let mut settings = CreateSubscriptionPaymentSettings::new();
        settings.save_default_payment_method = Some(CreateSubscriptionPaymentSettingsSaveDefaultPaymentMethod::OnSubscription);
        let mut item = CreateSubscriptionItems::new();
        item.price = Some(price_id.to_owned());
        CreateSubscription::new()
            .customer(customer_id)
            .items(vec![item])
            .payment_behavior(CreateSubscriptionPaymentBehavior::DefaultIncomplete)
            .payment_settings(settings)
            .billing_cycle_anchor_config(CreateSubscriptionBillingCycleAnchorConfig::new(1))
            .proration_behavior(CreateSubscriptionProrationBehavior::CreateProrations)
            .metadata(metadata)
            .expand(vec!["latest_invoice.confirmation_secret".to_owned()])
            .customize()
            .request_strategy(idempotent(attempt))
            .send(&self.client)
            .await
            .map_err(Into::into)
    }

    /// A subscription as Stripe has it now, with its latest invoice and default payment method.
    pub async fn subscription(&self, subscription_id: &str) -> StripeResult<Subscription> {
        RetrieveSubscription::new(subscription_id.to_owned())
            .expand(vec!["latest_invoice.confirmation_secret".to_owned(), "default_payment_method".to_owned()])
            .send(&self.client)
            .await
            .map_err(Into::into)
    }

    /// Ends a subscription when its paid period ends.
    pub async fn cancel_at_period_end(&self, subscription_id: &str) -> StripeResult<Subscription> {
        UpdateSubscription::new(subscription_id.to_owned()).cancel_at_period_end(true).send(&self.client).await.map_err(Into::into)
    }

    /// Ends a subscription now (an unpaid checkout replaced by a new one).
    pub async fn cancel_now(&self, subscription_id: &str) -> StripeResult<Subscription> {
        CancelSubscription::new(subscription_id.to_owned()).send(&self.client).await.map_err(Into::into)
    }

    pub async fn set_default_payment_method(&self, subscription_id: &str, payment_method_id: &str) -> StripeResult<Subscription> {
        UpdateSubscription::new(subscription_id.to_owned())
            .default_payment_method(payment_method_id)
            .send(&self.client)
            .await
            .map_err(Into::into)
    }

    /// A setup intent to save a new card for a subscription (the card update).
    pub async fn create_setup_intent(&self, customer_id: &str, metadata: HashMap<String, String>) -> StripeResult<SetupIntent> {
        CreateSetupIntent::new()
            .customer(customer_id)
            .usage(CreateSetupIntentUsage::OffSession)
            .automatic_payment_methods(CreateSetupIntentAutomaticPaymentMethods::new(true))
            .metadata(metadata)
            .send(&self.client)
            .await
            .map_err(Into::into)
    }

    pub async fn setup_intent(&self, setup_intent_id: &str) -> StripeResult<SetupIntent> {
        RetrieveSetupIntent::new(setup_intent_id.to_owned()).send(&self.client).await.map_err(Into::into)
    }

    pub async fn invoice(&self, invoice_id: &str) -> StripeResult<Invoice> {
        RetrieveInvoice::new(invoice_id.to_owned())
            .expand(vec!["confirmation_secret".to_owned()])
            .send(&self.client)
            .await
            .map_err(Into::into)
    }

    /// Voids an open invoice: it can no longer be paid.
    pub async fn void_invoice(&self, invoice_id: &str) -> StripeResult<Invoice> {
        VoidInvoiceInvoice::new(invoice_id.to_owned()).send(&self.client).await.map_err(Into::into)
    }

    /// Charges an open invoice to `payment_method_id` now (after a card update).
    pub async fn pay_invoice(&self, invoice_id: &str, payment_method_id: &str) -> StripeResult<Invoice> {
        PayInvoice::new(invoice_id.to_owned()).payment_method(payment_method_id).send(&self.client).await.map_err(Into::into)
    }
}

fn idempotent(key: &str) -> stripe::RequestStrategy {
    match stripe::IdempotencyKey::new(key) {
        Ok(key) => stripe::RequestStrategy::Idempotent(key),
        Err(_) => stripe::RequestStrategy::Once,
    }
}

/// A Stripe time as a UTC instant.
pub fn time(timestamp: stripe_types::Timestamp) -> DateTime<Utc> {
    Utc.timestamp_opt(timestamp, 0).single().unwrap_or_default()
}
