//! Daily and weekly digests: the articles waiting for a reader (`email_digest_item`), each once,
//! in one email when the digest hour has come in the reader's time zone: daily every day, weekly
//! on Monday (or the first run after it, if the workers were down). The delivery key holds the
//! reader's local day or week, so a second run or a second worker writes a digest once; articles
//! announced after today's digest wait for the next one.

use chrono::{DateTime, Datelike, Timelike, Utc, Weekday};
use chrono_tz::Tz;
use serde_json::json;
use sqlx::PgPool;

use super::{
    Kind,
    outbox::{self, Outgoing, UnsubscribeScope},
    queries,
};
use crate::jobs::JobQueue;

/// The digest a reader is due at `now`, if any: its period key ("2026-11-24" or "2026-W48").
pub fn due_period(frequency: &str, time_zone: &str, digest_hour: u32, now: DateTime<Utc>) -> Option<String> {
    let zone: Tz = time_zone.parse().unwrap_or(Tz::UTC);
    let local = now.with_timezone(&zone);
    match frequency {
        "daily" if local.hour() >= digest_hour => Some(local.date_naive().to_string()),
        "weekly" if local.weekday() != Weekday::Mon || local.hour() >= digest_hour => {
            let week = local.iso_week();
            Some(format!("{}-W{:02}", week.year(), week.week()))
        }
        _ => None,
    }
}

/// Writes the digests due at `now`; returns how many were written.
pub async fn compose_due(pool: &PgPool, jobs: &dyn JobQueue, digest_hour: u32, now: DateTime<Utc>) -> anyhow::Result<u64> {
    let waiting = queries::waiting_digests(pool).await?;
    let mut written = 0;
    for reader in waiting {
        let Some(period) = due_period(&reader.frequency, &reader.time_zone, digest_hour, now) else { continue };
        written += compose_one(pool, &reader.user_id, &reader.frequency, &period).await?;
    }
    // One delivery for all of them: the digests are committed, so it finds them.
    if written > 0 {
        let mut conn = pool.acquire().await?;
        jobs.enqueue(&mut conn, crate::jobs::JobRequest::DeliverEmails).await?;
    }
    Ok(written)
}

/// One reader's digest for one period, with the items it lists marked digested, in one transaction.
async fn compose_one(pool: &PgPool, user_id: &str, frequency: &str, period: &str) -> anyhow::Result<u64> {
    let mut tx = pool.begin().await?;
    let items = queries::lock_digest_items(&mut tx, user_id, frequency).await?;
    let Some(first) = items.first() else { return Ok(0) };
    let listed: Vec<_> = items
        .iter()
        .map(|item| {
            json!({ "articleId": item.article_id, "title": item.title, "summary": item.summary, "channelId": item.channel_id,
                    "channelName": item.channel_name, "fullVersion": item.full_version })
        })
        .collect();
    let email = Outgoing {
        delivery_key: format!("digest:{user_id}:{frequency}:{period}"),
        kind: Kind::Digest,
        user_id: Some(user_id.to_owned()),
        recipient: first.email.clone(),
        channel_id: None,
        unsubscribe: Some(UnsubscribeScope::All),
        content_id: None,
        data: json!({ "frequency": frequency, "items": listed, "recipientName": first.reader_name }),
    };
    let written = outbox::insert(&mut tx, &[email]).await?;
    if written > 0 {
        let ids: Vec<String> = items.iter().map(|item| item.article_id.clone()).collect();
        queries::mark_digested(&mut tx, user_id, &ids).await?;
    }
    tx.commit().await?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn daily_digests_go_from_the_digest_hour_in_the_readers_zone() {
        // 06:30 UTC is 07:30 in Paris (winter) and 01:30 in New York.
        let now = Utc.with_ymd_and_hms(2026, 11, 24, 6, 30, 0).unwrap();
        assert_eq!(due_period("daily", "Europe/Paris", 7, now).as_deref(), Some("2026-11-24"));
        assert_eq!(due_period("daily", "America/New_York", 7, now), None);
        assert_eq!(due_period("daily", "UTC", 7, now), None);
        // Just after midnight in Tokyo it is already the 25th there, before the hour.
        let late = Utc.with_ymd_and_hms(2026, 11, 24, 15, 30, 0).unwrap();
        assert_eq!(due_period("daily", "Asia/Tokyo", 7, late), None);
        assert_eq!(due_period("daily", "Asia/Tokyo", 0, late).as_deref(), Some("2026-11-25"));
        // An unknown zone counts as UTC.
        assert_eq!(due_period("daily", "Mars/Olympus", 6, now).as_deref(), Some("2026-11-24"));
    }

    #[test]
    fn weekly_digests_go_from_monday_at_the_hour_and_once_a_week() {
        let monday_early = Utc.with_ymd_and_hms(2026, 11, 23, 5, 0, 0).unwrap();
        let monday = Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap();
        let thursday = Utc.with_ymd_and_hms(2026, 11, 26, 3, 0, 0).unwrap();
        assert_eq!(due_period("weekly", "UTC", 8, monday_early), None);
        assert_eq!(due_period("weekly", "UTC", 8, monday).as_deref(), Some("2026-W48"));
        // A missed Monday: the week's digest still goes, under the same key.
        assert_eq!(due_period("weekly", "UTC", 8, thursday).as_deref(), Some("2026-W48"));
        assert_eq!(due_period("immediate", "UTC", 8, monday), None);
    }
}
