//! Changing subscriptions: who may ask for which change, the admin form's validation (spec 3 §5),
//! and one transaction per change that locks the channel and the subscription, asks the state
//! machine, and writes the result with its audit row and emails.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use super::{
    machine::{self, ChannelFacts, Event, Grant, Refusal, Terms},
    model::SubscriptionType,
    queries,
    store::{self, Actor, Change, Route},
};
use crate::{
    auth::Role,
    channels::{ChannelType, service::is_valid_price},
    config::{TRIAL_MAX_DAYS, TRIAL_MIN_DAYS},
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result},
    jobs::JobQueue,
    state::AppState,
    validation::{max_length_message, optional_id, optional_text},
};

pub const NOTES_MAX: usize = 250;
pub const ACCOUNT_NUMBER_MAX: usize = 64;
pub const BILLING_METHOD_MAX: usize = 100;
pub const PRICE_MAX: usize = 100;
pub const INVALID_EXPIRY_DATE: &str = "Invalid Expiry Date";

/// A channel as subscription changes need it, read under a share lock (archiving waits).
#[derive(Debug, Clone)]
pub struct SubscriptionChannel {
    pub id: String,
    pub name: String,
    pub channel_type: ChannelType,
    pub archived: bool,
    pub price: Option<String>,
    pub default_trial_days: Option<i32>,
}

impl SubscriptionChannel {
    pub fn facts(&self) -> ChannelFacts {
        ChannelFacts { channel_type: self.channel_type, archived: self.archived }
    }
}

/// Reads and share-locks a channel; NOT_FOUND for a malformed or unknown id.
pub async fn lock_channel(conn: &mut PgConnection, channel_id: &str) -> Result<SubscriptionChannel> {
    let id = optional_id(Some(channel_id), "Channel")?.ok_or(Error::NotFound("Channel"))?;
    let row = queries::share_lock_channel(conn, &id).await?.ok_or(Error::NotFound("Channel"))?;
    Ok(SubscriptionChannel {
        id: row.channel_id,
        name: row.name,
        channel_type: ChannelType::parse(&row.channel_type),
        archived: row.state == "archived",
        price: row.price,
        default_trial_days: row.default_trial_duration_days,
    })
}

/// A channel by id, unlocked (checks before a change); NOT_FOUND for a malformed or unknown id.
pub async fn channel(pool: &PgPool, channel_id: &str) -> Result<SubscriptionChannel> {
    let mut conn = pool.acquire().await?;
    lock_channel(&mut conn, channel_id).await
}

/// Who asks: a reader for themselves, or staff for a channel they may manage.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    Reader(&'a str),
    Staff { user_id: &'a str, role: Role },
}

impl Caller<'_> {
    fn actor(&self) -> Actor {
        match *self {
            Caller::Reader(user_id) => Actor { user_id: Some(user_id.to_owned()), route: Route::Reader },
            Caller::Staff { user_id, .. } => Actor { user_id: Some(user_id.to_owned()), route: Route::Staff },
        }
    }
}

/// The channel staff ask about, once they are found allowed to manage its subscribers: NOT_FOUND
/// for an unknown channel, FORBIDDEN for a caller who may not manage it.
pub async fn staff_channel(pool: &PgPool, channel_id: &str, user_id: &str, role: Role) -> Result<SubscriptionChannel> {
    let mut conn = pool.acquire().await?;
    let channel = lock_channel(&mut conn, channel_id).await?;
    check_staff(&mut conn, &channel.id, user_id, role).await?;
    Ok(channel)
}

/// Whether staff may manage a channel's subscribers: an Administrator, or an Editor among the
/// channel's admins (spec 3 §6).
pub async fn check_staff(conn: &mut PgConnection, channel_id: &str, user_id: &str, role: Role) -> Result<()> {
    let allowed = match role {
        Role::Administrator => true,
        Role::Editor => crate::channels::queries::is_admin(&mut *conn, channel_id, user_id).await?,
        _ => false,
    };
    if allowed { Ok(()) } else { Err(Error::Forbidden) }
}

/// The refusal as the API reports it.
pub fn refused(refusal: Refusal) -> Error {
    match refusal {
        Refusal::Conflict(message) => Error::Conflict(message),
        Refusal::NotOffered(message) => Error::field("subscriptionType", message),
    }
}

/// The event a caller asks for, built once the channel (approval needs its trial days) and the
/// locked subscription (an edit needs one to exist) are known.
pub type EventFor<'a> = dyn Fn(&SubscriptionChannel, Option<&machine::Subscription>) -> Result<Event> + Send + Sync + 'a;

/// Applies one event to `user_id`'s subscription to a channel in one transaction. Returns the
/// channel (for messages that name it).
pub async fn apply(
    state: &AppState,
    channel_id: &str,
    user_id: &str,
    caller: Caller<'_>,
    event: &EventFor<'_>,
) -> Result<SubscriptionChannel> {
    apply_with(state, channel_id, user_id, caller, event, async |_| Ok(())).await
}

/// `apply`, with `also` written in the same transaction once the change is (a trial's terms
/// accepted, a policy override's reason).
pub async fn apply_with(
    state: &AppState,
    channel_id: &str,
    user_id: &str,
    caller: Caller<'_>,
    event: &EventFor<'_>,
    also: impl AsyncFnOnce(&mut PgConnection) -> Result<()>,
) -> Result<SubscriptionChannel> {
    let mut tx = state.pool.begin().await?;
    let channel = lock_channel(&mut tx, channel_id).await?;
    if let Caller::Staff { user_id: staff_id, role } = caller {
        check_staff(&mut tx, &channel.id, staff_id, role).await?;
    }
    let now = Utc::now();
    let before = store::lock_one(&mut tx, &channel.id, user_id).await?;
    let event = event(&channel, before.as_ref())?;
    let reader = store::reader(&mut tx, user_id, state.config.constants.trial_days).await?;
    let transition = machine::transition_for(channel.facts(), reader, before.as_ref(), &event, now).map_err(refused)?;
    let change = Change { user_id: user_id.to_owned(), before, transition };
    store::write(&mut tx, state.jobs.as_ref(), &channel.id, &caller.actor(), &[change], now).await?;
    also(&mut tx).await?;
    tx.commit().await?;
    Ok(channel)
}

/// The length of a trial on a channel: its own default, else the configured one.
pub fn trial_days(channel: &SubscriptionChannel, configured: u32) -> i32 {
    channel.default_trial_days.unwrap_or(configured as i32)
}

/// The admin form's subscription (spec 3 §3 Subscription payload), as sent.
#[derive(Debug, Clone, Default)]
pub struct GrantInput {
    pub subscription_type: Option<SubscriptionType>,
    pub cancel_at: Option<DateTime<Utc>>,
    pub account_number: Option<String>,
    pub price_per_month: Option<String>,
    pub rebate: bool,
    pub billing_method: Option<String>,
    pub trial_duration: Option<i32>,
    pub notes: Option<String>,
    pub is_full_article_content: Option<bool>,
}

/// Checks the admin form (spec 3 §5) and makes the grant. Notes are required when adding; a
/// free channel's subscription is always free; an empty bespoke price falls back to the channel's.
pub fn validate_grant(
    channel: &SubscriptionChannel,
    input: &GrantInput,
    adding: bool,
    configured_trial_days: u32,
    now: DateTime<Utc>,
) -> Result<Grant> {
    let mut fields = FieldErrors::new();
    let premium = channel.channel_type == ChannelType::Premium;
    // The simple form of a free channel sends no type (or free); any other type is refused below.
    let subscription_type = if premium { input.subscription_type } else { Some(input.subscription_type.unwrap_or(SubscriptionType::Free)) };
    let Some(subscription_type) = subscription_type else {
        fields.insert("subscriptionType".into(), REQUIRED_MESSAGE.into());
        return Err(Error::invalid(fields));
    };
    if !machine::offers(channel.channel_type, subscription_type) {
        fields.insert("subscriptionType".into(), machine::TYPE_NOT_OFFERED.into());
    }
    let notes = optional_text(&mut fields, "notes", input.notes.as_deref(), NOTES_MAX);
    if adding && notes.is_none() && !fields.contains_key("notes") {
        fields.insert("notes".into(), REQUIRED_MESSAGE.into());
    }
    let account_number = optional_text(&mut fields, "accountNumber", input.account_number.as_deref(), ACCOUNT_NUMBER_MAX);
    let billing_method = optional_text(&mut fields, "billingMethod", input.billing_method.as_deref(), BILLING_METHOD_MAX);
    if subscription_type == SubscriptionType::Account && account_number.is_none() && !fields.contains_key("accountNumber") {
        fields.insert("accountNumber".into(), REQUIRED_MESSAGE.into());
    }
    if subscription_type == SubscriptionType::External && billing_method.is_none() && !fields.contains_key("billingMethod") {
        fields.insert("billingMethod".into(), REQUIRED_MESSAGE.into());
    }
    let price = input.price_per_month.as_deref().map(str::trim).filter(|p| !p.is_empty());
    match price {
        Some(p) if p.chars().count() > PRICE_MAX => {
            fields.insert("pricePerMonth".into(), max_length_message(PRICE_MAX));
        }
        Some(p) if !is_valid_price(p) => {
            fields.insert("pricePerMonth".into(), "Invalid price format".into());
        }
        _ => {}
    }
    let paid = matches!(subscription_type, SubscriptionType::Account | SubscriptionType::External) && !input.rebate;
    let price_per_month = if paid { price.map(str::to_owned).or_else(|| channel.price.clone()) } else { None };
    let trial_duration =
        (subscription_type == SubscriptionType::Trial).then(|| input.trial_duration.unwrap_or(trial_days(channel, configured_trial_days)));
    if let Some(days) = trial_duration
        && !(TRIAL_MIN_DAYS as i32..=TRIAL_MAX_DAYS as i32).contains(&days)
    {
        fields.insert("trialDuration".into(), format!("Enter a whole number of days from {TRIAL_MIN_DAYS} to {TRIAL_MAX_DAYS}"));
    }
    // An expiry date is the last second of that day; it cannot be in the past.
    let cancel_at = input.cancel_at.filter(|_| subscription_type != SubscriptionType::Trial).map(machine::end_of_day);
    if cancel_at.is_some_and(|at| at < now) {
        fields.insert("cancelAt".into(), INVALID_EXPIRY_DATE.into());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(Grant {
        subscription_type,
        cancel_at,
        terms: Terms {
            account_number: account_number.filter(|_| subscription_type == SubscriptionType::Account),
            price_per_month,
            rebate: subscription_type == SubscriptionType::Account && input.rebate,
            billing_method: billing_method.filter(|_| subscription_type == SubscriptionType::External),
            trial_duration,
            notes,
            is_full_article_content: input.is_full_article_content.unwrap_or(true),
            added_by_admin: true,
            legal_entity_name: None,
            billing_email_address: None,
        },
    })
}

/// The reader a staff form names: a user who has signed in at least once (spec 3 §5 user search).
pub async fn subscribable_user(pool: &PgPool, user_id: Option<&str>) -> Result<String> {
    let Some(id) = optional_id(user_id, "User").ok().flatten() else {
        return Err(Error::field("userId", REQUIRED_MESSAGE));
    };
    match queries::user_signed_in(pool, &id).await? {
        None => Err(Error::NotFound("User")),
        Some(true) => Ok(id),
        Some(false) => Err(Error::field("userId", "This user has not signed in to Insights yet.")),
    }
}

/// Records a reader's interest in a channel (once a day) and asks for the email to its admins.
pub async fn register_channel_interest(pool: &PgPool, jobs: &dyn JobQueue, channel_id: &str, user_id: &str) -> Result<SubscriptionChannel> {
    use crate::interests::{Delivery, InterestKind};
    let mut tx = pool.begin().await?;
    let channel = lock_channel(&mut tx, channel_id).await?;
    crate::interests::register(&mut tx, jobs, InterestKind::Channel, &channel.id, user_id, Delivery::Email).await?;
    tx.commit().await?;
    Ok(channel)
}
