//! New-article emails: a publish (or an update) with "notify subscribers" records a request in
//! its transaction; this fan-out turns it into one email per subscriber, or a digest entry for
//! those who chose digests, in one transaction that also marks the request processed.
//!
//! Who: every active subscriber of the article's channel whose global and per-channel email
//! settings are on. What: the reader issue's entitlement rule decides, reader by reader, between
//! the summary with a link (may read it in full) and the teaser with an invitation; the article's
//! text is in neither.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgPool;

use super::queries::{self, ArticleEmailReaders};
use crate::{
    articles::model::ArticleState,
    auth::Role,
    channels::ChannelType,
    jobs::{JobQueue, JobRequest},
    reading::entitlement::{ArticleFacts, can_see_full_version},
    subscriptions::model::{SubscriptionAccess, SubscriptionState},
};

/// What one fan-out did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FanOut {
    /// Emails written now.
    pub emails: u64,
    /// Articles added to digests.
    pub digest_entries: u64,
    /// The request was already processed (a retried job) or is gone.
    pub skipped: bool,
}

/// Processes a notification request once: a retried job, or a second worker, finds it processed.
pub async fn fan_out(pool: &PgPool, jobs: &dyn JobQueue, request_id: i64, now: DateTime<Utc>) -> anyhow::Result<FanOut> {
    let mut tx = pool.begin().await?;
    let request = queries::lock_notification_request(&mut tx, request_id).await?;
    let Some(article) = request else {
        return Ok(FanOut { skipped: true, ..FanOut::default() });
    };
    let mut done = FanOut::default();
    // Only a published article of a channel has subscribers to tell.
    if let (Some(channel_id), "Published") = (article.premium_channel_id.as_deref(), article.state.as_str()) {
        let facts = ArticleFacts {
            state: ArticleState::Published,
            channel_id: Some(channel_id),
            channel_type: article.channel_type.as_deref().map(ChannelType::parse),
            is_premium: article.is_premium,
            premium_expires_at: article.premium_expires_at,
        };
        let readers = queries::notified_readers(&mut tx, channel_id, now).await?;

        let content = |full: bool| {
            json!({
                "articleId": article.article_id, "title": article.title, "summary": article.summary,
                "channelId": channel_id, "channelName": article.channel_name, "publishDate": article.publish_date,
                "isUpdate": article.is_update, "fullVersion": full,
            })
        };
        let full_content = queries::add_content(&mut tx, &content(true)).await?;
        let teaser_content = queries::add_content(&mut tx, &content(false)).await?;

        let mut immediate = ArticleEmailReaders::default();
        let (mut digest_users, mut digest_frequencies, mut digest_full) = (vec![], vec![], vec![]);
        for reader in &readers {
            let access = SubscriptionAccess {
                state: SubscriptionState::parse(&reader.subscription_state),
                cancel_at: reader.cancel_at,
                is_full_article_content: reader.is_full_article_content,
                starts_at: reader.starts_at,
            };
            let full = can_see_full_version(Role::from_scopes(&reader.scopes), Some(access), &facts, now);
            if reader.email_frequency == "immediate" {
                immediate.user_ids.push(reader.user_id.as_str());
                immediate.recipients.push(reader.email.as_str());
                immediate.names.push(reader.name.as_str());
                immediate.content_ids.push(if full { full_content } else { teaser_content });
            } else {
                digest_users.push(reader.user_id.as_str());
                digest_frequencies.push(reader.email_frequency.as_str());
                digest_full.push(full);
            }
        }
        let kind = if article.is_update { "articleUpdated" } else { "articlePublished" };
        done.emails =
            queries::insert_article_emails(&mut tx, kind, &article.article_id, request_id, channel_id, &immediate).await?;
        done.digest_entries = queries::insert_digest_items(
            &mut tx,
            &article.article_id,
            channel_id,
            &digest_users,
            &digest_frequencies,
            &digest_full,
        )
        .await?;
        if done.emails > 0 {
            jobs.enqueue(&mut tx, JobRequest::DeliverEmails).await?;
        }
    }
    queries::mark_notification_processed(&mut tx, request_id).await?;
    tx.commit().await?;
    tracing::info!(request_id, emails = done.emails, digest_entries = done.digest_entries, "article notification written");
    Ok(done)
}
