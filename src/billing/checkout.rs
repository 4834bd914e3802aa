//! The reader's checkout of a premium channel (spec 3 §2 Checkout, §4, §5 Billing, §7): business
//! and tax identification, billing information, then payment by card (a Stripe subscription the
//! Payment Element pays), by clearing account, or by invoice.
//!
//! No reader is charged twice: a second card checkout of the same channel reuses the first one's
//! unpaid subscription, and Stripe's idempotency keys make retried calls return what the first
//! made. No access without payment: a card subscription starts only when Stripe says it is paid
//! (`sync`); nothing a client sends can start it.

use std::collections::HashMap;

use sqlx::{PgConnection, PgPool};
use stripe_types::Expandable;

use super::{
    countries, queries,
    stripe::{BillingAddress, StripeApi, StripeFailure},
    sync::{self, unavailable},
};
use crate::{
    AppState,
    channels::ChannelType,
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result},
    subscriptions::{
        machine::{self, Event},
        model::SubscriptionType,
        service::{self, Caller, SubscriptionChannel},
        store::{Actor, Route},
    },
    validation::{optional_email, optional_text, required_text},
};

/// At most this many tax ids per reader (spec 3 §9).
pub const MAX_TAX_IDS: usize = 5;
pub const INVALID_POSTCODE: &str = "Please enter a valid postcode";
pub const INVALID_TAX_ID: &str = "Invalid Tax ID.";
pub const MAX_TAX_IDS_MESSAGE: &str = "We only support up to 5 tax IDs per user.";
pub const NO_CUSTOMER: &str = "Please complete your business and tax identification first.";
pub const NOT_YOUR_ACCOUNT: &str = "This account number is not one of your billing accounts.";
/// The most a card payment may be: Stripe takes amounts of at most 8 digits in cents (USD
/// 999,999.99). A channel may cost more (prices have up to 18 digits): such a price is paid by
/// clearing account or invoice, and the web app shows the card option disabled.
pub const CARD_MAX_CENTS: i128 = 99_999_999;
pub const CARD_LIMIT_MESSAGE: &str = "Card payments are limited to $999,999.99 a month: choose a clearing account or an invoice.";

/// The outcome of adding the reader's tax id (spec 3 §3 tax id result codes). Success,
/// TaxIdAlreadyExists and NotSet let the checkout go on; the others block it.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(name = "TaxIdResult", rename_items = "PascalCase")]
pub enum TaxIdResult {
    NotSet,
    #[graphql(name = "MaxTaxIDError")]
    MaxTaxIdError,
    TaxIdAlreadyExists,
    TaxIdInvalidFormat,
    UnknownError,
    Success,
}

/// The reader's business and billing details (spec 3 §3 Billing info), as sent.
#[derive(Debug, Clone, Default)]
pub struct BillingInput {
    pub business_name: Option<String>,
    pub tax_id: Option<String>,
    pub tax_id_type: Option<String>,
    pub address_line1: Option<String>,
    pub address_line2: Option<String>,
    pub address_state: Option<String>,
    pub address_city: Option<String>,
    pub address_postcode: Option<String>,
    pub address_country_code: Option<String>,
}

/// Billing details that passed the checks.
#[derive(Debug, Clone)]
pub struct BillingInfo {
    pub business_name: String,
    /// (type, value), when given.
    pub tax_id: Option<(String, String)>,
    pub address: BillingAddress,
}

/// Checks the billing details (spec 3 §5 Billing). `with_tax_type`: the tax id's type is sent too
/// (createStripeCustomer); createStripeSubscription sends the rest.
pub fn validate_billing(input: &BillingInput, with_tax_type: bool) -> Result<BillingInfo> {
    let mut fields = FieldErrors::new();
    let text = |v: &Option<String>| v.as_deref().unwrap_or_default().to_owned();
    let business_name = required_text(&mut fields, "businessName", &text(&input.business_name), 200);
    let line1 = required_text(&mut fields, "addressLine1", &text(&input.address_line1), 200);
    let line2 = optional_text(&mut fields, "addressLine2", input.address_line2.as_deref(), 200);
    let city = required_text(&mut fields, "addressCity", &text(&input.address_city), 100);
    let state = optional_text(&mut fields, "addressState", input.address_state.as_deref(), 100);
    let country = text(&input.address_country_code).trim().to_uppercase();
    if country.is_empty() {
        fields.insert("addressCountryCode".into(), REQUIRED_MESSAGE.into());
    } else if !countries::is_country(&country) {
        fields.insert("addressCountryCode".into(), "Please choose a country".into());
    }
    let postcode = text(&input.address_postcode).trim().to_uppercase();
    if postcode.is_empty() {
        fields.insert("addressPostcode".into(), REQUIRED_MESSAGE.into());
    } else if !is_valid_postcode(&country, &postcode) {
        fields.insert("addressPostcode".into(), INVALID_POSTCODE.into());
    }
    let tax_value = optional_text(&mut fields, "taxId", input.tax_id.as_deref(), 100);
    let tax_id = if with_tax_type {
        let tax_type = optional_text(&mut fields, "taxIdType", input.tax_id_type.as_deref(), 20);
        match (tax_type, tax_value) {
            (Some(kind), Some(value)) if countries::is_stripe_type(&kind) => Some((kind, value)),
            (Some(_), Some(_)) => {
                fields.insert("taxIdType".into(), INVALID_TAX_ID.into());
                None
            }
            (None, Some(_)) => {
                fields.insert("taxIdType".into(), REQUIRED_MESSAGE.into());
                None
            }
            (_, None) => None,
        }
    } else {
        tax_value.map(|value| (String::new(), value))
    };
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(BillingInfo { business_name, tax_id, address: BillingAddress { line1, line2, city, state, postcode, country } })
}

/// A postcode that can be one for the country: the formats of the countries most readers are in,
/// and otherwise 2 to 10 letters, digits, spaces or dashes with at least one digit.
pub fn is_valid_postcode(country: &str, postcode: &str) -> bool {
    let chars: Vec<char> = postcode.chars().collect();
    let digits = |range: std::ops::Range<usize>| range.clone().all(|i| chars.get(i).is_some_and(char::is_ascii_digit));
    let letter = |i: usize| chars.get(i).is_some_and(char::is_ascii_alphabetic);
    match country {
        "US" => (chars.len() == 5 && digits(0..5)) || (chars.len() == 10 && digits(0..5) && chars[5] == '-' && digits(6..10)),
        "CA" => {
            let compact: Vec<char> = chars.iter().copied().filter(|c| *c != ' ').collect();
            compact.len() == 6
                && compact.iter().enumerate().all(|(i, c)| if i % 2 == 0 { c.is_ascii_alphabetic() } else { c.is_ascii_digit() })
        }
        "GB" => {
            // Outward code (A9, A99, AA9, AA99, A9A, AA9A), a space, inward code (9AA).
            let Some((outward, inward)) = postcode.split_once(' ') else { return false };
            let inward: Vec<char> = inward.chars().collect();
            let outward_ok = (2..=4).contains(&outward.len())
                && outward.starts_with(|c: char| c.is_ascii_alphabetic())
                && outward.chars().all(|c| c.is_ascii_alphanumeric())
                && outward.chars().any(|c| c.is_ascii_digit());
            outward_ok
                && inward.len() == 3
                && inward[0].is_ascii_digit()
                && inward[1].is_ascii_alphabetic()
                && inward[2].is_ascii_alphabetic()
        }
        "DE" | "FR" | "IT" | "ES" | "FI" | "MX" => chars.len() == 5 && digits(0..5),
        "AU" | "BE" | "CH" | "DK" | "NO" | "AT" | "LU" | "NZ" | "ZA" => chars.len() == 4 && digits(0..4),
        "NL" => chars.len() == 7 && digits(0..4) && chars[4] == ' ' && letter(5) && letter(6),
        "IE" => chars.len() == 8 && chars[3] == ' ' && chars.iter().enumerate().all(|(i, c)| i == 3 || c.is_ascii_alphanumeric()),
        _ => {
            (2..=10).contains(&chars.len())
                && chars.iter().all(|c| c.is_ascii_alphanumeric() || *c == ' ' || *c == '-')
                && chars.iter().any(char::is_ascii_digit)
        }
    }
}

/// The reader asking, as checkout needs them.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    pub user_id: &'a str,
    pub email: &'a str,
}

/// A premium channel one may buy: active, with a price.
async fn buyable_channel(conn: &mut PgConnection, channel_id: &str) -> Result<SubscriptionChannel> {
    let channel = service::lock_channel(conn, channel_id).await?;
    if channel.archived {
        return Err(Error::Conflict(machine::ARCHIVED.into()));
    }
    if channel.channel_type != ChannelType::Premium {
        return Err(Error::field("channelId", machine::PREMIUM_ONLY));
    }
    if channel.price.as_deref().and_then(cents_of).is_none() {
        return Err(Error::field("channelId", "This channel has no price."));
    }
    Ok(channel)
}

/// The channel's monthly price in cents for a card subscription: refused above what Stripe takes.
fn card_cents(channel: &SubscriptionChannel) -> Result<i64> {
    let cents = channel.price.as_deref().and_then(cents_of).unwrap_or_default();
    match i64::try_from(cents) {
        Ok(cents) if i128::from(cents) <= CARD_MAX_CENTS => Ok(cents),
        _ => Err(Error::field("paymentType", CARD_LIMIT_MESSAGE)),
    }
}

/// "49.5" → 4950; none for no price (0). In i128: a price of 18 digits is 10^20 cents.
fn cents_of(price: &str) -> Option<i128> {
    let (whole, fraction) = price.split_once('.').unwrap_or((price, ""));
    if whole.len() > 30 {
        return None;
    }
    let fraction = format!("{fraction:0<2}");
    let cents = whole.parse::<i128>().ok()? * 100 + fraction.get(..2)?.parse::<i128>().ok()?;
    (cents > 0).then_some(cents)
}

/// Creates (or updates) the reader's Stripe customer with their business details, and adds their
/// tax id: one customer per reader, whatever the channel.
pub async fn create_customer(
    state: &AppState,
    stripe: &StripeApi,
    reader: &Reader<'_>,
    channel_id: &str,
    info: &BillingInfo,
) -> Result<TaxIdResult> {
    {
        let mut conn = state.pool.acquire().await?;
        buyable_channel(&mut conn, channel_id).await?;
    }
    let customer_id = save_customer(&state.pool, stripe, reader, info).await?;
    let Some((kind, value)) = &info.tax_id else { return Ok(TaxIdResult::NotSet) };
    let existing = stripe.tax_ids(&customer_id).await.map_err(unavailable)?;
    let normalized = |v: &str| v.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_uppercase();
    let result = if existing.iter().any(|t| t.type_ == *kind && normalized(&t.value) == normalized(value)) {
        TaxIdResult::TaxIdAlreadyExists
    } else if existing.len() >= MAX_TAX_IDS {
        TaxIdResult::MaxTaxIdError
    } else {
        match stripe.add_tax_id(&customer_id, kind, value).await {
            Ok(()) => TaxIdResult::Success,
            Err(StripeFailure::Refused { code: Some(code), .. }) if code == "tax_id_invalid" => TaxIdResult::TaxIdInvalidFormat,
            Err(failure @ StripeFailure::Refused { .. }) => {
                tracing::warn!(%failure, "Stripe refused a tax id");
                TaxIdResult::UnknownError
            }
            Err(failure) => return Err(unavailable(failure)),
        }
    };
    if matches!(result, TaxIdResult::Success | TaxIdResult::TaxIdAlreadyExists) {
        queries::set_customer_tax_id(&state.pool, reader.user_id, value, kind).await?;
    }
    Ok(result)
}

/// The reader's Stripe customer, created on their first checkout and kept up to date after.
async fn save_customer(pool: &PgPool, stripe: &StripeApi, reader: &Reader<'_>, info: &BillingInfo) -> Result<String> {
    let existing = queries::stripe_customer_id(pool, reader.user_id).await?;
    let customer_id = match existing {
        Some(id) => {
            stripe.update_customer(&id, &info.business_name, &info.address).await.map_err(unavailable)?;
            id
        }
        None => stripe.create_customer(reader.user_id, reader.email, &info.business_name, &info.address).await.map_err(unavailable)?,
    };
    queries::save_customer(pool, reader.user_id, &customer_id, &info.business_name, &info.address).await?;
    Ok(customer_id)
}

/// What the Payment Element needs to pay a card subscription.
#[derive(Debug, Clone)]
pub struct CardCheckout {
    pub subscription_id: String,
    pub client_secret: String,
    pub address_is_valid: bool,
}

/// Creates the reader's card subscription to a channel (or returns the unpaid one a previous
/// attempt created), on the channel's current monthly price, billed on the 1st.
pub async fn create_card_subscription(
    state: &AppState,
    stripe: &StripeApi,
    reader: &Reader<'_>,
    channel_id: &str,
    info: &BillingInfo,
) -> Result<CardCheckout> {
    let customer_id =
        queries::stripe_customer_id(&state.pool, reader.user_id).await?.ok_or_else(|| Error::Conflict(NO_CUSTOMER.into()))?;
    // The details of the billing step may have changed since the first step.
    save_customer(&state.pool, stripe, reader, info).await?;

    let mut tx = state.pool.begin().await?;
    let channel = buyable_channel(&mut tx, channel_id).await?;
    let cents = card_cents(&channel)?;
    // One checkout at a time per reader and channel. The subscription row is only read, not locked:
    // applying Stripe's state (sync) locks the Stripe subscription first and that row second, and
    // this transaction may sync an older checkout below.
    queries::lock_checkout(&mut tx, reader.user_id, &channel.id).await?;
    let before = crate::subscriptions::queries::of_channel_user(&mut *tx, &channel.id, reader.user_id).await?.map(|row| row.machine());
    // Refused like any purchase: a live paid subscription, or an invoice request waiting.
    let probe = Event::PayByAccount { account_number: String::new(), price_per_month: None };
    machine::transition(channel.facts(), before.as_ref(), &probe, chrono::Utc::now()).map_err(service::refused)?;

    let open = queries::open_checkout(&mut tx, reader.user_id, &channel.id).await?;
    let price_id = channel_price(&mut tx, stripe, &channel, cents).await?;
    if let Some(open) = open {
        let subscription = stripe.subscription(&open.stripe_subscription_id).await.map_err(unavailable)?;
        let secret = confirmation_secret(stripe, &subscription).await?;
        if subscription.status == stripe_shared::SubscriptionStatus::Incomplete && open.stripe_price_id == price_id && secret.is_some() {
            tx.commit().await?;
            return Ok(CardCheckout {
                subscription_id: open.stripe_subscription_id,
                client_secret: secret.unwrap_or_default(),
                address_is_valid: true,
            });
        }
        // On an old price: ended, and its invoice voided, so that a payment form still open
        // somewhere can never pay for it too.
        if subscription.status == stripe_shared::SubscriptionStatus::Incomplete {
            if let Some(invoice_id) = subscription.latest_invoice.as_ref().and_then(|invoice| invoice.id().as_ref()) {
                stripe.void_invoice(invoice_id.as_str()).await.map_err(unavailable)?;
            }
            stripe.cancel_now(&open.stripe_subscription_id).await.map_err(unavailable)?;
        }
        // Ended, expired or paid meanwhile: recorded as it is now, and a new checkout starts.
        sync::subscription(&mut tx, stripe, state.jobs.as_ref(), &open.stripe_subscription_id, &sync::stripe_actor()).await?;
    }
    let attempts = queries::checkout_attempts(&mut tx, reader.user_id, &channel.id).await?;
    let metadata =
        HashMap::from([("insights_user_id".to_owned(), reader.user_id.to_owned()), ("insights_channel_id".to_owned(), channel.id.clone())]);
    let attempt = format!("checkout-{}-{}-{attempts}", reader.user_id, channel.id);
    let subscription = stripe.create_subscription(&customer_id, &price_id, metadata, &attempt).await.map_err(unavailable)?;
    let subscription_id = subscription.id.as_str().to_owned();
    let status = subscription.status.as_str();
    queries::insert_stripe_subscription(&mut tx, &subscription_id, reader.user_id, &channel.id, &price_id, status).await?;
    let client_secret = confirmation_secret(stripe, &subscription)
        .await?
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("Stripe returned a subscription without a confirmation secret")))?;
    tx.commit().await?;
    Ok(CardCheckout { subscription_id, client_secret, address_is_valid: true })
}

/// The client secret of a subscription's first invoice's payment.
async fn confirmation_secret(stripe: &StripeApi, subscription: &stripe_shared::Subscription) -> Result<Option<String>> {
    let invoice = match &subscription.latest_invoice {
        Some(Expandable::Object(invoice)) if invoice.confirmation_secret.is_some() => (**invoice).clone(),
        Some(invoice) => match invoice.id() {
            Some(id) => stripe.invoice(id.as_str()).await.map_err(unavailable)?,
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    Ok(invoice.confirmation_secret.map(|secret| secret.client_secret))
}

/// The channel's Stripe price for `cents` a month: made (with the channel's product) the first
/// time; a price change makes a new one and existing subscriptions stay on theirs.
async fn channel_price(conn: &mut PgConnection, stripe: &StripeApi, channel: &SubscriptionChannel, cents: i64) -> Result<String> {
    let known = queries::channel_prices(conn, &channel.id).await?;
    if let Some(price) = known.iter().find(|p| p.unit_amount_cents == cents) {
        return Ok(price.stripe_price_id.clone());
    }
    let product_id = match known.first() {
        Some(price) => price.stripe_product_id.clone(),
        None => stripe.create_product(&channel.id, &channel.name).await.map_err(unavailable)?,
    };
    let price_id = stripe.create_price(&product_id, &channel.id, cents).await.map_err(unavailable)?;
    queries::insert_channel_price(conn, &price_id, &channel.id, &product_id, cents).await?;
    Ok(price_id)
}

/// Subscribes the reader on one of their clearing accounts: active at once, counted as paid.
pub async fn pay_by_account(
    state: &AppState,
    user_id: &str,
    channel_id: &str,
    subscription_type: SubscriptionType,
    account_number: &str,
) -> Result<SubscriptionChannel> {
    if subscription_type != SubscriptionType::Account {
        return Err(Error::field("subscriptionType", machine::TYPE_NOT_OFFERED));
    }
    let account_number = account_number.trim().to_owned();
    if account_number.is_empty() {
        return Err(Error::field("accountNumber", REQUIRED_MESSAGE));
    }
    if !queries::owns_account(&state.pool, user_id, &account_number).await? {
        return Err(Error::field("accountNumber", NOT_YOUR_ACCOUNT));
    }
    service::apply(state, channel_id, user_id, Caller::Reader(user_id), &|channel, _| {
        Ok(Event::PayByAccount { account_number: account_number.clone(), price_per_month: price_of(channel) })
    })
    .await
}

/// Asks to be invoiced: an externally billed subscription waiting for staff, and an email to the
/// channel's admins.
pub async fn request_invoice(
    state: &AppState,
    user_id: &str,
    channel_id: &str,
    legal_entity_name: Option<&str>,
    billing_email_address: Option<&str>,
) -> Result<SubscriptionChannel> {
    let mut fields = FieldErrors::new();
    let legal_entity_name = required_text(&mut fields, "legalEntityName", legal_entity_name.unwrap_or_default(), 200);
    let billing_email = optional_email(&mut fields, "billingEmailAddress", billing_email_address, 320);
    if billing_email.is_none() && !fields.contains_key("billingEmailAddress") {
        fields.insert("billingEmailAddress".into(), REQUIRED_MESSAGE.into());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    let billing_email_address = billing_email.unwrap_or_default();
    service::apply(state, channel_id, user_id, Caller::Reader(user_id), &|channel, _| {
        Ok(Event::RequestInvoice {
            legal_entity_name: legal_entity_name.clone(),
            billing_email_address: billing_email_address.clone(),
            price_per_month: price_of(channel),
        })
    })
    .await
}

/// A reader's cancel of a live card subscription: it is set to end with its paid period on Stripe,
/// and what Stripe then says is applied (as its webhook would; whichever comes first applies it,
/// the other finds nothing to change). Returns false when the subscription is not a live card one
/// (the caller cancels it through the state machine).
pub async fn cancel_card_at_period_end(state: &AppState, user_id: &str, channel_id: &str) -> Result<bool> {
    let Some(channel_id) = crate::validation::optional_id(Some(channel_id), "Channel")? else { return Ok(false) };
    let Some(row) = crate::subscriptions::queries::of_channel_user(&state.pool, &channel_id, user_id).await? else { return Ok(false) };
    let subscription = row.machine();
    let live = matches!(
        subscription.effective_state(chrono::Utc::now()),
        crate::subscriptions::model::SubscriptionState::Active | crate::subscriptions::model::SubscriptionState::PaymentFailed
    );
    let (SubscriptionType::Stripe, Some(card), true, false) =
        (subscription.subscription_type, &subscription.card, live, subscription.cancel_at_period_end)
    else {
        return Ok(false);
    };
    let stripe = state.stripe.as_deref().ok_or_else(|| Error::Conflict(super::graphql::CARD_PAYMENTS_OFF.into()))?;
    stripe.cancel_at_period_end(&card.subscription_id).await.map_err(unavailable)?;
    let mut tx = state.pool.begin().await?;
    let reader = Actor { user_id: Some(user_id.to_owned()), route: Route::Reader };
    sync::subscription(&mut tx, stripe, state.jobs.as_ref(), &card.subscription_id, &reader).await?;
    tx.commit().await?;
    Ok(true)
}

/// The channel's price, with two decimals (as stored: `numeric(20, 2)` read as text); none without one.
fn price_of(channel: &SubscriptionChannel) -> Option<String> {
    channel.price.clone().filter(|price| cents_of(price).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postcodes_are_checked_for_the_country() {
        for (country, good) in [
            ("US", "10001"),
            ("US", "10001-2345"),
            ("GB", "SW1A 1AA"),
            ("GB", "M1 1AE"),
            ("CA", "K1A 0B1"),
            ("DE", "10115"),
            ("NL", "1012 AB"),
            ("JP", "100-0001"),
        ] {
            assert!(is_valid_postcode(country, good), "{country} {good}");
        }
        for (country, bad) in [
            ("US", "1000"),
            ("US", "ABCDE"),
            ("GB", "SW1A1AA"),
            ("GB", "12 3AB"),
            ("CA", "123456"),
            ("DE", "1011"),
            ("FR", "x"),
            ("JP", "!!!"),
        ] {
            assert!(!is_valid_postcode(country, bad), "{country} {bad}");
        }
    }

    #[test]
    fn prices_are_cents() {
        assert_eq!(cents_of("49.5"), Some(4950));
        assert_eq!(cents_of("49.50"), Some(4950));
        assert_eq!(cents_of("100"), Some(10000));
        assert_eq!(cents_of("0"), None);
        assert_eq!(cents_of("123456789012345678.99"), Some(12_345_678_901_234_567_899));
        assert_eq!(sync::dollars(4950), "49.50");
    }

    #[test]
    fn a_card_takes_at_most_8_digits_of_cents() {
        let channel = |price: &str| SubscriptionChannel {
            id: "0123456789abcdef01234567".into(),
            name: "Rates".into(),
            channel_type: ChannelType::Premium,
            archived: false,
            price: Some(price.to_owned()),
            default_trial_days: None,
        };
        assert_eq!(card_cents(&channel("999999.99")).unwrap(), 99_999_999);
        for over in ["1000000.00", "123456789012345678.99", "999999999999999999.99"] {
            let Err(Error::BadUserInput { fields, .. }) = card_cents(&channel(over)) else { panic!("{over} refused") };
            assert_eq!(fields["paymentType"], CARD_LIMIT_MESSAGE);
        }
    }

    fn input() -> BillingInput {
        BillingInput {
            business_name: Some("Acme Metals Ltd".into()),
            tax_id: Some("GB123456789".into()),
            tax_id_type: Some("gb_vat".into()),
            address_line1: Some("1 King Street".into()),
            address_city: Some("London".into()),
            address_postcode: Some("ec2v 8aa".into()),
            address_country_code: Some("gb".into()),
            ..BillingInput::default()
        }
    }

    #[test]
    fn billing_details_are_checked_with_the_specs_messages() {
        let info = validate_billing(&input(), true).unwrap();
        assert_eq!(info.address.country, "GB");
        assert_eq!(info.address.postcode, "EC2V 8AA");
        assert_eq!(info.tax_id, Some(("gb_vat".into(), "GB123456789".into())));
        let bad = BillingInput { address_postcode: Some("nope".into()), business_name: None, ..input() };
        let Err(Error::BadUserInput { fields, .. }) = validate_billing(&bad, true) else { panic!("refused") };
        assert_eq!(fields["addressPostcode"], INVALID_POSTCODE);
        assert_eq!(fields["businessName"], REQUIRED_MESSAGE);
        let unknown_type = BillingInput { tax_id_type: Some("xx_vat".into()), ..input() };
        let Err(Error::BadUserInput { fields, .. }) = validate_billing(&unknown_type, true) else { panic!("refused") };
        assert_eq!(fields["taxIdType"], INVALID_TAX_ID);
        let no_tax = BillingInput { tax_id: None, tax_id_type: None, ..input() };
        assert_eq!(validate_billing(&no_tax, true).unwrap().tax_id, None);
    }
}
