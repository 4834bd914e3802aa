-- Regulated trials (issue 40): MiFID II limits free trials of research (at most three months, not
-- within twelve months of an earlier arrangement, terms agreed beforehand and recorded). The policy
-- is one row Administrators edit, its defaults the regulated ones; the terms are versioned (a new
-- text is a new version, the old ones stay); each acceptance is recorded with the version
-- accepted. All three are audited like the other staff data.

create table trial_policy (
    singleton       boolean primary key default true check (singleton),
    -- The longest trial (within the spec's 1 to 100 days).
    max_days        integer not null default 90 check (max_days between 1 and 100),
    -- No new trial of a channel for a reader, or for a reader of the same firm, within this many
    -- days after a trial or subscription of that channel ended.
    cool_off_days   integer not null default 365 check (cool_off_days between 0 and 3650),
    -- The reader accepts the terms with the request.
    terms_required  boolean not null default true,
    version         integer not null default 1 check (version >= 1),
    updated_at      timestamptz not null default now(),
    updated_by      text references users (user_id) on delete set null
);
insert into trial_policy default values;

create table trial_terms (
    version         integer primary key check (version >= 1),
    html            text not null check (length(html) between 1 and 50000),
    created_at      timestamptz not null default now(),
    created_by      text references users (user_id) on delete set null
);
insert into trial_terms (version, html) values (1,
    '<p>This free trial gives you access to the channel''s research, at no charge, for the number of days '
    || 'shown when it starts. It ends by itself: no subscription or charge follows unless you buy one.</p>'
    || '<p>A new free trial of the same channel is possible only after the cool-off period set by our trial '
    || 'policy, for you and for the other readers of your firm.</p>'
    || '<p>The research is for your own use under the terms of the portal. We record that you accepted '
    || 'these terms, with their version and the time.</p>');

create function trial_terms_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'trial terms are versioned: a new text is a new version (% refused)', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger trial_terms_no_update before update or delete on trial_terms
    for each row execute function trial_terms_append_only();

create table trial_acceptance (
    acceptance_id   bigint generated always as identity primary key,
    channel_id      text not null references channel (channel_id),
    user_id         text not null references users (user_id) on delete cascade,
    terms_version   integer not null references trial_terms (version),
    accepted_at     timestamptz not null default now()
);
create index trial_acceptance_user_idx on trial_acceptance (user_id, channel_id, accepted_at desc);

create trigger audit after insert or update or delete on trial_policy for each row execute function
    audit_row_change('trial_policy', 'singleton', 'version,updated_at');
create trigger audit after insert on trial_terms for each row execute function
    audit_row_change('trial_terms', 'version', 'created_at');
create trigger audit after insert on trial_acceptance for each row execute function
    audit_row_change('trial_acceptance', 'user_id', 'acceptance_id');

-- A reader's statement of what they read in a month (and the cool-off's firm check) reads a
-- reader's events by time.
create index article_view_event_user_time_idx on article_view_event (user_id, viewed_at);
