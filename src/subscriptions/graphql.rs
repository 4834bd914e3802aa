//! GraphQL of the subscriptions area: the ChannelSubscription object with its derived status,
//! the reader's channel card, the reader's
//! requests, and staff's subscriber stats, approvals, subscriber forms and bulk additions.

use std::collections::HashMap;

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    bulk, csv_emails,
    machine::{self, CardAction, EndedAs, Event, FreeClosedStatus, PaymentCategory, ReaderCard, TrialStatus},
    model::{SubscriptionState, SubscriptionType},
    queries::{self, CandidateRow, SubscriberRow, SubscriptionRow},
    service::{self, Caller, GrantInput, SubscriptionChannel},
    store::{Actor, Route},
    subscribers::{SubscriberQuery, SubscriberSortField, SubscriberView},
};
use crate::{
    auth::{ALL_ROLES, Role},
    channels::{ChannelObject, ChannelType, channels_by_ids},
    error::{Error, Result},
    graphql::{SortDirection, app_state, checked_limit_offset, contains_pattern, total_from_page, viewer},
    kept::RequestScope,
    users::queries::UserSummary,
};

pub struct ChannelSubscriptionObject {
    row: SubscriptionRow,
    /// Loaded with a list of subscriptions; else on demand.
    channel: Option<ChannelObject>,
}

impl ChannelSubscriptionObject {
    pub fn new(row: SubscriptionRow) -> Self {
        ChannelSubscriptionObject { row, channel: None }
    }

    /// Objects for `rows` with their channels, read in one statement.
    pub async fn with_channels(ctx: &Context<'_>, rows: Vec<SubscriptionRow>) -> Result<Vec<Self>> {
        let ids: Vec<String> = rows.iter().map(|r| r.channel_id.clone()).collect();
        let mut channels = channels_by_ids(ctx, &ids).await?;
        Ok(rows.into_iter().map(|row| ChannelSubscriptionObject { channel: channels.remove(&row.channel_id), row }).collect())
    }
}

#[Object(name = "ChannelSubscription", serial)]
impl ChannelSubscriptionObject {
    async fn channel_id(&self) -> &str {
        &self.row.channel_id
    }

    async fn channel(&self, ctx: &Context<'_>) -> Result<ChannelObject> {
        if let Some(channel) = &self.channel {
            return Ok(channel.clone());
        }
        let mut channels = channels_by_ids(ctx, std::slice::from_ref(&self.row.channel_id)).await?;
        channels.remove(&self.row.channel_id).ok_or(Error::NotFound("Channel"))
    }

    async fn subscription_type(&self) -> SubscriptionType {
        SubscriptionType::parse(&self.row.subscription_type)
    }

    async fn subscription_state(&self) -> SubscriptionState {
        SubscriptionState::parse(&self.row.subscription_state)
    }

    async fn subscribed(&self) -> bool {
        self.row.subscribed
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn updated_at(&self) -> DateTime<Utc> {
        self.row.updated_at
    }

    async fn cancel_at(&self) -> Option<DateTime<Utc>> {
        self.row.cancel_at
    }

    async fn cancel_requested_at(&self) -> Option<DateTime<Utc>> {
        self.row.cancel_requested_at
    }

    async fn cancel_at_period_end(&self) -> bool {
        self.row.cancel_at_period_end
    }

    /// False: the subscription gives article summaries only.
    async fn is_full_article_content(&self) -> bool {
        self.row.is_full_article_content
    }

    async fn trial_duration(&self) -> Option<i32> {
        self.row.trial_duration
    }

    async fn email_notifications(&self) -> bool {
        self.row.email_notifications
    }

    /// How new articles of the channel are emailed: at once, or in a daily or weekly digest.
    async fn email_frequency(&self) -> crate::email::graphql::EmailFrequency {
        crate::email::graphql::EmailFrequency::parse(&self.row.email_frequency)
    }

    async fn next_payment(&self) -> Option<DateTime<Utc>> {
        self.row.next_payment
    }

    /// Dollars per month with 2 decimals; null: the channel's price.
    async fn price_per_month(&self) -> Option<&str> {
        self.row.price_per_month.as_deref()
    }

    async fn acknowledged_non_charge_sub_expired(&self) -> bool {
        self.row.acknowledged_non_charge_sub_expired
    }

    async fn added_by_admin(&self) -> bool {
        self.row.added_by_admin
    }

    /// State active and not past cancelAt: it gives access now.
    async fn is_active(&self) -> bool {
        self.row.access().is_active(Utc::now())
    }

    async fn user_id(&self) -> &str {
        &self.row.user_id
    }

    /// Why staff activated it on the reader's behalf.
    async fn notes(&self) -> Option<&str> {
        self.row.notes.as_deref()
    }

    /// The clearing account (account subscriptions).
    async fn account_number(&self) -> Option<&str> {
        self.row.account_number.as_deref()
    }

    /// A clearing client who is not charged.
    async fn rebate(&self) -> bool {
        self.row.rebate
    }

    /// How an externally billed subscription is billed.
    async fn billing_method(&self) -> Option<&str> {
        self.row.billing_method.as_deref()
    }

    /// The card or account the subscription is paid with, when it is paid by one.
    async fn payment_method(&self) -> Option<PaymentMethod> {
        self.row
            .payment_method_type
            .as_ref()
            .map(|kind| PaymentMethod { r#type: kind.clone(), details: self.row.payment_method_details.clone() })
    }

    /// The card provider's subscription id (card subscriptions).
    async fn subscription_id(&self) -> Option<&str> {
        self.row.subscription_id.as_deref()
    }

    /// What the web app shows of it (spec 3 §4 'Subscription state helper'), derived by the
    /// server's state machine.
    async fn status(&self) -> SubscriptionStatus {
        let status = machine::status(ChannelType::parse(&self.row.channel_type), &self.row.machine(), Utc::now());
        SubscriptionStatus {
            effective_state: status.effective_state,
            payable: status.payable,
            payment_failed_alert: status.payment_failed_alert,
            expired_alert: status.expired_alert,
            can_acknowledge_expired: status.can_acknowledge_expired,
            can_cancel: status.can_cancel,
            cancel_keeps_access_to_period_end: status.cancel_keeps_access_to_period_end,
            can_update_card: status.can_update_card,
            trial: status.trial,
            free_closed: status.free_closed,
            type_label: status.type_label,
            payment_category: status.payment_category,
        }
    }
}

#[derive(SimpleObject)]
pub struct PaymentMethod {
    r#type: String,
    details: Option<String>,
}

/// The spec's subscription state helper (spec 3 §4), as the server's state machine derives it.
#[derive(SimpleObject)]
pub struct SubscriptionStatus {
    /// The state now: an active subscription past its end reads expired (or canceled) before the
    /// sweep records it.
    effective_state: SubscriptionState,
    /// Active, not ended, and paid by card, invoice or a clearing account without rebate.
    payable: bool,
    /// Show the failed-payment alert (not when cancelling at period end).
    payment_failed_alert: bool,
    /// Show the expired-subscription alert.
    expired_alert: bool,
    /// An expired non-charge subscription the reader may dismiss.
    can_acknowledge_expired: bool,
    /// The reader may cancel it (or withdraw the request).
    can_cancel: bool,
    /// Cancelling keeps access to the end of the billing period (paid subscriptions) instead of
    /// ending it now.
    cancel_keeps_access_to_period_end: bool,
    /// A running card subscription whose card the reader may replace (`createPaymentSetupIntent`).
    can_update_card: bool,
    /// Trials: pending, active or expired.
    trial: Option<TrialStatus>,
    /// Free closed channels: pending, active, rejected or canceled.
    free_closed: Option<FreeClosedStatus>,
    /// 'Paid - Clearing', 'Rebated - Clearing', 'Paid - Non-clearing', 'Billed externally', 'Non-charge', 'Trial' or 'Free'.
    type_label: &'static str,
    /// The admin form's payment category; none for free channels.
    payment_category: Option<PaymentCategory>,
}

/// What a reader's channel card offers (spec 3 §4 'Channel card for a reader').
#[derive(SimpleObject)]
pub struct ReaderChannelCard {
    action: CardAction,
    /// How the reader's last subscription ended, when the offer comes back after one.
    ended: Option<EndedAs>,
    /// The trial's end or the last day of access.
    ends_at: Option<DateTime<Utc>>,
    payment_failed: bool,
    summaries_only: bool,
    /// The firm whose seat gives the caller this channel (subscribed, with nothing to cancel).
    provided_by: Option<String>,
}

impl From<ReaderCard> for ReaderChannelCard {
    fn from(card: ReaderCard) -> Self {
        ReaderChannelCard {
            action: card.action,
            ended: card.ended,
            ends_at: card.ends_at,
            payment_failed: card.payment_failed,
            summaries_only: card.summaries_only,
            provided_by: None,
        }
    }
}

/// The caller's card for a channel, from their subscriptions read once per request: subscribed
/// through their firm's seat when their own subscription does not give it.
pub async fn reader_card(ctx: &Context<'_>, channel_id: &str, channel_type: ChannelType) -> Result<ReaderChannelCard> {
    let subscriptions = RequestScope::of(ctx).viewer_subscriptions().await?;
    let now = Utc::now();
    if let Some(seat) = subscriptions.providing_seat(channel_id, now) {
        return Ok(ReaderChannelCard {
            action: CardAction::Subscribed,
            ended: None,
            ends_at: seat.cancel_at,
            payment_failed: false,
            summaries_only: !seat.is_full_article_content,
            provided_by: Some(seat.firm_name.clone()),
        });
    }
    let subscription = subscriptions.find(channel_id).map(SubscriptionRow::machine);
    let cool_off = RequestScope::of(ctx).trial_cool_off().await?;
    Ok(machine::reader_card(channel_type, subscription.as_ref(), now, cool_off).into())
}

// ---- reader requests ----

#[derive(InputObject)]
pub struct OpenFreeSubscriptionInput {
    channel_id: ID,
}

#[derive(Default)]
pub struct SubscriptionsMutation;

/// The caller's subscription to a channel after a change.
async fn subscription_of(ctx: &Context<'_>, channel_id: &str, user_id: &str) -> Result<ChannelSubscriptionObject> {
    let row = queries::of_channel_user(&app_state(ctx).pool, channel_id, user_id).await?.ok_or(Error::NotFound("Subscription"))?;
    Ok(ChannelSubscriptionObject::new(row))
}

/// A reader's request about their own subscription.
async fn reader_change(ctx: &Context<'_>, channel_id: &ID, event: Event) -> Result<ChannelSubscriptionObject> {
    let viewer = viewer(ctx)?;
    viewer.require(ALL_ROLES)?;
    let state = app_state(ctx);
    let user_id = &viewer.user.user_id;
    let channel = service::apply(state, channel_id, user_id, Caller::Reader(user_id), &|_, _| Ok(event.clone())).await?;
    subscription_of(ctx, &channel.id, user_id).await
}

/// Staff's change of a reader's subscription, on a channel they manage.
async fn staff_change(
    ctx: &Context<'_>,
    channel_id: &str,
    user_id: &str,
    event: &service::EventFor<'_>,
) -> Result<(SubscriptionChannel, Option<ChannelSubscriptionObject>)> {
    staff_change_with(ctx, channel_id, user_id, event, async |_| Ok(())).await
}

/// `staff_change`, with `also` written in the change's transaction (`service::apply_with`).
async fn staff_change_with(
    ctx: &Context<'_>,
    channel_id: &str,
    user_id: &str,
    event: &service::EventFor<'_>,
    also: impl AsyncFnOnce(&mut sqlx::PgConnection) -> Result<()>,
) -> Result<(SubscriptionChannel, Option<ChannelSubscriptionObject>)> {
    let viewer = viewer(ctx)?;
    let role = viewer.require(&[Role::Administrator, Role::Editor])?;
    let state = app_state(ctx);
    let user_id = crate::validation::optional_id(Some(user_id), "User")?.ok_or(Error::NotFound("User"))?;
    let caller = Caller::Staff { user_id: &viewer.user.user_id, role };
    let channel = service::apply_with(state, channel_id, &user_id, caller, event, also).await?;
    let row = queries::of_channel_user(&state.pool, &channel.id, &user_id).await?;
    Ok((channel, row.map(ChannelSubscriptionObject::new)))
}

#[derive(InputObject)]
pub struct RequestDecisionInput {
    user_id: ID,
    channel_id: ID,
    approved: bool,
}

/// A processed trial or access request.
#[derive(SimpleObject)]
pub struct ProcessedRequest {
    /// The reader's name, for the confirmation.
    name: String,
    channel_subscription: ChannelSubscriptionObject,
}

/// The admin subscriber form (spec 3 §3 Subscription payload). The typed create mutations set
/// `subscriptionType` themselves.
#[derive(InputObject)]
pub struct ChannelSubscriptionInput {
    channel_id: ID,
    user_id: Option<ID>,
    subscription_type: Option<SubscriptionType>,
    /// An expiry date (stored at 23:59:59 UTC of its day, never in the past).
    cancel_at: Option<DateTime<Utc>>,
    account_number: Option<String>,
    notes: Option<String>,
    /// Dollars per month, 2 decimals; empty: the channel's price.
    price_per_month: Option<String>,
    #[graphql(default)]
    rebate: bool,
    is_full_article_content: Option<bool>,
    billing_method: Option<String>,
    /// Trial length in days (defaults to the channel's trial days).
    trial_duration: Option<i32>,
    /// Always true for staff's subscriptions; accepted for the spec's payload.
    added_by_admin: Option<bool>,
    /// A trial over the trial policy (longer, or within the cool-off) is given only with a reason
    /// (at most 250 characters), which the audit trail records.
    policy_override_reason: Option<String>,
}

impl ChannelSubscriptionInput {
    fn grant_input(&self, subscription_type: Option<SubscriptionType>) -> GrantInput {
        GrantInput {
            subscription_type: subscription_type.or(self.subscription_type),
            cancel_at: self.cancel_at,
            account_number: self.account_number.clone(),
            price_per_month: self.price_per_month.clone(),
            rebate: self.rebate,
            billing_method: self.billing_method.clone(),
            trial_duration: self.trial_duration,
            notes: self.notes.clone(),
            is_full_article_content: self.is_full_article_content,
        }
    }
}

/// Adds a subscriber (staff): `subscription_type` forced by the typed mutations.
async fn add_subscriber(
    ctx: &Context<'_>,
    item: ChannelSubscriptionInput,
    subscription_type: Option<SubscriptionType>,
) -> Result<ChannelSubscriptionObject> {
    let state = app_state(ctx);
    // Who may add comes before whom: a caller without rights learns nothing about users.
    staff_channel(ctx, &item.channel_id).await?;
    let user_id = service::subscribable_user(&state.pool, item.user_id.as_ref().map(|id| id.as_str())).await?;
    let mut input = item.grant_input(subscription_type);
    let configured = state.config.constants.trial_channel_days;
    let policy_override = trial_within_policy(state, &mut input, &item, &user_id).await?;
    let event = move |channel: &SubscriptionChannel, _: Option<&machine::Subscription>| {
        Ok(Event::Grant(service::validate_grant(channel, &input, true, configured, Utc::now())?))
    };
    let (channel_id, user) = (item.channel_id.to_string(), user_id.clone());
    let also = async |conn: &mut sqlx::PgConnection| record_override(conn, &channel_id, &user, policy_override.as_ref()).await;
    let (_, subscription) = staff_change_with(ctx, &item.channel_id, &user_id, &event, also).await?;
    subscription.ok_or(Error::NotFound("Subscription"))
}

/// A trial staff give (added, changed or restarted) is within the trial policy, or over it with
/// a reason: its days (the asked ones, else the channel's capped at the policy's longest) set in
/// `input`, and what the audit trail records of an override.
async fn trial_within_policy(
    state: &crate::AppState,
    input: &mut GrantInput,
    item: &ChannelSubscriptionInput,
    user_id: &str,
) -> Result<Option<serde_json::Value>> {
    if input.subscription_type != Some(SubscriptionType::Trial) {
        return Ok(None);
    }
    let channel = service::channel(&state.pool, &item.channel_id).await?;
    let days = match input.trial_duration {
        Some(days) => days,
        None => crate::trials::capped_days(&state.pool, service::trial_days(&channel, state.config.constants.trial_channel_days)).await?,
    };
    input.trial_duration = Some(days);
    crate::trials::check_staff_trial(state, &channel.id, user_id, days, item.policy_override_reason.as_deref()).await
}

/// Writes a policy override (`trial_within_policy`) in the change's transaction.
async fn record_override(conn: &mut sqlx::PgConnection, channel_id: &str, user_id: &str, details: Option<&serde_json::Value>) -> Result<()> {
    match details {
        Some(details) => crate::trials::record_override(conn, channel_id, user_id, details).await,
        None => Ok(()),
    }
}

#[derive(InputObject)]
pub struct BulkSubscriptionInput {
    channel_id: ID,
    /// The uploaded file's name (kept in the audit notes when no notes are given).
    file_name: Option<String>,
    /// Free channels: free. Premium channels: nonCharge (default), trial, account or external.
    subscription_type: Option<SubscriptionType>,
    notes: Option<String>,
    cancel_at: Option<DateTime<Utc>>,
    trial_duration: Option<i32>,
    account_number: Option<String>,
    billing_method: Option<String>,
    /// Trials: why they may go over the trial policy (longer than its longest trial, or for
    /// readers within its cool-off); kept in the audit trail with each reader's trial.
    policy_override_reason: Option<String>,
}

#[derive(SimpleObject)]
pub struct BulkSubscriptionResult {
    added: i32,
    updated: i32,
    already_subscribed: i32,
    refused: i32,
    /// Each refused user and why (e.g. the trial policy's cool-off).
    refusals: Vec<BulkRefusal>,
}

#[derive(SimpleObject)]
pub struct BulkRefusal {
    user_id: ID,
    reason: String,
}

#[Object]
impl SubscriptionsMutation {
    /// A reader asks for a free trial of a premium channel: pending until staff approve it. Under
    /// the trial policy (`trialPolicy`): with the current terms' version accepted when the policy
    /// asks for it (recorded with the time), and not within the cool-off after an earlier trial or
    /// subscription of the channel, theirs or a reader's of their firm (CONFLICT saying until when).
    async fn request_trial_channel_subscription(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        accepted_terms_version: Option<i32>,
    ) -> Result<ChannelSubscriptionObject> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let user_id = &viewer.user.user_id;
        let channel = crate::trials::request(app_state(ctx), user_id, &channel_id, accepted_terms_version).await?;
        subscription_of(ctx, &channel.id, user_id).await
    }

    /// A reader joins a free open channel, at once.
    async fn create_open_free_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: OpenFreeSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        reader_change(ctx, &item.channel_id, Event::SubscribeFreeOpen).await
    }

    /// A reader asks for access to a free closed channel: pending until staff approve it.
    async fn request_free_closed_subscription(&self, ctx: &Context<'_>, channel_id: ID) -> Result<ChannelSubscriptionObject> {
        reader_change(ctx, &channel_id, Event::RequestFreeClosed).await
    }

    /// A reader cancels: a pending request is withdrawn, a free or trial subscription ends now,
    /// a paid one at the end of its billing period (access is kept until then).
    async fn cancel_subscription(&self, ctx: &Context<'_>, channel_id: ID) -> Result<ChannelSubscriptionObject> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        // A card subscription is cancelled on Stripe, and recorded as Stripe then says.
        if crate::billing::checkout::cancel_card_at_period_end(app_state(ctx), &viewer.user.user_id, &channel_id).await? {
            return subscription_of(ctx, &channel_id, &viewer.user.user_id).await;
        }
        reader_change(ctx, &channel_id, Event::Cancel).await
    }

    /// A reader dismisses the notice of an expired non-charge subscription.
    async fn non_charge_channel_subscription_expired_acknowledged(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
    ) -> Result<ChannelSubscriptionObject> {
        reader_change(ctx, &channel_id, Event::AcknowledgeExpired).await
    }

    /// A reader registers interest in a channel: its admins are told by email (once a day).
    async fn notify_registered_channel_interest(&self, ctx: &Context<'_>, channel_id: ID) -> Result<bool> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let state = app_state(ctx);
        service::register_channel_interest(&state.pool, state.jobs.as_ref(), &channel_id, &viewer.user.user_id).await?;
        Ok(true)
    }

    /// Staff approve or reject a pending trial request; approval starts the trial with the
    /// channel's trial days (else the configured default).
    async fn process_trial_request(&self, ctx: &Context<'_>, item: RequestDecisionInput) -> Result<ProcessedRequest> {
        process_request(ctx, item, SubscriptionType::Trial).await
    }

    /// Staff approve or reject a pending free closed access request.
    async fn process_free_closed_request(&self, ctx: &Context<'_>, item: RequestDecisionInput) -> Result<ProcessedRequest> {
        process_request(ctx, item, SubscriptionType::Free).await
    }

    /// Staff confirm (the subscription starts, billed externally) or reject a reader's invoice request.
    async fn process_invoice_request(&self, ctx: &Context<'_>, item: RequestDecisionInput) -> Result<ProcessedRequest> {
        process_request(ctx, item, SubscriptionType::External).await
    }

    /// Staff end a subscription not paid by card, now.
    async fn cancel_non_stripe_subscription_immediately(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        user_id: ID,
    ) -> Result<ChannelSubscriptionObject> {
        let (_, subscription) = staff_change(ctx, &channel_id, &user_id, &|_, _| Ok(Event::CancelImmediately)).await?;
        subscription.ok_or(Error::NotFound("Subscription"))
    }

    /// Staff change a subscriber's subscription (the edit form).
    async fn change_subscription(&self, ctx: &Context<'_>, item: ChannelSubscriptionInput) -> Result<ChannelSubscriptionObject> {
        let state = app_state(ctx);
        let user_id = item.user_id.clone().ok_or_else(|| Error::field("userId", crate::error::REQUIRED_MESSAGE))?;
        let mut input = item.grant_input(None);
        let configured = state.config.constants.trial_channel_days;
        // A trial made, lengthened or restarted here follows the trial policy as a new one does.
        staff_channel(ctx, &item.channel_id).await?;
        let policy_override = trial_within_policy(state, &mut input, &item, &user_id).await?;
        // An edit changes a subscription that exists; it never creates one.
        let event = move |channel: &SubscriptionChannel, current: Option<&machine::Subscription>| {
            current.ok_or(Error::NotFound("Subscription"))?;
            Ok(Event::Grant(service::validate_grant(channel, &input, false, configured, Utc::now())?))
        };
        let (channel_id, user) = (item.channel_id.to_string(), user_id.to_string());
        let also = async |conn: &mut sqlx::PgConnection| record_override(conn, &channel_id, &user, policy_override.as_ref()).await;
        let (_, subscription) = staff_change_with(ctx, &item.channel_id, &user_id, &event, also).await?;
        subscription.ok_or(Error::NotFound("Subscription"))
    }

    /// Staff add a non-charge subscriber (a free subscription for a non-client).
    async fn create_non_charge_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: ChannelSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        add_subscriber(ctx, item, Some(SubscriptionType::NonCharge)).await
    }

    /// Staff add an externally billed subscriber.
    async fn create_external_billing_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: ChannelSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        add_subscriber(ctx, item, Some(SubscriptionType::External)).await
    }

    /// Staff start a trial for a reader.
    async fn create_trial_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: ChannelSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        add_subscriber(ctx, item, Some(SubscriptionType::Trial)).await
    }

    /// Staff add a subscriber paying through a clearing account (or rebated).
    async fn create_account_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: ChannelSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        add_subscriber(ctx, item, Some(SubscriptionType::Account)).await
    }

    /// Staff add a subscriber to a free channel.
    async fn create_free_channel_subscription(
        &self,
        ctx: &Context<'_>,
        item: ChannelSubscriptionInput,
    ) -> Result<ChannelSubscriptionObject> {
        add_subscriber(ctx, item, Some(SubscriptionType::Free)).await
    }

    /// Staff remove a subscriber (not one paying by card).
    async fn delete_channel_subscriber(&self, ctx: &Context<'_>, channel_id: ID, user_id: ID) -> Result<bool> {
        staff_change(ctx, &channel_id, &user_id, &|_, _| Ok(Event::Delete)).await?;
        Ok(true)
    }

    /// Staff add the checked users (`users`) and, when asked, overwrite the subscriptions of
    /// existing subscribers (`existing`), in one transaction.
    async fn create_bulk_subscriptions(
        &self,
        ctx: &Context<'_>,
        item: BulkSubscriptionInput,
        users: Vec<ID>,
        existing: Vec<ID>,
    ) -> Result<BulkSubscriptionResult> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(&[Role::Administrator, Role::Editor])?;
        let state = app_state(ctx);
        // A malformed id is refused by `bulk::create` like an unknown one (counted, not dropped).
        let ids = |list: Vec<ID>| list.into_iter().map(|id| id.0).collect::<Vec<_>>();
        let (add, overwrite) = (ids(users), ids(existing));
        let mut tx = state.pool.begin().await?;
        let channel = service::lock_channel(&mut tx, &item.channel_id).await?;
        service::check_staff(&mut tx, &channel.id, &viewer.user.user_id, role).await?;
        if channel.archived {
            return Err(Error::Conflict(machine::ARCHIVED.into()));
        }
        let default_type = if channel.channel_type == ChannelType::Premium { SubscriptionType::NonCharge } else { SubscriptionType::Free };
        // Notes typed in the form are checked like the form's (over 250: refused); the file's
        // name stands in for them only as a bounded base name.
        let notes = item.notes.clone().filter(|n| !n.trim().is_empty()).or_else(|| {
            let name = bulk::file_base_name(item.file_name.as_deref()?)?;
            Some(format!("Bulk upload: {name}").chars().take(service::NOTES_MAX).collect())
        });
        let input = GrantInput {
            subscription_type: Some(item.subscription_type.unwrap_or(default_type)),
            cancel_at: item.cancel_at,
            account_number: item.account_number,
            billing_method: item.billing_method,
            trial_duration: item.trial_duration,
            notes,
            ..GrantInput::default()
        };
        let now = Utc::now();
        let grant = service::validate_grant(&channel, &input, true, state.config.constants.trial_channel_days, now)?;
        let actor = Actor { user_id: Some(viewer.user.user_id.clone()), route: Route::Csv };
        let trial_override = item.policy_override_reason.as_deref();
        let outcome = bulk::create(
            &mut tx,
            state.jobs.as_ref(),
            &channel,
            &add,
            &overwrite,
            &grant,
            trial_override,
            &actor,
            now,
            state.config.constants.trial_days,
        )
        .await?;
        tx.commit().await?;
        Ok(BulkSubscriptionResult {
            added: outcome.added.len() as i32,
            updated: outcome.updated.len() as i32,
            already_subscribed: outcome.already_subscribed.len() as i32,
            refused: outcome.refused.len() as i32,
            refusals: outcome.refused.into_iter().map(|(user_id, reason)| BulkRefusal { user_id: ID(user_id), reason }).collect(),
        })
    }
}

async fn process_request(ctx: &Context<'_>, item: RequestDecisionInput, kind: SubscriptionType) -> Result<ProcessedRequest> {
    let configured = app_state(ctx).config.constants.trial_channel_days;
    // An approved trial lasts the channel's days, at most the trial policy's longest.
    let longest = crate::trials::queries::policy(&app_state(ctx).pool).await?.max_days;
    let approved = item.approved;
    let event = move |channel: &SubscriptionChannel, current: Option<&machine::Subscription>| {
        // The request must be of the kind the mutation names (checked once the caller may see it).
        if current.is_some_and(|s| s.subscription_type != kind) {
            return Err(Error::Conflict(machine::NO_PENDING_REQUEST.into()));
        }
        Ok(if approved { Event::Approve { trial_days: service::trial_days(channel, configured).min(longest) } } else { Event::Reject })
    };
    let (_, subscription) = staff_change(ctx, &item.channel_id, &item.user_id, &event).await?;
    let subscription = subscription.ok_or(Error::NotFound("Subscription"))?;
    let name = crate::users::queries::find_by_id(&app_state(ctx).pool, &item.user_id).await?.map(|u| u.name).unwrap_or_default();
    Ok(ProcessedRequest { name, channel_subscription: subscription })
}

// ---- subscriber stats and the bulk check (staff) ----

/// A channel's subscriber as staff see them.
pub struct SubscribedUser {
    row: SubscriberRow,
    channel_id: String,
    /// Loaded with the page.
    article_views: i64,
    subscription: Option<SubscriptionRow>,
    /// The subscriber's client firm and whether it gives them the channel, loaded with the page.
    firm: Option<crate::firms::queries::SubscriberFirm>,
}

#[Object]
impl SubscribedUser {
    /// The client firm the subscriber belongs to, if any.
    async fn firm_name(&self) -> Option<&str> {
        self.firm.as_ref().map(|firm| firm.firm_name.as_str())
    }

    /// Their firm gives them the channel through a seat (with or without a subscription of their own).
    async fn holds_firm_seat(&self) -> bool {
        self.firm.as_ref().is_some_and(|firm| firm.holds_seat)
    }

    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.user_id
    }

    /// The identity provider's subject (the edit screen's address carries it, URL-encoded).
    async fn insights_user_id(&self) -> &str {
        &self.row.subject
    }

    async fn name(&self) -> &str {
        &self.row.name
    }

    async fn email(&self) -> &str {
        &self.row.email
    }

    async fn company(&self) -> Option<&str> {
        self.row.company.as_deref()
    }

    async fn last_login(&self) -> Option<DateTime<Utc>> {
        self.row.last_login
    }

    /// Views of this channel's articles by the subscriber.
    async fn article_views_by_channel(&self) -> i64 {
        self.article_views
    }

    /// The subscription to this channel.
    async fn channel_subscription(&self) -> Option<ChannelSubscriptionObject> {
        self.subscription.clone().map(ChannelSubscriptionObject::new)
    }

    async fn channel_id(&self) -> &str {
        &self.channel_id
    }
}

#[derive(SimpleObject)]
pub struct SubscribedUserPage {
    users: Vec<SubscribedUser>,
    total: i64,
}

#[derive(SimpleObject)]
pub struct SubscriberViewCount {
    view: SubscriberView,
    count: i64,
}

/// One change in a subscription's history.
#[derive(SimpleObject)]
pub struct SubscriptionAuditEntry {
    changed_at: DateTime<Utc>,
    /// Who made it; none for the CLI and the workers.
    actor: Option<UserSummary>,
    route: Route,
    /// What happened: requestTrial, approveTrial, grant, change, cancel, expire, ...
    action: String,
    from_type: Option<SubscriptionType>,
    from_state: Option<SubscriptionState>,
    to_type: Option<SubscriptionType>,
    to_state: Option<SubscriptionState>,
    cancel_at: Option<DateTime<Utc>>,
    notes: Option<String>,
}

/// A user the bulk check found.
#[derive(SimpleObject)]
pub struct CsvCheckUser {
    #[graphql(name = "_id")]
    user_id: String,
    insights_user_id: String,
    name: String,
    email: String,
    company: Option<String>,
    /// Their subscription to the channel, if any.
    subscription_type: Option<SubscriptionType>,
    subscription_state: Option<SubscriptionState>,
}

impl From<CandidateRow> for CsvCheckUser {
    fn from(row: CandidateRow) -> Self {
        CsvCheckUser {
            user_id: row.user_id,
            insights_user_id: row.subject,
            name: row.name,
            email: row.email,
            company: row.company,
            subscription_type: row.subscription_type.as_deref().map(SubscriptionType::parse),
            subscription_state: row.subscription_state.as_deref().map(SubscriptionState::parse),
        }
    }
}

/// The bulk check (spec 3 §3 'CSV check result').
#[derive(SimpleObject)]
pub struct CsvCheckResult {
    /// Distinct email addresses identified in the file.
    identified: i32,
    /// Users who can be added.
    users: Vec<CsvCheckUser>,
    /// Users already subscribed (or waiting for approval).
    existing: Vec<CsvCheckUser>,
    /// Known identities without an Insights account (never signed in).
    insights_users: Vec<CsvCheckUser>,
    /// Addresses no user has.
    unmatched: Vec<String>,
}

/// Requires staff who may manage the channel's subscribers; returns the channel's id.
async fn staff_channel(ctx: &Context<'_>, channel_id: &str) -> Result<String> {
    let viewer = viewer(ctx)?;
    let role = viewer.require(&[Role::Administrator, Role::Editor])?;
    Ok(service::staff_channel(&app_state(ctx).pool, channel_id, &viewer.user.user_id, role).await?.id)
}

/// Subscribers of a page with their subscriptions and article views: two statements for the page.
async fn subscribed_users(ctx: &Context<'_>, channel_id: &str, rows: Vec<SubscriberRow>) -> Result<Vec<SubscribedUser>> {
    let pool = &app_state(ctx).pool;
    let ids: Vec<String> = rows.iter().map(|r| r.user_id.clone()).collect();
    let (subscriptions, views, firms) = tokio::try_join!(
        queries::of_channel_users(pool, channel_id, &ids),
        queries::article_views_by_channel(pool, channel_id, &ids),
        crate::firms::queries::firms_of_subscribers(pool, channel_id, &ids)
    )?;
    let mut subscriptions: HashMap<String, SubscriptionRow> = subscriptions.into_iter().map(|s| (s.user_id.clone(), s)).collect();
    let views: HashMap<String, i64> = views.into_iter().collect();
    let mut firms: HashMap<String, _> = firms.into_iter().map(|firm| (firm.user_id.clone(), firm)).collect();
    Ok(rows
        .into_iter()
        .map(|row| SubscribedUser {
            firm: firms.remove(&row.user_id),
            article_views: views.get(&row.user_id).copied().unwrap_or(0),
            subscription: subscriptions.remove(&row.user_id),
            channel_id: channel_id.to_owned(),
            row,
        })
        .collect())
}

#[derive(Default)]
pub struct SubscriptionsQuery;

#[Object]
impl SubscriptionsQuery {
    /// Staff: a page of a channel's subscribers in a subscriber stats view, searched by name,
    /// email or company. Default sort: newest subscription first.
    #[allow(clippy::too_many_arguments)]
    async fn channel_subscribed_users(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        #[graphql(default)] view: SubscriberView,
        search_query: Option<String>,
        sort_field: Option<SubscriberSortField>,
        sort_direction: Option<SortDirection>,
        #[graphql(default = 15)] limit: i32,
        #[graphql(default = 0)] offset: i32,
    ) -> Result<SubscribedUserPage> {
        let channel_id = staff_channel(ctx, &channel_id).await?;
        let (limit, offset) = checked_limit_offset(limit, offset)?;
        let pattern = contains_pattern(search_query.as_deref());
        let sort = sort_field.unwrap_or_default();
        let query = SubscriberQuery {
            channel_id: &channel_id,
            view,
            pattern: pattern.as_deref(),
            sort,
            descending: sort_direction.map_or(sort == SubscriberSortField::SubscribedAt, |d| d == SortDirection::Desc),
            limit,
            offset,
        };
        let pool = &app_state(ctx).pool;
        let rows = queries::subscriber_page(pool, &query).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::subscriber_count(pool, &channel_id, view, query.pattern).await?,
        };
        Ok(SubscribedUserPage { users: subscribed_users(ctx, &channel_id, rows).await?, total })
    }

    /// Staff: how many subscribers each subscriber stats view holds.
    async fn subscriber_view_counts(&self, ctx: &Context<'_>, channel_id: ID) -> Result<Vec<SubscriberViewCount>> {
        let channel_id = staff_channel(ctx, &channel_id).await?;
        let counts = queries::subscriber_view_counts(&app_state(ctx).pool, &channel_id).await?;
        Ok(counts.into_iter().map(|(view, count)| SubscriberViewCount { view, count }).collect())
    }

    /// Staff: one subscriber of a channel, by the identity provider's subject (the edit screen).
    async fn channel_subscriber(&self, ctx: &Context<'_>, channel_id: ID, insights_user_id: String) -> Result<SubscribedUser> {
        let channel_id = staff_channel(ctx, &channel_id).await?;
        let pool = &app_state(ctx).pool;
        let row = queries::subscriber_by_subject(pool, &channel_id, &insights_user_id).await?.ok_or(Error::NotFound("Subscriber"))?;
        let details = serde_json::json!({ "channelId": channel_id });
        crate::audit::graphql::record_read(ctx, "channelSubscriber", Some(("user", &row.user_id)), &details).await?;
        Ok(subscribed_users(ctx, &channel_id, vec![row]).await?.remove(0))
    }

    /// Staff: a subscription's history on a channel, newest first (the last 100 changes).
    async fn subscription_audit_log(&self, ctx: &Context<'_>, channel_id: ID, user_id: ID) -> Result<Vec<SubscriptionAuditEntry>> {
        let channel_id = staff_channel(ctx, &channel_id).await?;
        let rows = queries::audit_log(&app_state(ctx).pool, &channel_id, &user_id, 100).await?;
        Ok(rows
            .into_iter()
            .map(|row| SubscriptionAuditEntry {
                changed_at: row.changed_at,
                actor: match (row.actor_id, row.actor_name, row.actor_email) {
                    (Some(user_id), Some(name), Some(email)) => Some(UserSummary { user_id, name, email }),
                    _ => None,
                },
                route: Route::parse(&row.route),
                action: row.action,
                from_type: row.from_type.as_deref().map(SubscriptionType::parse),
                from_state: row.from_state.as_deref().map(SubscriptionState::parse),
                to_type: row.to_type.as_deref().map(SubscriptionType::parse),
                to_state: row.to_state.as_deref().map(SubscriptionState::parse),
                cancel_at: row.to_cancel_at,
                notes: row.notes,
            })
            .collect())
    }

    /// Staff: checks the addresses of a CSV file (`csv`, parsed on the server) or a list
    /// (`emails`) against the users and the channel's subscribers.
    async fn check_emails(
        &self,
        ctx: &Context<'_>,
        channel_id: ID,
        emails: Option<Vec<String>>,
        csv: Option<String>,
    ) -> Result<CsvCheckResult> {
        let channel_id = staff_channel(ctx, &channel_id).await?;
        let mut addresses = csv.as_deref().map(csv_emails::parse_emails).unwrap_or_default();
        addresses.extend(
            emails.unwrap_or_default().iter().map(|e| e.trim()).filter(|e| e.find('@').is_some_and(|at| at > 0)).map(str::to_owned),
        );
        let mut conn = app_state(ctx).pool.acquire().await?;
        let result = bulk::check(&mut conn, &channel_id, &addresses).await?;
        Ok(CsvCheckResult {
            identified: result.identified as i32,
            users: result.users.into_iter().map(Into::into).collect(),
            existing: result.existing.into_iter().map(Into::into).collect(),
            insights_users: result.no_account.into_iter().map(Into::into).collect(),
            unmatched: result.unmatched,
        })
    }
}
