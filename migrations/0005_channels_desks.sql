-- Desks, channels with their admins and subscriptions, and the user fields the users screens need
-- (spec 2 §3 Desk and User; spec 3 §3 Channel and Channel subscription).

-- ---- users ----

-- Search over name, email and company (a trigram index, as for tags), and the default order of the
-- users list: name, then last sign-in, newest first.
alter table users
    add column search_text text not null
        generated always as (lower(name) || ' ' || lower(email collate "default") || ' ' || lower(coalesce(company, ''))) stored,
    add column is_trial boolean not null
        generated always as (role = 'Subscriber' and scopes = array_remove(scopes, 'insights:content-reader')
                             and 'insights:content-reader-trial' = any(scopes)) stored,
    -- The contributor photo: a file name in the upload area, served when display_avatar is set.
    add column profile_picture text check (profile_picture ~ '^[0-9a-f]{24}\.(png|jpg)$');
create index users_search_text_idx on users using gin (search_text gin_trgm_ops);
create index users_list_order_idx on users (lower(name), last_login desc nulls last, user_id);
create index users_role_idx on users (role, lower(name), last_login desc nulls last, user_id);
create index users_trial_idx on users (lower(name), last_login desc nulls last, user_id) where is_trial;

-- ---- desks ----

create table desk (
    desk_id         text primary key check (desk_id ~ '^[0-9a-f]{24}$'),
    name            text collate case_insensitive not null check (length(name) between 1 and 50 and name = btrim(name)),
    description     text check (length(description) <= 500),
    email           text check (length(email) <= 50),
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint desk_name_key unique (name)
);
select trigger_updated_at('desk');

create table desk_contributor (
    desk_id         text not null references desk (desk_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    primary key (desk_id, user_id)
);
create index desk_contributor_user_id_idx on desk_contributor (user_id);

-- ---- channels ----

create table channel (
    channel_id      text primary key check (channel_id ~ '^[0-9a-f]{24}$'),
    name            text collate case_insensitive not null check (length(name) between 1 and 100 and name = btrim(name)),
    description     text check (length(description) <= 250),
    url             text check (length(url) <= 100),
    profile_image   text check (length(profile_image) <= 500),
    cover_image     text check (length(cover_image) <= 500),
    gl_account      text check (length(gl_account) between 1 and 32),
    -- Dollars per month.
    price           numeric(12, 2) check (price >= 0),
    type            text not null check (type in ('premium', 'freeOpen', 'freeClosed')),
    owner_type      text not null check (owner_type in ('desk', 'contributor')),
    -- A desk that owns a channel cannot be deleted (restrict).
    owner_desk_id   text references desk (desk_id),
    owner_user_id   text references users (user_id),
    default_trial_duration_days integer check (default_trial_duration_days between 1 and 100),
    hide_disclaimer boolean not null default false,
    state           text not null default 'active' check (state in ('active', 'archived')),
    archived_at     timestamptz,
    created_by      text references users (user_id) on delete set null,
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint channel_name_key unique (name),
    constraint channel_owner_check check (
        (owner_type = 'desk' and owner_desk_id is not null and owner_user_id is null)
        or (owner_type = 'contributor' and owner_user_id is not null and owner_desk_id is null)),
    constraint channel_premium_check check (type <> 'premium' or (price is not null and gl_account is not null)),
    constraint channel_archived_check check ((state = 'archived') = (archived_at is not null))
);
select trigger_updated_at('channel');
create index channel_owner_desk_id_idx on channel (owner_desk_id);
create index channel_owner_user_id_idx on channel (owner_user_id);
create index channel_list_order_idx on channel (state, lower(name collate "default"), channel_id);
create index channel_name_search_idx on channel using gin (lower(name collate "default") gin_trgm_ops);

-- The users who manage a channel.
create table channel_admin (
    channel_id      text not null references channel (channel_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    primary key (channel_id, user_id)
);
create index channel_admin_user_id_idx on channel_admin (user_id);

-- A user's subscription to a channel; one row per channel and user, kept through its states.
create table channel_subscription (
    channel_id      text not null references channel (channel_id),
    user_id         text not null references users (user_id) on delete cascade,
    subscription_type text not null check (subscription_type in ('stripe', 'account', 'external', 'nonCharge', 'trial', 'free')),
    subscription_state text not null check (subscription_state in ('active', 'canceled', 'rejected', 'expired', 'pending', 'paymentFailed')),
    subscribed      boolean not null default true,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    cancel_at       timestamptz,
    cancel_requested_at timestamptz,
    cancel_at_period_end boolean not null default false,
    notes           text check (length(notes) <= 250),
    price_per_month numeric(12, 2) check (price_per_month >= 0),
    is_full_article_content boolean not null default true,
    account_number  text check (length(account_number) between 1 and 64),
    rebate          boolean not null default false,
    billing_method  text check (length(billing_method) between 1 and 100),
    trial_duration  integer check (trial_duration between 1 and 100),
    email_notifications boolean not null default true,
    next_payment    timestamptz,
    payment_method_type text,
    payment_method_details text,
    -- The card provider's subscription id.
    subscription_id text,
    acknowledged_non_charge_sub_expired boolean not null default false,
    added_by_admin  boolean not null default false,
    primary key (channel_id, user_id),
    constraint channel_subscription_account_check check (account_number is null or subscription_type = 'account'),
    constraint channel_subscription_billing_check check (billing_method is null or subscription_type = 'external'),
    constraint channel_subscription_trial_check check (trial_duration is null or subscription_type = 'trial')
);
select trigger_updated_at('channel_subscription');
create index channel_subscription_user_id_idx on channel_subscription (user_id);
create index channel_subscription_active_idx on channel_subscription (channel_id, cancel_at) where subscription_state = 'active';

-- ---- articles (the article issue adds the rest) ----

-- The channel an article is published into and its publisher (a desk or a contributor).
alter table article
    add column premium_channel_id text references channel (channel_id),
    add column published_by_desk_id text references desk (desk_id) on delete set null,
    add column published_by_user_id text references users (user_id) on delete set null;
create index article_premium_channel_id_idx on article (premium_channel_id, state);
create index article_published_by_desk_id_idx on article (published_by_desk_id);
