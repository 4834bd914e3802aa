//! A firm's subscriptions: a second owner of the one subscription state machine
//! (`subscriptions::machine`). Staff create and change them with the admin form's rules
//! (`subscriptions::service::validate_grant`), the machine decides, and the result is written with
//! an audit row in the one log, and the emails a reader would get go to the firm's administrators.
//! When a firm subscription ends (cancelled, or at its end by the sweep) its seats are freed.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};

use super::queries::{self, FirmSubscriptionRow, FirmTerms};
use crate::{
    auth::Role,
    error::{Error, Result},
    ids,
    jobs::JobQueue,
    subscriptions::{
        machine::{self, EmailKind, Event, Transition},
        service::{self, GrantInput, SubscriptionChannel},
        store::{self, Actor, Route},
    },
    validation::optional_id,
};

/// The staff form of a firm subscription, as sent.
#[derive(Debug, Clone, Default)]
pub struct FirmSubscriptionChange {
    pub grant: GrantInput,
    /// None: unlimited.
    pub seats: Option<i32>,
    /// When seats start to give access; none: now. Trials start now.
    pub starts_at: Option<DateTime<Utc>>,
    /// 'seat' or 'flat'.
    pub price_basis: Option<String>,
    /// A change: the version it is based on.
    pub version: Option<i32>,
}

pub const SEATS_MAX: i32 = 1_000_000;

/// Staff who may change a channel's subscriptions (an Administrator, or an Editor among the
/// channel's admins), in the transaction that locks it.
async fn staff_channel(conn: &mut PgConnection, channel_id: &str, staff: (&str, Role)) -> Result<SubscriptionChannel> {
    let channel = service::lock_channel(conn, channel_id).await?;
    service::check_staff(conn, &channel.id, staff.0, staff.1).await?;
    Ok(channel)
}

/// Creates (`adding`) or changes a firm's subscription to a channel; returns its id.
pub async fn grant(
    pool: &PgPool,
    jobs: &dyn JobQueue,
    configured_trial_days: u32,
    staff: (&str, Role),
    firm_id: &str,
    channel_id: &str,
    change: &FirmSubscriptionChange,
    adding: bool,
) -> Result<String> {
    let now = Utc::now();
    let mut tx = pool.begin().await?;
    let firm_id = super::service::lock_active_firm(&mut tx, firm_id).await?;
    let channel = staff_channel(&mut tx, channel_id, staff).await?;
    let before = queries::lock_subscription(&mut tx, &firm_id, &channel.id).await?;
    match (&before, adding) {
        (None, false) => return Err(Error::NotFound("Subscription")),
        (Some(row), false) => {
            let version = change.version.ok_or_else(|| Error::field("version", crate::error::REQUIRED_MESSAGE))?;
            Error::check_version(Some(row.version), version, "Subscription")?;
        }
        // A firm has one subscription per channel, kept through its states: adding again renews
        // an ended one and is refused while one is live.
        (Some(row), true) if row.machine().is_live_or_pending(now) => {
            return Err(Error::Conflict(format!("{} already has a subscription to this channel.", firm_name(&mut tx, &firm_id).await?)));
        }
        _ => {}
    }
    let grant = service::validate_grant(&channel, &change.grant, adding, configured_trial_days, now)?;
    let terms = firm_terms(change, &grant, before.as_ref(), now)?;
    let current = before.as_ref().map(FirmSubscriptionRow::machine);
    let transition = machine::transition(channel.facts(), current.as_ref(), &Event::Grant(grant), now).map_err(service::refused)?;
    let next = transition.next.as_ref().expect("a grant leaves a subscription");
    if let (Some(row), Some(seats)) = (&before, terms.seats)
        && row.seats_used > i64::from(seats)
    {
        return Err(Error::field("seats", format!("{} seats are in use: take some back first", row.seats_used)));
    }
    if next.cancel_at.is_some_and(|end| end <= terms.starts_at) {
        return Err(Error::field("cancelAt", service::INVALID_EXPIRY_DATE));
    }
    let id = before.as_ref().map_or_else(ids::new_id, |row| row.firm_subscription_id.clone());
    queries::write_subscription(&mut tx, &id, &firm_id, &channel.id, next, &terms, Some(staff.0)).await?;
    let actor = Actor { user_id: Some(staff.0.to_owned()), route: Route::Staff };
    record(&mut tx, jobs, &channel.id, &firm_id, &actor, before.as_ref(), &transition, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// The firm's own terms of a grant: seats, start and price basis.
fn firm_terms<'a>(
    change: &'a FirmSubscriptionChange,
    grant: &machine::Grant,
    before: Option<&FirmSubscriptionRow>,
    now: DateTime<Utc>,
) -> Result<FirmTerms<'a>> {
    let mut fields = crate::error::FieldErrors::new();
    if change.seats.is_some_and(|seats| !(1..=SEATS_MAX).contains(&seats)) {
        fields.insert("seats".into(), format!("Enter a whole number of seats from 1 to {SEATS_MAX}, or leave it empty for unlimited"));
    }
    let price_basis = match change.price_basis.as_deref().unwrap_or("seat") {
        basis @ ("seat" | "flat") => basis,
        _ => {
            fields.insert("priceBasis".into(), "Choose per seat or flat".into());
            "seat"
        }
    };
    // A trial starts now; a running subscription keeps its start unless staff move it.
    let starts_at = if grant.subscription_type == crate::subscriptions::model::SubscriptionType::Trial {
        before.filter(|row| row.machine().is_live_or_pending(now)).map_or(now, |row| row.starts_at)
    } else {
        change.starts_at.or(before.map(|row| row.starts_at)).unwrap_or(now)
    };
    if change.starts_at.is_some_and(|at| at < now - Duration::days(1)) && before.is_none_or(|row| Some(row.starts_at) != change.starts_at) {
        fields.insert("startsAt".into(), crate::validation::PAST_DATE_MESSAGE.into());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(FirmTerms { seats: change.seats, starts_at, price_basis })
}

/// Ends a firm's subscription at once (staff); its seats are freed.
pub async fn cancel(pool: &PgPool, jobs: &dyn JobQueue, staff: (&str, Role), firm_id: &str, channel_id: &str, version: i32) -> Result<String> {
    let now = Utc::now();
    let mut tx = pool.begin().await?;
    let firm_id = optional_id(Some(firm_id), "Firm")?.ok_or(Error::NotFound("Firm"))?;
    let channel = staff_channel(&mut tx, channel_id, staff).await?;
    let before = queries::lock_subscription(&mut tx, &firm_id, &channel.id).await?.ok_or(Error::NotFound("Subscription"))?;
    Error::check_version(Some(before.version), version, "Subscription")?;
    let transition =
        machine::transition(channel.facts(), Some(&before.machine()), &Event::CancelImmediately, now).map_err(service::refused)?;
    let next = transition.next.as_ref().expect("cancelling leaves a subscription");
    let terms = FirmTerms { seats: before.seats, starts_at: before.starts_at, price_basis: &before.price_basis };
    queries::write_subscription(&mut tx, &before.firm_subscription_id, &firm_id, &channel.id, next, &terms, None).await?;
    let actor = Actor { user_id: Some(staff.0.to_owned()), route: Route::Staff };
    record(&mut tx, jobs, &channel.id, &firm_id, &actor, Some(&before), &transition, now).await?;
    tx.commit().await?;
    Ok(before.firm_subscription_id)
}

/// Ends the firm subscriptions whose end has come (the expiry sweep, beside the readers'); returns
/// how many ended.
pub async fn expire_due(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>, batch: i64) -> Result<u64> {
    let mut ended = 0;
    loop {
        let mut tx = pool.begin().await?;
        let due = queries::lock_due_to_end(&mut tx, now, batch).await?;
        let claimed = due.len() as i64;
        let worker = Actor { user_id: None, route: Route::Worker };
        for (firm_id, channel_id) in due {
            let channel = service::lock_channel(&mut tx, &channel_id).await?;
            let Some(before) = queries::lock_subscription(&mut tx, &firm_id, &channel.id).await? else { continue };
            // Changed meanwhile and no longer due: the machine says so.
            let Ok(transition) = machine::transition(channel.facts(), Some(&before.machine()), &Event::Expire, now) else { continue };
            let next = transition.next.as_ref().expect("expiring leaves a subscription");
            let terms = FirmTerms { seats: before.seats, starts_at: before.starts_at, price_basis: &before.price_basis };
            queries::write_subscription(&mut tx, &before.firm_subscription_id, &firm_id, &channel.id, next, &terms, None).await?;
            record(&mut tx, jobs, &channel.id, &firm_id, &worker, Some(&before), &transition, now).await?;
            ended += 1;
        }
        tx.commit().await?;
        if claimed < batch {
            return Ok(ended);
        }
    }
}

/// Asks for the trial-ending reminders of firm trials, to their firms' administrators.
pub async fn remind(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>) -> Result<u64> {
    let mut tx = pool.begin().await?;
    let due = queries::trials_ending(&mut tx, now, now + Duration::days(machine::TRIAL_REMINDER_DAYS)).await?;
    let mut requested = 0;
    for (firm_id, channel_id, end) in due {
        let occasion = store::occasion_at(end);
        requested += crate::email::compose::firm_subscription_email(&mut tx, jobs, &channel_id, &firm_id, EmailKind::TrialEnding, &occasion)
            .await?;
    }
    tx.commit().await?;
    Ok(requested)
}

/// Writes a change's audit row and emails, and frees the seats of a subscription that ended.
async fn record(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel_id: &str,
    firm_id: &str,
    actor: &Actor,
    before: Option<&FirmSubscriptionRow>,
    transition: &Transition,
    now: DateTime<Utc>,
) -> Result<()> {
    let before_machine = before.map(FirmSubscriptionRow::machine);
    store::audit_firm(conn, channel_id, firm_id, actor, before_machine.as_ref(), transition).await?;
    let ended = transition.next.as_ref().is_none_or(|next| !next.is_live_or_pending(now));
    if ended && let Some(row) = before {
        queries::free_seats(conn, &row.firm_subscription_id).await?;
    }
    if let Some(kind) = transition.email {
        let end = transition.next.as_ref().and_then(|next| next.cancel_at);
        let occasion = match (kind, end) {
            (EmailKind::TrialEnding | EmailKind::TrialEnded | EmailKind::SubscriptionCanceled, Some(end)) => store::occasion_at(end),
            _ => store::occasion_at(now),
        };
        crate::email::compose::firm_subscription_email(conn, jobs, channel_id, firm_id, kind, &occasion).await?;
    }
    Ok(())
}

async fn firm_name(conn: &mut PgConnection, firm_id: &str) -> Result<String> {
    Ok(queries::name(&mut *conn, firm_id).await?.unwrap_or_default())
}
