//! SQL of the email area: the outbox (written, claimed, recorded, listed, purged), the emails
//! composed in SQL from the rows they are about, new-article fan-outs and digests, and the
//! reader's email settings and unsubscribes.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::{
    outbox::{Outgoing, UnsubscribeScope},
    settings::Settings,
};

// ---- The outbox ----

/// Stores data many emails share; returns its id for `Outgoing::content_id`.
pub async fn add_content(conn: &mut PgConnection, data: &Value) -> sqlx::Result<i64> {
    sqlx::query_scalar!("insert into email_content (data) values ($1) returning content_id", data).fetch_one(&mut *conn).await
}

/// Writes emails in one statement, whatever their number; those whose delivery key exists are
/// left as they are. Returns how many were new.
pub async fn insert_emails(conn: &mut PgConnection, emails: &[Outgoing]) -> sqlx::Result<u64> {
    let keys: Vec<&str> = emails.iter().map(|e| e.delivery_key.as_str()).collect();
    let kinds: Vec<&str> = emails.iter().map(|e| e.kind.as_str()).collect();
    let users: Vec<Option<&str>> = emails.iter().map(|e| e.user_id.as_deref()).collect();
    let recipients: Vec<&str> = emails.iter().map(|e| e.recipient.as_str()).collect();
    let channels: Vec<Option<&str>> = emails.iter().map(|e| e.channel_id.as_deref()).collect();
    let unsubscribe: Vec<Option<&str>> = emails.iter().map(|e| e.unsubscribe.map(UnsubscribeScope::as_str)).collect();
    let contents: Vec<Option<i64>> = emails.iter().map(|e| e.content_id).collect();
    let data: Vec<&Value> = emails.iter().map(|e| &e.data).collect();
    let bulk: Vec<bool> = emails.iter().map(|e| e.kind.is_bulk()).collect();
    let written = sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, unsubscribe, content_id, data, bulk)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::jsonb[], $9::bool[])
         on conflict on constraint email_outbox_delivery_key do nothing",
        &keys as &[&str],
        &kinds as &[&str],
        &users as &[Option<&str>],
        &recipients as &[&str],
        &channels as &[Option<&str>],
        &unsubscribe as &[Option<&str>],
        &contents as &[Option<i64>],
        &data as &[&Value],
        &bulk,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(written)
}

/// An email claimed for delivery, with everything its rendering needs.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub email_id: i64,
    pub delivery_key: String,
    pub kind: String,
    pub user_id: Option<String>,
    pub recipient: String,
    pub unsubscribe: Option<String>,
    pub channel_id: Option<String>,
    /// The shared content with the row's own data merged over it.
    pub data: Value,
    /// This attempt's number (1 for the first).
    pub attempts: i32,
}

/// Claims up to `limit` due emails for `worker`: pending ones whose time has come, and those a
/// worker that is no longer alive was sending when it died; service emails before notifications. Others wait (SKIP LOCKED), so several
/// workers share the outbox without taking the same email.
pub async fn claim(pool: &PgPool, worker: Uuid, now: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<Claimed>> {
    sqlx::query_as!(
        Claimed,
        r#"with due as (
               select o.email_id from email_outbox o
                -- The database's clock too: an email written a moment ago is due whatever the skew.
                where o.state in ('pending', 'sending') and o.next_attempt_at <= greatest($2, now())
                  and (o.state = 'pending'
                       -- Claimed by a worker that died, or so long ago that the attempt cannot still be running.
                       or o.claimed_at < $2 - interval '10 minutes'
                       or not exists (select 1 from worker_process w where w.worker_id = o.claimed_by and worker_alive(w)))
                order by o.bulk, o.next_attempt_at, o.email_id
                limit $3
                for update skip locked)
           update email_outbox o
              set state = 'sending', claimed_by = $1, claimed_at = $2, attempts = o.attempts + 1
             from due
            where o.email_id = due.email_id
        returning o.email_id, o.delivery_key, o.kind, o.user_id, o.recipient, o.unsubscribe, o.channel_id, o.attempts,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!""#,
        worker,
        now,
        limit,
    )
    .fetch_all(pool)
    .await
}

/// Marks every due email as sent nowhere (no SMTP server is configured); returns how many.
pub async fn keep_unsent(pool: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "update email_outbox set state = 'sentNowhere', sent_at = now(), claimed_by = null
          where state = 'pending' and next_attempt_at <= greatest($1, now())",
        now
    )
    .execute(pool)
    .await?
    .rows_affected())
}

/// Records a claimed email's attempt: its new state ('sent', 'failed' or 'pending' again), the
/// error it failed with and when it is next due. An email no longer being sent is left alone.
pub async fn record_attempt(
    pool: &PgPool,
    email_id: i64,
    state: &str,
    error: Option<&str>,
    next_attempt_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update email_outbox
            set state = $2, last_error = $3, next_attempt_at = $4, claimed_by = null,
                sent_at = case when $2 = 'sent' then now() end
          where email_id = $1 and state = 'sending'",
        email_id,
        state,
        error,
        next_attempt_at,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Gives back emails claimed but not attempted (the worker is stopping).
pub async fn release(pool: &PgPool, email_ids: &[i64]) -> sqlx::Result<()> {
    sqlx::query!(
        "update email_outbox set state = 'pending', claimed_by = null, attempts = attempts - 1
          where email_id = any($1) and state = 'sending'",
        email_ids
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// One row of `insights-cli outbox`.
#[derive(Debug, Clone)]
pub struct Listed {
    pub email_id: i64,
    pub created_at: DateTime<Utc>,
    pub kind: String,
    pub recipient: String,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub data: Value,
    pub user_id: Option<String>,
    pub channel_id: Option<String>,
    pub unsubscribe: Option<String>,
}

/// One email by id.
pub async fn find(db: impl PgExecutor<'_>, email_id: i64) -> sqlx::Result<Option<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select o.email_id, o.created_at, o.kind, o.recipient, o.state, o.attempts, o.next_attempt_at, o.sent_at, o.last_error,
                  o.user_id, o.channel_id, o.unsubscribe,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!"
             from email_outbox o
            where o.email_id = $1"#,
        email_id,
    )
    .fetch_optional(db)
    .await
}

/// The newest emails, optionally in one state.
pub async fn recent(db: impl PgExecutor<'_>, state: Option<&str>, limit: i64) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select o.email_id, o.created_at, o.kind, o.recipient, o.state, o.attempts, o.next_attempt_at, o.sent_at, o.last_error,
                  o.user_id, o.channel_id, o.unsubscribe,
                  coalesce((select c.data from email_content c where c.content_id = o.content_id), '{}') || o.data as "data!"
             from email_outbox o
            where $1::text is null or o.state = $1
            order by o.created_at desc, o.email_id desc
            limit $2"#,
        state,
        limit,
    )
    .fetch_all(db)
    .await
}

/// How many emails are in each state.
pub async fn counts(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<(String, i64)>> {
    let rows = sqlx::query!(r#"select state, count(*) as "count!" from email_outbox group by state order by state"#).fetch_all(db).await?;
    Ok(rows.into_iter().map(|r| (r.state, r.count)).collect())
}

/// How many emails wait to be sent or are being sent, per state ('pending', 'sending'; a state
/// with none is absent). Only those states: delivered emails are history, and these two are
/// indexed, so the metrics' sample stays cheap on a large outbox.
pub async fn waiting_counts(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<(String, i64)>> {
    sqlx::query_as::<_, (String, i64)>("select state, count(*) from email_outbox where state in ('pending', 'sending') group by state")
        .fetch_all(db)
        .await
}

/// Makes failed emails pending again (one, or all of them); returns how many.
pub async fn retry_failed(db: impl PgExecutor<'_>, email_id: Option<i64>) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "update email_outbox set state = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
          where state = 'failed' and ($1::bigint is null or email_id = $1)",
        email_id
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Deletes delivered and failed emails older than `days`; returns how many.
pub async fn delete_finished_emails(db: impl PgExecutor<'_>, days: u32) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "delete from email_outbox where state in ('sent', 'failed', 'sentNowhere') and created_at < now() - make_interval(days => $1)",
        days as i32
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Deletes shared content older than `days` that no email uses any more.
pub async fn delete_unused_content(db: impl PgExecutor<'_>, days: u32) -> sqlx::Result<()> {
    sqlx::query!(
        "delete from email_content c where c.created_at < now() - make_interval(days => $1)
            and not exists (select 1 from email_outbox o where o.content_id = c.content_id)",
        days as i32
    )
    .execute(db)
    .await?;
    Ok(())
}

// ---- Emails composed from the rows they are about ----

/// The emails subscription changes ask for, to their readers (parallel arrays, one entry per
/// email): each gets its reader's address and name and the channel and the subscription's end as
/// they are in this transaction. Returns how many were new.
pub async fn insert_subscription_emails(
    conn: &mut PgConnection,
    channel_id: &str,
    kinds: &[&str],
    user_ids: &[&str],
    occasions: &[&str],
    welcomes: &[Option<&str>],
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, data)
             select v.kind || ':' || u.user_id || ':' || c.channel_id || ':' || v.occasion, v.kind, u.user_id, u.email, c.channel_id,
                    jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'recipientName', u.name,
                                       'endsAt', s.cancel_at, 'trialDays', s.trial_duration, 'welcome', v.welcome)
               from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as v(kind, user_id, occasion, welcome)
               join users u on u.user_id = v.user_id
               join channel c on c.channel_id = $1
               left join channel_subscription s on s.channel_id = c.channel_id and s.user_id = u.user_id
             on conflict on constraint email_outbox_delivery_key do nothing",
        channel_id,
        kinds as &[&str],
        user_ids as &[&str],
        occasions as &[&str],
        welcomes as &[Option<&str>],
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// An email about a firm's subscription to each of the firm's administrators, with the firm's
/// name and the subscription's end as they are in this transaction. Returns how many were new.
pub async fn insert_firm_subscription_emails(
    conn: &mut PgConnection,
    kind: &str,
    channel_id: &str,
    firm_id: &str,
    occasion: &str,
    welcome: Option<&str>,
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, data)
             select $1 || ':' || u.user_id || ':' || c.channel_id || ':firm:' || f.firm_id || ':' || $4, $1, u.user_id, u.email,
                    c.channel_id,
                    jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'recipientName', u.name,
                                       'endsAt', s.cancel_at, 'trialDays', s.trial_duration, 'welcome', $5::text,
                                       'firmName', f.name, 'seats', s.seats)
               from firm f
               join firm_member m on m.firm_id = f.firm_id and m.is_admin
               join users u on u.user_id = m.user_id
               join channel c on c.channel_id = $2
               join firm_subscription s on s.firm_id = f.firm_id and s.channel_id = c.channel_id
              where f.firm_id = $3
             on conflict on constraint email_outbox_delivery_key do nothing",
        kind,
        channel_id,
        firm_id,
        occasion,
        welcome,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// An email of `kind` about a reader to each of a channel's admins, with the reader's name,
/// company and email (and who to invoice, for an invoice request): a registered interest (once
/// per reader and day) or an invoice request. Returns how many were new.
pub async fn insert_about_reader_to_admins(
    conn: &mut PgConnection,
    kind: &str,
    channel_id: &str,
    reader: &str,
    occasion: &str,
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, data)
         select $4 || ':' || a.user_id || ':' || c.channel_id || ':' || r.user_id || ':' || $3, $4,
                a.user_id, admin.email, c.channel_id,
                jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'readerName', r.name,
                                   'readerCompany', r.company, 'readerEmail', r.email,
                                   'legalEntityName', s.legal_entity_name, 'billingEmailAddress', s.billing_email_address,
                                   'pricePerMonth', s.price_per_month::text)
           from channel c
           join channel_admin a on a.channel_id = c.channel_id
           join users admin on admin.user_id = a.user_id
           join users r on r.user_id = $2
           left join channel_subscription s on s.channel_id = c.channel_id and s.user_id = r.user_id
          where c.channel_id = $1
         on conflict on constraint email_outbox_delivery_key do nothing",
        channel_id,
        reader,
        occasion,
        kind,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// A registered interest waiting for its emails, with what they say: the article, channel or
/// promotional content it is about, and the reader.
#[derive(Debug, Clone)]
pub struct PendingInterest {
    /// Article, Channel or PromotionalContent.
    pub kind: String,
    pub item_id: String,
    /// The article's channel, or the channel the interest is in.
    pub channel_id: Option<String>,
    pub title: Option<String>,
    pub channel_name: Option<String>,
    pub desk_email: Option<String>,
    pub content_name: Option<String>,
    pub page_name: Option<String>,
    pub teams_channel: Option<String>,
    pub reader_name: String,
    pub reader_company: Option<String>,
    pub reader_email: String,
}

/// Locks a pending email interest that has no emails yet; None when it is not one (any more).
pub async fn lock_pending_interest(conn: &mut PgConnection, interest_id: i64) -> sqlx::Result<Option<PendingInterest>> {
    sqlx::query_as!(
        PendingInterest,
        r#"select i.kind, i.item_id, coalesce(a.premium_channel_id, i.channel_id) as channel_id, a.title as "title?",
                  ch.name as "channel_name?", d.email as "desk_email?", p.name as "content_name?", g.name as "page_name?",
                  g.teams_channel as "teams_channel?",
                  r.name as reader_name, r.company as reader_company, r.email as "reader_email: String"
             from interest i
             join users r on r.user_id = i.user_id
             left join article a on a.article_id = i.article_id
             left join desk d on d.desk_id = a.published_by_desk_id
             left join channel ch on ch.channel_id = coalesce(a.premium_channel_id, i.channel_id)
             left join promotional_content p on p.promotional_content_id = i.promotional_content_id
             left join promotion_page g on g.promotion_page_id = p.promotion_page_id
            where i.interest_id = $1 and i.delivery_method = 'email' and i.delivery_state = 'pending'
              and not exists (select 1 from email_outbox o where o.interest_id = i.interest_id)
            for update of i"#,
        interest_id,
    )
    .fetch_optional(&mut *conn)
    .await
}

/// Marks an interest failed: there is nobody to tell, for the reason given.
pub async fn mark_interest_undeliverable(conn: &mut PgConnection, interest_id: i64, reason: &str) -> sqlx::Result<()> {
    sqlx::query!("update interest set delivery_state = 'failed', last_error = $2 where interest_id = $1", interest_id, reason)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Links an interest's emails (by delivery key) to it, so that its delivery state follows theirs.
pub async fn link_emails_to_interest(conn: &mut PgConnection, interest_id: i64, delivery_keys: &[&str]) -> sqlx::Result<()> {
    sqlx::query!(
        "update email_outbox set interest_id = $1 where delivery_key = any($2) and interest_id is null",
        interest_id,
        delivery_keys as &[&str]
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A channel's admins as recipients (their user and address).
pub async fn channel_admins(conn: &mut PgConnection, channel_id: Option<&str>) -> sqlx::Result<Vec<(Option<String>, String)>> {
    let admins = sqlx::query!(
        r#"select u.user_id, u.email as "email: String" from channel_admin a join users u on u.user_id = a.user_id
            where a.channel_id = $1 order by u.user_id"#,
        channel_id,
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(admins.into_iter().map(|admin| (Some(admin.user_id), admin.email)).collect())
}

// ---- New-article notifications and digests ----

/// A notification request not yet processed, with its article and the article's channel.
#[derive(Debug, Clone)]
pub struct NotificationRequest {
    pub is_update: bool,
    pub article_id: String,
    pub title: String,
    pub summary: Option<String>,
    pub state: String,
    pub publish_date: Option<DateTime<Utc>>,
    pub is_premium: bool,
    pub premium_expires_at: Option<DateTime<Utc>>,
    pub premium_channel_id: Option<String>,
    pub channel_name: Option<String>,
    pub channel_type: Option<String>,
}

/// Locks a notification request that is not processed yet; None when it is (a retried job, or a
/// second worker) or is gone.
pub async fn lock_notification_request(conn: &mut PgConnection, request_id: i64) -> sqlx::Result<Option<NotificationRequest>> {
    sqlx::query_as!(
        NotificationRequest,
        r#"select r.is_update, a.article_id, a.title, a.summary, a.state, a.publish_date, a.is_premium, a.premium_expires_at,
                  a.premium_channel_id, c.name as "channel_name?: String", c.type as "channel_type?"
             from article_notification_request r
             join article a on a.article_id = r.article_id
             left join channel c on c.channel_id = a.premium_channel_id
            where r.request_id = $1 and r.processed_at is null
            for update of r"#,
        request_id
    )
    .fetch_optional(&mut *conn)
    .await
}

/// A reader a new article is announced to, with what decides between the full version and the
/// teaser, and between an email now and a digest.
#[derive(Debug, Clone)]
pub struct NotifiedReader {
    pub user_id: String,
    pub email: String,
    pub name: String,
    pub scopes: Vec<String>,
    pub subscription_state: String,
    pub cancel_at: Option<DateTime<Utc>>,
    pub is_full_article_content: bool,
    pub email_frequency: String,
    /// A firm seat's start (its subscription's).
    pub starts_at: Option<DateTime<Utc>>,
}

/// The active subscribers of a channel at `now` whose global and per-channel email settings are
/// on: by their own subscription or a firm seat (once each, by the one giving more).
pub async fn notified_readers(conn: &mut PgConnection, channel_id: &str, now: DateTime<Utc>) -> sqlx::Result<Vec<NotifiedReader>> {
    sqlx::query_as!(
        NotifiedReader,
        r#"select distinct on (u.user_id) u.user_id as "user_id!", u.email as "email!: String", u.name as "name!",
                  u.scopes as "scopes!", x.subscription_state as "subscription_state!", x.cancel_at,
                  x.is_full_article_content as "is_full_article_content!", x.email_frequency as "email_frequency!", x.starts_at
             from (select s.user_id, s.subscription_state, s.cancel_at, s.is_full_article_content, s.email_frequency,
                          null::timestamptz as starts_at
                     from channel_subscription s
                    where s.channel_id = $1 and s.subscription_state = 'active' and (s.cancel_at is null or s.cancel_at > $2)
                      and s.email_notifications
                   union all
                   select seat.user_id, f.subscription_state, f.cancel_at, f.is_full_article_content, seat.email_frequency, f.starts_at
                     from firm_subscription f join firm_seat seat using (firm_subscription_id)
                    where f.channel_id = $1 and f.subscription_state = 'active' and f.starts_at <= $2
                      and (f.cancel_at is null or f.cancel_at > $2) and seat.email_notifications) x
             join users u on u.user_id = x.user_id
            where u.channel_notifications
            order by u.user_id, x.is_full_article_content desc"#,
        channel_id,
        now,
    )
    .fetch_all(&mut *conn)
    .await
}

/// The readers who get an article's email now (parallel arrays, one entry per reader), each with
/// the shared content (full version or teaser) their email shows.
#[derive(Debug, Default)]
pub struct ArticleEmailReaders<'a> {
    pub user_ids: Vec<&'a str>,
    pub recipients: Vec<&'a str>,
    pub names: Vec<&'a str>,
    pub content_ids: Vec<i64>,
}

/// Writes one article email per reader, keyed by `kind` ('articlePublished' or 'articleUpdated'),
/// article and request, so that a request is emailed once. Returns how many were new.
pub async fn insert_article_emails(
    conn: &mut PgConnection,
    kind: &str,
    article_id: &str,
    request_id: i64,
    channel_id: &str,
    readers: &ArticleEmailReaders<'_>,
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, unsubscribe, content_id, data, bulk)
             select $1 || ':' || v.user_id || ':' || $2 || ':' || $3, 'articlePublished', v.user_id, v.recipient, $4, 'channel',
                    v.content_id, jsonb_build_object('recipientName', v.name), true
               from unnest($5::text[], $6::text[], $7::text[], $8::bigint[]) as v(user_id, recipient, name, content_id)
             on conflict on constraint email_outbox_delivery_key do nothing",
        kind,
        article_id,
        request_id.to_string(),
        channel_id,
        &readers.user_ids as &[&str],
        &readers.recipients as &[&str],
        &readers.names as &[&str],
        &readers.content_ids as &[i64],
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// Adds an article to the digests of readers who chose them (parallel arrays: reader, daily or
/// weekly, whether they may read it in full); once per reader and article. Returns how many were new.
pub async fn insert_digest_items(
    conn: &mut PgConnection,
    article_id: &str,
    channel_id: &str,
    user_ids: &[&str],
    frequencies: &[&str],
    full_versions: &[bool],
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "insert into email_digest_item (user_id, article_id, channel_id, frequency, full_version)
             select v.user_id, $1, $2, v.frequency, v.is_full from unnest($3::text[], $4::text[], $5::bool[]) as v(user_id, frequency, is_full)
             on conflict (user_id, article_id) do nothing",
        article_id,
        channel_id,
        user_ids as &[&str],
        frequencies as &[&str],
        full_versions as &[bool],
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// Marks a notification request processed.
pub async fn mark_notification_processed(conn: &mut PgConnection, request_id: i64) -> sqlx::Result<()> {
    sqlx::query!("update article_notification_request set processed_at = now() where request_id = $1", request_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A reader with articles waiting for a digest of one frequency, and their time zone.
#[derive(Debug, Clone)]
pub struct WaitingDigest {
    pub user_id: String,
    pub frequency: String,
    pub time_zone: String,
}

/// Every (reader, frequency) with articles not yet digested.
pub async fn waiting_digests(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<WaitingDigest>> {
    sqlx::query_as!(
        WaitingDigest,
        r#"select distinct i.user_id, i.frequency, u.time_zone from email_digest_item i join users u on u.user_id = i.user_id
            where i.digested_at is null order by i.user_id, i.frequency"#
    )
    .fetch_all(db)
    .await
}

/// A published article waiting in a reader's digest, with the reader's address.
#[derive(Debug, Clone)]
pub struct DigestItem {
    pub article_id: String,
    pub channel_id: String,
    pub full_version: bool,
    pub title: String,
    pub summary: Option<String>,
    pub channel_name: String,
    pub email: String,
    pub reader_name: String,
}

/// Locks the published articles waiting in one reader's digest of one frequency, newest first;
/// those another worker holds are skipped.
pub async fn lock_digest_items(conn: &mut PgConnection, user_id: &str, frequency: &str) -> sqlx::Result<Vec<DigestItem>> {
    sqlx::query_as!(
        DigestItem,
        r#"select i.article_id, i.channel_id, i.full_version, a.title, a.summary, c.name as "channel_name: String",
                  u.email as "email: String", u.name as reader_name
             from email_digest_item i
             join article a on a.article_id = i.article_id
             join channel c on c.channel_id = i.channel_id
             join users u on u.user_id = i.user_id
            where i.user_id = $1 and i.frequency = $2 and i.digested_at is null and a.state = 'Published'
            order by a.publish_date desc, i.article_id
            for update of i skip locked"#,
        user_id,
        frequency,
    )
    .fetch_all(&mut *conn)
    .await
}

/// Marks a reader's digest items for `article_ids` digested.
pub async fn mark_digested(conn: &mut PgConnection, user_id: &str, article_ids: &[String]) -> sqlx::Result<()> {
    sqlx::query!("update email_digest_item set digested_at = now() where user_id = $1 and article_id = any($2)", user_id, article_ids)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

// ---- The reader's settings and unsubscribes ----

/// A reader's global email settings; None when the user does not exist.
pub async fn settings(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<Settings>> {
    sqlx::query_as!(Settings, "select channel_notifications, time_zone from users where user_id = $1", user_id).fetch_optional(db).await
}

/// Changes a reader's global email settings (None leaves one as it is) and returns them; None
/// when the user does not exist.
pub async fn change_settings(
    db: impl PgExecutor<'_>,
    user_id: &str,
    channel_notifications: Option<bool>,
    time_zone: Option<&str>,
) -> sqlx::Result<Option<Settings>> {
    sqlx::query_as!(
        Settings,
        "update users set channel_notifications = coalesce($2, channel_notifications), time_zone = coalesce($3, time_zone)
          where user_id = $1 returning channel_notifications, time_zone",
        user_id,
        channel_notifications,
        time_zone,
    )
    .fetch_optional(db)
    .await
}

/// Turns a subscribed channel's emails on or off (None: the other way round), for the reader's own
/// subscription and their firm seat alike; returns how many changed (0: they hold no such channel).
pub async fn set_channel_emails(db: impl PgExecutor<'_>, user_id: &str, channel_id: &str, on: Option<bool>) -> sqlx::Result<u64> {
    let changed = sqlx::query_scalar!(
        r#"with own as (
               update channel_subscription set email_notifications = coalesce($3, not email_notifications)
                where user_id = $1 and channel_id = $2 returning 1),
           seat as (
               update firm_seat s set email_notifications = coalesce($3, not s.email_notifications)
                 from firm_subscription f
                where f.firm_subscription_id = s.firm_subscription_id and s.user_id = $1 and f.channel_id = $2 returning 1)
           select (select count(*) from own) + (select count(*) from seat) as "changed!""#,
        user_id,
        channel_id,
        on,
    )
    .fetch_one(db)
    .await?;
    Ok(changed as u64)
}

/// Sets how a subscribed channel's new articles are emailed; returns how many subscriptions
/// changed (0: the reader has none to that channel).
pub async fn set_email_frequency(db: impl PgExecutor<'_>, user_id: &str, channel_id: &str, frequency: &str) -> sqlx::Result<u64> {
    let changed = sqlx::query_scalar!(
        r#"with own as (
               update channel_subscription set email_frequency = $3 where user_id = $1 and channel_id = $2 returning 1),
           seat as (
               update firm_seat s set email_frequency = $3 from firm_subscription f
                where f.firm_subscription_id = s.firm_subscription_id and s.user_id = $1 and f.channel_id = $2 returning 1)
           select (select count(*) from own) + (select count(*) from seat) as "changed!""#,
        user_id,
        channel_id,
        frequency,
    )
    .fetch_one(db)
    .await?;
    Ok(changed as u64)
}

/// Emails on for exactly the listed channels among the reader's subscriptions, off for the others.
pub async fn set_emails_of_channels(db: impl PgExecutor<'_>, user_id: &str, channel_ids: &[String]) -> sqlx::Result<()> {
    sqlx::query!(
        "with own as (
             update channel_subscription set email_notifications = (channel_id = any($2))
              where user_id = $1 and email_notifications is distinct from (channel_id = any($2)))
         update firm_seat s set email_notifications = (f.channel_id = any($2))
           from firm_subscription f
          where f.firm_subscription_id = s.firm_subscription_id and s.user_id = $1
            and s.email_notifications is distinct from (f.channel_id = any($2))",
        user_id,
        channel_ids,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The unsubscribe links' signing key kept in the database: `fresh` becomes it when there is none
/// yet, so every process ends up with the one that was written first.
pub async fn unsubscribe_key(pool: &PgPool, fresh: &[u8]) -> sqlx::Result<Vec<u8>> {
    sqlx::query!("insert into server_secret (name, secret) values ('unsubscribe', $1) on conflict (name) do nothing", fresh)
        .execute(pool)
        .await?;
    sqlx::query_scalar!("select secret from server_secret where name = 'unsubscribe'").fetch_one(pool).await
}

/// What an unsubscribe link is about: whose address, which channel, and whether its emails are on.
#[derive(Debug, Clone)]
pub struct UnsubscribeTarget {
    pub email: String,
    pub channel_name: Option<String>,
    pub subscribed: bool,
}

/// A reader's address and whether the emails a link turns off are on: a channel's (`channel_id`)
/// or, when None, every channel's. None when the user does not exist.
pub async fn unsubscribe_target(
    db: impl PgExecutor<'_>,
    user_id: &str,
    channel_id: Option<&str>,
) -> sqlx::Result<Option<UnsubscribeTarget>> {
    sqlx::query_as!(
        UnsubscribeTarget,
        r#"select u.email as "email: String", (select c.name::text from channel c where c.channel_id = $2) as channel_name,
                  case when $2::text is null then u.channel_notifications
                       else coalesce((select s.email_notifications from channel_subscription s
                                       where s.user_id = u.user_id and s.channel_id = $2), false)
                            or coalesce((select s.email_notifications from firm_seat s join firm_subscription f using (firm_subscription_id)
                                          where s.user_id = u.user_id and f.channel_id = $2), false) end as "subscribed!"
             from users u where u.user_id = $1"#,
        user_id,
        channel_id,
    )
    .fetch_optional(db)
    .await
}

/// Turns a reader's channel emails off globally; returns 0 when they were already off.
pub async fn turn_off_all_channel_emails(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<u64> {
    Ok(sqlx::query!("update users set channel_notifications = false where user_id = $1 and channel_notifications", user_id)
        .execute(db)
        .await?
        .rows_affected())
}

/// Turns one channel's emails off for a reader; returns 0 when they were already off (or the
/// reader has no subscription to it).
pub async fn turn_off_channel_emails(db: impl PgExecutor<'_>, user_id: &str, channel_id: &str) -> sqlx::Result<u64> {
    let changed = sqlx::query_scalar!(
        r#"with own as (
               update channel_subscription set email_notifications = false
                where user_id = $1 and channel_id = $2 and email_notifications returning 1),
           seat as (
               update firm_seat s set email_notifications = false from firm_subscription f
                where f.firm_subscription_id = s.firm_subscription_id and s.user_id = $1 and f.channel_id = $2
                  and s.email_notifications returning 1)
           select (select count(*) from own) + (select count(*) from seat) as "changed!""#,
        user_id,
        channel_id
    )
    .fetch_one(db)
    .await?;
    Ok(changed as u64)
}

/// Records why a reader unsubscribed (from one channel's emails, or, with no channel, from all).
pub async fn record_unsubscribe(db: impl PgExecutor<'_>, user_id: &str, channel_id: Option<&str>, reason: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into email_unsubscribe (user_id, channel_id, reason) values ($1, $2, $3)", user_id, channel_id, reason)
        .execute(db)
        .await?;
    Ok(())
}
