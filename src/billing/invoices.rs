//! The reader's card invoices (`billing_invoice`): written as Stripe reports them (`sync`), read
//! for the Subscriptions page (`myInvoices`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use stripe_shared::{Invoice, InvoiceStatus};

use super::{
    queries::{self, StoredInvoice},
    stripe::time,
};
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
    let stored = StoredInvoice {
        stripe_invoice_id: id.as_str(),
        stripe_subscription_id: subscription_id,
        user_id,
        number: invoice.number.as_deref(),
        status,
        amount_due_cents: invoice.amount_due.max(0),
        amount_paid_cents: invoice.amount_paid.max(0),
        currency: invoice.currency.to_string(),
        hosted_invoice_url: invoice.hosted_invoice_url.as_deref(),
        period_start: time(period_start),
        period_end: time(period_end),
        created: time(invoice.created),
    };
    queries::upsert_invoice(conn, &stored).await?;
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
    queries::invoices_of_user(db, user_id).await
}
