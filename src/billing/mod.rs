//! Paying for premium channels (spec 3 §2–§5, §7): card checkout through Stripe, clearing
//! accounts and invoices.
//!
//! - `stripe`: the typed calls to Stripe (async-stripe), errors with Stripe's codes, no key in them.
//! - `checkout`: the reader's checkout: billing details and tax ids, the card subscription on the
//!   channel's monthly price (billed on the 1st), clearing-account and invoice subscriptions.
//! - `sync` and `webhook`: Stripe's events, each applied once and in any order by reading the
//!   subscription again from Stripe; access follows only what Stripe says was paid.
//! - `invoices`: the reader's card invoices, as Stripe reports them.
//! - `card_update`: a new card for a subscription whose payment failed (a setup intent).
//! - `accounts`: the clearing accounts readers may charge; `countries`: the country and tax id lists.
//! - `queries`: every SQL statement of the area.

pub mod accounts;
pub mod card_update;
pub mod checkout;
pub mod countries;
pub mod graphql;
pub mod invoices;
pub mod queries;
pub mod stripe;
pub mod sync;
pub mod webhook;
