//! The monthly usage email (issue 39): on its schedule, each firm administrator who asked for it
//! (`setFirmUsageEmail`) is emailed their firm's reading of the last calendar month, per channel,
//! through the outbox. Keyed by firm, administrator and month, so a second run (or a second
//! worker) writes nothing more.

use chrono::{DateTime, Datelike, TimeZone, Utc};
use serde_json::json;
use sqlx::PgPool;

use super::queries;
use crate::{
    email::{
        Kind,
        outbox::{self, Outgoing},
    },
    jobs::JobQueue,
};

/// The calendar month before `now`'s: [start, end).
pub fn last_month(now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let start_of = |year: i32, month: u32| Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).single().expect("the 1st of a month exists");
    let end = start_of(now.year(), now.month());
    let start = if now.month() == 1 { start_of(now.year() - 1, 12) } else { start_of(now.year(), now.month() - 1) };
    (start, end)
}

/// Writes the usage emails of the month before `now`; returns how many were new.
pub async fn email_last_month(pool: &PgPool, jobs: &dyn JobQueue, now: DateTime<Utc>) -> anyhow::Result<u64> {
    let (from, to) = last_month(now);
    let mut tx = pool.begin().await?;
    let recipients = queries::usage_email_recipients(&mut *tx).await?;
    if recipients.is_empty() {
        return Ok(0);
    }
    let mut firm_ids: Vec<String> = recipients.iter().map(|r| r.firm_id.clone()).collect();
    firm_ids.dedup();
    let readership = queries::readership_of_firms(&mut *tx, &firm_ids, from, to).await?;
    let month = from.format("%Y-%m").to_string();
    let month_name = from.format("%B %Y").to_string();
    let emails: Vec<Outgoing> = recipients
        .iter()
        .map(|r| {
            let channels: Vec<serde_json::Value> = readership
                .iter()
                .filter(|row| row.firm_id == r.firm_id)
                .map(|row| {
                    json!({ "channelName": row.channel_name, "readers": row.readers, "fullReads": row.full_reads,
                            "previews": row.previews, "articlesRead": row.articles_read })
                })
                .collect();
            Outgoing {
                delivery_key: format!("{}:{}:{}:{month}", Kind::FirmUsage.as_str(), r.firm_id, r.user_id),
                kind: Kind::FirmUsage,
                user_id: Some(r.user_id.clone()),
                recipient: r.email.clone(),
                channel_id: None,
                unsubscribe: None,
                content_id: None,
                data: json!({ "firmName": r.firm_name, "monthName": month_name, "month": month, "recipientName": r.name,
                              "channels": channels }),
            }
        })
        .collect();
    let written = outbox::write(&mut tx, jobs, &emails).await?;
    tx.commit().await?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_month_is_the_calendar_month_before() {
        let at = |y, m, d| Utc.with_ymd_and_hms(y, m, d, 6, 0, 0).unwrap();
        assert_eq!(last_month(at(2026, 12, 1)), (Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap()));
        assert_eq!(last_month(at(2027, 1, 15)).0, Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
    }
}
