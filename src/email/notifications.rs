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

use super::outbox;
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
    let request = sqlx::query!(
        r#"select r.is_update, a.article_id, a.title, a.summary, a.state, a.publish_date, a.is_premium, a.premium_expires_at,
                  a.premium_channel_id, c.name as "channel_name?: String", c.type as "channel_type?"
             from article_notification_request r
             join article a on a.article_id = r.article_id
             left join channel c on c.channel_id = a.premium_channel_id
            where r.request_id = $1 and r.processed_at is null
            for update of r"#,
        request_id
    )
    .fetch_optional(&mut *tx)
    .await?;
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
        let readers = sqlx::query!(
            r#"select u.user_id, u.email as "email: String", u.name, u.scopes, s.subscription_state, s.cancel_at,
                      s.is_full_article_content, s.email_frequency
                 from channel_subscription s
                 join users u on u.user_id = s.user_id
                where s.channel_id = $1 and s.subscription_state = 'active' and (s.cancel_at is null or s.cancel_at > $2)
                  and s.email_notifications and u.channel_notifications
                order by u.user_id"#,
            channel_id,
            now,
        )
        .fetch_all(&mut *tx)
        .await?;

        let content = |full: bool| {
            json!({
                "articleId": article.article_id, "title": article.title, "summary": article.summary,
                "channelId": channel_id, "channelName": article.channel_name, "publishDate": article.publish_date,
                "isUpdate": article.is_update, "fullVersion": full,
            })
        };
        let full_content = outbox::add_content(&mut tx, &content(true)).await?;
        let teaser_content = outbox::add_content(&mut tx, &content(false)).await?;

        let (mut users, mut recipients, mut names, mut contents) = (vec![], vec![], vec![], vec![]);
        let (mut digest_users, mut digest_frequencies, mut digest_full) = (vec![], vec![], vec![]);
        for reader in &readers {
            let access = SubscriptionAccess {
                state: SubscriptionState::parse(&reader.subscription_state),
                cancel_at: reader.cancel_at,
                is_full_article_content: reader.is_full_article_content,
            };
            let full = can_see_full_version(Role::from_scopes(&reader.scopes), Some(access), &facts, now);
            if reader.email_frequency == "immediate" {
                users.push(reader.user_id.as_str());
                recipients.push(reader.email.as_str());
                names.push(reader.name.as_str());
                contents.push(if full { full_content } else { teaser_content });
            } else {
                digest_users.push(reader.user_id.as_str());
                digest_frequencies.push(reader.email_frequency.as_str());
                digest_full.push(full);
            }
        }
        let kind = if article.is_update { "articleUpdated" } else { "articlePublished" };
        done.emails = sqlx::query!(
            "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, unsubscribe, content_id, data, bulk)
             select $1 || ':' || v.user_id || ':' || $2 || ':' || $3, 'articlePublished', v.user_id, v.recipient, $4, 'channel',
                    v.content_id, jsonb_build_object('recipientName', v.name), true
               from unnest($5::text[], $6::text[], $7::text[], $8::bigint[]) as v(user_id, recipient, name, content_id)
             on conflict on constraint email_outbox_delivery_key do nothing",
            kind,
            article.article_id,
            request_id.to_string(),
            channel_id,
            &users as &[&str],
            &recipients as &[&str],
            &names as &[&str],
            &contents as &[i64],
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        done.digest_entries = sqlx::query!(
            "insert into email_digest_item (user_id, article_id, channel_id, frequency, full_version)
             select v.user_id, $1, $2, v.frequency, v.is_full from unnest($3::text[], $4::text[], $5::bool[]) as v(user_id, frequency, is_full)
             on conflict (user_id, article_id) do nothing",
            article.article_id,
            channel_id,
            &digest_users as &[&str],
            &digest_frequencies as &[&str],
            &digest_full as &[bool],
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done.emails > 0 {
            jobs.enqueue(&mut tx, JobRequest::DeliverEmails).await?;
        }
    }
    sqlx::query!("update article_notification_request set processed_at = now() where request_id = $1", request_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(request_id, emails = done.emails, digest_entries = done.digest_entries, "article notification written");
    Ok(done)
}
