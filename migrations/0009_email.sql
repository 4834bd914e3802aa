-- Email delivery (the outbox), the readers' email settings, digests, unsubscribing, and the
-- registry of worker processes.

-- ---- reader settings ----

-- The global On/Off of channel emails (spec 3 §2 'Email notifications') and the time zone that
-- digests are sent in.
alter table users
    add column channel_notifications boolean not null default true,
    add column time_zone text not null default 'UTC' check (length(time_zone) between 1 and 64);

-- Per channel: every article as it is published, or a daily or weekly digest.
alter table channel_subscription
    add column email_frequency text not null default 'immediate' check (email_frequency in ('immediate', 'daily', 'weekly'));

-- 'Update' with notify-subscribers says the article was updated.
alter table article_notification_request
    add column is_update boolean not null default false;

-- Secrets every server process shares without configuration (the unsubscribe links' HMAC key
-- when INSIGHTS_UNSUBSCRIBE_SECRET is unset). Created once, by whichever process needs it first.
create table server_secret (
    name            text primary key,
    secret          bytea not null check (length(secret) >= 32),
    created_at      timestamptz not null default now()
);

-- ---- the outbox ----

-- What many emails share (one article notification's summary and links), stored once.
create table email_content (
    content_id      bigint generated always as identity primary key,
    data            jsonb not null,
    created_at      timestamptz not null default now()
);

-- Every email, written in the transaction of the change that causes it. The delivery key (kind,
-- recipient, subject entity, occasion) makes a retried job, a second worker or a replayed request
-- write it once. `data` (with the shared `email_content`) is everything its template shows, fixed
-- when it is written; rendering it is a pure function of the row.
create table email_outbox (
    email_id        bigint generated always as identity primary key,
    delivery_key    text not null constraint email_outbox_delivery_key unique,
    kind            text not null check (length(kind) between 1 and 50),
    user_id         text references users (user_id) on delete set null,
    recipient       text not null check (length(recipient) between 1 and 320),
    channel_id      text references channel (channel_id) on delete set null,
    -- What the unsubscribe link in the footer turns off; none for a service email.
    unsubscribe     text check (unsubscribe in ('channel', 'all')),
    content_id      bigint references email_content (content_id) on delete cascade,
    data            jsonb not null default '{}',
    -- pending → sending (claimed by a worker) → sent | failed (permanent, or out of attempts);
    -- sentNowhere: no SMTP server was configured when it was due.
    state           text not null default 'pending' check (state in ('pending', 'sending', 'sent', 'failed', 'sentNowhere')),
    attempts        integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    claimed_by      uuid,
    claimed_at      timestamptz,
    last_error      text,
    created_at      timestamptz not null default now(),
    sent_at         timestamptz,
    constraint email_outbox_unsubscribe_user_check check (unsubscribe is null or user_id is not null)
);
-- Claims walk it in order: a fan-out's 100,000 emails share one next_attempt_at.
create index email_outbox_due_idx on email_outbox (next_attempt_at, email_id) where state in ('pending', 'sending');
create index email_outbox_created_idx on email_outbox (created_at desc, email_id desc);
create index email_outbox_content_id_idx on email_outbox (content_id) where content_id is not null;
create index email_outbox_user_id_idx on email_outbox (user_id);

-- Articles waiting for a reader's daily or weekly digest: each article once per reader.
create table email_digest_item (
    user_id         text not null references users (user_id) on delete cascade,
    article_id      text not null references article (article_id) on delete cascade,
    channel_id      text not null references channel (channel_id) on delete cascade,
    frequency       text not null check (frequency in ('daily', 'weekly')),
    -- Decided by the entitlement rule when the article was announced: summary and link, or teaser.
    full_version    boolean not null,
    added_at        timestamptz not null default now(),
    digested_at     timestamptz,
    primary key (user_id, article_id)
);
create index email_digest_item_pending_idx on email_digest_item (user_id) where digested_at is null;

-- Why readers unsubscribed (the unsubscribe page's reasons, or the one-click header).
create table email_unsubscribe (
    unsubscribe_id  bigint generated always as identity primary key,
    user_id         text not null references users (user_id) on delete cascade,
    channel_id      text references channel (channel_id) on delete cascade,
    reason          text not null check (reason in ('too_frequent', 'not_relevant', 'dont_remember', 'other', 'one_click')),
    created_at      timestamptz not null default now()
);

-- ---- worker processes ----

-- Each `worker` (or `serve` with workers) process: its build version and heartbeat, so operators
-- see which are alive and when a rolling upgrade is complete, and emails claimed by a process that
-- died are taken up again.
create table worker_process (
    worker_id       uuid primary key,
    hostname        text not null,
    pid             integer not null,
    version         text not null,
    started_at      timestamptz not null default now(),
    heartbeat_at    timestamptz not null default now(),
    heartbeat_every interval not null,
    stopped_at      timestamptz
);
create index worker_process_heartbeat_idx on worker_process (heartbeat_at desc);

-- A process is alive while it beats: stopped ones and those three beats late are not.
create function worker_alive(w worker_process) returns boolean
    language sql stable as $$
        select w.stopped_at is null and w.heartbeat_at > now() - 3 * w.heartbeat_every
    $$;

-- ---- what earlier issues left waiting ----

-- Subscription emails asked for before the outbox existed: written to it as the code now does.
insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, unsubscribe, data)
select r.kind || ':' || u.user_id || ':' || r.channel_id || ':' || r.occasion, r.kind, u.user_id, u.email, r.channel_id, null,
       jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'recipientName', u.name,
                          'endsAt', s.cancel_at, 'trialDays', s.trial_duration)
  from subscription_email_request r
  join users u on u.user_id = r.user_id
  join channel c on c.channel_id = r.channel_id
  left join channel_subscription s on s.channel_id = r.channel_id and s.user_id = r.user_id
 where r.processed_at is null and r.kind <> 'channelInterest'
on conflict do nothing;
insert into email_outbox (delivery_key, kind, user_id, recipient, channel_id, data)
select 'channelInterest:' || a.user_id || ':' || c.channel_id || ':' || r.user_id || ':' || r.occasion, 'channelInterest',
       a.user_id, admin.email, c.channel_id,
       jsonb_build_object('channelId', c.channel_id, 'channelName', c.name, 'readerName', u.name,
                          'readerCompany', u.company, 'readerEmail', u.email)
  from subscription_email_request r
  join users u on u.user_id = r.user_id
  join channel c on c.channel_id = r.channel_id
  join channel_admin a on a.channel_id = c.channel_id
  join users admin on admin.user_id = a.user_id
 where r.processed_at is null and r.kind = 'channelInterest'
on conflict do nothing;
drop table subscription_email_request;
