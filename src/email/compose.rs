//! Who gets each kind of email and what it says, written to the outbox in the caller's
//! transaction. One function per kind (or family of kinds sharing their data).

use serde_json::json;
use sqlx::PgConnection;

use super::{
    Kind,
    outbox::{self, Outgoing},
};
use crate::{jobs::JobQueue, subscriptions::machine::EmailKind};

/// The emails subscription changes ask for (`subscriptions::store`): to the reader, with the
/// channel and the subscription's end as they are in this transaction; channel interest goes to
/// the channel's admins instead. `occasion` makes each one unique (the change's moment, or the
/// end a reminder is about). Set-based, whatever the number of readers. Returns how many are new.
pub async fn subscription_emails(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel_id: &str,
    emails: &[(EmailKind, &str, String)],
) -> anyhow::Result<u64> {
    let (to_admins, to_readers): (Vec<_>, Vec<_>) =
        emails.iter().partition(|(kind, _, _)| matches!(kind, EmailKind::ChannelInterest | EmailKind::InvoiceRequested));
    let mut written = 0;
    if !to_readers.is_empty() {
        let kinds: Vec<&str> = to_readers.iter().map(|(kind, _, _)| Kind::from(*kind).as_str()).collect();
        let users: Vec<&str> = to_readers.iter().map(|(_, user, _)| *user).collect();
        let occasions: Vec<&str> = to_readers.iter().map(|(_, _, occasion)| occasion.as_str()).collect();
        written += sqlx::query!(
            "insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, data)
             select v.kind || ':' || u.user_id || ':' || c.channel_id || ':' || v.occasion, v.kind, u.user_id, u.email, c.channel_id,
                    jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'recipientName', u.name,
                                       'endsAt', s.cancel_at, 'trialDays', s.trial_duration)
               from unnest($2::text[], $3::text[], $4::text[]) as v(kind, user_id, occasion)
               join users u on u.user_id = v.user_id
               join channel c on c.channel_id = $1
               left join channel_subscription s on s.channel_id = c.channel_id and s.user_id = u.user_id
             on conflict on constraint email_outbox_delivery_key do nothing",
            channel_id,
            &kinds as &[&str],
            &users as &[&str],
            &occasions as &[&str],
        )
        .execute(&mut *conn)
        .await?
        .rows_affected();
    }
    for (kind, reader, occasion) in to_admins {
        written += about_reader_to_admins(conn, Kind::from(*kind), channel_id, reader, occasion).await?;
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

/// A reader's registered interest in a premium article: to its desk's contact address, or to its
/// channel's admins when the desk has none. Marks the interest notified. Returns how many emails.
pub async fn article_interest(conn: &mut PgConnection, jobs: &dyn JobQueue, article_id: &str, reader: &str) -> anyhow::Result<u64> {
    let interest = sqlx::query!(
        r#"select i.registered_at, a.title, a.premium_channel_id, c.name as "channel_name?: String", d.email as desk_email,
                  r.name as reader_name, r.company as reader_company, r.email as "reader_email: String"
             from article_interest i
             join article a on a.article_id = i.article_id
             join users r on r.user_id = i.user_id
             left join channel c on c.channel_id = a.premium_channel_id
             left join desk d on d.desk_id = a.published_by_desk_id
            where i.article_id = $1 and i.user_id = $2 and i.notified_at is null
            for update of i"#,
        article_id,
        reader,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(interest) = interest else { return Ok(0) };
    let recipients: Vec<(Option<String>, String)> = match interest.desk_email.filter(|e| !e.trim().is_empty()) {
        Some(desk) => vec![(None, desk)],
        None => sqlx::query!(
            r#"select u.user_id, u.email as "email: String" from channel_admin a join users u on u.user_id = a.user_id
                where a.channel_id = $1 order by u.user_id"#,
            interest.premium_channel_id,
        )
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|admin| (Some(admin.user_id), admin.email))
        .collect(),
    };
    let occasion = outbox_occasion(interest.registered_at);
    let data = json!({
        "articleId": article_id, "title": interest.title, "channelId": interest.premium_channel_id,
        "channelName": interest.channel_name, "readerName": interest.reader_name, "readerCompany": interest.reader_company,
        "readerEmail": interest.reader_email,
    });
    let emails: Vec<Outgoing> = recipients
        .into_iter()
        .map(|(user_id, recipient)| Outgoing {
            delivery_key: format!("articleInterest:{recipient}:{article_id}:{reader}:{occasion}"),
            kind: Kind::ArticleInterest,
            user_id,
            recipient,
            channel_id: interest.premium_channel_id.clone(),
            unsubscribe: None,
            content_id: None,
            data: data.clone(),
        })
        .collect();
    let written = outbox::write(conn, jobs, &emails).await?;
    sqlx::query!("update article_interest set notified_at = now() where article_id = $1 and user_id = $2", article_id, reader)
        .execute(&mut *conn)
        .await?;
    Ok(written)
}

/// An occasion key for a moment (the same format subscription emails use).
fn outbox_occasion(at: chrono::DateTime<chrono::Utc>) -> String {
    crate::subscriptions::store::occasion_at(at)
}
