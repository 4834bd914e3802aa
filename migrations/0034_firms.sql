-- Client firms (issue 39): organisations that buy channels for their people. A firm has email
-- domains (its readers join by the domain of their address), members (a reader belongs to at most
-- one firm; some are the firm's administrators), subscriptions to channels with a number of seats
-- (changed only through the subscription state machine, audited like a reader's), and seats: one
-- reader of the firm given one of those subscriptions. The database holds the rules it can: one
-- firm per reader, a seat only for a member of the subscription's firm, never more seats than the
-- subscription has, and leaving a firm ends its seats (the foreign keys cascade).

create table firm (
    firm_id         text primary key check (firm_id ~ '^[0-9a-f]{24}$'),
    name            text collate case_insensitive not null check (length(name) between 1 and 100 and name = btrim(name)),
    account_number  text check (length(account_number) between 1 and 64 and account_number = btrim(account_number)),
    billing_method  text not null check (billing_method in ('account', 'invoice', 'card')),
    state           text not null default 'active' check (state in ('active', 'archived')),
    notes           text check (length(notes) <= 1000),
    -- The firm's administrators may ask for a monthly usage email (each chooses on their page).
    created_by      text references users (user_id) on delete set null,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    version         integer not null default 1 check (version >= 1)
);
select trigger_updated_at('firm');
create unique index firm_name_key on firm (name);
create unique index firm_account_number_key on firm (account_number) where account_number is not null;
create index firm_list_order_idx on firm (lower(name collate "default"), firm_id);
create index firm_name_search_idx on firm using gin (lower(name collate "default") gin_trgm_ops);

-- A firm's email domains, each unique across firms (lower case, no leading '@').
create table firm_domain (
    domain          text primary key check (domain ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$' and length(domain) <= 253),
    firm_id         text not null references firm (firm_id) on delete cascade
);
create index firm_domain_firm_id_idx on firm_domain (firm_id);

-- A reader's firm: at most one (the key). How they joined decides whether a domain change makes
-- them leave: staff assignments stay until staff remove them.
create table firm_member (
    user_id         text primary key references users (user_id) on delete cascade,
    firm_id         text not null references firm (firm_id) on delete cascade,
    is_admin        boolean not null default false,
    joined_by       text not null check (joined_by in ('domain', 'staff', 'invitation')),
    joined_at       timestamptz not null default now(),
    -- A firm administrator's opt-in monthly usage email.
    usage_email     boolean not null default false,
    unique (user_id, firm_id)
);
create index firm_member_firm_id_idx on firm_member (firm_id, is_admin);

-- A colleague a firm's administrator invited by email; they join at their first sign-in.
create table firm_invitation (
    firm_id         text not null references firm (firm_id) on delete cascade,
    email           text collate case_insensitive not null check (length(email) between 3 and 320),
    invited_by      text references users (user_id) on delete set null,
    invited_at      timestamptz not null default now(),
    accepted_at     timestamptz,
    primary key (firm_id, email)
);
create index firm_invitation_email_idx on firm_invitation (email) where accepted_at is null;

-- A firm's subscription to a channel, one row per firm and channel kept through its states, with
-- the same state columns as a reader's (`channel_subscription`): the state machine reads and
-- writes both alike. Seats: null is unlimited.
create table firm_subscription (
    firm_subscription_id text primary key check (firm_subscription_id ~ '^[0-9a-f]{24}$'),
    firm_id         text not null references firm (firm_id) on delete cascade,
    channel_id      text not null references channel (channel_id),
    seats           integer check (seats between 1 and 1000000),
    starts_at       timestamptz not null,
    subscription_type text not null check (subscription_type in ('account', 'external', 'nonCharge', 'trial')),
    subscription_state text not null check (subscription_state in ('active', 'canceled', 'rejected', 'expired', 'pending', 'paymentFailed')),
    subscribed      boolean not null default true,
    cancel_at       timestamptz,
    cancel_requested_at timestamptz,
    cancel_at_period_end boolean not null default false,
    next_payment    timestamptz,
    acknowledged_non_charge_sub_expired boolean not null default false,
    notes           text check (length(notes) <= 250),
    -- Per seat or flat, per month.
    price_per_month numeric(20, 2) check (price_per_month >= 0),
    price_basis     text not null default 'seat' check (price_basis in ('seat', 'flat')),
    is_full_article_content boolean not null default true,
    account_number  text check (length(account_number) between 1 and 64),
    rebate          boolean not null default false,
    billing_method  text check (length(billing_method) between 1 and 100),
    trial_duration  integer check (trial_duration between 1 and 100),
    added_by_admin  boolean not null default true,
    created_by      text references users (user_id) on delete set null,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    version         integer not null default 1 check (version >= 1),
    unique (firm_id, channel_id),
    -- The target of the seats' foreign key (a seat's firm is its subscription's).
    unique (firm_subscription_id, firm_id),
    check (cancel_at is null or cancel_at > starts_at)
);
select trigger_updated_at('firm_subscription');
create index firm_subscription_channel_idx on firm_subscription (channel_id, firm_id);
create index firm_subscription_due_idx on firm_subscription (cancel_at)
    where subscription_state in ('active', 'paymentFailed') and cancel_at is not null;

-- A seat: a member of the firm given the firm's subscription. Both foreign keys carry the firm,
-- so a seat's holder is always a member of the subscription's firm, and leaving the firm (the
-- member row deleted) ends the seat.
create table firm_seat (
    firm_subscription_id text not null,
    user_id         text not null,
    firm_id         text not null,
    assigned_at     timestamptz not null default now(),
    assigned_by     text references users (user_id) on delete set null,
    email_notifications boolean not null default true,
    email_frequency text not null default 'immediate' check (email_frequency in ('immediate', 'daily', 'weekly')),
    primary key (firm_subscription_id, user_id),
    foreign key (firm_subscription_id, firm_id) references firm_subscription (firm_subscription_id, firm_id) on delete cascade,
    foreign key (user_id, firm_id) references firm_member (user_id, firm_id) on delete cascade
);
create index firm_seat_user_id_idx on firm_seat (user_id);

-- The seat limit, held in the database: a new seat locks its subscription's row (so concurrent
-- assignments to one subscription take turns) and then counts what the others committed.
create function firm_seat_limit() returns trigger language plpgsql as $$
declare
    limit_ integer;
    used integer;
begin
    select seats into limit_ from firm_subscription where firm_subscription_id = new.firm_subscription_id for update;
    if limit_ is not null then
        select count(*) into used from firm_seat where firm_subscription_id = new.firm_subscription_id;
        if used >= limit_ then
            raise exception 'All % seats are in use', limit_
                using errcode = 'check_violation', constraint = 'firm_seat_limit';
        end if;
    end if;
    return new;
end $$;
create trigger firm_seat_limit before insert on firm_seat for each row execute function firm_seat_limit();

-- A firm subscription's changes are audited with the reader subscriptions' (one log, one machine):
-- a row is about a reader or about a firm.
alter table subscription_audit
    alter column user_id drop not null,
    add column firm_id text references firm (firm_id) on delete cascade,
    add constraint subscription_audit_owner_check check ((user_id is null) <> (firm_id is null));
create index subscription_audit_firm_idx on subscription_audit (firm_id, channel_id, changed_at desc) where firm_id is not null;

-- Joining and leaving by email domain and invitation, on every path that writes a user's address
-- (the first sign-in creates the row; a later sign-in brings the address again, perhaps changed).
-- A reader who joined by domain or invitation leaves when their address leaves the firm's domains
-- (an invitation's address counts as the firm's); then, like a reader in no firm, they join the
-- firm of their new domain or a pending invitation. Staff are never members.
create function firm_membership_of_user() returns trigger language plpgsql as $$
declare
    member firm_member%rowtype;
    domain_ text := lower(substring(new.email collate "C" from '@([^@]+)$'));
    invited text;
begin
    if new.role is distinct from 'Subscriber' then
        delete from firm_member where user_id = new.user_id;
        return null;
    end if;
    select * into member from firm_member where user_id = new.user_id;
    if found and member.joined_by <> 'staff'
       and not exists (select from firm_domain d where d.firm_id = member.firm_id and d.domain = domain_)
       and not exists (select from firm_invitation i where i.firm_id = member.firm_id and i.email = new.email) then
        delete from firm_member where user_id = new.user_id;
        found := false;
    end if;
    if not found then
        select i.firm_id into invited from firm_invitation i join firm f using (firm_id)
         where i.email = new.email and i.accepted_at is null and f.state = 'active'
         order by i.invited_at desc limit 1;
        if invited is not null then
            insert into firm_member (user_id, firm_id, joined_by) values (new.user_id, invited, 'invitation');
            update firm_invitation set accepted_at = now() where firm_id = invited and email = new.email;
        else
            insert into firm_member (user_id, firm_id, joined_by)
            select new.user_id, d.firm_id, 'domain' from firm_domain d join firm f using (firm_id)
             where d.domain = domain_ and f.state = 'active';
        end if;
    end if;
    return null;
end $$;
create trigger firm_membership_insert after insert on users
    for each row execute function firm_membership_of_user();
create trigger firm_membership_update after update of email, role on users
    for each row execute function firm_membership_of_user();

-- ---- what servers keep: a reader's seats are among their subscriptions (0019) ----

-- A seat's rows name their reader as a subscription's do: the same trigger function (0019, 0032).
create trigger subscriptions_revision_seat_insert after insert on firm_seat
    referencing new table as changed for each statement execute function channel_subscriptions_changed();
create trigger subscriptions_revision_seat_update after update on firm_seat
    referencing old table as old_rows new table as new_rows for each statement execute function channel_subscriptions_changed();
create trigger subscriptions_revision_seat_delete after delete on firm_seat
    referencing old table as changed for each statement execute function channel_subscriptions_changed();

-- A firm subscription's every change reaches its seats' holders (what access they have, until when).
create function firm_subscription_changed() returns trigger language plpgsql as $$
begin
    perform bump_user_revision('user_subscriptions_revision', array(
        select distinct s.user_id from firm_seat s join new_rows n using (firm_subscription_id)));
    return null;
end $$;
create trigger subscriptions_revision_firm_subscription after update on firm_subscription
    referencing new table as new_rows for each statement execute function firm_subscription_changed();

-- The firm's name is shown on its seats ("Provided by …").
create function firm_renamed() returns trigger language plpgsql as $$
begin
    perform bump_user_revision('user_subscriptions_revision', array(
        select distinct s.user_id from old_rows o join new_rows n using (firm_id)
        join firm_seat s on s.firm_id = n.firm_id
        where o.name collate "C" is distinct from n.name collate "C"));
    return null;
end $$;
create trigger subscriptions_revision_firm_renamed after update on firm
    referencing old table as old_rows new table as new_rows for each statement execute function firm_renamed();

-- A seat shows its channel's name and type, as a reader's own subscription does.
create function seat_channel_changed() returns trigger language plpgsql as $$
begin
    perform bump_user_revision('user_subscriptions_revision', array(
        select distinct s.user_id from old_rows o join new_rows n using (channel_id)
        join firm_subscription f on f.channel_id = n.channel_id
        join firm_seat s on s.firm_subscription_id = f.firm_subscription_id
        where (o.name collate "C", o.type) is distinct from (n.name collate "C", n.type)));
    return null;
end $$;
create trigger subscriptions_revision_seat_channel_changed after update on channel
    referencing old table as old_rows new table as new_rows for each statement execute function seat_channel_changed();

-- Readers by the domain of their address: who joins when staff add a domain to a firm.
create index users_email_domain_idx on users (lower(substring(email collate "C" from '@([^@]+)$')));
