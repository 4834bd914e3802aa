-- Subscriptions end to end (spec 3 §2–§9, the subscriptions issue): every change of a subscription
-- in an audit log, the emails a change asks for (delivered by the email issue), registered interest
-- in a channel, and the indexes of subscriber stats and the expiry sweep.

-- Every change of a channel subscription, as the state machine made it (`subscriptions::machine`).
create table subscription_audit (
    audit_id        bigint generated always as identity primary key,
    channel_id      text not null references channel (channel_id),
    user_id         text not null references users (user_id) on delete cascade,
    changed_at      timestamptz not null default now(),
    -- Who asked for it; null for the CLI and the workers.
    actor_id        text references users (user_id) on delete set null,
    route           text not null check (route in ('reader', 'staff', 'csv', 'cli', 'worker')),
    action          text not null check (length(action) between 1 and 50),
    -- The subscription before (null: there was none) and after (null: deleted).
    from_type       text,
    from_state      text,
    to_type         text,
    to_state        text,
    to_cancel_at    timestamptz,
    notes           text check (length(notes) <= 250)
);
create index subscription_audit_subscription_idx on subscription_audit (channel_id, user_id, changed_at desc, audit_id desc);
create index subscription_audit_user_id_idx on subscription_audit (user_id);

-- An email a subscription change asks for, written in the change's transaction; the email issue
-- delivers it and sets `processed_at`. The key (kind, channel, user, occasion) makes a retried
-- job or a second worker ask for the same email once.
create table subscription_email_request (
    request_id      bigint generated always as identity primary key,
    kind            text not null check (kind in ('welcome', 'trialApproved', 'trialRejected', 'accessApproved',
                                                  'accessRejected', 'trialEnding', 'trialEnded', 'subscriptionCanceled',
                                                  'channelInterest')),
    channel_id      text not null references channel (channel_id),
    user_id         text not null references users (user_id) on delete cascade,
    -- What makes this occasion unique: the subscription's end for reminders, the change's time otherwise.
    occasion        text not null,
    requested_at    timestamptz not null default now(),
    processed_at    timestamptz,
    constraint subscription_email_request_key unique (kind, channel_id, user_id, occasion)
);
create index subscription_email_request_pending_idx on subscription_email_request (requested_at) where processed_at is null;

-- A reader's registered interest in a channel, once per reader, channel and day.
create table channel_interest (
    channel_id      text not null references channel (channel_id),
    user_id         text not null references users (user_id) on delete cascade,
    day             date not null default (now() at time zone 'UTC')::date,
    registered_at   timestamptz not null default now(),
    primary key (channel_id, user_id, day)
);
create index channel_interest_user_id_idx on channel_interest (user_id);

-- Subscriber stats: a channel's subscribers by state and type, newest first.
create index channel_subscription_stats_idx on channel_subscription (channel_id, subscription_state, subscription_type, created_at desc);
-- The expiry sweep: subscriptions that end, by end.
create index channel_subscription_due_idx on channel_subscription (cancel_at) where subscription_state in ('active', 'paymentFailed') and cancel_at is not null;
-- Article views by channel for a page of subscribers.
create index article_view_event_user_article_idx on article_view_event (user_id, article_id);
drop index article_view_event_user_id_idx;
-- Subscriber stats in every view: a channel's subscribers newest first.
create index channel_subscription_channel_created_idx on channel_subscription (channel_id, created_at desc, user_id);

-- The SQL twins of the state machine's derived rules (`subscriptions::machine`), for filters:
-- live (active or payment failed, not past its end) or waiting for staff.
create function subscription_live_or_pending(s channel_subscription) returns boolean
language sql stable as $$
    select s.subscription_state = 'pending'
        or (s.subscription_state in ('active', 'paymentFailed') and (s.cancel_at is null or s.cancel_at > now()))
$$;

-- Whether a subscription is in a subscriber stats view (`SubscriberView`).
create function subscription_in_view(s channel_subscription, view text) returns boolean
language sql stable as $$
    select case view
        when 'All' then true
        when 'Trial' then s.subscription_type = 'trial'
        when 'Paid' then s.subscription_type in ('stripe', 'external', 'account') and not s.rebate
                         and s.subscription_state = 'active' and (s.cancel_at is null or s.cancel_at > now())
        when 'PaymentFailed' then s.subscription_state = 'paymentFailed'
        when 'Expired' then s.subscription_state = 'expired'
                            or (s.subscription_state = 'active' and s.cancel_at <= now() and not s.cancel_at_period_end)
        when 'NonCharge' then s.subscription_type = 'nonCharge' or (s.subscription_type = 'account' and s.rebate)
        when 'Unsubscribed' then s.subscription_state in ('canceled', 'rejected')
                                 or (s.cancel_at_period_end and s.cancel_at <= now())
        when 'Requests' then s.subscription_state = 'pending'
        else false
    end
$$;
