//! Who gets each kind of email and what it says, written to the outbox in the caller's
//! transaction. One function per kind (or family of kinds sharing their data).

use serde_json::json;
use sqlx::PgConnection;

use super::{
    Kind,
    outbox::{self, Outgoing},
    queries,
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
        written += queries::insert_subscription_emails(conn, channel_id, &kinds, &users, &occasions, &welcomes).await?;
    }
    for email in to_admins {
        let kind = Kind::from(email.kind).as_str();
        written += queries::insert_about_reader_to_admins(conn, kind, channel_id, email.user_id, &email.occasion).await?;
    }
    if written > 0 {
        jobs.enqueue(conn, crate::jobs::JobRequest::DeliverEmails).await?;
    }
    Ok(written)
}

/// The email a change of a firm's subscription asks for (`firms::subscriptions`): the one a reader
/// would get, to each of the firm's administrators, naming the firm. Returns how many were new.
pub async fn firm_subscription_email(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    channel_id: &str,
    firm_id: &str,
    kind: EmailKind,
    occasion: &str,
) -> anyhow::Result<u64> {
    let welcome = (kind == EmailKind::Welcome).then_some(Welcome::Granted.as_str());
    let written = queries::insert_firm_subscription_emails(conn, Kind::from(kind).as_str(), channel_id, firm_id, occasion, welcome).await?;
    if written > 0 {
        jobs.enqueue(conn, crate::jobs::JobRequest::DeliverEmails).await?;
    }
    Ok(written)
}

/// A firm administrator's invitation to a colleague, to the colleague's address (once per
/// invitation: a new one moves its time).
pub async fn firm_invitation(
    conn: &mut PgConnection,
    jobs: &dyn JobQueue,
    firm: (&str, &str),
    email: &str,
    inviter_name: &str,
    invited_at: &str,
) -> anyhow::Result<u64> {
    let (firm_id, firm_name) = firm;
    let email = Outgoing {
        delivery_key: format!("{}:{firm_id}:{email}:{invited_at}", Kind::FirmInvitation.as_str()),
        kind: Kind::FirmInvitation,
        user_id: None,
        recipient: email.to_owned(),
        channel_id: None,
        unsubscribe: None,
        content_id: None,
        data: json!({ "firmName": firm_name, "inviterName": inviter_name, "email": email }),
    };
    Ok(outbox::write(conn, jobs, &[email]).await?)
}

/// The emails of a reader's registered interest (`interests`): an article's to its desk's contact
/// address, or to its channel's admins when the desk has none; a channel's to its admins; a
/// promotional content's to its promotion page's address. They are linked to the interest, whose
/// delivery state then follows theirs (a trigger, migrations/0014). An interest with nobody to
/// tell is marked failed. Idempotent: an interest whose emails exist gets none. Returns how many.
pub async fn interest(conn: &mut PgConnection, jobs: &dyn JobQueue, interest_id: i64) -> anyhow::Result<u64> {
    let interest = queries::lock_pending_interest(conn, interest_id).await?;
    let Some(interest) = interest else { return Ok(0) };
    let reader =
        json!({ "readerName": interest.reader_name, "readerCompany": interest.reader_company, "readerEmail": interest.reader_email });
    // Each kind: its email, who gets it, what it says besides the reader, and why nobody might.
    let (kind, recipients, mut data, nobody) = match interest.kind.as_str() {
        "Article" => {
            let recipients = match interest.desk_email.filter(|e| !e.trim().is_empty()) {
                Some(desk) => vec![(None, desk)],
                None => queries::channel_admins(conn, interest.channel_id.as_deref()).await?,
            };
            let data = json!({ "articleId": interest.item_id, "title": interest.title, "channelId": interest.channel_id,
                               "channelName": interest.channel_name });
            (Kind::ArticleInterest, recipients, data, "The desk has no address and the channel no admins")
        }
        "Channel" => {
            let data = json!({ "channelId": interest.channel_id, "channelName": interest.channel_name });
            let admins = queries::channel_admins(conn, interest.channel_id.as_deref()).await?;
            (Kind::ChannelInterest, admins, data, "The channel has no admins")
        }
        _ => {
            let recipients: Vec<_> = interest.teams_channel.filter(|c| !c.trim().is_empty()).map(|to| (None, to)).into_iter().collect();
            let data = json!({ "promotionalContentId": interest.item_id, "contentName": interest.content_name,
                               "pageName": interest.page_name });
            (Kind::PromotionInterest, recipients, data, "The promotional content no longer leads to a promotion page")
        }
    };
    if recipients.is_empty() {
        queries::mark_interest_undeliverable(conn, interest_id, nobody).await?;
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
    queries::link_emails_to_interest(conn, interest_id, &keys).await?;
    Ok(written)
}
