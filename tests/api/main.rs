//! Integration tests: each test gets its own fresh database (`#[sqlx::test]`) and the real router on
//! a free port, and talks to it over HTTP.

mod api_conventions;
mod articles;
mod auth;
mod billing_accounts;
mod billing_sync;
mod channels;
mod checkout;
mod demo;
mod desks;
mod email_delivery;
mod email_kinds;
mod email_notifications;
mod email_settings;
mod email_support;
mod email_unsubscribe;
mod import_subscribers;
mod jobs;
mod oidc_provider;
mod reading;
mod schema;
mod search;
mod seed;
mod stripe_webhooks;
mod subscriber_admin;
mod subscriptions;
mod support;
mod tags;
mod templates;
mod topics;
mod uploads;
mod users;
mod users_admin;
