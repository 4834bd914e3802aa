//! Registered interest and campaign links: how readers answer the firm's marketing.
//!
//! - A reader registers interest in an article, a channel or a promotional content (spec 3 §7);
//!   it is recorded once per reader, item and UTC day (`interest` table, migrations/0014) and
//!   delivered in the same transaction's wake: article and channel interest, and promotion pages
//!   whose Teams channel is an email address, by email through the outbox (the interest's state
//!   follows its emails); promotion pages with a Teams webhook by a job (`teams`). Delivery never
//!   fails the reader's request.
//! - Administrators list them (`graphql::getAllInterests`) and export them as CSV (`export`).
//! - `campaigns`: the campaign links of an article and their views (the article stats page).

pub mod campaigns;
pub mod export;
pub mod graphql;
pub mod queries;
pub mod teams;

use async_graphql::Enum;
use sqlx::PgConnection;

pub use graphql::{InterestsMutation, InterestsQuery};

use crate::jobs::{JobQueue, JobRequest};

/// What a reader registered interest in (the stored `kind`).
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum InterestKind {
    Article,
    Channel,
    PromotionalContent,
}

impl InterestKind {
    pub const ALL: [InterestKind; 3] = [InterestKind::Article, InterestKind::Channel, InterestKind::PromotionalContent];

    pub fn as_str(self) -> &'static str {
        match self {
            InterestKind::Article => "Article",
            InterestKind::Channel => "Channel",
            InterestKind::PromotionalContent => "PromotionalContent",
        }
    }

    pub fn parse(value: &str) -> Option<InterestKind> {
        InterestKind::ALL.into_iter().find(|kind| kind.as_str() == value)
    }

    /// As people read it (the CSV export).
    pub fn label(self) -> &'static str {
        match self {
            InterestKind::Article => "Article",
            InterestKind::Channel => "Channel",
            InterestKind::PromotionalContent => "Promotional content",
        }
    }
}

/// How far an interest's delivery has come (the stored `delivery_state`, lower-case).
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "InterestDeliveryState", rename_items = "PascalCase")]
pub enum DeliveryState {
    Pending,
    Delivered,
    /// An attempt failed; another is due.
    Retrying,
    /// Out of attempts (or nobody to deliver it to).
    Failed,
}

impl DeliveryState {
    pub fn parse(value: &str) -> DeliveryState {
        match value {
            "delivered" => DeliveryState::Delivered,
            "retrying" => DeliveryState::Retrying,
            "failed" => DeliveryState::Failed,
            _ => DeliveryState::Pending,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            DeliveryState::Pending => "Pending",
            DeliveryState::Delivered => "Delivered",
            DeliveryState::Retrying => "Retrying",
            DeliveryState::Failed => "Failed",
        }
    }
}

/// How an interest is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Emails in the outbox, written with the interest.
    Email,
    /// A message card posted to the promotion page's Teams incoming webhook by a job.
    Teams,
}

impl Delivery {
    /// A promotion page's `teamsChannel`: a webhook URL (the promotions area accepts https, or
    /// http on a loopback host) or else an email address.
    pub fn of_teams_channel(teams_channel: &str) -> Delivery {
        if teams_channel.contains("://") { Delivery::Teams } else { Delivery::Email }
    }
}

/// Records a reader's interest in `item_id` of `kind` for today (UTC) and asks for its delivery,
/// all in the caller's transaction; an interest already registered today is left as it is.
/// Returns whether it is new.
pub async fn register(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    kind: InterestKind,
    item_id: &str,
    user_id: &str,
    delivery: Delivery,
) -> anyhow::Result<bool> {
    let Some(interest_id) = queries::insert(&mut *conn, kind, item_id, user_id, delivery).await? else {
        return Ok(false);
    };
    match delivery {
        Delivery::Email => {
            crate::email::compose::interest(conn, jobs, interest_id).await?;
        }
        Delivery::Teams => jobs.enqueue(conn, JobRequest::DeliverInterestToTeams { interest_id }).await?,
    }
    Ok(true)
}
