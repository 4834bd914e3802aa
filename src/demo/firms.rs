//! The demo's client firms (issue 39): three firms with their email domains (the demo readers at
//! them join), subscriptions with seats through the firm owner of the subscription machine, the
//! ready firm administrator of the sign-in page (Fiona Firmadmin, at Northbridge Capital), and
//! seats given to some readers of each firm while others have none. Firms that exist by name are
//! kept as they are.

use chrono::{DateTime, Duration, Utc};

use super::{articles::SeededChannel, people::People};
use crate::{
    auth::{Role, provider::READY_USERS},
    firms::{queries, service, subscriptions},
    state::AppState,
    subscriptions::{model::SubscriptionType, service::GrantInput},
};

struct FirmPlan {
    name: &'static str,
    domain: &'static str,
    account_number: &'static str,
    /// (channel, type, seats (None: unlimited), seats given to this many of its readers).
    subscriptions: &'static [(&'static str, SubscriptionType, Option<i32>, usize)],
}

const FIRMS: &[FirmPlan] = &[
    FirmPlan {
        name: "Northbridge Capital",
        domain: "northbridge.example",
        account_number: "CLR-900100",
        subscriptions: &[("Metals Pro", SubscriptionType::Account, Some(5), 2), ("Oil & Gas Premium", SubscriptionType::Account, None, 1)],
    },
    FirmPlan {
        name: "Meridian Asset Management",
        domain: "meridian-am.example",
        account_number: "CLR-900200",
        subscriptions: &[("Oil & Gas Premium", SubscriptionType::External, Some(3), 2)],
    },
    FirmPlan {
        name: "Blue Harbour Shipping",
        domain: "blueharbour.example",
        account_number: "CLR-900300",
        subscriptions: &[("Freight & Tanker Tracker", SubscriptionType::Trial, Some(10), 1)],
    },
];

/// Adds the firms; returns how many were added.
pub async fn seed(state: &AppState, now: DateTime<Utc>, people: &People, channels: &[SeededChannel]) -> anyhow::Result<usize> {
    let admin = people.staff_id(super::cast::staff()[0].email)?.to_owned();
    let fiona = READY_USERS.iter().find(|u| u.key == "firmadmin").expect("the ready firm administrator");
    let mut added = 0;
    for plan in FIRMS {
        if !queries::firms_named(&state.pool, &[plan.name.to_owned()]).await?.is_empty() {
            continue;
        }
        let change = service::FirmChange {
            name: plan.name.to_owned(),
            domains: vec![plan.domain.to_owned()],
            account_number: Some(plan.account_number.to_owned()),
            billing_method: Some("account".to_owned()),
            notes: Some("Demo client firm".to_owned()),
            ..service::FirmChange::default()
        };
        let firm_id = service::add(&state.pool, &admin, &change).await.map_err(|e| super::service_error(e, &format!("add the firm {}", plan.name)))?;
        added += 1;
        // Its readers: they joined by their domain (Fiona, who comes before the others, at Northbridge).
        let domain = format!("@{}", plan.domain);
        let members: Vec<&str> = people.readers.iter().filter(|r| r.reader.email.ends_with(&domain)).map(|r| r.id.as_str()).collect();
        for (channel, kind, seats, given) in plan.subscriptions {
            let channel_id = channels.iter().find(|c| c.def.name == *channel).map(|c| c.id.clone()).ok_or_else(|| anyhow::anyhow!("the channel {channel}"))?;
            let change = subscriptions::FirmSubscriptionChange {
                grant: GrantInput {
                    subscription_type: Some(*kind),
                    account_number: (*kind == SubscriptionType::Account).then(|| plan.account_number.to_owned()),
                    billing_method: (*kind == SubscriptionType::External).then(|| "Annual invoice, per seat".to_owned()),
                    trial_duration: (*kind == SubscriptionType::Trial).then_some(21),
                    cancel_at: (*kind != SubscriptionType::Trial).then(|| now + Duration::days(300)),
                    notes: Some(format!("{} enterprise agreement", plan.name)),
                    ..GrantInput::default()
                },
                seats: *seats,
                starts_at: None,
                price_basis: Some("seat".to_owned()),
                version: None,
            };
            let staff = (admin.as_str(), Role::Administrator);
            let firm_subscription = subscriptions::grant(&state.pool, state.jobs.as_ref(), state.config.constants.trial_channel_days, staff, &firm_id, &channel_id, &change, true)
                .await
                .map_err(|e| super::service_error(e, &format!("subscribe {} to {channel}", plan.name)))?;
            let mut tx = state.pool.begin().await?;
            for member in members.iter().take(*given) {
                queries::assign_seat(&mut tx, &firm_subscription, &firm_id, member, &admin).await?;
            }
            tx.commit().await?;
        }
        // Made administrator after the subscriptions, so the demo writes no welcome email.
        if let Some(fiona) = people.readers.iter().find(|r| r.reader.email == fiona.email && r.reader.email.ends_with(&domain)) {
            service::set_admin(&state.pool, &firm_id, &fiona.id, true).await.map_err(|e| super::service_error(e, "make Fiona a firm administrator"))?;
        }
    }
    Ok(added)
}
