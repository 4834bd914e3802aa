//! Who gets each kind of email and what it says, written to the outbox in the caller's
//! transaction. One function per kind (or family of kinds sharing their data).

use serde_json::json;
use sqlx::PgConnection;

use super::{
    Kind,
    outbox::{self, Outgoing},
};
use crate::{
    jobs::JobQueue,
    subscriptions::machine::{EmailKind, Welcome},
};

/// An email a subscription change asks for.
#[derive(Debug, Clone)]
pub struct SubscriptionEmail<'a> {
    pub kind: EmailKind,
    /// The reader it is about (and, but for channel interest and invoice requests, to).
    pub user_id: &'a str,
    /// What makes it unique: the change's moment, or the end a reminder is about.
    pub occasion: String,
    /// A welcome email's wording (what kind of subscription it welcomes to).
    pub welcome: Option<Welcome>,
}

/// The emails subscription changes ask for (`subscriptions::store`): to the reader, with the
/// channel and the subscription's end as they are in this transaction; channel interest goes to
/// the channel's admins instead. Set-based, whatever the number of readers. Returns how many are new.
pub async fn subscription_emails(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel_id: &str,
    emails: &[SubscriptionEmail<'_>],
) -> anyhow::Result<u64> {
    let (to_admins, to_readers): (Vec<_>, Vec<_>) =
        emails.iter().partition(|email| matches!(email.kind, EmailKind::ChannelInterest | EmailKind::InvoiceRequested));
    let mut written = 0;
    if !to_readers.is_empty() {
        let kinds: Vec<&str> = to_readers.iter().map(|email| Kind::from(email.kind).as_str()).collect();
        let users: Vec<&str> = to_readers.iter().map(|email| email.user_id).collect();
        let occasions: Vec<&str> = to_readers.iter().map(|email| email.occasion.as_str()).collect();
        let welcomes: Vec<Option<&str>> = to_readers.iter().map(|email| email.welcome.map(Welcome::as_str)).collect();
        written += sqlx::query!(
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
            &kinds as &[&str],
            &users as &[&str],
            &occasions as &[&str],
            &welcomes as &[Option<&str>],
        )
        .execute(&mut *conn)
        .await?
        .rows_affected();
    }
    for email in to_admins {
        written += about_reader_to_admins(conn, Kind::from(email.kind), channel_id, email.user_id, &email.occasion).await?;
    }
    if written > 0 {
        jobs.enqueue(conn, crate::jobs::JobRequest::DeliverEmails).await?;
    }
    Ok(written)
}

/// An email about a reader to each of a channel's admins, with the reader's name, company and
/// email (and who to invoice, for an invoice request): a registered interest (once per reader and
/// day) or an invoice request.
async fn about_reader_to_admins(
    conn: &mut PgConnection,
    kind: Kind,
    channel_id: &str,
    reader: &str,
    occasion: &str,
) -> anyhow::Result<u64> {
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
        kind.as_str(),
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// The emails of a reader's registered interest (`interests`): an article's to its desk's contact
/// address, or to its channel's admins when the desk has none; a channel's to its admins; a
/// promotional content's to its promotion page's address. They are linked to the interest, whose
/// delivery state then follows theirs (a trigger, migrations/0014). An interest with nobody to
/// tell is marked failed. Idempotent: an interest whose emails exist gets none. Returns how many.
pub async fn interest(conn: &mut PgConnection, jobs: &dyn JobQueue, interest_id: i64) -> anyhow::Result<u64> {
    let interest = sqlx::query!(
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
    .await?;
    let Some(interest) = interest else { return Ok(0) };
    let reader =
        json!({ "readerName": interest.reader_name, "readerCompany": interest.reader_company, "readerEmail": interest.reader_email });
    // Each kind: its email, who gets it, what it says besides the reader, and why nobody might.
    let (kind, recipients, mut data, nobody) = match interest.kind.as_str() {
        "Article" => {
            let recipients = match interest.desk_email.filter(|e| !e.trim().is_empty()) {
                Some(desk) => vec![(None, desk)],
                None => channel_admins(conn, interest.channel_id.as_deref()).await?,
            };
            let data = json!({ "articleId": interest.item_id, "title": interest.title, "channelId": interest.channel_id,
                               "channelName": interest.channel_name });
            (Kind::ArticleInterest, recipients, data, "The desk has no address and the channel no admins")
        }
        "Channel" => {
            let data = json!({ "channelId": interest.channel_id, "channelName": interest.channel_name });
            (Kind::ChannelInterest, channel_admins(conn, interest.channel_id.as_deref()).await?, data, "The channel has no admins")
        }
        _ => {
            let recipients: Vec<_> = interest.teams_channel.filter(|c| !c.trim().is_empty()).map(|to| (None, to)).into_iter().collect();
            let data = json!({ "promotionalContentId": interest.item_id, "contentName": interest.content_name,
                               "pageName": interest.page_name });
            (Kind::PromotionInterest, recipients, data, "The promotional content no longer leads to a promotion page")
        }
    };
    if recipients.is_empty() {
        sqlx::query!("update interest set delivery_state = 'failed', last_error = $2 where interest_id = $1", interest_id, nobody)
            .execute(&mut *conn)
            .await?;
        return Ok(0);
    }
    data.as_object_mut().expect("an object").extend(reader.as_object().expect("an object").clone());
    let emails: Vec<Outgoing> = recipients
        .into_iter()
        .map(|(user_id, recipient)| Outgoing {
            delivery_key: format!("{}:{interest_id}:{recipient}", kind.as_str()),
            kind,
            user_id,
            recipient,
            channel_id: interest.channel_id.clone(),
            unsubscribe: None,
            content_id: None,
            data: data.clone(),
        })
        .collect();
    let keys: Vec<&str> = emails.iter().map(|e| e.delivery_key.as_str()).collect();
    let written = outbox::write(conn, jobs, &emails).await?;
    sqlx::query!(
        "update email_outbox set interest_id = $1 where delivery_key = any($2) and interest_id is null",
        interest_id,
        &keys as &[&str]
    )
    .execute(&mut *conn)
    .await?;
    Ok(written)
}

/// A channel's admins as recipients (their user and address).
async fn channel_admins(conn: &mut PgConnection, channel_id: Option<&str>) -> sqlx::Result<Vec<(Option<String>, String)>> {
    let admins = sqlx::query!(
        r#"select u.user_id, u.email as "email: String" from channel_admin a join users u on u.user_id = a.user_id
            where a.channel_id = $1 order by u.user_id"#,
        channel_id,
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(admins.into_iter().map(|admin| (Some(admin.user_id), admin.email)).collect())
}
