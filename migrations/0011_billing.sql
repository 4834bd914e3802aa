-- Paying for premium channels (issue 13): card checkout through Stripe, clearing accounts, invoices.

-- The reader's Stripe customer, one per reader whatever the channel, with the billing details the
-- checkout collected (shown again when the card is updated).
create table billing_customer (
    user_id              text primary key references users (user_id) on delete cascade,
    stripe_customer_id   text not null constraint billing_customer_stripe_id unique check (length(stripe_customer_id) between 1 and 255),
    business_name        text not null check (length(business_name) between 1 and 200),
    tax_id               text check (length(tax_id) <= 100),
    tax_id_type          text check (length(tax_id_type) <= 20),
    address_line1        text not null check (length(address_line1) between 1 and 200),
    address_line2        text check (length(address_line2) <= 200),
    address_city         text not null check (length(address_city) between 1 and 100),
    address_state        text check (length(address_state) <= 100),
    address_postcode     text not null check (length(address_postcode) between 1 and 20),
    address_country_code text not null check (address_country_code ~ '^[A-Z]{2}$'),
    created_at           timestamptz not null default now(),
    updated_at           timestamptz not null default now()
);
select trigger_updated_at('billing_customer');

-- Each premium channel's Stripe product and monthly USD prices. A price change adds a price for new
-- subscribers; existing subscriptions stay on theirs.
create table billing_channel_price (
    stripe_price_id      text primary key check (length(stripe_price_id) between 1 and 255),
    channel_id           text not null references channel (channel_id),
    stripe_product_id    text not null check (length(stripe_product_id) between 1 and 255),
    unit_amount_cents    bigint not null check (unit_amount_cents > 0),
    created_at           timestamptz not null default now(),
    constraint billing_channel_price_amount unique (channel_id, unit_amount_cents)
);

-- Every Stripe subscription a checkout created, as last read from Stripe. Events are applied by
-- reading the subscription again under this row's lock, so an old event never undoes a newer state.
create table billing_stripe_subscription (
    stripe_subscription_id text primary key check (length(stripe_subscription_id) between 1 and 255),
    user_id              text not null references users (user_id) on delete cascade,
    channel_id           text not null references channel (channel_id),
    stripe_price_id      text not null references billing_channel_price (stripe_price_id),
    -- Stripe's status: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused.
    status               text not null check (length(status) between 1 and 30),
    current_period_end   timestamptz,
    cancel_at_period_end boolean not null default false,
    latest_invoice_id    text,
    created_at           timestamptz not null default now(),
    synced_at            timestamptz not null default now()
);
-- One checkout in progress per reader and channel: a second click reuses it (no double charge).
create unique index billing_stripe_subscription_open_idx on billing_stripe_subscription (user_id, channel_id) where status = 'incomplete';
create index billing_stripe_subscription_channel_idx on billing_stripe_subscription (channel_id);

-- A card subscription's invoices, as Stripe reports them (the reader's invoice list).
create table billing_invoice (
    stripe_invoice_id    text primary key check (length(stripe_invoice_id) between 1 and 255),
    stripe_subscription_id text not null references billing_stripe_subscription (stripe_subscription_id) on delete cascade,
    user_id              text not null references users (user_id) on delete cascade,
    number               text,
    status               text not null check (status in ('draft', 'open', 'paid', 'uncollectible', 'void')),
    amount_due_cents     bigint not null check (amount_due_cents >= 0),
    amount_paid_cents    bigint not null check (amount_paid_cents >= 0),
    currency             text not null check (length(currency) = 3),
    hosted_invoice_url   text,
    period_start         timestamptz,
    period_end           timestamptz,
    created              timestamptz not null,
    synced_at            timestamptz not null default now()
);
create index billing_invoice_user_idx on billing_invoice (user_id, created desc);
create index billing_invoice_subscription_idx on billing_invoice (stripe_subscription_id);

-- Clearing accounts a reader may charge a subscription to (Administrators and the CLI import them).
create table billing_account (
    account_id           bigint generated always as identity primary key,
    user_id              text not null references users (user_id) on delete cascade,
    account_number       text not null check (length(account_number) between 1 and 64),
    name                 text check (length(name) <= 200),
    created_at           timestamptz not null default now(),
    constraint billing_account_number unique (user_id, account_number)
);

-- Each Stripe webhook event, stored by id when it is applied: a duplicate or a replay is a no-op.
create table stripe_event (
    event_id             text primary key check (length(event_id) between 1 and 255),
    type                 text not null check (length(type) between 1 and 100),
    -- The object the event is about (a subscription, an invoice, …).
    object_id            text,
    created              timestamptz not null,
    received_at          timestamptz not null default now(),
    -- What applying it did: applied, ignored (unknown customer or type), …
    outcome              text not null check (length(outcome) between 1 and 200)
);
create index stripe_event_received_idx on stripe_event (received_at);

-- An invoice request (the reader pays by invoice): who to bill, kept on the externally billed subscription.
alter table channel_subscription
    add column legal_entity_name text check (length(legal_entity_name) between 1 and 200),
    add column billing_email_address text check (length(billing_email_address) between 3 and 320);
create unique index channel_subscription_stripe_idx on channel_subscription (subscription_id) where subscription_id is not null;

-- Changes the card provider makes (webhooks) are audited as such.
alter table subscription_audit drop constraint subscription_audit_route_check;
alter table subscription_audit add constraint subscription_audit_route_check
    check (route in ('reader', 'staff', 'csv', 'cli', 'worker', 'stripe'));
