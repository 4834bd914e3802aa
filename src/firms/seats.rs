//! Seats: a firm's administrator (or staff) gives a member of the firm one of the firm's
//! subscriptions, and takes it back; the holder may give it back. The database holds the limit
//! (`firm_seat_limit`, migration 0034) and that a seat's holder is a member of its firm.

use chrono::Utc;
use sqlx::PgPool;

use super::{queries, service};
use crate::{
    auth::Viewer,
    error::{Error, FieldErrors, Result},
    validation::optional_id,
};

pub const NOT_A_MEMBER: &str = "This reader is not a member of the firm";
pub const ENDED: &str = "This subscription has ended: its seats cannot be given.";

/// The firm subscription `id` and the caller's right to change its seats.
async fn subscription_to_change(pool: &PgPool, viewer: &Viewer, id: &str) -> Result<queries::FirmSubscriptionRow> {
    let id = optional_id(Some(id), "Subscription")?.ok_or(Error::NotFound("Subscription"))?;
    let Some(row) = queries::subscription(pool, Some(&id), None).await? else {
        // A reader learns nothing of other firms' subscriptions, not even whether one exists.
        return Err(if viewer.role.is_some_and(|r| r.is_staff()) { Error::NotFound("Subscription") } else { Error::Forbidden });
    };
    service::access_to_change(pool, viewer, &row.firm_id).await?;
    Ok(row)
}

/// The message of a subscription whose every seat is given.
pub fn all_in_use(seats: i32) -> Error {
    let message = format!("All {seats} seats are in use");
    let mut fields = FieldErrors::new();
    fields.insert("seats".into(), message.clone());
    Error::BadUserInput { message, fields }
}

/// Gives `user_id` a seat of a firm subscription (staff, or the firm's administrator).
pub async fn assign(pool: &PgPool, viewer: &Viewer, firm_subscription_id: &str, user_id: &str) -> Result<()> {
    let row = subscription_to_change(pool, viewer, firm_subscription_id).await?;
    let user_id = optional_id(Some(user_id), "User")?.ok_or_else(|| Error::field("userId", NOT_A_MEMBER))?;
    let mut tx = pool.begin().await?;
    // Locked first, so an ending subscription and a new seat take turns.
    let row = queries::lock_subscription(&mut tx, &row.firm_id, &row.channel_id).await?.ok_or(Error::NotFound("Subscription"))?;
    if !row.machine().is_live_or_pending(Utc::now()) {
        return Err(Error::Conflict(ENDED.into()));
    }
    // Given already: nothing to do, however full the subscription is.
    if queries::holds_seat(&mut *tx, &row.firm_subscription_id, &user_id).await? {
        return Ok(());
    }
    let inserted = queries::assign_seat(&mut tx, &row.firm_subscription_id, &row.firm_id, &user_id, &viewer.user.user_id).await;
    match inserted {
        Ok(_) => {}
        Err(sqlx::Error::Database(db)) if db.constraint() == Some("firm_seat_limit") => {
            return Err(all_in_use(row.seats.unwrap_or_default()));
        }
        Err(sqlx::Error::Database(db)) if db.is_foreign_key_violation() => return Err(Error::field("userId", NOT_A_MEMBER)),
        Err(error) => return Err(error.into()),
    }
    tx.commit().await?;
    Ok(())
}

/// Takes a seat back (staff, the firm's administrator) or gives it back (its holder).
pub async fn release(pool: &PgPool, viewer: &Viewer, firm_subscription_id: &str, user_id: &str) -> Result<()> {
    let user_id = optional_id(Some(user_id), "User")?.ok_or(Error::NotFound("Seat"))?;
    let id = optional_id(Some(firm_subscription_id), "Subscription")?.ok_or(Error::NotFound("Subscription"))?;
    viewer.require(crate::auth::ALL_ROLES)?;
    if user_id != viewer.user.user_id {
        subscription_to_change(pool, viewer, &id).await?;
    }
    let mut tx = pool.begin().await?;
    if !queries::release_seat(&mut tx, &id, &user_id).await? {
        return Err(Error::NotFound("Seat"));
    }
    tx.commit().await?;
    Ok(())
}
