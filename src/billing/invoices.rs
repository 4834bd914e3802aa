//! The reader's card invoices (`billing_invoice`): written as Stripe reports them (`sync`), read
//! for the Subscriptions page (`myInvoices`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use stripe_shared::{Invoice, InvoiceStatus};

use super::stripe::time;
use crate::error::Result;

/// Records an invoice of a known subscription (the reader's invoice list), as Stripe has it now.
pub async fn store(conn: &mut PgConnection, invoice: &Invoice, subscription_id: &str, user_id: &str) -> Result<()> {
    let Some(id) = &invoice.id else { return Ok(()) };
    let status = invoice.status.as_ref().map(InvoiceStatus::as_str).unwrap_or("draft");
    // The period billed is its lines' (a subscription invoice's own period fields are the previous
    // period's, or its creation time for the first one).
    let lines = &invoice.lines.data;
    let period_start = lines.iter().map(|line| line.period.start).min().unwrap_or(invoice.period_start);
    let period_end = lines.iter().map(|line| line.period.end).max().unwrap_or(invoice.period_end);
    sqlx::query!(
        "insert into billing_invoice (stripe_invoice_id, stripe_subscription_id, user_id, number, status, amount_due_cents,
                                      amount_paid_cents, currency, hosted_invoice_url, period_start, period_end, created)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (stripe_invoice_id) do update
            set number = excluded.number, status = excluded.status, amount_due_cents = excluded.amount_due_cents,
                amount_paid_cents = excluded.amount_paid_cents, hosted_invoice_url = excluded.hosted_invoice_url,
                period_start = excluded.period_start, period_end = excluded.period_end, synced_at = now()",
        id.as_str(),
        subscription_id,
        user_id,
        invoice.number,
        status,
        invoice.amount_due.max(0),
        invoice.amount_paid.max(0),
        invoice.currency.to_string(),
        invoice.hosted_invoice_url,
        time(period_start),
        time(period_end),
        time(invoice.created),
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One invoice as the reader's list shows it.
#[derive(Debug, Clone)]
pub struct ListedInvoice {
    pub stripe_invoice_id: String,
    pub channel_id: String,
    pub channel_name: String,
    pub number: Option<String>,
    pub status: String,
    pub amount_due_cents: i64,
    pub amount_paid_cents: i64,
    pub currency: String,
    pub hosted_invoice_url: Option<String>,
    pub period_start: Option<DateTime<Utc>>,
    pub period_end: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
}

/// A reader's invoices (not drafts), newest first, at most 100.
pub async fn of_user(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<ListedInvoice>> {
    sqlx::query_as!(
        ListedInvoice,
        r#"select i.stripe_invoice_id, s.channel_id, c.name as "channel_name: String", i.number, i.status, i.amount_due_cents,
                  i.amount_paid_cents, i.currency, i.hosted_invoice_url, i.period_start, i.period_end, i.created
             from billing_invoice i
             join billing_stripe_subscription s on s.stripe_subscription_id = i.stripe_subscription_id
             join channel c on c.channel_id = s.channel_id
            where i.user_id = $1 and i.status <> 'draft'
            order by i.created desc
            limit 100"#,
        user_id
    )
    .fetch_all(db)
    .await
}
