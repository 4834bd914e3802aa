//! SQL of the billing area: clearing accounts, the readers' Stripe customers, the mirror of their
//! card subscriptions and the channels' prices, invoices, and the Stripe events received.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};

use super::{
    accounts::{BillingAccount, UserRef},
    invoices::ListedInvoice,
    stripe::BillingAddress,
};

// ---- Clearing accounts ----

/// A user's accounts whose number or name matches the `ilike` pattern (all of them for None), by number.
pub async fn billing_accounts(db: impl PgExecutor<'_>, user_id: &str, pattern: Option<&str>) -> sqlx::Result<Vec<BillingAccount>> {
    sqlx::query_as!(
        BillingAccount,
        "select account_id, user_id, account_number, name from billing_account
          where user_id = $1 and ($2::text is null or account_number ilike $2 or name ilike $2)
          order by account_number",
        user_id,
        pattern,
    )
    .fetch_all(db)
    .await
}

/// Whether `account_number` is one of the user's accounts.
pub async fn owns_account(db: impl PgExecutor<'_>, user_id: &str, account_number: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("select 1 from billing_account where user_id = $1 and account_number = $2", user_id, account_number)
        .fetch_optional(db)
        .await?
        .is_some())
}

/// Whether the user exists (an account is only added to one).
pub async fn user_exists(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("select 1 from users where user_id = $1", user_id).fetch_optional(db).await?.is_some())
}

/// Adds an account to a user; the same number again updates its name. Returns it as stored.
pub async fn upsert_billing_account(
    db: impl PgExecutor<'_>,
    user_id: &str,
    account_number: &str,
    name: Option<&str>,
) -> sqlx::Result<BillingAccount> {
    sqlx::query_as!(
        BillingAccount,
        "insert into billing_account (user_id, account_number, name) values ($1, $2, $3)
         on conflict on constraint billing_account_number do update set name = excluded.name
         returning account_id, user_id, account_number, name",
        user_id,
        account_number,
        name,
    )
    .fetch_one(db)
    .await
}

/// Deletes an account; returns how many were deleted (0: no such account).
pub async fn delete_billing_account(db: impl PgExecutor<'_>, account_id: i64) -> sqlx::Result<u64> {
    Ok(sqlx::query!("delete from billing_account where account_id = $1", account_id).execute(db).await?.rows_affected())
}

/// The emails (lowercase) among `emails` that name no user, each once, sorted.
pub async fn unknown_user_emails(conn: &mut PgConnection, emails: &[String]) -> sqlx::Result<Vec<String>> {
    // users.email compares ignoring case (its collation), through its index.
    sqlx::query_scalar!(
        r#"select distinct v.email as "email!" from unnest($1::text[]) as v(email)
            where not exists (select 1 from users u where u.email = v.email) order by 1"#,
        emails,
    )
    .fetch_all(&mut *conn)
    .await
}

/// Adds or renames the accounts of users found by email (parallel arrays, one entry per row);
/// when the same user and number come twice, the later row's name wins, and a row that changes
/// nothing writes nothing. Returns, per account written, whether it was added (not renamed).
pub async fn import_billing_accounts(
    conn: &mut PgConnection,
    emails: &[String],
    numbers: &[&str],
    names: &[Option<&str>],
) -> sqlx::Result<Vec<bool>> {
    let written = sqlx::query!(
        r#"insert into billing_account (user_id, account_number, name)
           select distinct on (u.user_id, v.number) u.user_id, v.number, v.name
             from unnest($1::text[], $2::text[], $3::text[]) with ordinality as v(email, number, name, row_number)
             join users u on u.email = v.email
            order by u.user_id, v.number, v.row_number desc
           on conflict on constraint billing_account_number do update set name = coalesce(excluded.name, billing_account.name)
              where billing_account.name is distinct from coalesce(excluded.name, billing_account.name)
           returning (xmax = 0) as "inserted!""#,
        emails,
        numbers as &[&str],
        names as &[Option<&str>],
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(written.into_iter().map(|row| row.inserted).collect())
}

/// The users with this email (ignoring case), oldest first.
pub async fn users_of_email(db: impl PgExecutor<'_>, email: &str) -> sqlx::Result<Vec<UserRef>> {
    sqlx::query_as!(UserRef, "select user_id, email, name from users where email = $1 order by created_at, user_id", email)
        .fetch_all(db)
        .await
}

// ---- Stripe customers ----

/// The reader's Stripe customer id, if they have one.
pub async fn stripe_customer_id(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select stripe_customer_id from billing_customer where user_id = $1", user_id).fetch_optional(db).await
}

/// Records the reader's Stripe customer with their business name and address (the latest wins).
pub async fn save_customer(
    db: impl PgExecutor<'_>,
    user_id: &str,
    stripe_customer_id: &str,
    business_name: &str,
    address: &BillingAddress,
) -> sqlx::Result<()> {
    let a = address;
    sqlx::query!(
        "insert into billing_customer (user_id, stripe_customer_id, business_name, address_line1, address_line2, address_city,
                                       address_state, address_postcode, address_country_code)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (user_id) do update
            set business_name = excluded.business_name, address_line1 = excluded.address_line1,
                address_line2 = excluded.address_line2, address_city = excluded.address_city,
                address_state = excluded.address_state, address_postcode = excluded.address_postcode,
                address_country_code = excluded.address_country_code",
        user_id,
        stripe_customer_id,
        business_name,
        a.line1,
        a.line2,
        a.city,
        a.state,
        a.postcode,
        a.country,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records the tax id Stripe took for the reader's customer.
pub async fn set_customer_tax_id(db: impl PgExecutor<'_>, user_id: &str, tax_id: &str, tax_id_type: &str) -> sqlx::Result<()> {
    sqlx::query!("update billing_customer set tax_id = $2, tax_id_type = $3 where user_id = $1", user_id, tax_id, tax_id_type)
        .execute(db)
        .await?;
    Ok(())
}

/// A reader's card subscription with their customer's billing details (the card update form's).
#[derive(Debug, Clone)]
pub struct SubscriptionCustomer {
    pub channel_id: String,
    pub stripe_customer_id: String,
    pub business_name: String,
    pub tax_id: Option<String>,
    pub address_line1: String,
    pub address_line2: Option<String>,
    pub address_city: String,
    pub address_state: Option<String>,
    pub address_postcode: String,
    pub address_country_code: String,
}

/// The card subscription `subscription_id` if it is the user's, with their customer; None otherwise.
pub async fn subscription_customer(
    db: impl PgExecutor<'_>,
    user_id: &str,
    subscription_id: &str,
) -> sqlx::Result<Option<SubscriptionCustomer>> {
    sqlx::query_as!(
        SubscriptionCustomer,
        r#"select s.channel_id, c.stripe_customer_id, c.business_name, c.tax_id, c.address_line1, c.address_line2, c.address_city,
                  c.address_state, c.address_postcode, c.address_country_code
             from billing_stripe_subscription s join billing_customer c on c.user_id = s.user_id
            where s.stripe_subscription_id = $1 and s.user_id = $2"#,
        subscription_id,
        user_id
    )
    .fetch_optional(db)
    .await
}

// ---- Card subscriptions and prices ----

/// Waits for (and holds until the transaction ends) the lock of one reader's checkout of a channel.
pub async fn lock_checkout(conn: &mut PgConnection, user_id: &str, channel_id: &str) -> sqlx::Result<()> {
    sqlx::query!("select pg_advisory_xact_lock(hashtext('checkout:' || $1 || ':' || $2))", user_id, channel_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A checkout's card subscription not paid yet, and the price it was made on.
#[derive(Debug, Clone)]
pub struct OpenCheckout {
    pub stripe_subscription_id: String,
    pub stripe_price_id: String,
}

/// The reader's unpaid ('incomplete') card subscription to a channel, if any.
pub async fn open_checkout(conn: &mut PgConnection, user_id: &str, channel_id: &str) -> sqlx::Result<Option<OpenCheckout>> {
    sqlx::query_as!(
        OpenCheckout,
        "select stripe_subscription_id, stripe_price_id from billing_stripe_subscription
          where user_id = $1 and channel_id = $2 and status = 'incomplete'",
        user_id,
        channel_id
    )
    .fetch_optional(&mut *conn)
    .await
}

/// How many card subscriptions the reader's checkouts of a channel have made (each attempt's key).
pub async fn checkout_attempts(conn: &mut PgConnection, user_id: &str, channel_id: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "count!" from billing_stripe_subscription where user_id = $1 and channel_id = $2"#,
        user_id,
        channel_id
    )
    .fetch_one(&mut *conn)
    .await
}

/// Records a card subscription a checkout made at Stripe (once: a retried write keeps the first).
pub async fn insert_stripe_subscription(
    conn: &mut PgConnection,
    stripe_subscription_id: &str,
    user_id: &str,
    channel_id: &str,
    stripe_price_id: &str,
    status: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into billing_stripe_subscription (stripe_subscription_id, user_id, channel_id, stripe_price_id, status)
         values ($1, $2, $3, $4, $5) on conflict (stripe_subscription_id) do nothing",
        stripe_subscription_id,
        user_id,
        channel_id,
        stripe_price_id,
        status,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A Stripe price made for a channel.
#[derive(Debug, Clone)]
pub struct ChannelPrice {
    pub stripe_price_id: String,
    pub stripe_product_id: String,
    pub unit_amount_cents: i64,
}

/// The Stripe prices made for a channel, newest first.
pub async fn channel_prices(conn: &mut PgConnection, channel_id: &str) -> sqlx::Result<Vec<ChannelPrice>> {
    sqlx::query_as!(
        ChannelPrice,
        "select stripe_price_id, stripe_product_id, unit_amount_cents from billing_channel_price where channel_id = $1 order by created_at desc",
        channel_id
    )
    .fetch_all(&mut *conn)
    .await
}

/// Records a Stripe price made for a channel: `cents` a month, of the channel's Stripe product.
pub async fn insert_channel_price(
    conn: &mut PgConnection,
    stripe_price_id: &str,
    channel_id: &str,
    stripe_product_id: &str,
    cents: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into billing_channel_price (stripe_price_id, channel_id, stripe_product_id, unit_amount_cents) values ($1, $2, $3, $4)
         on conflict do nothing",
        stripe_price_id,
        channel_id,
        stripe_product_id,
        cents,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A mirrored card subscription: whose, which channel, when Stripe's state was last read, and its
/// monthly price.
#[derive(Debug, Clone)]
pub struct MirroredSubscription {
    pub user_id: String,
    pub channel_id: String,
    pub read_at: Option<DateTime<Utc>>,
    pub unit_amount_cents: i64,
}

/// Locks a mirrored card subscription; None when this server did not make it.
pub async fn lock_mirrored_subscription(conn: &mut PgConnection, subscription_id: &str) -> sqlx::Result<Option<MirroredSubscription>> {
    sqlx::query_as!(
        MirroredSubscription,
        r#"select s.user_id, s.channel_id, s.read_at, p.unit_amount_cents
             from billing_stripe_subscription s join billing_channel_price p on p.stripe_price_id = s.stripe_price_id
            where s.stripe_subscription_id = $1
            for update of s"#,
        subscription_id
    )
    .fetch_optional(&mut *conn)
    .await
}

/// Locks a mirrored card subscription by id; false when this server did not make it.
pub async fn lock_stripe_subscription(conn: &mut PgConnection, subscription_id: &str) -> sqlx::Result<bool> {
    let known =
        sqlx::query_scalar!("select 1 from billing_stripe_subscription where stripe_subscription_id = $1 for update", subscription_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(known.is_some())
}

/// The database's clock now, moving within a transaction (unlike `now()`).
pub async fn clock_now(conn: &mut PgConnection) -> sqlx::Result<DateTime<Utc>> {
    sqlx::query_scalar!(r#"select clock_timestamp() as "now!""#).fetch_one(&mut *conn).await
}

/// A card subscription as Stripe had it when read at `read_at`.
#[derive(Debug, Clone)]
pub struct ReadSubscription<'a> {
    pub status: &'a str,
    pub current_period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub latest_invoice_id: Option<String>,
    pub read_at: DateTime<Utc>,
}

/// Updates a mirrored card subscription with what Stripe said.
pub async fn update_mirrored_subscription(
    conn: &mut PgConnection,
    subscription_id: &str,
    read: &ReadSubscription<'_>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update billing_stripe_subscription
            set status = $2, current_period_end = $3, cancel_at_period_end = $4, latest_invoice_id = $5, synced_at = now(), read_at = $6
          where stripe_subscription_id = $1",
        subscription_id,
        read.status,
        read.current_period_end,
        read.cancel_at_period_end,
        read.latest_invoice_id,
        read.read_at,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Card subscriptions whose state at Stripe may have moved without an event reaching this server:
/// unpaid checkouts of the two days before `now`, and paid ones whose period has ended; the least
/// recently read first, at most 500.
pub async fn subscriptions_to_reconcile(db: impl PgExecutor<'_>, now: DateTime<Utc>) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "select stripe_subscription_id from billing_stripe_subscription
          where (status = 'incomplete' and created_at > $1::timestamptz - interval '2 days')
             or (status in ('active', 'trialing', 'past_due', 'unpaid') and current_period_end < $1)
          order by synced_at
          limit 500",
        now
    )
    .fetch_all(db)
    .await
}

// ---- Invoices ----

/// An invoice as Stripe has it now, in the columns it is stored in.
#[derive(Debug, Clone)]
pub struct StoredInvoice<'a> {
    pub stripe_invoice_id: &'a str,
    pub stripe_subscription_id: &'a str,
    pub user_id: &'a str,
    pub number: Option<&'a str>,
    pub status: &'a str,
    pub amount_due_cents: i64,
    pub amount_paid_cents: i64,
    pub currency: String,
    pub hosted_invoice_url: Option<&'a str>,
    pub period_start: DateTime<Utc>,
    pub period_end: DateTime<Utc>,
    pub created: DateTime<Utc>,
}

/// Records an invoice, or updates it to what Stripe has now.
pub async fn upsert_invoice(conn: &mut PgConnection, invoice: &StoredInvoice<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into billing_invoice (stripe_invoice_id, stripe_subscription_id, user_id, number, status, amount_due_cents,
                                      amount_paid_cents, currency, hosted_invoice_url, period_start, period_end, created)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (stripe_invoice_id) do update
            set number = excluded.number, status = excluded.status, amount_due_cents = excluded.amount_due_cents,
                amount_paid_cents = excluded.amount_paid_cents, hosted_invoice_url = excluded.hosted_invoice_url,
                period_start = excluded.period_start, period_end = excluded.period_end, synced_at = now()",
        invoice.stripe_invoice_id,
        invoice.stripe_subscription_id,
        invoice.user_id,
        invoice.number,
        invoice.status,
        invoice.amount_due_cents,
        invoice.amount_paid_cents,
        invoice.currency,
        invoice.hosted_invoice_url,
        invoice.period_start,
        invoice.period_end,
        invoice.created,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A reader's invoices (not drafts), newest first, at most 100.
pub async fn invoices_of_user(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Vec<ListedInvoice>> {
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

// ---- Stripe events ----

/// A Stripe event as received: its id, type, the id of its object and when Stripe created it.
#[derive(Debug, Clone, Copy)]
pub struct EventHeader<'a> {
    pub event_id: &'a str,
    pub type_: &'a str,
    pub object_id: Option<&'a str>,
    pub created: DateTime<Utc>,
}

/// Records an event the portal does nothing with, as applied with `outcome`; false when it was
/// already recorded (Stripe sent it again).
pub async fn record_ignored_event(db: impl PgExecutor<'_>, event: &EventHeader<'_>, outcome: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "insert into stripe_event (event_id, type, object_id, created, outcome, applied_at) values ($1, $2, $3, $4, $5, now())
             on conflict (event_id) do nothing",
        event.event_id,
        event.type_,
        event.object_id,
        event.created,
        outcome,
    )
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// Records an event to apply, pending with its object; false when it was already recorded.
pub async fn record_pending_event(db: impl PgExecutor<'_>, event: &EventHeader<'_>, object: &Value) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "insert into stripe_event (event_id, type, object_id, created, outcome, object) values ($1, $2, $3, $4, 'pending', $5)
         on conflict (event_id) do nothing",
        event.event_id,
        event.type_,
        event.object_id,
        event.created,
        object,
    )
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// A pending event claimed to be applied.
#[derive(Debug, Clone)]
pub struct PendingEvent {
    pub event_id: String,
    pub r#type: String,
    pub created: DateTime<Utc>,
    pub received_at: DateTime<Utc>,
    pub object: Value,
}

/// Claims the oldest pending event that is due (not waiting for a retry); those other workers
/// hold are skipped. None: nothing to apply now.
pub async fn claim_pending_event(conn: &mut PgConnection) -> sqlx::Result<Option<PendingEvent>> {
    sqlx::query_as!(
        PendingEvent,
        r#"select event_id, type, created, received_at, object as "object!"
                 from stripe_event
                where applied_at is null and object is not null and (retry_at is null or retry_at <= now())
                order by received_at, event_id
                limit 1
                for update skip locked"#
    )
    .fetch_optional(&mut *conn)
    .await
}

/// Records a failed attempt to apply an event: it waits 30 s, doubling per attempt, at most an hour.
pub async fn record_event_retry(db: impl PgExecutor<'_>, event_id: &str, outcome: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "update stripe_event
                        set attempts = attempts + 1, outcome = $2,
                            retry_at = now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10)))
                      where event_id = $1",
        event_id,
        outcome
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records an event applied with `outcome`, dropping the object it no longer needs.
pub async fn record_event_applied(db: impl PgExecutor<'_>, event_id: &str, outcome: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "update stripe_event set outcome = $2, applied_at = now(), object = null, retry_at = null where event_id = $1",
        event_id,
        outcome
    )
    .execute(db)
    .await?;
    Ok(())
}
