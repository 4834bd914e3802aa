//! GraphQL of checkout and billing (spec 3 §7 'Checkout', `myBillingAccounts`, `stripeTaxCountries`,
//! `isoCountries`), the reader's invoices, and Administrators' clearing accounts of a user.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    accounts::{self, BillingAccount},
    card_update,
    checkout::{self, BillingInput, CardCheckout, Reader, TaxIdResult},
    countries, invoices,
    stripe::StripeApi,
};
use crate::{
    auth::{ALL_ROLES, Role},
    error::{Error, Result},
    graphql::{app_state, viewer},
    subscriptions::{ChannelSubscriptionObject, model::SubscriptionType, queries as subscription_queries},
};

pub const CARD_PAYMENTS_OFF: &str = "Card payments are not available.";

/// The Stripe account, or a clear refusal when card payments are off.
fn stripe<'a>(ctx: &Context<'a>) -> Result<&'a StripeApi> {
    let state = app_state(ctx);
    match (&state.stripe, state.config.card_payments_enabled()) {
        (Some(stripe), true) => Ok(stripe),
        _ => Err(Error::Conflict(CARD_PAYMENTS_OFF.into())),
    }
}

#[derive(SimpleObject)]
#[graphql(name = "BillingAccount")]
pub struct BillingAccountObject {
    /// The account number.
    id: String,
    /// The account's name, when the import or the Administrator gave one.
    name: Option<String>,
    #[graphql(name = "_id")]
    account_id: ID,
}

impl From<BillingAccount> for BillingAccountObject {
    fn from(account: BillingAccount) -> Self {
        BillingAccountObject { id: account.account_number, name: account.name, account_id: ID(account.account_id.to_string()) }
    }
}

#[derive(SimpleObject)]
pub struct IsoCountry {
    name: String,
    alpha2: String,
}

#[derive(SimpleObject)]
pub struct StripeTaxCountry {
    name: String,
    /// Stripe's tax id type, e.g. `gb_vat`.
    code: String,
    description: String,
}

#[derive(SimpleObject)]
pub struct StripeSubscriptionResult {
    subscription_id: String,
    client_secret: String,
    address_is_valid: bool,
}

impl From<CardCheckout> for StripeSubscriptionResult {
    fn from(checkout: CardCheckout) -> Self {
        StripeSubscriptionResult {
            subscription_id: checkout.subscription_id,
            client_secret: checkout.client_secret,
            address_is_valid: checkout.address_is_valid,
        }
    }
}

#[derive(SimpleObject)]
pub struct PaymentSetupAddress {
    city: String,
    country: String,
    line1: String,
    line2: Option<String>,
    postal_code: String,
    state: Option<String>,
}

#[derive(SimpleObject)]
pub struct PaymentSetupMetadata {
    business_name: String,
    tax_id: Option<String>,
}

#[derive(SimpleObject)]
pub struct PaymentSetup {
    client_secret: String,
    billing_address: PaymentSetupAddress,
    metadata: PaymentSetupMetadata,
}

/// One invoice of the reader's card subscriptions, with Stripe's hosted page.
#[derive(SimpleObject)]
pub struct Invoice {
    #[graphql(name = "_id")]
    id: ID,
    channel_id: ID,
    channel_name: String,
    number: Option<String>,
    /// draft, open, paid, uncollectible or void.
    status: String,
    /// In dollars, two decimals.
    amount_due: String,
    amount_paid: String,
    currency: String,
    hosted_invoice_url: Option<String>,
    period_start: Option<DateTime<Utc>>,
    period_end: Option<DateTime<Utc>>,
    created: DateTime<Utc>,
}

#[derive(Default)]
pub struct BillingQuery;

#[Object]
impl BillingQuery {
    /// The signed-in reader's clearing accounts whose number or name contains `filter`.
    async fn my_billing_accounts(&self, ctx: &Context<'_>, filter: Option<String>) -> Result<Vec<BillingAccountObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let list = accounts::of_user(&app_state(ctx).pool, &viewer.user.user_id, filter.as_deref()).await?;
        Ok(list.into_iter().map(Into::into).collect())
    }

    /// A user's clearing accounts (Administrators, on the user's edit screen).
    async fn billing_accounts(&self, ctx: &Context<'_>, user_id: ID) -> Result<Vec<BillingAccountObject>> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        let user_id = crate::validation::optional_id(Some(&user_id), "User")?.ok_or(Error::NotFound("User"))?;
        Ok(accounts::of_user(&app_state(ctx).pool, &user_id, None).await?.into_iter().map(Into::into).collect())
    }

    /// The tax id types Stripe accepts, with their country.
    async fn stripe_tax_countries(&self, ctx: &Context<'_>) -> Result<Vec<StripeTaxCountry>> {
        viewer(ctx)?.require(ALL_ROLES)?;
        Ok(countries::stripe_tax_countries()
            .iter()
            .map(|t| StripeTaxCountry { name: t.name.clone(), code: t.code.clone(), description: t.description.clone() })
            .collect())
    }

    /// ISO 3166-1 countries.
    async fn iso_countries(&self, ctx: &Context<'_>) -> Result<Vec<IsoCountry>> {
        viewer(ctx)?.require(ALL_ROLES)?;
        Ok(countries::iso_countries().iter().map(|c| IsoCountry { name: c.name.to_owned(), alpha2: c.alpha2.to_owned() }).collect())
    }

    /// The signed-in reader's invoices, newest first.
    async fn my_invoices(&self, ctx: &Context<'_>) -> Result<Vec<Invoice>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let rows = invoices::of_user(&app_state(ctx).pool, &viewer.user.user_id).await?;
        Ok(rows
            .into_iter()
            .map(|r| Invoice {
                id: ID(r.stripe_invoice_id),
                channel_id: ID(r.channel_id),
                channel_name: r.channel_name,
                number: r.number,
                status: r.status,
                amount_due: super::sync::dollars(r.amount_due_cents),
                amount_paid: super::sync::dollars(r.amount_paid_cents),
                currency: r.currency,
                hosted_invoice_url: r.hosted_invoice_url,
                period_start: r.period_start,
                period_end: r.period_end,
                created: r.created,
            })
            .collect())
    }
}

#[derive(Default)]
pub struct BillingMutation;

#[Object]
impl BillingMutation {
    /// Checkout, first step: the reader's Stripe customer with their business details and tax id.
    #[allow(clippy::too_many_arguments)]
    async fn create_stripe_customer(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        business_name: Option<String>,
        tax_id: Option<String>,
        tax_id_type: Option<String>,
        address_line1: Option<String>,
        address_line2: Option<String>,
        address_state: Option<String>,
        address_city: Option<String>,
        address_postcode: Option<String>,
        address_country_code: Option<String>,
    ) -> Result<TaxIdResult> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let stripe = stripe(ctx)?;
        let input = BillingInput {
            business_name,
            tax_id,
            tax_id_type,
            address_line1,
            address_line2,
            address_state,
            address_city,
            address_postcode,
            address_country_code,
        };
        let info = checkout::validate_billing(&input, true)?;
        let reader = Reader { user_id: &viewer.user.user_id, email: &viewer.user.email };
        checkout::create_customer(app_state(ctx), stripe, &reader, &channel_id, &info).await
    }

    /// Checkout, card payment: the subscription the Payment Element pays (`clientSecret`).
    #[allow(clippy::too_many_arguments)]
    async fn create_stripe_subscription(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        business_name: Option<String>,
        tax_id: Option<String>,
        address_line1: Option<String>,
        address_line2: Option<String>,
        address_state: Option<String>,
        address_city: Option<String>,
        address_postcode: Option<String>,
        address_country_code: Option<String>,
    ) -> Result<StripeSubscriptionResult> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let stripe = stripe(ctx)?;
        let input = BillingInput {
            business_name,
            tax_id,
            tax_id_type: None,
            address_line1,
            address_line2,
            address_state,
            address_city,
            address_postcode,
            address_country_code,
        };
        let info = checkout::validate_billing(&input, false)?;
        let reader = Reader { user_id: &viewer.user.user_id, email: &viewer.user.email };
        Ok(checkout::create_card_subscription(app_state(ctx), stripe, &reader, &channel_id, &info).await?.into())
    }

    /// A card update for the reader's card subscription: a setup intent for the Payment Element.
    async fn create_payment_setup_intent(&self, ctx: &Context<'_>, subscription_id: String) -> Result<PaymentSetup> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let stripe = stripe(ctx)?;
        let setup = card_update::create_setup_intent(&app_state(ctx).pool, stripe, &viewer.user.user_id, &subscription_id).await?;
        let a = setup.billing_address;
        Ok(PaymentSetup {
            client_secret: setup.client_secret,
            billing_address: PaymentSetupAddress {
                city: a.city,
                country: a.country,
                line1: a.line1,
                line2: a.line2,
                postal_code: a.postcode,
                state: a.state,
            },
            metadata: PaymentSetupMetadata { business_name: setup.business_name, tax_id: setup.tax_id },
        })
    }

    /// Checkout by clearing account: active at once on one of the reader's accounts.
    async fn create_account_subscription(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        subscription_type: String,
        account_number: String,
    ) -> Result<ChannelSubscriptionObject> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let state = app_state(ctx);
        let user_id = &viewer.user.user_id;
        let channel =
            checkout::pay_by_account(state, user_id, &channel_id, SubscriptionType::parse(&subscription_type), &account_number).await?;
        subscription(ctx, &channel.id, user_id).await
    }

    /// Checkout by invoice: an externally billed subscription waiting for staff; the channel's
    /// admins are emailed.
    async fn create_invoice_payment_request(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        legal_entity_name: Option<String>,
        billing_email_address: Option<String>,
    ) -> Result<ChannelSubscriptionObject> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let state = app_state(ctx);
        let user_id = &viewer.user.user_id;
        let channel =
            checkout::request_invoice(state, user_id, &channel_id, legal_entity_name.as_deref(), billing_email_address.as_deref()).await?;
        subscription(ctx, &channel.id, user_id).await
    }

    /// Adds a clearing account to a user (Administrators).
    async fn add_billing_account(
        &self,
        ctx: &Context<'_>,
        user_id: ID,
        account_number: String,
        name: Option<String>,
    ) -> Result<BillingAccountObject> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        let user_id = crate::validation::optional_id(Some(&user_id), "User")?.ok_or(Error::NotFound("User"))?;
        Ok(accounts::add(&app_state(ctx).pool, &user_id, &account_number, name.as_deref()).await?.into())
    }

    /// Removes a clearing account (Administrators).
    async fn remove_billing_account(&self, ctx: &Context<'_>, id: ID) -> Result<bool> {
        viewer(ctx)?.require(&[Role::Administrator])?;
        let id: i64 = id.parse().map_err(|_| Error::NotFound("Billing account"))?;
        accounts::remove(&app_state(ctx).pool, id).await?;
        Ok(true)
    }
}

async fn subscription(ctx: &Context<'_>, channel_id: &str, user_id: &str) -> Result<ChannelSubscriptionObject> {
    let row = subscription_queries::of_channel_user(&app_state(ctx).pool, channel_id, user_id).await?;
    row.map(ChannelSubscriptionObject::new).ok_or(Error::NotFound("Subscription"))
}
